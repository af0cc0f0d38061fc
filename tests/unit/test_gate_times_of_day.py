"""A part of a day or a time of day the question says in words, held by the clock of the row
(``fleet/when.py``: ``parts_held``, ``time_words_held``): "this morning" of a row at 08:15,
"last night" of a row at 02:30, "at half eight" of 08:30 — and the near misses that stay
with the human: a row at another time of day, of another day, of many nights, or at
another time than the one asked in words."""

from __future__ import annotations

import pytest

from crewline.policy.fleet.when import parts_held, time_words_held
from tests.unit.gate_kit import answers, by_model, facts, no_answer


@pytest.mark.parametrize(
    ("question", "row", "held"),
    [
        (
            "how deep was the print queue this morning?",
            "print queue was 42 jobs at 08:15",
            {"morning"},
        ),
        (
            "how deep was the print queue this afternoon?",
            "print queue was 42 jobs at 14:05",
            {"afternoon"},
        ),
        (
            "when did last night's backup finish?",
            "nightly backup finished 02:30 on bk-01",
            {"night"},
        ),
        (
            "how high did errors get during the night?",
            "errors hit 3% between 01:10 and 01:50",
            {"night"},
        ),
        ("how many jobs ran overnight?", "batch drained overnight: 310 jobs", {"overnight"}),
        ("how deep was the queue yesterday evening?", "queue at 19:00 yesterday: 42", {"evening"}),
    ],
)
def test_a_part_of_a_day_is_held_by_the_rows_clock(question: str, row: str, held: set[str]) -> None:
    """Every time the row states falls in the part asked, or it says the night itself."""
    assert parts_held(question, row) == held


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # another part of the day, or a row with a time in it and one outside
        ("how deep was the print queue this morning?", "print queue was 42 jobs at 15:00"),
        ("how deep was the queue this morning?", "queue 42 at 08:15, 97 at 16:40"),
        # another day, a date, a span of nights, a month
        ("how deep was the queue this evening?", "queue at 19:00 yesterday: 42"),
        ("how deep was the queue this morning?", "queue was 42 at 2026-11-30 08:15"),
        ("how many times did the backup fail last night?", "backup failed 4 of 30 nights in March"),
        (
            "when did last night's backup finish?",
            "the nightly backup usually finishes 02:30 on weekdays",
        ),
        # a schedule of every night says no night's own clock
        ("when did last night's backup finish?", "nightly backup on bk-01, 212 tables"),
        # a time said in words that the row's clock is not
        ("how deep was the queue this morning at half eight?", "queue was 42 at 08:15"),
    ],
)
def test_a_row_of_another_time_holds_no_part_of_a_day(question: str, row: str) -> None:
    assert parts_held(question, row) == frozenset()
    assert time_words_held(question, row) == frozenset()


@pytest.mark.parametrize(
    ("question", "row", "held"),
    [
        (
            "queue depth this morning at half eight?",
            "queue was 42 at 08:30",
            {"morning", "half", "eight"},
        ),
        ("queue depth at quarter to ten?", "queue was 42 at 09:45", {"quarter", "to", "ten"}),
        ("queue depth at eight this morning?", "queue was 42 at 08:00", {"morning", "eight"}),
        ("queue depth at 8 o'clock?", "queue was 42 at 20:00", {"8", "o'clock"}),
    ],
)
def test_a_time_said_in_words_is_held_by_the_same_time(
    question: str, row: str, held: set[str]
) -> None:
    """ "Half eight" is 08:30 (as British English says it), "quarter to ten" 09:45."""
    assert time_words_held(question, row) == held


def test_at_a_number_of_things_is_no_time() -> None:
    assert time_words_held("which queue is at eight nodes?", "queue at 08:00") == frozenset()
    assert time_words_held("queue depth at 8?", "queue was 42 at 08:00") == frozenset()


def test_the_reader_answers_a_part_of_a_day_the_rows_clock_holds() -> None:
    rows = facts(("printer", "print queue was 42 jobs at 08:15"), ("mail", "smtp relay on 2525"))
    answers("How many jobs were in the print queue this morning?", rows, "42 jobs")
    answers(
        "How many jobs were in the print queue this morning at quarter past eight?", rows, "42 jobs"
    )


def test_the_reader_leaves_another_time_of_day_to_the_human() -> None:
    no_answer(
        "How many jobs were in the print queue this morning?",
        facts(("printer", "print queue was 42 jobs at 15:00")),
    )
    no_answer(
        "How many jobs were in the print queue this morning at half eight?",
        facts(("printer", "print queue was 42 jobs at 08:15")),
    )
    no_answer(
        "How many jobs were in the print queue this evening?",
        facts(("printer", "print queue was 42 jobs at 19:00 yesterday")),
    )


def test_a_model_cites_last_nights_clock() -> None:
    rows = facts(("etl", "nightly backup finished at 02:30 on bk-01, 212 tables"))
    assert by_model("When did last night's backup finish?", rows, "02:30") == "02:30"


def test_a_model_citing_many_nights_for_last_night_is_refused() -> None:
    rows = facts(("etl", "nightly backup failed on 4 of 30 nights in March"))
    assert by_model("How many times did the backup fail last night?", rows, "4") is None
