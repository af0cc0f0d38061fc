"""When a thing happened or starts, by the structure that binds a date or a time to it
(``fleet/when.py``): "since T" is when a state began, a fact whatever state the row says the
thing is in now; the first value of a span "A-B" is when it starts. Each on sentences of
their own, with the near misses that stay with the human: a plan before the moment, another
moment of the same row (a deadline, an end), another day or week, a question that asks the
end of a span."""

from __future__ import annotations

import pytest

from crewline.policy import Fact
from tests.unit.gate_kit import answers, facts, no_answer


def _one(row: str) -> list[Fact]:
    return facts(("scout", row))


# ---------------------------------------------------------------- since T

SINCE = [
    (
        "since when is the nightly metrics export stuck?",
        "nightly metrics export stuck since 02:15 waiting on the HR feed lock",
        "02:15",
    ),
    (
        "since when has the orders-7 replica been on hold?",
        "orders-7 replica on hold since 2026-11-29 pending a disk swap",
        "2026-11-29",
    ),
    (
        "Since when is the Ridgeway pump station in manual mode?",
        "Ridgeway pump station in manual mode since 11:20 waiting for the PLC patch",
        "11:20",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), SINCE)
def test_a_moment_bound_by_since_is_when_the_state_began(
    question: str, row: str, value: str
) -> None:
    # the state the thing is in now ("waiting on …", "pending …") is no plan of that moment
    answers(question, _one(row), value)


SINCE_NEAR_MISSES = [
    # a plan before the moment: not so yet
    (
        "since when is the nightly metrics export stuck?",
        "nightly metrics export expected to be stuck since 02:15 waiting on the HR feed lock",
    ),
    # no moment bound by "since": the time there is a deadline of what it waits on
    (
        "since when is the nightly metrics export stuck?",
        "nightly metrics export stuck, waiting on the HR feed lock due 04:00",
    ),
    # a state said over: the moment is of a state gone
    (
        "since when is the nightly metrics export stuck?",
        "nightly metrics export stuck since 02:15 until the retry waiting on the HR feed lock",
    ),
]


@pytest.mark.parametrize(("question", "row"), SINCE_NEAR_MISSES)
def test_a_moment_not_bound_by_since_or_planned_stays_unsettled(question: str, row: str) -> None:
    no_answer(question, _one(row))


def test_the_deadline_of_what_a_state_waits_on_is_no_moment_it_began() -> None:
    # "since 02:15" answers when it is stuck, never when the lock it waits on is due
    no_answer(
        "when is the HR feed lock for the nightly metrics export due?",
        _one("nightly metrics export stuck since 02:15 waiting on the HR feed lock"),
    )


# ---------------------------------------------------------------- the start of a span

SPANS = [
    (
        "When does the ledger freeze window start on Friday?",
        "ledger freeze window is Friday 18:00\u201323:00",
        "18:00",
    ),
    (
        "What time does the pier 4 crane slot begin?",
        "pier 4 crane (berth B) given to Kessler Hoist, slot Wed 06:30-10:00.",
        "06:30",
    ),
    (
        "When does the reindex outage start?",
        "reindex outage is 2027-02-03\u20132027-02-04, search read-only",
        "2027-02-03",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), SPANS)
def test_the_first_value_of_a_span_is_when_it_starts(question: str, row: str, value: str) -> None:
    answers(question, _one(row), value)


SPAN_NEAR_MISSES = [
    # another day than the one asked
    (
        "When does the ledger freeze window start on Sunday?",
        "ledger freeze window is Friday 18:00\u201323:00",
    ),
    # another week than the one asked
    (
        "When does next week's ledger freeze window start?",
        "this week's ledger freeze window is Friday 18:00\u201323:00",
    ),
    # two spans: which is the thing's is the question's words, not the structure's
    (
        "When does the freeze window start?",
        "ledger freeze window Friday 18:00\u201323:00,"
        " billing freeze window Saturday 01:00\u201303:00",
    ),
    # another moment of the thing, said by its own word: an end, not a start
    (
        "When does the kiln-2 firing start?",
        "kiln-2 firing of batch 88 is at 1180 °C, firing should end 2027-01-09 04:10",
    ),
    # the row writes its own word of an end beside the span
    (
        "When does the ledger freeze window start?",
        "ledger freeze window is Friday 18:00\u201323:00, last one ran until 23:40",
    ),
]


@pytest.mark.parametrize(("question", "row"), SPAN_NEAR_MISSES)
def test_a_span_of_another_day_or_thing_gives_no_start(question: str, row: str) -> None:
    no_answer(question, _one(row))


# ---------------------------------------------------------------- the end of a span

SPAN_ENDS = [
    (
        "When does the ledger freeze window end on Friday?",
        "ledger freeze window is Friday 18:00\u201323:00",
    ),
    ("When is the ledger freeze window over?", "ledger freeze window is Friday 18:00\u201323:00"),
    ("Until what time does the pier 4 crane slot run?", "pier 4 crane slot Wed 06:30-10:00"),
    ("When does the reindex outage end?", "reindex outage is 2027-02-03\u20132027-02-04"),
]


@pytest.mark.parametrize(("question", "row"), SPAN_ENDS)
def test_the_first_value_of_a_span_is_no_answer_to_its_end(question: str, row: str) -> None:
    # the span's end is no value of its own: the question stays with the human, never
    # answered by its start (main gave the start)
    no_answer(question, _one(row))
