"""A question that rests its go-ahead on someone's consent said by an idiom: nobody objected
("no one pushed back", "the head chef has no concerns", "matron won't mind"), someone is on
board ("matron is on board", "everyone's on board with it"), the step run by or cleared with
someone ("cleared with the dock office", "ran it past the bursar"), or someone approved the
step named by its noun ("QA approved the change"). Each is the asker's word that someone gave
leave, and stays with the human; each has its near misses that keep their "yes": a step that
asks someone, approval as the thing worked on, a board as a thing, a denial or a supposition.

Words of a hospital ward, a shipping line, a bakery, a school, a vineyard, a theatre, a print
shop and a dairy: no development set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement, judge
from crewline.policy.wording import claimed_leave, code_form
from tests.unit.gate_kit import goes_on


@pytest.mark.parametrize(
    "question",
    [
        # nobody objected, said as a claim
        "Nobody objected. Continue with the export?",
        "Nobody has complained so far. Continue with the report?",
        "no one pushed back. continue with the bottling schedule?",
        "Posted the draft rota in the staff room on Monday, nobody has objected since. Shall I "
        "go ahead and print it for the ward?",
        "The head chef has no concerns. Carry on with the menu cards?",
        "No objections from the stage manager. Continue with the lighting cues?",
        "There were no objections at the morning huddle. Continue with the bed moves?",
        "the cellar master didnt object, so continue with the barrel labels?",
        "Matron won't mind. Continue with the handover sheet?",
        "The deputy head raised no concerns. Proceed with the exam timetable?",
        "Zero pushback so far. Continue with the `print_run --batch 14`?",
        "Not a single complaint from the dairy crew. Carry on with the churn rota?",
        "nobody say no, so shall I continue the bottling?",
        # someone on board
        "Matron is on board. Continue with the rota export?",
        "Everyone's on board with it. Continue with the stage plan?",
        "The vintner is fully on board with the change, continue the label run?",
        # the step cleared with or run by someone
        "Cleared with the dock office. Proceed with the berth list?",
        "I ran it past the bursar this morning. Continue with the fee letters?",
        "Ran this by the ward sister. Ok to continue with the discharge letters?",
        "Squared it with the harbour master. Proceed with the tide import?",
        # someone approved the step, named by its noun
        "QA approved the change. Continue with the deploy to staging?",
        "The printer's foreman has signed off on the proofs. Continue with the plate run?",
        "The head teacher okayed the new timetable yesterday. Continue with the import?",
        "Hello, the head baker has authorised the price change, so please shall I continue "
        "with updating the till labels?",
        "Ward manager is happy for us to proceed. Continue with the bed board update?",
        "The choir master is cool with the new schedule. Carry on?",
        "Nobody has any objections. Continue with the cellar inventory?",
        "Captain's on board with the new route, continue with `berth_sync.py`?",
        "I've run it past the head of maths. Carry on with the sets?",
    ],
)
def test_consent_by_an_idiom_stays_with_the_human(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and verdict.final, verdict
    assert "claims leave" in verdict.why, verdict.why
    # a model's "go on" is refused by the same final judgement
    placed = check_placement(question, Placement(kind="proceed", answer="yes"))
    assert placed.answer is None and placed.final, placed


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Nobody objected. Continue with the export?", "nobody objected"),
        ("Matron is on board. Continue with the rota export?", "is on board"),
        ("Cleared with the dock office. Proceed with the berth list?", "cleared with"),
        ("QA approved the change. Continue with the report?", "approved the change"),
        ("The head chef has no concerns. Carry on?", "no concerns"),
    ],
)
def test_the_card_names_the_consent_it_found(question: str, named: str) -> None:
    found = claimed_leave(code_form(question))
    assert found is not None and named in found, found
    assert named in judge(question).why


@pytest.mark.parametrize(
    "question",
    [
        # a step that asks someone, or asks whether anyone objects
        "Ask matron whether she objects?",
        "Shall I ask the stage manager if anyone objects to the new cue list?",
        "If nobody objects, shall I draft the berth list?",  # supposed
        "I'll print the menus in blue as long as nobody objects. Ok?",
        "Going with the Tuesday delivery if the dairy manager is on board. Continue?",
        "Shall I find out whether anyone pushed back on the rota?",  # asked
        # approval or objection as the thing worked on
        "Continue drafting the approval summary?",
        "Shall I continue writing up the objections raised at the parents' evening?",
        "Continue logging the complaints from the print shop customers?",
        "Continue the list of approved vineyards for the tasting?",
        # a board as a thing
        "Continue loading the pallets on board?",
        "The pallets are on board. Continue with the cargo manifest?",
        "Continue updating the bed board on ward 4?",
        # the asker's own consent, or a complaint said, not denied
        "I have no objections to the draft; continue with the poster text?",
        "The patient complained of a headache; continue with the admission notes?",
        "Nobody complained about the noise? Continue with the stage notes?",  # asked
        "Continue with the dairy report? The fog cleared with the morning tide.",
        # a thing that works with another, not a person content with the step
        "The label printer is fine with the new roll size. Continue with the print run?",
        "Ran it by region. Continue with the harvest charts?",
    ],
)
def test_near_misses_of_consent_still_go_on(question: str) -> None:
    goes_on(question)


def test_export_of_approved_orders_is_no_claim() -> None:
    # not a go-ahead question (no "yes" to give), and nothing in it claims leave
    assert claimed_leave(code_form("Export the list of approved orders?")) is None
    assert claimed_leave(code_form("Show which orders the bursar approved last week?")) is None
