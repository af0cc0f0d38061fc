"""An act's verb before the rows it is done to is a step, not a bare noun phrase asking a
value: "Delete rows in the orders table?" deletes them, where "Rows in the orders table?" and
"Deleted rows in the orders table last night?" ask how many.

Words of a bakery, a hospital ward, a shipping line, a school and a dairy: no development
set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import judge
from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Delete rows in the bakery orders table?",
        "Delete duplicate rows in the prod herd table, keeping the newest?",
        "Merge duplicate rows in the production pupils table: `mean` (default) / `max`?",
        "Purge rows in the ward audit table older than a year?",
        "Drop rows in the berth bookings table with no vessel?",
        "Update rows in the prod timetable table, keeping the newest?",
        "pls wipe rows in the theatre seats table from last season?",
    ],
)
def test_an_act_on_rows_stays_with_the_human(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Rows in the bakery orders table?",
        "Duplicate rows in the herd table?",
        "Deleted rows in the ward audit table last night?",
        "Replica lag in the dairy prod db?",
        "Release date for the new timetable app?",
    ],
)
def test_a_noun_phrase_asking_a_value_is_no_step(question: str) -> None:
    assert careful_act(question) is None, question
    assert judge(question).answer is None, question
