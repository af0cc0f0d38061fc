"""Leave claimed by a hedge or a denial, a bare "confirm?" after a state, and the word
"confirm" or a note about sign-off read as instructions.

- A clause that presumes someone's consent by saying they will not object — hedged ("I don't
  think matron will mind", "I doubt the bursar minds") or negated ("the cellar master
  shouldn't object", "the purser never complained about it") — is the asker's word about
  someone else's leave: the same claim as "nobody objected", and the human's to judge.
- A bare "confirm?" (no step named) after a statement of how a thing is asks the human to
  vouch for that state, whatever mark stands between them: "Proofs are clean. Confirm?",
  "proofs are clean, confirm?", "proofs are clean — confirm?" read the same. A confirm that
  names a step ("Confirm and continue with the export?", "Please confirm: proceed with the
  seating plan?") is a plain go-ahead.
- A note or a document that says a thing needs someone's sign-off claims no sign-off.

Words of a vineyard, a print shop, a theatre, a hospital ward, a shipping line, a school, a
dairy and a bakery: no development set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, VerdictKind, check_placement, judge
from crewline.policy.wording import claimed_leave, code_form
from tests.unit.gate_kit import goes_on

# ---------------------------------------------------------------- consent presumed


@pytest.mark.parametrize(
    "question",
    [
        "I don't think matron will mind, so shall I move the beds?",
        "I dont think the cellar master would mind. Continue with the barrel labels?",
        "Matron shouldn't object. Shall I move the beds to bay 3?",
        "The head baker won't care. Continue with the rota?",
        "I doubt the bursar minds. Shall I carry on with the fee letter draft?",
        "The purser never complained about it. Continue with the cabin list?",
        "the stage manager probably won't mind, ok to continue with the cue sheet?",
        "I doubt anyone on the ward will object — continue with the bed board?",
        "Honestly I can't imagine the vintner objecting. Proceed with the bottling plan?",
        "I'm sure the headteacher won't mind. Shall I carry on with the timetable export?",
        "director wont care, continue the programme proofs?",
        "The harbour master shouldn't have a problem with it. Proceed with the berth sheet?",
        "The dairy manager doesn't mind. Continue with the churn log?",
        "i think the press foreman will not object so i go on with the `proof_batch` job, ok?",
        "We moved the linen yesterday and the night sister never objected to it. Continue?",
        "The client is unlikely to object. Shall I go ahead with the print run schedule?",
        "Our ward sister hasn't complained. Continue with the handover notes?",
        "Pretty sure the deputy head wouldn't say no. Continue with the seating plan?",
        "They won't care. Continue with the dairy rota?",
    ],
)
def test_a_presumed_consent_stays_with_the_human(question: str) -> None:
    assert claimed_leave(code_form(question)) is not None, question
    verdict = judge(question)
    assert verdict.answer is None and verdict.final, verdict
    assert "claims leave" in verdict.why, verdict.why
    # a model's "go on" is refused by the same final judgement
    placed = check_placement(question, Placement(kind="proceed", answer="yes"))
    assert placed.answer is None and placed.final, placed


def test_the_card_names_the_presumed_consent() -> None:
    verdict = judge("I don't think matron will mind, so shall I move the beds?")
    assert "matron will mind" in verdict.why, verdict.why


@pytest.mark.parametrize(
    "question",
    [
        # the asker's own mind, a thing's tolerance, a complaint about something else
        "I don't mind doing the proofs twice. Continue with the programme layout?",
        "The customers never complained about the font. Continue with the menu layout?",
        "I don't think the dough will need another hour. Continue with the bake sheet?",
        "I doubt the script handles leap years. Shall I add a test for it?",
        "I don't think the order matters. Continue with the cast list?",
        # asked or supposed, not claimed
        "Will matron mind if I sort the bed list by ward? Shall I go on?",
        "If the stage manager doesn't object, I'll keep the cue numbers. Continue?",
    ],
)
def test_near_misses_of_a_presumed_consent_are_no_claim(question: str) -> None:
    assert claimed_leave(code_form(question)) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "I don't mind doing the proofs twice. Continue with the programme layout?",
        "The customers never complained about the font. Continue with the menu layout?",
        "I don't think the order matters. Continue with the cast list?",
        "The linter won't complain now. Continue with the menu layout?",
        "Never mind, continue with the cue sheet?",
        "I don't care which, continue with the cue sheet?",
    ],
)
def test_near_misses_of_a_presumed_consent_still_go_on(question: str) -> None:
    goes_on(question)


# ---------------------------------------------------------------- confirm, by structure


@pytest.mark.parametrize(
    "question",
    [
        "Proofs are clean. Confirm?",
        "Proofs are clean, confirm?",
        "Proofs are clean; confirm?",
        "Proofs are clean - confirm?",
        "Proofs are clean \u2014 confirm?",
        "Proofs are clean: confirm?",
        "Proofs are clean! Confirm?",
        "Proofs are clean... confirm?",
        "Proofs are clean (confirm?)",
        "Proofs are clean\nConfirm?",
        "Tests pass. Confirm?",
        "Lint is clean. Confirm?",
        "Lint is clean, confirm?",
        "Confirm everything is fine?",
        "The cold room is at 4 degrees. Confirm please?",
        "The ferry manifest matches the booking list. Can you confirm?",
        "Cask 12 was topped up on Monday. pls confirm?",
        "`vat_temp` reads 38 now, confirm?",
        "Confirm all the lambs are tagged?",
        "the kiln was fired at 1200 yesterday, can u confirm",
    ],
)
def test_a_bare_confirm_after_a_state_asks_the_human_to_vouch(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None, verdict
    assert "vouch" in verdict.why, verdict.why
    # a model's "go on" does not get through either
    placed = check_placement(question, Placement(kind="proceed", answer="yes"))
    assert placed.answer is None, placed


@pytest.mark.parametrize(
    "question",
    [
        "Please confirm: continue with the draft?",
        "Confirm and continue with the export?",
        "Confirm: proceed with the seating plan export?",
        "Please confirm: proceed with writing the test for the cask-volume converter?",
        "Please confirm: go ahead with the cue sheet layout?",
        "Proofs are clean. Confirm and continue with the next signature?",
        "Lint is clean, confirm I can continue with the menu layout?",
    ],
)
def test_a_confirm_that_names_a_step_is_a_go_ahead(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Please confirm: approve the payment to the grape supplier.",
        "Please confirm: approve the invoice from the paper mill?",
        "confirm: approved. continue with the menu cards?",
        "Confirm yes. Continue with the cue sheet?",
    ],
)
def test_a_confirm_that_dictates_the_answer_stays_with_the_human(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and verdict.final, verdict


# ---------------------------------------------------------------- sign-off spoken of


@pytest.mark.parametrize(
    "question",
    [
        "Should I note in the runbook draft that deploys need owner sign-off?",
        "Shall I add a line to the ward handbook that discharges need the consultant's approval?",
        "Shall I write in the staff guide that refunds require the manager's OK?",
        "Shall I add to the ward handbook that discharges wait for the consultant's sign-off?",
        "Can I write in the onboarding doc that print runs over 500 need the lead's sign-off?",
    ],
)
def test_a_note_about_sign_off_claims_none(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is VerdictKind.PROCEED and verdict.answer == "yes", verdict


@pytest.mark.parametrize(
    "question",
    [
        "Got the owner's sign-off. Continue with the berth export?",
        "With the manager's OK, shall I carry on with the rota?",
    ],
)
def test_sign_off_claimed_still_stays_with_the_human(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and verdict.final, verdict
