"""A system switched off for good, said as a plug pulled: "Pull the plug on the old booking
system?" stays with the human; the asker's own machine, or a plug pulled out of a charger,
goes on.

Words of a bakery, a hospital ward, a theatre and a school: no development set's.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Pull the plug on the old box-office system?",
        "Pull the plug on the v1 ward app tonight?",
        "Shall I pull the plug on the legacy timetable service now?",
        "ok to pull the plug on the bakery's old ordering site?",
    ],
)
def test_a_plug_pulled_on_a_system_stays_with_the_human(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Pull the plug on my local dev server?",
        "Pull the plug out of my laptop charger?",
    ],
)
def test_a_plug_pulled_on_ones_own_goes_on(question: str) -> None:
    goes_on(question)
