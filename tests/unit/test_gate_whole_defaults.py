"""word32: a default answer is a whole value phrase of the question — never a function word,
never a piece of a token or of a number with its unit, never words taken across a clause's
mark, never the object of a step the asker keeps doing; a go-ahead is answered "yes", and
where no whole value can be read the question stays with the human. Attacks in the words of
a bakery, a hospital ward, a shipping line and a school."""

from __future__ import annotations

import pytest

from crewline.policy import Placement, VerdictKind, check_placement, judge
from crewline.policy.defaults import no_value, not_a_value, stated

from .gate_kit import goes_on


def _no_default(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT, verdict
    assert stated(question) is None


# ------------------------------------------------ a function word read as the default


@pytest.mark.parametrize(
    "question",
    [
        "Bread proof time of 45 min was the usual until the new flour arrived; which now?",
        "Sailing at 06:00 was the usual until the harbour master moved it; which now?",
        "Ward rounds at 07:00 were our standard before the rota changed?",
        "Fish pie as usual, unless the kitchen says otherwise?",
        "Which seating plan for the exam hall? Rows of six is the default of our old head.",
    ],
)
def test_a_function_word_is_no_default(question: str) -> None:
    _no_default(question)
    assert "function word" in (no_value(question) or "")


def test_the_card_says_the_function_word_it_found() -> None:
    verdict = judge("Bread proof time of 45 min was the usual until the new flour arrived?")
    assert verdict.kind is VerdictKind.UNKNOWN
    assert "“until” is a function word" in verdict.why
    verdict = judge("Container bay B12 was the default, but the port closed it")
    assert verdict.kind is VerdictKind.UNKNOWN
    assert "ends in the function word “was”" in verdict.why


# ------------------------------------------------ a piece of a token or of a measure


@pytest.mark.parametrize(
    "question",
    [
        "Reefer set to -18 C, same as last voyage?",
        "Proofer at 30 C, same as yesterday?",
        "Container bay B12 was the default, but the port closed it",
        "Ward W3 was the default, but infection control closed it",
        "Exam room L204 was the default, but facilities closed it",
    ],
)
def test_a_piece_of_a_value_is_no_default(question: str) -> None:
    _no_default(question)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Proofer at 30 C, same as yesterday?", "C"),
        ("Reefer set to -18 C, same as last voyage?", "C"),
        ("Room B12 for the resit, as always?", "12"),
        ("Keep going with the stocktake on my tablet, as usual?", "my"),
        ("Ward W3 for the new admissions, as always?", "3"),
    ],
)
def test_a_model_placing_a_piece_or_a_function_word_is_refused(question: str, value: str) -> None:
    verdict = check_placement(question, Placement(kind="stated_default", answer=value))
    assert verdict.kind is VerdictKind.UNKNOWN and verdict.answer is None, verdict
    assert "did not hold" in verdict.why


# ------------------------------------------------ words taken across a clause's mark


@pytest.mark.parametrize(
    ("question", "value"),
    [
        (
            "Crust for the pies in my test bake: shortcrust (our default) or puff per order?",
            "shortcrust",
        ),
        ("Dressing for the wound in bay 4: gauze (our default) or foam per nurse?", "gauze"),
        (
            "Wrap for the crates on my trial run: stretch film (our default) or straps per client?",
            "stretch film",
        ),
        ("Rounding for the class averages: 1 decimal place (default)?", "1 decimal place"),
    ],
)
def test_a_default_phrase_stays_in_its_clause(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


# ------------------------------------------------ a go-ahead to keep doing a step


@pytest.mark.parametrize(
    "question",
    [
        "Keep going with the stocktake on my tablet?",
        "Keep checking the fridge temperatures on our ward laptop?",
        "Keep loading the manifest on my terminal copy?",
        "Keep marking the essays on our shared drive?",
        "Keep drafting the letter to parents about the school trip?",
        "Keep counting the stock of flour sacks?",
        "Keep checking the manifest of reefer boxes?",
    ],
)
def test_keep_doing_a_step_is_a_go_ahead_not_a_default(question: str) -> None:
    goes_on(question)


# ------------------------------------------------ near misses: whole values still answered


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Sort the delivery notes by date as usual?", None),
        ("Keep the class size at 24 pupils as usual?", None),
        ("Oven at 180 C as usual?", "180 C"),
        ("Keep using the pallet count of 40?", "40"),
        ("Keep the proof time of 45 min?", "45 min"),
        ("Exam room L204 as always?", "L204"),
        ("Proof time of 45 min like last time?", "45 min"),
        ("Sourdough as usual for the Saturday bake?", "Sourdough"),
    ],
)
def test_whole_values_are_still_answered(question: str, value: str | None) -> None:
    verdict = judge(question)
    if value is None:
        assert verdict.kind in (VerdictKind.OBVIOUS_DEFAULT, VerdictKind.PROCEED), verdict
        assert verdict.answer is not None
        assert not_a_value(question, verdict.answer) is None or verdict.answer == "yes"
    else:
        assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Oven at 180 C, same as last week?", "180 C"),
        ("Exam room L204 as always?", "L204"),
        ("Proof time of 45 min like last time?", "45 min"),
        ("Sort the delivery notes by date as usual?", "by date"),
        ("Ward fridge alarm on by default, ok?", "on"),
    ],
)
def test_a_whole_value_is_kept_by_the_rule(question: str, value: str) -> None:
    assert not_a_value(question, value) is None
