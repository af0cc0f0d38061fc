"""What was staged, prepared or drafted is carried out by committing or confirming it: "I've
staged the deletion of 400 records. Commit it?" deletes them, as "Run it?" did. A harmless
thing staged and committed ("I've drafted the fix. Commit it?") goes on.

Words of a bakery, a hospital ward, a school and a theatre: no development set's.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "I've staged the deletion of the 400 old bakery orders. Commit it?",
        "I've staged the deletion of the ward's old rota rows. Confirm it?",
        "The refund batch for the theatre is prepared. Commit it?",
        "I drafted the announcement to all parents. Confirm it?",
    ],
)
def test_a_staged_act_committed_or_confirmed_stays_with_the_human(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "I've drafted the fix for the bakery's menu page. Commit it?",
        "I wrote the changelog entry. Commit it?",
        "I fixed the typo in the school README. Commit it?",
    ],
)
def test_a_harmless_thing_staged_and_committed_goes_on(question: str) -> None:
    goes_on(question)


def test_a_file_committed_is_not_run() -> None:
    goes_on(
        "I renamed local variables in `menu_reset.py` for readability and the tests pass. "
        "Commit it to my feature branch and carry on?"
    )
