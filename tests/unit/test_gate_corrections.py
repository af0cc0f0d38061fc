"""What the fleet reader let through, by the structure of the row: a row that corrects the
answer ("20 Dec, not the 18th") disputes it whatever words it names the thing by; a number
below zero keeps its sign ("-112 dBm"); a version glued to a name by a hyphen is the name's
tail ("template SPN-v3"), and the name whole is the value. Each with its near miss.

Every case is of another domain than the set that showed them (a water utility): a release
calendar, a bus depot, a payments gateway, a ward, a cold store, a clock, a budget, a CRM,
an event bus.
"""

from __future__ import annotations

import pytest

from crewline.policy.values import Kind, values_in
from tests.unit.gate_kit import answers, by_model, facts, no_answer

# ---------------------------------------------------------------- a row that corrects the answer

CORRECTED = [
    (  # the date denied by its day alone
        "When does the year-end code freeze start?",
        ("release", "Year-end code freeze starts 15 Dec."),
        ("qa", "Freeze is 19 Dec, not the 15th — see the release calendar."),
    ),
    (
        "When does the summer bus timetable start?",
        ("planner", "Summer bus timetable starts 29 Mar."),
        ("depot", "Timetable changes 5 Apr, not the 29th, per the union agreement."),
    ),
    (
        "Which port does the EU payments gateway listen on?",
        ("infra", "EU payments gateway listens on port 8443."),
        ("sre", "Gateway is on 9443, not 8443, since the cert swap."),
    ),
    (
        "What time does the ward pharmacy round start?",
        ("pharmacy", "Ward pharmacy round starts at 08:30."),
        ("nursing", "Round is 09:15 now on weekdays (not 08:30), the rota changed."),
    ),
]


@pytest.mark.parametrize(("question", "said", "correction"), CORRECTED)
def test_a_row_denying_the_answer_with_another_value_disputes_it(
    question: str, said: tuple[str, str], correction: tuple[str, str]
) -> None:
    answers(question, facts(said), _value(said))
    no_answer(question, facts(said, correction))


@pytest.mark.parametrize(("question", "said", "correction"), CORRECTED)
def test_a_model_citing_the_corrected_row_is_refused(
    question: str, said: tuple[str, str], correction: tuple[str, str]
) -> None:
    assert by_model(question, facts(said), _value(said)) == _value(said)
    assert by_model(question, facts(said, correction), _value(said)) is None


def _value(said: tuple[str, str]) -> str:
    """The answer the row alone gives (its last typed value)."""
    return values_in(said[1])[-1].text


@pytest.mark.parametrize(
    ("question", "said", "other", "value"),
    [
        (  # another environment corrected, not the asked one
            "Which port does the production payments gateway listen on?",
            ("infra", "The production payments gateway listens on port 8443."),
            ("sre", "The staging gateway is on 9443, not 8443."),
            "8443",
        ),
        (  # another value denied: the answer stands
            "When does the summer bus timetable start?",
            ("planner", "Summer bus timetable starts 29 Mar."),
            ("depot", "Timetable printing is 12 Mar, not the 5th."),
            "29 Mar",
        ),
    ],
)
def test_a_row_denying_another_value_or_of_another_environment_does_not_dispute(
    question: str, said: tuple[str, str], other: tuple[str, str], value: str
) -> None:
    answers(question, facts(said, other), value)


# ---------------------------------------------------------------- a number below zero


@pytest.mark.parametrize(
    ("question", "said", "value"),
    [
        (
            "What's the cold store 2 temperature?",
            ("fridge-bot", "Cold store 2 temperature is -18 °C since the defrost."),
            "-18 °C",  # a temperature whole, with its unit
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
