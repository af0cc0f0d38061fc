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


# Doing what a text says is the act it says: a runbook, a procedure, a page or a section of
# one run, executed, applied, followed or carried out — directly, through what it gives ("the
# fix it describes", "the steps from the wiki") or through a pronoun that stands for it.
@pytest.mark.parametrize(
    "question",
    [
        # the act the text describes is careful: production, a restore, a purge, a rotation
        "The ferry ops handbook has a chapter on the live booking database. Follow it?",
        "The observatory SOP has a section on restoring the archive from tape. Run it now?",
        "Read the library wiki article on the loans purge and carry out the steps it gives?",
        "Apply the workaround the telescope manual gives for the production scheduler?",
        "Write the runbook for the production booking database failover, then run it?",
        # what the text does is not said: the gate has not read it, so it fails closed
        "Perform the procedure in the observatory's recovery guide?",
        "Execute the instructions from the timetable handbook?",
        "There is a page in the ferry wiki for this outage. Do what it says?",
        "Follow the observatory's recovery runbook to bring the archive back?",
    ],
)
def test_doing_what_a_text_says_is_the_act_it_says(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Follow the playbook for rotating the ferry desk signing keys?",
        "Run the loan-purge steps from the library runbook?",
    ],
)
def test_a_text_whose_act_is_named_in_words_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        # reading, summarising, quoting, linking, checking, diffing the text stays harmless
        "The ferry ops handbook has a chapter on the live booking database. Summarise it?",
        "Read the observatory SOP section on restoring the archive from tape?",
        "Should I paste the steps the library runbook gives for renewing a loan into the ticket?",
        "Diff the telescope manual's workaround against last year's version?",
        "Link the playbook for the ferry desk key rotation in the handover notes?",
        # a text that only names a local, read-only or test thing to run
        "Follow the steps in the timetable README to run the unit tests locally?",
        "Run the lint commands the observatory style guide lists?",
        "Run the build command from the ferry app's README?",
        "Follow the library style guide when writing the loans module docstrings?",
        "Follow up on the ticket about the timetable docs?",
        "Run the notebook section on cleaning the telescope frames?",
        # a pronoun that stands for a thing that is not a text
        "The unit tests for the loans module are written. Run them now?",
        "Should I write the README for the ferry timetable app next and do it today?",
    ],
)
def test_reading_a_text_or_running_a_harmless_thing_it_names_goes_on(question: str) -> None:
    _goes_on(question)
