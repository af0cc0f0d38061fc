"""The offline fleet reader by the type of value asked: a request of two things (answered
whole, where a row writes the two as one value, or not at all) and the types of value read
by their shape. Each on sentences of its own (not the eval sets'), in several domains, with
the value of another type in the same row that must not be picked, and the near misses that
stay with the human."""

from __future__ import annotations

import pytest

from crewline.policy import Fact, Placement, VerdictKind, check_placement
from crewline.policy.values import Kind, values_in
from tests.unit.gate_kit import answers, facts, no_answer


def _one(row: str) -> list[Fact]:
    return facts(("scout", row))


def _model(question: str, rows: list[Fact], answer: str) -> str | None:
    """The answer a model's fleet placement of the first row gets through the checks."""
    verdict = check_placement(
        question, Placement(kind="fleet", answer=answer, row=rows[0].row_id), facts=rows
    )
    assert verdict.kind in (VerdictKind.FLEET_FACT, VerdictKind.UNKNOWN), verdict
    return verdict.answer


# ---------------------------------------------------------------- two things asked

WHOLE = [
    (
        "which host and port is the billing replica on?",
        "billing replica answers at pg-billing-ro.db.acme.io:6432 since Monday",
        "pg-billing-ro.db.acme.io:6432",
    ),
    (
        "host:port for the staging kafka broker?",
        "Staging Kafka broker is kafka-0.stg.internal:9092, TLS off.",
        "kafka-0.stg.internal:9092",
    ),
    (
        "IP and port of the label printer's admin page pls",
        "The label printer's admin page is on 10.20.3.41:8080.",
        "10.20.3.41:8080",
    ),
    (
        "what host & port does the tile server listen on",
        "tile server listening on tiles.maps.corp.example:7070 now",
        "tiles.maps.corp.example:7070",
    ),
    (  # a host under a domain of no known suffix, placed by its port
        "Which hostname and port is the lab's sample tracker on?",
        "The lab's sample tracker is up at tracker-01.pathology.stmarys.health:4443.",
        "tracker-01.pathology.stmarys.health:4443",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), WHOLE)
def test_a_host_and_its_port_asked_together_are_answered_whole(
    question: str, row: str, value: str
) -> None:
    assert value in row
    answers(question, _one(row), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (  # the row gives the host alone: half of what is asked
            "which host and port is the billing replica on?",
            "billing replica host is pg-billing-ro.db.acme.io",
        ),
        (  # the port alone
            "which host and port is the billing replica on?",
            "billing replica listens on port 6432",
        ),
        (  # two values of their own types: one is a partial answer
            "which version and build number is on TestFlight?",
            "TestFlight has 3.14.2 (build 4471) since Monday",
        ),
        (
            "region and zone of the search cluster?",
            "search cluster runs in eu-west-1, zone eu-west-1b",
        ),
        (
            "What user and login name does the QA kiosk use?",
            "QA kiosk signs in as user qa-kiosk-01",
        ),
        (
            "p50 and p99 for the checkout endpoint?",
            "checkout endpoint p50 is 210 ms, p99 is 1.4 s",
        ),
    ],
)
def test_a_request_of_two_things_is_not_answered_with_one(question: str, row: str) -> None:
    no_answer(question, _one(row))


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # one thing asked: the part its noun names
            "which port is the billing replica on?",
            "billing replica answers at pg-billing-ro.db.acme.io:6432",
            "6432",
        ),
        (
            "which host is the billing replica on?",
            "billing replica answers at pg-billing-ro.db.acme.io:6432",
            "pg-billing-ro.db.acme.io",
        ),
        (  # an address asked, the row's whole address given
            "what's the address of the billing replica?",
            "billing replica answers at pg-billing-ro.db.acme.io:6432",
            "pg-billing-ro.db.acme.io:6432",
        ),
        (  # an "and" in what it is about, not in what it asks
            "what's the port of the search and rescue dispatch service?",
            "search and rescue dispatch service listens on port 7001",
            "7001",
        ),
    ],
)
def test_one_thing_asked_beside_an_and_is_still_answered(
    question: str, row: str, value: str
) -> None:
    answers(question, _one(row), value)


def test_a_model_answering_half_of_two_things_is_refused() -> None:
    question = "which host and port is the billing replica on?"
    rows = _one("billing replica answers at pg-billing-ro.db.acme.io:6432")
    assert _model(question, rows, "pg-billing-ro.db.acme.io:6432") == (
        "pg-billing-ro.db.acme.io:6432"
    )
    assert _model(question, rows, "6432") is None
    assert _model(question, rows, "pg-billing-ro.db.acme.io") is None
    builds = _one("TestFlight has 3.14.2 (build 4471) since Monday")
    assert _model("which version and build number is on TestFlight?", builds, "3.14.2") is None


@pytest.mark.parametrize(
    ("text", "host"),
    [
        (
            "up at mm-staging.internal.kraken.games:7450, prod untouched",
            "mm-staging.internal.kraken.games",
        ),
        ("db moved to pg1.internal.acme.games last night", "pg1.internal.acme.games"),
        ("traced to app.py:120 in the handler", None),
        ("see notes.txt:12", None),
        ("the module crewline.policy.fleet reads rows", None),
    ],
)
def test_a_host_of_no_known_domain_is_read_by_its_port_or_its_network(
    text: str, host: str | None
) -> None:
    hosts = [v.text for v in values_in(text) if v.kind is Kind.HOST]
    assert hosts == ([host] if host else [])


# ---------------------------------------------------------------- types of value

# (question, row, the value) — each row holds a value of another type beside the asked one
TYPED = [
    # an email address, never the host of the same row
    (
        "what's the email for the payments on-call?",
        "payments on-call inbox is pay-oncall@acme.io, the API is on pay.internal.acme.io:8443",
        "pay-oncall@acme.io",
    ),
    (
        "which host is the payments API on?",
        "payments on-call inbox is pay-oncall@acme.io, the API is on pay.internal.acme.io:8443",
        "pay.internal.acme.io",
    ),
    (
        "pharmacy escalation email address?",
        "Pharmacy escalations go to rx-escalations@stmarys.health (Ward 4 handles nights).",
        "rx-escalations@stmarys.health",
    ),
    # a cron expression, never its numbers, and never picked for how long
    (
        "what's the cron schedule of the nightly cleanup job?",
        "the nightly cleanup job runs on cron `30 2 * * *` and takes 12 min",
        "30 2 * * *",
    ),
    (
        "how long does the nightly cleanup job take?",
        "the nightly cleanup job runs on cron `30 2 * * *` and takes 12 min",
        "12 min",
    ),
    (
        "what's the crontab for the invoice reminder?",
        "invoice reminder crontab: */15 8-18 * * MON-FRI, mails go out from billing@acme.io",
        "*/15 8-18 * * MON-FRI",
    ),
    # a size with a thousands separator, whole
    (
        "how big is the nightly dump?",
        "nightly dump is 1,024 MB, written to /backups/nightly.sql.gz in 4 min",
        "1,024 MB",
    ),
    # money with its currency's code before it, never the size beside it
    (
        "what was the total on the October CDN invoice?",
        "the October CDN invoice came to USD 1,450 for 14 TB of egress",
        "USD 1,450",
    ),
    # a machine type in each cloud's form, never the size or the region beside it
    (
        "which instance type is the search cluster on?",
        "search cluster: 6 nodes of r6g.2xlarge, 512 GiB each, in eu-west-1",
        "r6g.2xlarge",
    ),
    (
        "which region is the search cluster in?",
        "search cluster: 6 nodes of r6g.2xlarge, 512 GiB each, in eu-west-1",
        "eu-west-1",
    ),
    (
        "which machine type does the render farm use?",
        "the render farm uses n2-standard-8 machines, 12 of them, 30 GB disks",
        "n2-standard-8",
    ),
    (
        "VM size for the build agents?",
        "Build agents run on Standard_D4s_v5 in westeurope, 3.5 GiB free on each",
        "Standard_D4s_v5",
    ),
    # a rate per unit of time against a rate that is a share, each by what it is a rate of
    (
        "what's the send rate of the mailer?",
        "mailer send rate is 40 msgs/sec, bounce rate 1.2%",
        "40 msgs/sec",
    ),
    (
        "what's the bounce rate of the mailer?",
        "mailer send rate is 40 msgs/sec, bounce rate 1.2%",
        "1.2%",
    ),
    (
        "how often does the weekly report go out?",
        "the weekly report goes out 3 per day (cron `0 8,13,18 * * *`)",
        "3 per day",
    ),
    (
        "how often does the triage digest go out?",
        "the triage digest goes out 3 times a day",
        "3 times a day",
    ),
    # a count in millions, never a duration
    (
        "how long did the archive copy take?",
        "archive copy moved 1.1M objects in 47 min",
        "47 min",
    ),
    (
        "how many objects did the archive copy move?",
        "archive copy moved 1.1M objects in 47 min",
        "1.1M",
    ),
    # a dotted name, whole, never the size beside it
    (
        "which table holds the shipment events?",
        "shipment events land in logistics.shipment_events_v2, 40 GB so far",
        "logistics.shipment_events_v2",
    ),
    (
        "which kafka topic carries the vitals?",
        "bedside vitals flow through kafka topic icu.vitals.v2 at 300 msgs/sec",
        "icu.vitals.v2",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), TYPED)
def test_a_value_of_the_asked_type_is_picked_beside_one_of_another(
    question: str, row: str, value: str
) -> None:
    assert value in row
    answers(question, _one(row), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (  # no email in the row: its host is not one
            "what's the email for the payments on-call?",
            "payments on-call pages go through pay.internal.acme.io:8443",
        ),
        (  # no cron in the row: a time of day is not one
            "what's the cron schedule of the nightly cleanup job?",
            "the nightly cleanup job runs at 02:30 UTC and takes 12 min",
        ),
        (  # no machine type: a size is not one
            "which instance type is the search cluster on?",
            "search cluster: 6 nodes, 512 GiB each, in eu-west-1",
        ),
        (  # a share asked, only a rate per second said
            "what's the bounce rate of the mailer?",
            "mailer send rate is 40 msgs/sec",
        ),
        (  # a rate per second asked, only a share said
            "what's the send rate of the mailer?",
            "mailer bounce rate is 1.2%",
        ),
        (  # a count of users asked, only a share said
            "What was DAU in November?",
            "Refund rate for November came out at 1.7%",
        ),
    ],
)
def test_no_value_of_the_asked_type_is_no_answer(question: str, row: str) -> None:
    no_answer(question, _one(row))


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("mail appeals@kraken.games for it", "appeals@kraken.games", Kind.EMAIL),
        ("cron `0 0 * * 1` in the reset job", "0 0 * * 1", Kind.CRON),
        ("runs @daily since May", "@daily", Kind.CRON),
        ("soak ran on an m5.xlarge node", "m5.xlarge", Kind.MACHINE),
        ("the primary is a db.r6g.large", "db.r6g.large", Kind.MACHINE),
        ("pool of e2-medium workers", "e2-medium", Kind.MACHINE),
        ("topic icu.vitals.v2 carries it", "icu.vitals.v2", Kind.QUALIFIED),
        ("the bucket holds 1.1M objects", "1.1M", Kind.NUMBER),
        ("restore took 5m flat", "5m", Kind.DURATION),
        ("limit is 1,024 MB per pod", "1,024 MB", Kind.SIZE),
        ("budget is EUR 2,500 a quarter", "EUR 2,500", Kind.MONEY),
        ("throttled at 60 requests per minute", "60 requests per minute", Kind.RATE),
        ("it pages 3 per day at most", "3 per day", Kind.RATE),
        ("Unity for the client is 2022.3.41f1 now", "2022.3.41f1", Kind.VERSION),
        ("the SDK beta 2.0.0b3 crashes", "2.0.0b3", Kind.VERSION),
        ("about 1.5k rows left", "1.5k", Kind.NUMBER),
    ],
)
def test_a_value_is_read_whole_by_its_type(text: str, value: str, kind: Kind) -> None:
    assert [(v.text, v.kind) for v in values_in(text) if value in v.text or v.text in value] == [
        (value, kind)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "scored 1 2 3 4 5 points",  # numbers in a row, no star: no schedule
        "see config.prod.yaml for it",  # a file, never a dotted name
        "pinned to v2.8.3 in the chart",  # a version, never a dotted name
        "the module crewline.policy.fleet reads rows",  # a dotted name of words only
    ],
)
def test_near_shapes_are_not_read_as_the_new_types(text: str) -> None:
    assert not [v for v in values_in(text) if v.kind in (Kind.CRON, Kind.QUALIFIED, Kind.MACHINE)]


def test_a_dotted_name_is_answered_offline_and_by_a_model_alike() -> None:
    """A dotted name typed whole (where 831fa15 took it back, the model's check held a
    typed identifier to the asked noun beside it): the offline reader and a model's cited
    answer give it alike, and a model citing the old table's view is refused."""
    question = "Which table actually holds the invoice lines these days?"
    rows = _one("Invoice lines live in billing.invoice_items_v4 now; the old table is only a view.")
    answers(question, rows, "billing.invoice_items_v4")
    assert _model(question, rows, "billing.invoice_items_v4") == "billing.invoice_items_v4"
    assert _model(question, rows, "view") is None


# ---------------------------------------------------------------- a metric, a cohort's age


def test_a_count_asked_by_its_metric_is_read_in_the_clause_the_metric_heads() -> None:
    """A count of users ("DAU") the row's clause gives its metric, with the period between
    ("DAU in November was 48,200"), answers offline and from a model; another metric's
    count, said in the same words, answers neither."""
    question = "What was DAU in November?"
    row = _one("DAU in November was 48,200, down 3% on October.")
    answers(question, row, "48,200")
    assert _model(question, row, "48,200") == "48,200"
    other = _one("MAU in November was 48,200, down 3% on October.")
    no_answer(question, other)
    assert _model(question, other, "48,200") is None
    both = _one("DAU in November was 48,200; MAU in November was 1.2M.")
    assert _model(question, both, "1.2M") is None


@pytest.mark.parametrize(
    ("question", "row", "value", "other", "another_age"),
    [
        (
            "Day-7 retention of the May 3 cohort?",
            "D7 retention for the May 3 cohort: 18.2%, D30 is 6.1%.",
            "18.2%",
            "6.1%",
            "D30 retention for the May 3 cohort: 6.1%.",
        ),
        (
            "Week-4 retention of the March cohort?",
            "W4 retention for the March cohort: 22%, W8 is 15%.",
            "22%",
            "15%",
            "W8 retention for the March cohort: 15%.",
        ),
        (
            "Month-1 retention of the June cohort?",
            "M1 retention for the June cohort: 31.5%, M3 is 19.0%.",
            "31.5%",
            "19.0%",
            "M3 retention for the June cohort: 19.0%.",
        ),
    ],
)
def test_a_cohorts_age_is_one_label_in_full_or_short(
    question: str, row: str, value: str, other: str, another_age: str
) -> None:
    """A cohort's age asked in full ("Day-7") is the row's short label ("D7"): its value
    answers; the other age's value beside it, the label itself ("D7 retention") and the
    value of a row of another age alone do not."""
    rows = _one(row)
    label = row.split()[0]
    assert value in row and other in row and label not in another_age
    assert _model(question, rows, value) == value
    assert _model(question, rows, other) is None
    assert _model(question, rows, label) is None
    assert _model(question, _one(another_age), other) is None


# ---------------------------------------------------------------- a measure asked by its unit


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "How many seconds does the nightly vacuum take on staging?",
            "The nightly vacuum on staging takes 42 s, on prod 3 min.",
            "42 s",
        ),
        ("How many hours did the tile reindex run?", "Tile reindex ran 5.5 h overnight.", "5.5 h"),
        (
            "For how many seconds is a signed upload URL good?",
            "Signed upload URLs are good for 900 s after they are issued.",
            "900 s",
        ),
        (
            "How much data does the clickstream bucket hold?",
            "Bucket clickstream-raw: 18.4 TB across 3.2M objects.",
            "18.4 TB",
        ),
        (
            "How much disk does the build cache take up on ci-3?",
            "The build cache on ci-3 is 74 GB, under /var/cache/build.",
            "74 GB",
        ),
        (
            "How much space do the November dumps take?",
            "The November dumps take 1.2 TB in cold storage.",
            "1.2 TB",
        ),
    ],
)
def test_a_measure_asked_by_its_unit_is_the_rows_measure(
    question: str, row: str, value: str
) -> None:
    """A count of a unit of time asks a time in that unit, not a count of them ("how many
    seconds …": the row's "42 s", whole); "how much data / disk / space …" asks a size, as
    "how much memory" does ("18.4 TB")."""
    answers(question, _one(row), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # another environment, another thing, another month than the row's
        (
            "How many seconds does the nightly vacuum take on dev?",
            "The nightly vacuum on staging takes 42 s, on prod 3 min.",
        ),
        ("How many hours did the search reindex run?", "Tile reindex ran 5.5 h overnight."),
        ("How much data does the audit bucket hold?", "Bucket clickstream-raw: 18.4 TB."),
        (
            "How much disk does the build cache take up on ci-4?",
            "The build cache on ci-3 is 74 GB, under /var/cache/build.",
        ),
        (
            "How much space do the October dumps take?",
            "The November dumps take 1.2 TB in cold storage.",
        ),
        # a time in another unit: the gate converts none
        (
            "How many seconds does the blue-green switch take?",
            "The blue-green switch takes about 7 min end to end.",
        ),
        (
            "How many seconds does the nightly vacuum take on prod?",
            "The nightly vacuum on staging takes 42 s, on prod 3 min.",
        ),
        # a compound of the unit counts a resource, not a time
        ("How many CPU-hours did the render job use?", "Render job done: 6 h wall, 412 CPU-h."),
        # a size then and now: which is asked is a guess
        (
            "How much storage does the docs site use?",
            "docs site: 850 MB of static files, down from 1.1 GB last month.",
        ),
    ],
)
def test_a_measure_asked_by_its_unit_stays_with_the_human_on_a_near_miss(
    question: str, row: str
) -> None:
    """A measure of another thing, in another unit or then and now answers no such count."""
    no_answer(question, _one(row))


def test_a_measure_asked_by_its_unit_is_disputed_by_another_rows() -> None:
    """Two rows giving two times of the same thing: no answer offline, and a model citing one
    of them is refused, as for "how long"."""
    rows = facts(
        ("etl", "Rows of the events fact table are kept 400 days."),
        ("governance", "Rows of the events fact table are kept 730 days now."),
    )
    question = "How many days are rows of the events fact table kept?"
    no_answer(question, rows)
    assert _model(question, rows, "400 days") is None
    answers(question, rows[:1], "400 days")


# ---------------------------------------------------------------- a heading's count


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "How many invoices failed to post last week?",
            "Invoice posting failures last week: 23, all on the EU ledger.",
            "23",
        ),
        (
            "How many members cancelled their gym plan in May?",
            "Gym plan cancellations in May: 61, mostly students leaving town.",
            "61",
        ),
        # a count at the sentence's end, after its full stop
        ("How many racks are in cage B?", "Racks in cage B: 14.", "14"),
        # a count a place or a time heads after a comma counts what the first counted
        (
            "How many refund requests came in on Tuesday?",
            "Refund requests on Monday: 48, on Tuesday: 51.",
            "51",
        ),
    ],
)
def test_a_count_a_heading_names_ends_at_its_comma(question: str, row: str, value: str) -> None:
    """A number right after a heading that names the counted noun counts it, whatever its
    clause goes on to say after a comma ("…: 23, all on the EU ledger"); a number ends in a
    digit, before a comma or a full stop ("48,", "51.")."""
    answers(question, _one(row), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # another month, another day than the heading's
        (
            "How many members cancelled their gym plan in June?",
            "Gym plan cancellations in May: 61, mostly students leaving town.",
        ),
        (
            "How many refund requests came in on Wednesday?",
            "Refund requests on Monday: 48, on Tuesday: 51.",
        ),
        ("How many racks are in cage C?", "Racks in cage B: 14."),
        # the heading's own day tells neither apart (it heads both): which is a guess
        (
            "How many refund requests came in on Monday?",
            "Refund requests on Monday: 48, on Tuesday: 51.",
        ),
        # a heading that names another thing than the counted noun
        (
            "How many invoices failed to post last week?",
            "Payment retries last week: 23, all on the EU ledger.",
        ),
    ],
)
def test_a_count_a_heading_names_stays_with_the_human_on_a_near_miss(
    question: str, row: str
) -> None:
    """A heading of another month, day or thing, or one heading two counts, answers none."""
    no_answer(question, _one(row))


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        ("How many racks does hall 2 hold?", "Hall 1 holds 14 racks, hall 3 holds 9.", None),
        ("How many racks are in cage C?", "Cage B has 14 racks.", None),
        (
            "How many blades does turbine 7 have?",
            "Turbine T07 has 3 blades, all inspected.",
            "3 blades",
        ),
        ("How many racks are in cage B?", "Cage B has 14 racks.", "14 racks"),
    ],
)
def test_a_thing_named_by_a_letter_or_a_number_is_that_one(
    question: str, row: str, value: str | None
) -> None:
    """ "Hall 2", "cage C": the row must write that letter or number ("T07" for turbine 7);
    a row of hall 1 or cage B is another thing's."""
    if value is None:
        no_answer(question, _one(row))
    else:
        answers(question, _one(row), value)


def test_a_number_with_its_unit_names_no_thing() -> None:
    """ "going 15 min" is a time, not a thing named "going 15": the row need not write 15."""
    rows = _one("The nightly reconciliation job takes about 25 minutes on a full day's data.")
    answers(
        "How long does the nightly reconciliation job take? mine has been going 15 min",
        rows,
        "25 minutes",
    )
