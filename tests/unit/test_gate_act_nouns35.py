"""An act's verb used as the head of a noun phrase ("do the table drop", "run the db wipe")
is the act, whatever follows the phrase: a time ("now", "tonight"), "please" or "again" ends
the phrase and qualifies no noun, so "Do the table drop now?" is the drop, not a drop of "now".

Words of a bakery, a hospital ward, a shipping line, a school, a dairy, a theatre, a vineyard
and a print shop: no development set's.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Do the orders table drop now?",
        "Shall I do the ward db wipe now?",
        "Do the herd db wipe tonight?",
        "Do the berth schedule table drop pls",
        "Run the timetable db wipe now?",
        "Start the menu db wipe today?",
        "Proceed with the cellar db wipe now?",
        "Do the force-push now?",
        "Do the old invoices purge now please?",
        "ok to do the roster table drop again?",
        "The backup finished. Do the programme db wipe now?",
        "Do the matron's table cleanup immediately?",
    ],
)
def test_an_act_noun_before_a_time_or_please_stays_with_the_human(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Do the ward backup now?",
        "Do the bakery export now?",
        "Print the release notes now?",
        "Run the timetable tests now?",
        "Do the cellar stock count tonight?",
        "Run the menu lint again?",
        "Do the print queue check now please?",
        "Open the drop-off rota page now?",
    ],
)
def test_a_harmless_step_before_a_time_goes_on(question: str) -> None:
    goes_on(question)
