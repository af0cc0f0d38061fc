"""A noun is no act, and an act's reason says what is done: a bare noun phrase asking for a
value ("Host and port for the Geodis invoice SFTP?") does nothing to what it names, nor do
buttons of its values make it a choice; a plan for a careful act that is run is that act;
chat filler is no part of a reason. Each rule beside the near-misses that stay careful."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import answers, careful, facts


def _why(question: str) -> str:
    verdict = judge(question)
    assert verdict.final and verdict.answer is None, verdict
    return verdict.why


@pytest.mark.parametrize(
    "question",
    [
        "Host and port for the Geodis invoice SFTP?",
        "Rows in the events table in production?",
        "Replica lag in prod?",
        "Number of rows in the events table in production?",
        "Roughly how many rows are in the events table in production?",
        "Go-live date for ICS2?",
        "Port and host for the prod db?",
    ],
)
def test_a_noun_in_a_request_for_a_value_is_no_act(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final and verdict.kind is not VerdictKind.PROCEED, verdict


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("Port the billing service to production?", "ports the billing service to production"),
        ("Promote the build to prod?", "promotes the build to prod"),
        ("Go live with v2 tonight?", "goes live with v2"),
        ("Host and port for the Geodis invoice SFTP and pay the invoice?", "pays the invoice"),
        ("Host for the Geodis SFTP and port the billing service to prod?", "ports the billing"),
        ("Port for the db and drop the users table?", "drops the users table"),
        ("Refund for order 1234?", "refunds for order 1234"),
        ("Port to prod?", "to prod"),
        ("Commit to the terms of the NDA?", "commits to the terms of the NDA"),
    ],
)
def test_a_verb_before_its_object_stays_the_act(question: str, says: str) -> None:
    why = _why(question)
    assert says in why and "prods" not in why and "productions" not in why, why


@pytest.mark.parametrize(
    "question",
    [
        "Draft the key rotation plan and run it?",
        "Run the key rotation plan?",
        "Execute the credential rotation script?",
        "Kick off the token rotation?",
        "Draft the purge script and run it?",
        "Draft the refund batch and run it?",
    ],
)
def test_a_plan_for_a_careful_act_run_is_that_act(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Draft the key rotation plan?",
        "Review the key rotation plan?",
        "Draft the on-call rotation and share it with me?",
        "Run the on-call rotation script?",
    ],
)
def test_a_plan_written_or_a_schedule_rotated_goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "drops the staging table pls",
        "Drop the staging table please?",
        "pls drop the staging table thx",
        "Drop the staging table, thank you",
    ],
)
def test_a_reason_leaves_out_chat_filler(question: str) -> None:
    assert _why(question) == "irreversible: it drops the staging table"


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Which port is the staging WMS database on?", ("5432", "6432", "6543")),
        ("Which port does the relay listen on?", ("80", "443")),
        ("Which region is the bucket in?", ("eu-west-1", "us-east-1")),
    ],
)
def test_a_value_of_a_thing_as_it_is_is_no_choice(question: str, options: tuple[str, ...]) -> None:
    """Buttons that are the values a thing may have do not make a request for its value a
    choice: the fleet may know it."""
    verdict = judge(question, options=options)
    assert not verdict.final and verdict.kind is not VerdictKind.AMBIGUOUS, verdict


def test_a_value_of_a_thing_as_it_is_is_answered_from_the_fleet() -> None:
    rows = facts(("wms-migrator", "Staging WMS database is behind pgbouncer on port 6543."))
    question = "Which port is the staging WMS database on?"
    answers(question, rows, "6543")
    verdict = judge(question, options=("5432", "6432", "6543"), facts=rows)
    assert (verdict.kind, verdict.answer) == (VerdictKind.FLEET_FACT, "6543"), verdict


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Which carrier do we onboard first?", ("DHL", "Geodis")),
        ("Which port should I use for the WMS database?", ("5432", "6543")),
        ("Which region is best for the new cluster?", ("eu", "us")),
        ("Which port is the correct one for staging?", ("5432", "6543")),
        ("Which one is the right option?", ("a", "b")),
        ("Which of these is the right one?", ("a", "b")),
        ("Which table is the one to drop?", ("users", "orders")),
    ],
)
def test_a_choice_put_to_the_human_stays_careful(question: str, options: tuple[str, ...]) -> None:
    careful(question, options)


def test_a_thing_named_after_a_preposition_in_a_request_is_no_act() -> None:
    verdict = judge("What date are we aiming at for ICS2 release 3 go-live?")
    assert not verdict.final and verdict.answer is None, verdict


@pytest.mark.parametrize(
    "question",
    [
        "What time are we deploying to prod?",
        "Which table are we dropping tonight?",
        "What time should I start the deploy?",
        "When are we doing the cutover to the new db?",
    ],
)
def test_the_askers_act_in_a_request_stays_careful(question: str) -> None:
    careful(question)
