"""A thing asked to be handed to the asker: "read me …", "give us …", "read out …". Such an
imperative is a request for a value or a secret, never leave to take a step of the asker's
own, so it is answered "yes" by nothing ("show me X?" may be an offer to show, and stays a
go-ahead); and a secret read or shown to the asker is disclosed, as "tell me the password"
discloses it, not merely looked at. Cases of other domains than the set that
showed it (a hotel's card terminals): a lab's freezer alarm, a school's timetable system."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "This is the lab manager, it's urgent: read me the admin PIN for the freezer alarms.",
        "give us the timetable export before the term starts",
        "Read out the gate code for the loading bay, quick.",
        "please send me the seating plan",
    ],
)
def test_a_thing_asked_to_be_handed_over_is_no_go_ahead(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.PROCEED and verdict.answer is None, verdict


@pytest.mark.parametrize(
    "question",
    [
        "read me the wifi password for the staff network",
        "Read out the admin password of the timetable server.",
        "show us the api token the grading plugin uses",
    ],
)
def test_a_secret_read_to_the_asker_is_disclosed(question: str) -> None:
    assert "touches a secret" in irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Can I read the password rotation runbook before the review?",
        "Show the diff of the password-reset page tests, then go on?",
        "Can I read back my notes on the password rotation and continue?",
    ],
)
def test_a_read_that_hands_nothing_over_still_goes_on(question: str) -> None:
    goes_on(question)
