"""What every customer pays for, changed for them, stays with the human: "Bump everyone's plan
to premium?", "Change every subscriber's plan to the new tier?". A plan that nobody pays for
(a lesson plan, a seating plan, a test plan) goes on.

Words of a gym, a theatre, a school, a dairy box scheme and a ski resort: no development
set's.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Bump everyone's gym plan to premium?",
        "Change every subscriber's veg box plan to the large tier?",
        "Switch all customers' billing to monthly from Friday?",
        "Set the members' plan to the winter tier?",
        "Move the season-pass plan to gold for every client?",
        "Upgrade the theatre members' subscription tier to patron?",
    ],
)
def test_what_every_customer_pays_for_changed_stays_with_the_human(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Change the lesson plan for all classes?",
        "Update the seating plan for the whole staff party?",
        "Update the test plan for every suite?",
        "Change the pricing page's typo?",
    ],
)
def test_a_plan_nobody_pays_for_goes_on(question: str) -> None:
    goes_on(question)
