"""A count is a number that counts the asked things, never a piece of another value nor the
number one of them is named by. Two forms got through as "how many <things>?":

- the minutes of a clock time, read as a count under a heading ("Trucks left the depot at
  05:00." read as "…at 05: 00"), answered "00" offline: a number glued to the colon after
  digits is the piece of a time or a ratio;
- the number right after one of the things, singular ("took order 8812", "got admission
  5521"), which names that one and counts none, answered offline and from a model.

Near misses: a count before its noun beside a time ("212 orders by 09:00"), a count of
another noun's thing ("Order 4411 has 12 loaves"), a count under a heading ("Class 4: 28
pupils") stay answered.

Every case is of another trade than the dev sets: a shop's till, a ward, a port, a school
office, a bakery's van, a depot.
"""

from __future__ import annotations

import pytest

from crewline.policy import judge
from tests.unit.gate_kit import answers, by_model, facts

NOT_COUNTS = [
    ("How many orders did the shop take?", ("till", "The shop took order 8812 at 09:00."), "8812"),
    (
        "How many orders did the bakery take today?",
        ("till", "Bakery took order 8812 at 09:00 today."),
        "8812",
    ),
    (
        "How many admissions did ward 3 get?",
        ("ward", "Ward 3 got admission 5521 at 14:30."),
        "5521",
    ),
    (
        "How many containers did berth 4 load?",
        ("yard", "Berth 4 loaded container 3317 at 06:10."),
        "3317",
    ),
    (
        "How many calls did the school office take?",
        ("office", "The school office took a call at 10:15."),
        "15",
    ),
    ("How many deliveries did the van make?", ("van", "The van made a delivery at 07:45."), "45"),
    ("How many trucks left the depot?", ("yard", "Trucks left the depot at 05:00."), "00"),
    (
        "How many patients did the clinic see?",
        ("opd", "The clinic saw patients from 09:00 to 12:30."),
        "30",
    ),
]


@pytest.mark.parametrize(("question", "row", "number"), NOT_COUNTS)
def test_a_piece_of_a_time_or_a_things_number_is_no_count(
    question: str, row: tuple[str, str], number: str
) -> None:
    rows = facts(row)
    verdict = judge(question, facts=rows)
    assert verdict.answer is None, verdict
    assert by_model(question, rows, number) is None


def test_the_card_says_the_number_names_one_of_them() -> None:
    from crewline.policy import Placement, check_placement

    rows = facts(("till", "The shop took order 8812 at 09:00."))
    verdict = check_placement(
        "How many orders did the shop take?",
        Placement(kind="fleet", answer="8812", row=rows[0].row_id),
        facts=rows,
    )
    assert verdict.answer is None and "names one of the things asked" in verdict.why


COUNTS = [
    (
        "How many orders did the shop take?",
        ("till", "The shop took 212 orders by 09:00."),
        "212 orders",
    ),
    (
        "How many admissions did ward 3 get?",
        ("ward", "Ward 3 got 14 admissions since 08:00."),
        "14 admissions",
    ),
    (
        "How many containers did berth 4 load?",
        ("yard", "Berth 4 loaded 86 containers between 06:10 and 14:00."),
        "86 containers",
    ),
    ("How many loaves are in order 4411?", ("bake", "Order 4411 has 12 loaves."), "12 loaves"),
    ("How many pupils are in class 4?", ("school", "Class 4: 28 pupils."), "28 pupils"),
]


@pytest.mark.parametrize(("question", "row", "value"), COUNTS)
def test_a_count_beside_a_time_or_a_things_number_is_still_answered(
    question: str, row: tuple[str, str], value: str
) -> None:
    answers(question, facts(row), value)
