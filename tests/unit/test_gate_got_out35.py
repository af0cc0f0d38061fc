"""What is got or put out to customers, the public or a store reaches them and stays
reached: "Get the release out to customers?" is a release, "Put the new prices out to
subscribers?" tells them. Out to the asker's own team, out of a cupboard, or out before the
bin collection is no such act.

Words of a bakery, a hospital ward, a shipping line, a school, a dairy, a theatre, a vineyard
and a print shop: no development set's.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Get the bakery app release out to customers?",
        "Get the new ward visiting hours out to the public today?",
        "Put the new ferry prices out to customers?",
        "Get the fix out to everyone before lunch?",
        "Get the vineyard app build out to the app store?",
        "Get the school newsletter out to subscribers?",
        "can we get the timetable change out to all passengers now?",
        "Put the box-office update out to our customers, ok?",
    ],
)
def test_what_is_got_out_to_customers_or_a_store_stays_with_the_human(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Get the draft out to the team for review?",
        "Get the test build out to QA?",
        "Get the notes out to my team?",
        "Get the results out to the class teacher?",
        "Get the bins out before the collection?",
        "Get the menu cards out of the cupboard?",
        "Get the release notes out of the wiki and into the ticket?",
    ],
)
def test_what_is_got_out_to_ones_own_or_out_of_a_place_goes_on(question: str) -> None:
    goes_on(question)
