"""The offline fleet reader on kinds of value by their shape and on kinds of phrasing: a
firmware's lettered version, a date that is a folder of a path, a folder written as a route,
another instance's label, a request closed by a courtesy, a plan word that names a thing, a
schedule that recurs, the kind's own name and a hedge in the request, a paraphrase, an asking
word that names a thing. Each on sentences of its own (not the eval sets'), with the
neighbouring value the fleet does not hold, which stays unanswered."""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement
from crewline.policy.values import Kind, values_in
from tests.unit.gate_kit import answers, careful, facts, no_answer

# ---------------------------------------------------------------- shapes of value


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("the kiosks run firmware V4.18.2B", "V4.18.2B", Kind.VERSION),
        ("export written to /srv/exports/2026-11-30/orders_eu.csv", None, Kind.PATH),
    ],
)
def test_a_value_is_read_whole_by_its_shape(text: str, value: str | None, kind: Kind) -> None:
    """A lettered firmware number is one version, and a date between a path's slashes a
    folder of that path."""
    whole = value or text.rsplit(" ", 1)[-1]
    assert whole in text
    assert [(v.text, v.kind) for v in values_in(text) if whole in v.text] == [(whole, kind)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a file or a word with a dot stays what it was
        (
            "runs on node.js, see e.g. config.yaml",
            [("node.js", Kind.PATH), ("config.yaml", Kind.PATH)],
        ),
        # a host stays a host, a version a version
        ("api.acme.io serves 3.12.4", [("api.acme.io", Kind.HOST), ("3.12.4", Kind.VERSION)]),
        # a date said on its own stays a date
        ("cut over on 2026-12-04/05 as planned", [("2026-12-04", Kind.DATE), ("05", Kind.NUMBER)]),
    ],
)
def test_the_neighbouring_shapes_keep_their_kinds(
    text: str, expected: list[tuple[str, Kind]]
) -> None:
    """The shapes next to those are read as before."""
    assert [(v.text, v.kind) for v in values_in(text)] == expected


SHAPES = [
    (
        "What firmware are the lobby kiosks on?",
        ("kiosk-fleet", "Lobby kiosks are on firmware V4.18.2B."),
        "V4.18.2B",
        "What firmware are the gate scanners on?",
    ),
    (
        "Where was the EU orders export written?",
        ("exporter", "EU orders export written to /srv/exports/2026-11-30/orders_eu.csv."),
        "/srv/exports/2026-11-30/orders_eu.csv",
        "Where was the US orders export written?",
    ),
    (
        "On the carrier SFTP, which folder are the manifest files in?",
        (
            "sftp-scout",
            "Carrier SFTP is sftp.carrier.example:2222, manifest files under /inbound/manifests.",
        ),
        "/inbound/manifests",
        "On the carrier SFTP, which folder are the invoice files in?",
    ),
]


@pytest.mark.parametrize(("question", "row", "value", "neighbour"), SHAPES)
def test_a_value_of_its_shape_answers_and_its_neighbour_does_not(
    question: str, row: tuple[str, str], value: str, neighbour: str
) -> None:
    """The row's value answers the question it is about; the neighbouring question (another
    device, region, folder) stays with the human."""
    answers(question, facts(row), value)
    no_answer(neighbour, facts(row))


def test_a_value_labelled_for_another_instance_is_no_answer() -> None:
    """A name glued to another one-letter label ("cohort_b") is of another instance than
    the one asked ("the cohort A extract"); the same label answers."""
    rows = facts(("extractor", "The extract was written to /srv/research/cohort_b.parquet."))
    no_answer("Where was the cohort A extract written?", rows)
    answers("Where was the cohort B extract written?", rows, "/srv/research/cohort_b.parquet")


def test_a_model_citing_a_value_labelled_for_another_instance_is_refused() -> None:
    """A model that cites "cohort_b.parquet" for "the cohort A extract" (a confused or a
    hostile one) is refused by the same reading; the cohort B extract's is let through."""
    rows = facts(("extractor", "The extract was written to /srv/research/cohort_b.parquet."))
    path = "/srv/research/cohort_b.parquet"

    def cited(question: str) -> str | None:
        placement = Placement(kind="fleet", answer=path, row=rows[0].row_id)
        return check_placement(question, placement, facts=rows).answer

    assert cited("Where was the cohort B extract written?") == path
    assert cited("Where was the cohort A extract written?") is None


# ---------------------------------------------------------------- phrasings


@pytest.mark.parametrize(
    "question",
    [
        "db host of the billing replica pls",
        "billing replica db host please?",
        "db host of the billing replica, thx",
    ],
)
def test_a_request_closed_by_a_courtesy_asks_for_the_value(question: str) -> None:
    """ "… pls", "… please?", ", thx": the phrase before it is the request; another
    replica's host is not its answer."""
    row = ("db-scout", "Billing replica db host is pg-bill-r1.corp.example.")
    answers(question, facts(row), "pg-bill-r1.corp.example")
    no_answer(question, facts(("db-scout", "Ledger replica db host is pg-led-r1.corp.example.")))


def test_a_courtesy_does_not_make_a_careful_step_a_request() -> None:
    """ "drop the billing replica pls" stays careful, whatever the courtesy."""
    careful("drop the billing replica pls")


@pytest.mark.parametrize(
    ("question", "row", "value", "unsettled"),
    [
        (
            "Which host is the capacity planning API on?",
            "The capacity planning API is up at cap-api.corp.example.",
            "cap-api.corp.example",
            "We are planning to move the capacity planning API to cap-2.corp.example.",
        ),
        (
            "Which host does the route-plan service run on?",
            "route-plan service runs on rp-01.corp.example.",
            "rp-01.corp.example",
            "route-plan service will run on rp-02.corp.example after the move.",
        ),
        (
            "At what time does the log purge run on Saturdays?",
            "The log purge is scheduled at 04:30 every Saturday.",
            "04:30",
            "The log purge is scheduled at 04:30 on Saturday, once.",
        ),
    ],
)
def test_a_plan_word_that_names_a_thing_or_a_recurring_schedule_is_a_fact(
    question: str, row: str, value: str, unsettled: str
) -> None:
    """ "capacity planning", "route-plan" name a thing and "scheduled … every Saturday" is a
    standing schedule: facts. A plan the row makes ("we are planning to", "will", a one-off
    schedule) still is no answer."""
    answers(question, facts(("ops", row)), value)
    no_answer(question, facts(("ops", unsettled)))


@pytest.mark.parametrize(
    ("question", "row", "value", "neighbour"),
    [
        (
            "what's the IP address of the prod NATS server?",
            "Prod NATS server is 10.8.1.14, TLS on.",
            "10.8.1.14",
            "what's the IP address of the staging NATS server?",
        ),
        (
            "Roughly how many objects are in the exports bucket?",
            "The exports bucket holds 1,840,221 objects.",
            "1,840,221 objects",
            "Roughly how many objects are in the imports bucket?",
        ),
        (
            "How long does the nightly compaction usually take?",
            "Nightly compaction took 38 minutes on average this month.",
            "38 minutes",
            "How long does the weekly compaction usually take?",
        ),
    ],
)
def test_the_kinds_own_name_and_a_hedge_ask_nothing_of_the_row(
    question: str, row: str, value: str, neighbour: str
) -> None:
    """ "IP" of "the IP address" is what any address said is, and "roughly", "usually" only
    hedge the request: a row need not say them. Another environment or schedule still
    differs."""
    answers(question, facts(("scout", row)), value)
    no_answer(neighbour, facts(("scout", row)))


def test_a_measure_named_is_not_the_kinds_name() -> None:
    """ "median" is a duration, but not any duration: a row with the p99 alone does not
    answer the median."""
    rows = facts(("perf", "Load test result: /search p99 = 412 ms at 800 rps."))
    no_answer("What's the median latency on /search from the load test?", rows)


@pytest.mark.parametrize(
    ("question", "own", "value", "plain"),
    [
        (
            "In which region does the logging cluster run?",
            "The logging cluster runs in eu-west-3.",
            "eu-west-3",
            "The cluster runs in eu-central-1.",
        ),
        (
            "how many worker nodes does the reporting cluster have?",
            "Reporting cluster has 9 worker nodes.",
            "9",
            "The cluster has 14 worker nodes.",
        ),
        (
            "Which port is our recording service on?",
            "Our recording service listens on port 7443.",
            "7443",
            "Our service listens on port 8443.",
        ),
    ],
)
def test_an_asking_word_after_a_determiner_names_the_thing(
    question: str, own: str, value: str, plain: str
) -> None:
    """ "the logging cluster" is not "the cluster": a row about the cluster alone does not
    answer it, one about the logging cluster does."""
    answers(question, facts(("scout", own)), value)
    no_answer(question, facts(("scout", plain)))


@pytest.mark.parametrize(
    ("question", "row", "value", "neighbour"),
    [
        # the thesaurus: a port bound is one listened on, an SLA a guarantee, an expiry the
        # end of a validity
        (
            "which port is the search exporter bound to on node-7?",
            "node-7 has the search exporter listening on 9310.",
            "9310",
            "which port is the search exporter bound to on node-8?",
        ),
        (
            "What uptime does our contract with Acme guarantee?",
            "The Acme contract's SLA is 99.95% monthly uptime.",
            "99.95%",
            "What uptime does our contract with Globex guarantee?",
        ),
        (
            "Until when is the TLS certificate of the billing portal valid?",
            "Billing portal TLS cert expires 2027-05-02.",
            "2027-05-02",
            "Until when is the TLS certificate of the ledger portal valid?",
        ),
        # light verbs of where a thing is: stuck, waiting, received; "cloud" of a region
        (
            "How many messages are stuck in the payments dead-letter queue?",
            "Payments dead-letter queue currently holds 41 messages.",
            "41 messages",
            "How many messages are stuck in the refunds dead-letter queue?",
        ),
        (
            "Which version of the Android app is waiting in Play review?",
            "Android app 7.2.0 has been in the Play review queue since Monday.",
            "7.2.0",
            "Which version of the desktop app is waiting in Play review?",
        ),
        (
            "Which team receives the billing alerts?",
            "Alerts of the billing service go to the team payments-core.",
            "payments-core",
            "Which team receives the ledger alerts?",
        ),
        (
            "In which cloud region does the search cluster run?",
            "The search cluster runs in eu-central-1.",
            "eu-central-1",
            "In which cloud region does the analytics cluster run?",
        ),
        # the present, in a chat's words: "atm", "at the moment"
        (
            "how many worker nodes does the search cluster have atm?",
            "Search cluster currently has 14 worker nodes.",
            "14",
            "how many worker nodes does the analytics cluster have atm?",
        ),
        (
            "What's the search cluster's line coverage at the moment?",
            "Search cluster CI: total line coverage 81.2%.",
            "81.2%",
            "What's the analytics cluster's line coverage at the moment?",
        ),
    ],
)
def test_a_request_in_other_words_than_its_row(
    question: str, row: str, value: str, neighbour: str
) -> None:
    """A paraphrase by the thesaurus, a light verb or a chat's word for "now" need not be in
    the row; the thing the question names must, so the neighbouring thing stays unanswered."""
    answers(question, facts(("scout", row)), value)
    no_answer(neighbour, facts(("scout", row)))
