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
