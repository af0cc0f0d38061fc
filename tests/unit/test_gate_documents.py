"""A risky word that only says what a document made is about, or what happened in a thing
read about, is no act: "add a test case for the force-push protection hook", "read the
postmortem of the outage where the rows were deleted". Each beside the near misses that keep
their verdict: a thing made for a place or a person, a past passive said on its own, and a
later step on a pronoun stay careful."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful


def _goes_on(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final and verdict.kind is VerdictKind.PROCEED, verdict


@pytest.mark.parametrize(
    "question",
    [
        # a library's loans, a ferry line, a school's timetable
        "OK to add a test case for the member-ban protection in the loans module?",
        "Shall I add a unit test for the admin permissions check of the timetable app?",
        "Draft a test plan for the delete protection of the ferry bookings?",
        "Write a short guide for the collaborator permissions of the library wiki?",
    ],
)
def test_a_document_made_about_an_act_is_no_act(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Add a test account for the ferry desk admin?",
        "Add a new collaborator for the timetable repo?",
        "Add a note to the public status page about the ferry delays?",
        "Add a test case for the loan purge and then run the purge?",
    ],
)
def test_a_thing_made_for_a_person_or_a_place_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Should I read the postmortem of the ferry outage where the bookings were deleted?",
        "Summarise the incident in which the school's grades were overwritten?",
        "Can I read the report of the night when the loan tables were dropped, for the retro?",
    ],
)
def test_what_happened_in_a_thing_read_about_is_no_act(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "The old bookings were deleted, shall I run it again?",
        "Read the report of the night when the loan tables were dropped, then run it again?",
        "Open the ticket where the grade backups were deleted and delete the rest?",
        "Should the ferry bookings be deleted?",
    ],
)
def test_a_past_passive_on_its_own_or_a_later_step_stays_careful(question: str) -> None:
    careful(question)
