"""Rival rows the fleet reader missed: a row that names the answer only to deny it took
effect ("the v2 cutover never got merged", "was reverted") and says the thing by a clipped
word ("recon" for "reconciliation"); and a row that gives the same time on another weekday
("Thursday 16:00" against "Wednesday 16:00"). The near misses: each row alone still answers,
and a row that denies another thing's change, or gives the same weekday, disputes nothing.

In a bank's back office, a print shop and a school, never the eval sets' sentences."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, facts, no_answer

_USES = ("ledger", "Bank reconciliation uses the FX-RATES-V2 feed now.")


@pytest.mark.parametrize(
    "denial",
    [
        "recon is still on FX-RATES-V1 — the FX-RATES-V2 switch never got merged.",
        "recon runs on FX-RATES-V1 again, the FX-RATES-V2 change was reverted.",
    ],
)
def test_a_row_that_denies_the_answer_took_effect_disputes_it(denial: str) -> None:
    no_answer(
        "Which feed does the bank reconciliation use?",
        facts(_USES, ("treasury", denial)),
    )


@pytest.mark.parametrize(
    "other",
    [
        # a row about another thing's change
        "the FX-RATES-V2 switch for the payroll export never got merged.",
        # no denial: the same answer said again
        "recon moved to FX-RATES-V2 last week.",
    ],
)
def test_an_uncontested_answer_still_answers(other: str) -> None:
    question = "Which feed does the bank reconciliation use?"
    answers(question, facts(_USES), "FX-RATES-V2")
    answers(question, facts(_USES, ("treasury", other)), "FX-RATES-V2")


def test_the_same_time_on_another_weekday_disputes_it() -> None:
    no_answer(
        "When does the term 2 timetable freeze?",
        facts(
            ("office", "reminder: the term 2 timetable freeze is Tuesday 15:00."),
            ("deputy", "Timetable freezes Friday 15:00 for term 2, as every term."),
        ),
    )


def test_the_same_weekday_said_again_still_answers() -> None:
    question = "When does the term 2 timetable freeze?"
    first = ("office", "reminder: the term 2 timetable freeze is Tuesday 15:00.")
    answers(question, facts(first), "Tuesday 15:00")
    answers(
        question,
        facts(first, ("deputy", "Timetable freezes Tuesday 15:00 for term 2, as every term.")),
        "Tuesday 15:00",
    )
