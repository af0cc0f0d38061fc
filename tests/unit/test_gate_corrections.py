"""What the fleet reader let through, by the structure of the row: a number below zero keeps
its sign ("-112 dBm"); a version glued to a name by a hyphen is the name's tail ("template
SPN-v3"), and the name whole is the value. Each with its near miss.

Every case is of another domain than the set that showed them (a water utility): a cold
store, a clock, a small cell, a budget, a CRM, an event bus.
"""

from __future__ import annotations

import pytest

from crewline.policy.values import Kind, values_in
from tests.unit.gate_kit import answers, facts

# ---------------------------------------------------------------- a number below zero


@pytest.mark.parametrize(
    ("question", "said", "value"),
    [
        (
            "What's the cold store 2 temperature?",
            ("fridge-bot", "Cold store 2 temperature is -18 °C since the defrost."),
            "-18",
        ),
        (
            "What's the clock offset on the grandmaster?",
            ("ntp", "Grandmaster clock offset measured at -42 ms this morning."),
            "-42 ms",
        ),
        (
            "What RSRP is the rooftop small cell seeing?",
            ("ran", "Rooftop small cell: RSRP around -97 dBm after the tilt change."),
            "-97",
        ),
        (
            "What's the budget variance for Q3?",
            ("ledger", "Budget variance for Q3: \u22123.5%."),  # a minus sign
            "\u22123.5%",
        ),
    ],
)
def test_a_number_below_zero_is_answered_with_its_sign(
    question: str, said: tuple[str, str], value: str
) -> None:
    answers(question, facts(said), value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("gateway GW-17 reports 40 devices", ["GW-17", "40"]),  # a hyphen inside a name
        ("10 -15 minutes", ["10"]),  # a range's dash
        ("queue depth - 3 jobs", ["3"]),  # a dash set apart
    ],
)
def test_a_hyphen_in_a_name_or_a_range_is_no_sign(text: str, said: list[str]) -> None:
    assert [v.text for v in values_in(text)] == said


# ---------------------------------------------------------------- a version that is a name's tail


@pytest.mark.parametrize(
    ("question", "said", "value"),
    [
        (
            "Which template do the renewal reminders use?",
            ("crm", "Renewal reminders go out with template RNW-v4."),
            "RNW-v4",
        ),
        (
            "Which schema do the invoice events use?",
            ("events", "Invoice events are published with schema INV-v12 on the bus."),
            "INV-v12",
        ),
    ],
)
def test_a_name_ending_in_a_version_is_answered_whole(
    question: str, said: tuple[str, str], value: str
) -> None:
    answers(question, facts(said), value)


def test_a_version_set_apart_from_its_name_is_still_a_version() -> None:
    """ "API v3", "node v18.2.0": a version of its own, after a space."""
    found = values_in("the API v3 runs on node v18.2.0")
    assert [(v.kind, v.text) for v in found] == [(Kind.VERSION, "v3"), (Kind.VERSION, "v18.2.0")]
