"""A tag ("…, yes or no?", "…, ok?") asks to go on with what it tags, unless what it tags is a
question about a state of the world: "has the API moved to v2 yet, yes or no?" asks a fact,
and a "yes" to it would be a fact nobody stated (dev-twin-14's "Has L2 ortho moved to GLO-30
yet, yes or no?" was answered "yes")."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import goes_on

STATE_QUESTIONS = [
    "Has the billing API moved to v2 yet, yes or no?",
    "Did the nightly export finish, yes or no?",
    "Has the dock schedule moved to the new system yet, yes or no?",
    "Did the kiln cool down overnight, yes or no?",
    "Did the ferry leave on time, ok?",
    # already no go-ahead by other rules (a claim of a value, a state said by "was"/"were")
    "Was the ferry timetable printed, y/n?",
    "Were the exam scripts scanned already, yes/no?",
]


@pytest.mark.parametrize("question", STATE_QUESTIONS)
def test_a_tag_on_a_question_about_a_state_is_no_go_ahead(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and verdict.kind is VerdictKind.UNKNOWN, verdict


# Near misses: the tag on a step, a plan confirmed, or a lone "is ok?" still goes on.
GO_AHEADS = [
    "I will reread the museum's loan notes once more. Is ok?",
    "Is it ok to reread the ferry timetable draft, yes or no?",
    "Are we good to run the kiln's dry test, yes?",
    "Does this outline look good, y/n?",
    "Is the plan fine, yes?",
    "Did the linter pass, ok to continue?",
    "Tests are green. Continue?",
]


@pytest.mark.parametrize("question", GO_AHEADS)
def test_a_tag_on_a_step_or_a_plan_still_goes_on(question: str) -> None:
    goes_on(question)
