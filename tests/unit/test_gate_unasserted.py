"""A value a member does not assert is no fact: one said in a question ("Does ward 4 have 24
beds?"), as hearsay or a likelihood ("likely", "seems", "I'm told", "last I heard", "can
anyone confirm?"), or under a modal of what ought to, may or would be ("should have 24 beds",
"was supposed to leave at 09:30", "could be 55%"). The reader gave each as a fact, offline
and from a model. A question that asks by the modal itself ("when *should* the cycle end?")
is answered from the row that says it so.

Near misses: a modal or a condition after the value, in another clause ("on port 8443 if
you need to poke it", "182 pupils, which would fill the hall"), the month May, a question
in another sentence of the row, stay answered.

Every case is of another trade than the dev sets: a ward, a ferry, a bakery's van, a school,
a shop.
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement, judge
from tests.unit.gate_kit import answers, by_model, facts

UNASSERTED = [
    ("How many beds does ward 4 have?", "Does ward 4 have 24 beds?", "24"),
    ("How many beds does ward 4 have?", "Ward 4 has 24 beds?", "24"),
    ("How many beds does ward 4 have?", "Ward 4 should have 24 beds once the refit is done.", "24"),
    ("How many beds does ward 4 have?", "Ward 4 is supposed to have 24 beds.", "24"),
    ("How many beds does ward 4 have?", "Ward 4 may have 24 beds.", "24"),
    ("How many beds does ward 4 have?", "Ward 4 has 24 beds, I'm told.", "24"),
    ("When does the ferry leave?", "The ferry was supposed to leave at 09:30.", "09:30"),
    ("When does the ferry leave?", "The ferry would normally leave at 09:30.", "09:30"),
    ("What time does the bread van arrive?", "The bread van should arrive at 06:15.", "06:15"),
    (
        "What time does the bread van arrive?",
        "The bread van ought to arrive around 06:15.",
        "06:15",
    ),
    (
        "What's the pass mark for the chemistry exam?",
        "The pass mark for the chemistry exam is likely 55%.",
        "55%",
    ),
    (
        "What's the pass mark for the chemistry exam?",
        "The pass mark for the chemistry exam could be 55%.",
        "55%",
    ),
    (
        "What's the pass mark for the chemistry exam?",
        "The pass mark for the chemistry exam is 55% last I heard.",
        "55%",
    ),
    (
        "What's the pass mark for the chemistry exam?",
        "The pass mark for the chemistry exam is around 55%, need to double-check.",
        "55%",
    ),
    (
        "How many loaves did the Elm Street shop sell yesterday?",
        "Someone said the Elm Street shop sold 340 loaves yesterday, can anyone confirm?",
        "340",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), UNASSERTED)
def test_a_value_said_as_a_question_hearsay_or_what_ought_to_be_is_no_fact(
    question: str, row: str, value: str
) -> None:
    rows = facts(("member", row))
    verdict = judge(question, facts=rows)
    assert verdict.answer is None, verdict
    assert by_model(question, rows, value) is None


def test_the_card_says_the_row_does_not_assert_it() -> None:
    rows = facts(("beds", "Ward 4 should have 24 beds once the refit is done."))
    verdict = check_placement(
        "How many beds does ward 4 have?",
        Placement(kind="fleet", answer="24", row=rows[0].row_id),
        facts=rows,
    )
    assert verdict.answer is None and "what should be" in verdict.why
    assert (
        "no bed in it stated as a fact" in judge("How many beds does ward 4 have?", facts=rows).why
    )


NEAR_MISSES = [
    (
        "When should the LYO-1 cycle end?",
        "LYO-1 cycle should end 2024-10-19 03:30.",
        "2024-10-19 03:30",
    ),
    (
        "Which port is the staging portal on?",
        "staging portal is on port 8443 if you need to poke it",
        "8443",
    ),
    ("How many beds does ward 4 have?", "Ward 4 has 24 beds; shout if you need more.", "24 beds"),
    (
        "How many loaves did the shop sell in May?",
        "The shop sold 3,400 loaves in may.",
        "3,400 loaves",
    ),
    ("Which berth is MV Aster at?", "Anyone need MV Aster? She is at berth 7.", "7"),
    (
        "How many pupils are in Year 7?",
        "Year 7 has 182 pupils, which would fill the hall.",
        "182 pupils",
    ),
    (
        "When does the bakery open?",
        "The bakery opens at 06:00, and you could come earlier for pickups.",
        "06:00",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), NEAR_MISSES)
def test_a_value_asserted_beside_a_modal_or_a_question_is_still_answered(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("member", row)), value)


def test_a_value_said_without_asserting_it_still_disputes_another() -> None:
    rows = facts(
        ("till", "The bakery's end-of-day close runs at 23:30."),
        ("van", "bakery end-of-day close kicks off at 22:00 afaik, that's when the van leaves"),
    )
    verdict = judge("Which time is the bakery's end-of-day close?", facts=rows)
    assert verdict.answer is None and "22:00" in verdict.why, verdict


def test_a_value_only_supposed_beside_the_asserted_one_disputes_nothing() -> None:
    """The near miss of the rule above: a row that asserts its value and says what another
    case would give ("a rollback would land on v3.1") is answered with the asserted one."""
    rows = facts(
        (
            "ovens",
            "The deck oven firmware is pinned to v3.2 in the recipe file; "
            "a rollback would land on v3.1.",
        )
    )
    answers("Which oven firmware release does the recipe file pin right now?", rows, "v3.2")
