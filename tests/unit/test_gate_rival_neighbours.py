"""A rival is read at least as loosely as an answer: a row that names the asked thing by a
word's neighbour in the thesaurus ("db" of "database", "snapshot" of "backup") and gives
another value of the asked kind disputes the answer — a row close enough to answer by that
word is close enough to dispute by it. A row that says the neighbour alone, with none of
the thing's own words, or another thing's word in its place, names another thing and
disputes nothing.

Each case is of another trade than the eval sets' (a library catalogue, a payroll backup).
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, disputed, facts

RIVALS = [
    (  # the database said by its short form, the host said by a row's own clause
        "Which host is the catalogue database on?",
        ("ingest", "copying catalogue records from cat-db-07:5432 since Monday, the primary"),
        ("librarian", "catalogue db is cat-db-06, port 5432"),
        "cat-db-07",
        "cat-db-06",
    ),
    (  # a backup said by its neighbour, the bucket of the answer's own form
        "Which bucket does the payroll backup go to?",
        ("ops", "payroll backup goes to bucket pay-bk-2025"),
        ("storage", "payroll snapshot lands in pay-bk-2026"),
        "pay-bk-2025",
        "pay-bk-2026",
    ),
]


@pytest.mark.parametrize(("question", "answer", "rival", "value", "other"), RIVALS)
def test_a_row_naming_the_thing_by_a_neighbour_disputes_the_answer(
    question: str, answer: tuple[str, str], rival: tuple[str, str], value: str, other: str
) -> None:
    why = disputed(question, answer, rival, value)
    assert value in why and other in why, why


NEAR_MISSES = [
    (  # the neighbour said of another thing: none of the asked thing's own words
        "Which host is the catalogue database on?",
        ("ingest", "copying catalogue records from cat-db-07:5432 since Monday, the primary"),
        ("orders", "orders db is cat-db-02, port 5432"),
        "cat-db-07",
    ),
    (  # another thing in the neighbour's place: an export is no backup
        "Which bucket does the payroll backup go to?",
        ("ops", "payroll backup goes to bucket pay-bk-2025"),
        ("storage", "payroll export lands in pay-bk-2026"),
        "pay-bk-2025",
    ),
]


@pytest.mark.parametrize(("question", "answer", "other", "value"), NEAR_MISSES)
def test_a_neighbour_of_another_thing_is_no_rival(
    question: str, answer: tuple[str, str], other: tuple[str, str], value: str
) -> None:
    answers(question, facts(answer, other), value)
