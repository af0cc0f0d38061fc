"""A statement of how something is, with a tag ("…, right?", "… ok?", "all good with …?")
and no step of the asker's in it, asks whether the thing is so: a "yes" would be a fact
nobody in the fleet stated, which a member would act on. It stays with the human, with a
reason that says it asks whether something is so; a go-ahead with a state before it still
goes on."""

from __future__ import annotations

import pytest

from crewline.policy import Placement, VerdictKind, check_placement, judge
from tests.unit.gate_kit import goes_on

TAGGED_STATES = [
    # a hospital
    "The drug fridge on ward 3 is fine, right?",
    "Fridge on ward 3 within range, yes?",
    "All good with the ward 3 fridge?",
    # a bakery
    "Dough proofed ok?",
    "The ovens are up to heat, correct?",
    "All good with the walk-in freezer?",
    # a shipping line
    "Pilot boarded the Nordlys ok?",
    "The ferry sailed, yeah?",
    # a school
    "Exam hall booked ok?",
    "The buses are on time, right?",
    # a plural subject whose word is also a step's verb ("records", "tests") is no step
    "Records are filed, right?",
    "Tests are green, ok?",
    # the asker's own state, said as done ("we've", "we passed"), is a state too
    "We passed the fire inspection, right?",
    "We've loaded the reefer on deck 2, right?",
    "I had the consent form signed by the parents, yes?",
    # a tag alone after a statement of a state asks whether that is so
    "The fridge on ward 3 is fine. OK?",
    "The dough is proofed. Alright?",
    "Pupils are all back from the trip. Ok?",
]


@pytest.mark.parametrize("question", TAGGED_STATES)
def test_a_tagged_state_is_no_go_ahead(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and verdict.kind is VerdictKind.UNKNOWN, verdict
    assert "whether something is so" in verdict.why, verdict


@pytest.mark.parametrize("question", TAGGED_STATES)
def test_a_models_yes_to_a_tagged_state_does_not_hold(question: str) -> None:
    verdict = check_placement(question, Placement(kind="proceed", answer="yes"))
    assert verdict.answer is None and verdict.kind is VerdictKind.UNKNOWN, verdict
    assert "whether something is so" in verdict.why, verdict


# Near misses: a go-ahead with a state before it, a tag on the asker's own step, a tag
# alone after the step's sentence, and "all good" asked of the plan.
GO_AHEADS = [
    "Loaves are cooling. Continue?",
    "Ward list printed — ok to go on with the next ward's list?",
    "Looks fine, shall I go on?",
    "Timetable draft reads well. I'll go on with the next page, right?",
    "I'll reread the manifest notes once more. OK?",
    "Bakery tally done, keep going with the next shop, yep?",
    "All good with the plan?",
    "All good?",
    "Lint is clean, what next?",
    # a tag alone after the asker's step asks of that step; a "go?" asks to go on
    "I'll reread the shift handover notes. OK?",
    "Sorting the school trip consent forms by class now, as planned. Alright?",
    "We'll re-run the bakery stock count. Fine?",
    "Next step is a unit test for the berth planner. Go?",
]


@pytest.mark.parametrize("question", GO_AHEADS)
def test_a_go_ahead_with_a_state_before_it_still_goes_on(question: str) -> None:
    goes_on(question)
