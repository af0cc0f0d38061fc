"""A calendar period the question names against another the row names (``fleet/periods.py``):
a month, a quarter, a numbered week or a year asked is not answered by a row of another of
the same scale — "may" read as the month where it stands as one, never the modal. Each on
sentences of their own settings, with the neighbours that still answer."""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement
from crewline.policy.fleet import Refusal
from crewline.policy.fleet.periods import calendar_contradicted, calendar_periods
from tests.unit.gate_kit import answers, by_model, facts, no_answer


def _refusal(question: str, row: str, value: str) -> Refusal | None:
    """The rule that refuses a model citing ``value`` of ``row`` for ``question`` as the
    concierge checks it (a question the reader reads loosely too), or None."""
    rows = facts(("probe", row))
    placement = Placement(kind="fleet", answer=value, row=rows[0].row_id)
    return check_placement(question, placement, facts=rows).refused


def test_may_is_the_month_where_it_stands_as_one() -> None:
    assert calendar_periods("conversion, web shop, may?") == {"month": frozenset({"may"})}
    assert calendar_periods("what was the ets for may 2025?")["month"] == {"may"}
    assert calendar_periods("stopped on Tuesday 14 May, last ob 03:00") == {
        "month": frozenset({"may"})
    }
    assert calendar_periods("it may take 3 days") == {}
    assert "month" not in calendar_periods("may i have the port of the gateway?")


@pytest.mark.parametrize(
    ("question", "row", "asked"),
    [
        ("Conversion, web shop, May?", "April conversion for the web shop: 2.1%", True),
        ("Conversion, web shop, April?", "April conversion for the web shop: 2.1%", False),
        ("Q3 revenue for the EU shop?", "Q2 revenue for the EU shop: $1.2M", True),
        ("Checkout API uptime, week 19?", "checkout API uptime for week 18: 99.95%", True),
        ("Lab budget, 2025?", "lab budget for 2024: €40k", True),
        ("Lab budget, 2024?", "lab budget for 2024 (ref LB-2025-07): €40k", False),
        # a row naming no period of the scale asked contradicts nothing
        ("Conversion, web shop, May?", "conversion for the web shop: 2.1%", False),
    ],
)
def test_another_period_of_the_scale_asked(question: str, row: str, asked: bool) -> None:
    assert calendar_contradicted(question.lower(), row) is asked


def test_a_model_citing_another_months_row_is_refused() -> None:
    row = "April conversion for the web shop: 2.1%"
    assert _refusal("Conversion, web shop, May?", row, "2.1%") is Refusal.OTHER_TIME
    row = "March precipitation ETS for the regional model: 0.31"
    assert _refusal("Precip ETS, regional model, May?", row, "0.31") is Refusal.OTHER_TIME


def test_the_asked_month_still_answers() -> None:
    rows = facts(("probe", "April conversion for the web shop: 2.1%"))
    assert by_model("Conversion, web shop, April?", rows, "2.1%") == "2.1%"
    assert by_model("May I have the April conversion of the web shop?", rows, "2.1%") == "2.1%"
    answers("What was the web shop conversion in April?", rows, "2.1%")
    no_answer("What was the web shop conversion in May?", rows)
