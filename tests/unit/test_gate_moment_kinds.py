"""A moment read by what it is of: a measure's noun ("wave height", "water level") is never
answered by a date or a time (``fleet/asking.py``); a weekday right before a time is part of
it ("handover Monday 09:00", ``values.with_weekday``); a question asking until when a thing
runs, or when it ends, is never answered by a moment the row binds to another event of it
("issued 10:05", "opened 01:00", ``fleet/when.py``). Each on sentences of their own settings,
with the neighbours that still answer."""

from __future__ import annotations

import pytest

from crewline.policy.fleet import Refusal
from crewline.policy.values import Kind, values_in, with_weekday
from tests.unit.gate_kit import answers, by_model, facts, model_refusal, no_answer

# ---------------------------------------------------------------- a measure is no moment


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "What was gauge RG-4's last water level before it stopped?",
            "gauge RG-4 stopped sending water level on Friday 3 March, last good reading 06:00",
        ),
        (
            "What was buoy 62149's last wave height before it stopped?",
            "buoy 62149 stopped sending wave height on Tuesday 14 May, last good ob 03:00 UTC",
        ),
    ],
)
def test_a_date_is_no_answer_to_a_measure(question: str, row: str) -> None:
    no_answer(question, facts(("probe", row)))


def test_a_models_date_or_duration_is_no_measure() -> None:
    row = "gauge RG-4 stopped sending water level on Friday 3 March, last good reading 06:00"
    question = "What was gauge RG-4's last water level before it stopped?"
    assert model_refusal(question, row, "3 March") is Refusal.OTHER_KIND
    assert model_refusal(question, row, "Friday") is Refusal.OTHER_KIND
    row = "mast M2 wind speed logging halted after 40 min, last sample 22:10"
    assert model_refusal("What was mast M2's last wind speed?", row, "40 min") is Refusal.OTHER_KIND


def test_a_measure_by_its_value_and_a_moment_asked_still_answer() -> None:
    answers("What's the level of tank T2?", facts(("probe", "tank T2 level 74%")), "74%")
    # the question asks when, not the measure: the date answers
    answers(
        "When did the river level drop?",
        facts(("probe", "river level dropped on 3 March")),
        "3 March",
    )


# ---------------------------------------------------------------- a weekday before a time


def test_a_weekday_before_a_time_is_part_of_it() -> None:
    text = "release freeze Thursday 17:00"
    (time,) = [v for v in values_in(text) if v.kind is Kind.TIME]
    assert with_weekday(text, time).text == "Thursday 17:00"
    # a weekday elsewhere in the row is no part of the time
    text = "release freeze on Thursday; the build runs 17:00"
    (time,) = [v for v in values_in(text) if v.kind is Kind.TIME]
    assert with_weekday(text, time).text == "17:00"


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        ("When is the release freeze?", "release freeze Thursday 17:00", "Thursday 17:00"),
        ("When is the next restore drill?", "next restore drill Wed at 10:30", "Wed at 10:30"),
        (
            "When is the on-call handover?",
            "On-call this week: Martin Okafor, backup Li Wen, handover Monday 09:00",
            "Monday 09:00",
        ),
    ],
)
def test_a_time_is_answered_with_its_weekday(question: str, row: str, value: str) -> None:
    answers(question, facts(("probe", row)), value)


def test_a_models_time_is_given_with_its_weekday() -> None:
    rows = facts(("probe", "release freeze Thursday 17:00"))
    assert by_model("When is the release freeze?", rows, "17:00") == "Thursday 17:00"


def test_the_time_alone_where_asked_or_the_day_is_the_questions() -> None:
    rows = facts(("probe", "release freeze Thursday 17:00"))
    answers("What time is the release freeze?", rows, "17:00")
    rows = facts(("probe", "release freeze starts Thursday 17:00"))
    answers("When does the release freeze start on Thursday?", rows, "17:00")


# ---------------------------------------------------------------- another event's moment


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "Until when does the A40 lane closure last?",
            "A40 lane closure started 06:00, lasts until 19:30",
            "06:00",
        ),
        (
            "When does the maintenance window end?",
            "maintenance window opened 01:00, ends 04:00",
            "01:00",
        ),
        (
            "Until what time does the yellow wind warning run?",
            "Yellow wind warning for the Northern Uplands issued 10:05, valid until 21:00 local",
            "10:05",
        ),
    ],
)
def test_another_events_moment_is_no_end(question: str, row: str, value: str) -> None:
    assert model_refusal(question, row, value) is Refusal.UNTIED


def test_the_offline_reader_gives_no_start_for_an_end() -> None:
    no_answer(
        "When does the maintenance window end?",
        facts(("probe", "maintenance window opened 01:00, ends 04:00")),
    )


def test_a_start_still_answers_when_it_is_asked() -> None:
    rows = facts(("probe", "A40 lane closure started 06:00, lasts until 19:30"))
    assert by_model("When did the A40 lane closure start?", rows, "06:00") == "06:00"
