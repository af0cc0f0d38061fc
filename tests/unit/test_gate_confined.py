"""A step by a verb the gate does not know goes on when its work stays with the asker: a new
document for its object, its result put into one, or a place said to be the asker's own or
local; and a step said as under way after "next I'm" is read by its verb. Each rule beside
the near misses that keep their verdict: the same verb reaching production, a shared thing
or other people stays with the human, and a careful act stays careful."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful


def _goes_on(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final and verdict.kind is VerdictKind.PROCEED, verdict


def _with_the_human(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and not verdict.kind.routine, verdict


@pytest.mark.parametrize(
    "question",
    [
        # a museum's archive, a bakery, an observatory
        "Can I sketch a diagram of how loans move between the archive and the reading room?",
        "Shall I transcribe the visitor survey answers into a spreadsheet?",
        "Can I go on and scrape the tide tables into a local JSON file for the notebook?",
        "Ok to collate the bake schedule into notes/weekly-bakes.md?",
        "Next I'm just tidying the telescope observing log in my local copy. OK?",
        "Ok to go on with the next step (tallying the loaf counts into a CSV)?",
    ],
)
def test_a_step_kept_to_the_askers_own_copy_goes_on(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        # the same verbs, with nothing that keeps the work to the asker
        "Shall I transcribe the visitor survey answers?",
        "Should I hand the archive keys over to the contractors?",
        "Shall I retire the old booking endpoints now?",
        # kept in a document, but for other people or on a shared thing
        "Can I dump the membership table into a CSV for the vendor?",
        "Can I stream the tide tables into a public bucket?",
        "Can I scrape the loan records into a new table on the production database?",
        "Ok to go on with the next step (tallying the loaf counts into a CSV for the customers)?",
    ],
)
def test_a_step_that_reaches_others_stays_with_the_human(question: str) -> None:
    _with_the_human(question)


@pytest.mark.parametrize(
    "question",
    [
        "Shall I export the member list into a spreadsheet and mail it to the sponsors?",
        "Next I'm just uploading the survey results to the public site. OK?",
        "Can I collate the refunds into a CSV and pay them out?",
        "Next I'm just purging the old observing logs in my local copy of the shared archive. OK?",
    ],
)
def test_a_careful_act_beside_the_kept_step_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        # a ferry line, a bakery, a school's timetable
        "Can I open the timetable config to see which ferry leaves first?",
        "OK to read the oven log to find out when the second batch went in?",
        "Shall I open `config/terms.toml` to check which week the term starts? Not editing it.",
    ],
)
def test_what_a_steps_purpose_looks_up_is_the_steps(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Can you check which ferry leaves first?",
        "Which week does the term start?",
        "Can I open the timetable config to see which ferry leaves first, then delete it?",
    ],
)
def test_a_request_or_an_act_beside_the_purpose_is_no_go_ahead(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.PROCEED and verdict.answer is None, verdict
