"""The words a row may lack: the asker's own. A request says what the asker does with the
value — the verb of a clause the asker is the subject of, where the value places a thing
("the URL *we post* to", "which port do I *point* …"), and the asker's own tool, as "my" or
"a" opens it or as the bare object a particle and "for" close ("point *psql* at for the …")
— and no row of the fleet says those words: they are not what the value is of. What picks
one thing among others is still the row's to say: another ward, environment, week, rank,
the old or the planned value, a value of another kind, two rows that disagree, an object
after "the", and a request that names nothing but the asker's tool stay with the human.
Domains apart from the dev sets (a bakery, a hospital ward, a shipping line, a school, a
dairy, a theatre, a vineyard, a print shop, a brewery, a ski resort).
"""

from __future__ import annotations

import pytest

from crewline.policy.fleet.about import asker_words
from crewline.policy.fleet.asking import loose_ask
from crewline.policy.lemmas import root
from crewline.policy.values import Kind
from tests.unit.gate_kit import answers, facts, no_answer

_ANSWERED = [
    # the verb of a clause the asker is the subject of, where the value places a thing
    (
        "What's the ward 7 pager gateway URL we post to?",
        ("ward", "Ward 7 pager gateway endpoint is https://pager.ward7.example/api/v2"),
        "https://pager.ward7.example/api/v2",
    ),
    (
        "What's the bakery ordering API URL we call?",
        ("bakery", "Bakery ordering API is at https://orders.bakery.example/v1"),
        "https://orders.bakery.example/v1",
    ),
    (
        "What's the ski pass scanner URL we stream to?",
        ("lifts", "ski pass scanner endpoint: https://passes.ski.example/scans"),
        "https://passes.ski.example/scans",
    ),
    (
        "What's the timetable feed URL we poll for the harbour ferries?",
        ("shipping", "Harbour ferries timetable feed: https://feeds.harbour.example/ferries.json"),
        "https://feeds.harbour.example/ferries.json",
    ),
    (
        "What's the dairy parlour controller port we dial?",
        ("parlour", "dairy parlour controller listens on port 4840"),
        "4840",
    ),
    # the asker's tool, as the bare object a particle and "for" close
    (
        "which port do I point psql at for the stg bakery orders db?",
        ("bakery", "Staging bakery orders Postgres moved to pg-bake-stg-02.internal, port 5434."),
        "5434",
    ),
    (
        "Which port do I point pgcli at for the dairy herd database?",
        ("herd", "Dairy herd database is Postgres on port 5436."),
        "5436",
    ),
    (
        "What host do I aim curl at for the theatre box office API?",
        ("boxoffice", "Theatre box office API is served from boxoffice-api.theatre.internal"),
        "boxoffice-api.theatre.internal",
    ),
    (
        "Which host do I point rsync at for the print shop proofs?",
        ("prepress", "print shop proofs are stored on proofs-01.print.internal"),
        "proofs-01.print.internal",
    ),
    (
        "Which host do I point grafana at for the school timetable metrics?",
        ("school", "School timetable metrics are exported on metrics-07.school.internal"),
        "metrics-07.school.internal",
    ),
    # the asker's tool, as "my" opens it
    (
        "What port do I point my client at for the brewery tank gateway?",
        ("brewhouse", "The brewery tank gateway listens on port 8883."),
        "8883",
    ),
    (
        "Which host do I connect my laptop to for the print shop RIP server?",
        ("prepress", "Print shop RIP server is rip-02.print.internal"),
        "rip-02.print.internal",
    ),
    (
        "Which host do I point my terminal at for the brewery fermentation logger?",
        ("brewhouse", "Brewery fermentation logger runs on ferm-log-02.brew.internal"),
        "ferm-log-02.brew.internal",
    ),
    (
        "Which URL do I open my browser on for the ward 4 bed board?",
        ("ward", "Ward 4 bed board is at https://beds.hospital.example/ward/4"),
        "https://beds.hospital.example/ward/4",
    ),
    (
        "Which port does my label printer talk to on the vineyard bottling line?",
        ("bottling", "vineyard bottling line label spooler listens on port 9100"),
        "9100",
    ),
    # the asker's own thing, as "a" opens it
    (
        "Where do I send a refund request for the theatre? Need the URL.",
        ("boxoffice", "theatre refunds desk is at https://refunds.theatre.example/new"),
        "https://refunds.theatre.example/new",
    ),
    (
        "Where do I upload a timetable change for the school portal?",
        ("school", "school portal timetable inbox: https://portal.school.example/timetable"),
        "https://portal.school.example/timetable",
    ),
    (
        "Which host do I attach a debugger to for the brewery bottling PLC?",
        ("bottling", "Brewery bottling PLC is on plc-bottle-03.brew.internal"),
        "plc-bottle-03.brew.internal",
    ),
    (
        "Which host do I ssh a tunnel through for the ski resort snow sensors?",
        ("snow", "Ski resort snow sensors are reachable via bastion snow-jump.ski.internal"),
        "snow-jump.ski.internal",
    ),
    (
        "What URL do we route a delay query to for the shipping line?",
        ("shipping", "Shipping line delay desk: https://delays.shipline.example/intake"),
        "https://delays.shipline.example/intake",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), _ANSWERED)
def test_a_row_need_not_say_what_the_asker_does_with_the_value(
    question: str, row: tuple[str, str], value: str
) -> None:
    answers(question, facts(row), value)


_KEPT = [
    # another environment
    (
        "which port do I point psql at for the stg bakery orders db?",
        [("bakery", "Production bakery orders Postgres is on port 5432.")],
    ),
    # another ward
    (
        "What's the ward 7 pager gateway URL we post to?",
        [("ward", "Ward 9 pager gateway endpoint is https://pager.ward9.example/api/v2")],
    ),
    # another shift
    (
        "Which host do I attach a debugger to for the dairy night shift scales?",
        [("dairy", "Dairy day shift scales are on scales-day.dairy.internal")],
    ),
    # the secondary, where the row gives the primary
    (
        "Which host do I ssh into for the secondary ski lift controller?",
        [("lifts", "Primary ski lift controller runs on lift-ctl-01.ski.internal")],
    ),
    # the old value
    (
        "Which host do I ssh into for the brewery fermentation logger?",
        [("brewhouse", "Brewery fermentation logger moved off ferm-log-01.brew.internal")],
    ),
    # the planned value
    (
        "What port do I point my client at for the brewery tank gateway?",
        [("brewhouse", "The brewery tank gateway will listen on port 8884 next week.")],
    ),
    # another week
    (
        "Which URL do we poll for next week's harbour ferry timetable?",
        [("shipping", "This week's harbour ferry timetable: https://feeds.harbour.example/w49")],
    ),
    # a value of another kind: a host where the port is asked
    (
        "Which port do I point pgcli at for the dairy herd database?",
        [("herd", "Dairy herd database is Postgres on herd-db-01.dairy.internal.")],
    ),
    # two rows that disagree
    (
        "Which port do I point pgcli at for the dairy herd database?",
        [
            ("herd", "Dairy herd database is Postgres on port 5436."),
            ("parlour", "Dairy herd database answered on port 5437 this morning."),
        ],
    ),
    # nothing named but the asker's tool: of what, the request does not say
    (
        "Which port do I point psql at?",
        [("herd", "Dairy herd database is Postgres on port 5436.")],
    ),
    # an object after "the" names a thing of the fleet, which the row must say
    (
        "Which host do I point the ticket scanners at for the theatre?",
        [("boxoffice", "Theatre box office API is served from boxoffice-api.theatre.internal")],
    ),
    # a bare object with no "for" after it is the thing: which logs is asked
    (
        "Which host do we ship proof logs to?",
        [("prepress", "print shop invoices are stored on inv-01.print.internal")],
    ),
    # another thing in the tool's modifier place: the row's bottling line is another line's
    (
        "Which port does my label printer talk to on the vineyard bottling line?",
        [("bottling", "brewery bottling line label spooler listens on port 9100")],
    ),
    # a count: the asker's own thing counts nothing of the fleet's here ("a" opens a count's
    # noun phrase too: its head is what is counted)
    (
        "How many loaves do we need a tray for at the Saturday market?",
        [("bakery", "Saturday market: 240 loaves sold by noon")],
    ),
    # a week's timetable asked by the zero relative: the week is still the row's to say
    (
        "What's the exam timetable URL we publish to for the spring term?",
        [("school", "Autumn term exam timetable: https://exams.school.example/autumn")],
    ),
    # the asker's own request, but the row's desk is another thing's
    (
        "Where do I send a refund request for the theatre? Need the URL.",
        [("boxoffice", "ski school refunds desk is at https://refunds.ski.example/new")],
    ),
    # a modifier of the asker's tool that picks the thing stays: the analysts' warehouse
    (
        "Which warehouse does my analyst notebook read from?",
        [("cellar", "Warehouse for the ETL jobs is VINEYARD_ETL_WH.")],
    ),
]


@pytest.mark.parametrize(("question", "rows"), _KEPT)
def test_what_picks_one_thing_among_others_is_still_the_rows_to_say(
    question: str, rows: list[tuple[str, str]]
) -> None:
    no_answer(question, facts(*rows))


def test_what_the_asker_means_is_the_thing_asked_never_the_askers_doing() -> None:
    """What the asker says it means ("I *mean* the MAE") is the thing asked, and the row must
    still say it: a model citing the retrained model's version ("v3.8.1") for "how accurate
    …? I mean the MAE" was taken once "mean" was spared as the asker's verb."""
    ask = loose_ask(
        "how accurate is the retrained cheese press model on the may batch? i mean the yield."
    )
    assert root("mean") not in asker_words(ask, Kind.VERSION)
