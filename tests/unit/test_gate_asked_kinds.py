"""The kind of value a question asks, read from its words: a retention or a lead time in
months or years is a duration, an event's "time" a time of day, a queue's size a count, and a
temperature the question writes in lower case still a temperature."""

from __future__ import annotations

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.values import Kind, values_in
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, no_answer


def _kinds(question: str) -> tuple[Kind, ...]:
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None, question
    return ask.kinds


# --- a duration in months or years ---------------------------------------------------------


def test_a_retention_in_years_is_a_duration() -> None:
    rows = facts(("archive", "we retain L0 raw data for 7 years"))
    answers("How long do we retain L0 raw data?", rows, "7 years")


def test_a_retention_in_months_is_a_duration() -> None:
    rows = facts(("compliance", "Retention: CDRs kept 12 months, then purged by job dr-purge."))
    answers("How long do we keep CDRs?", rows, "12 months")


def test_months_and_years_read_whole() -> None:
    said = [(v.text, v.kind) for v in values_in("kept 12 months, archived 10 years, 3 yrs")]
    assert said == [
        ("12 months", Kind.DURATION),
        ("10 years", Kind.DURATION),
        ("3 yrs", Kind.DURATION),
    ]


def test_near_miss_a_retention_in_years_is_no_answer_in_days() -> None:
    rows = facts(("archive", "we retain L0 raw data for 7 years"))
    no_answer("How long do we retain L0 raw data, in days?", rows)


def test_near_miss_another_level_s_retention_is_no_answer() -> None:
    rows = facts(("archive", "we retain L0 raw data for 7 years"))
    no_answer("How long do we retain L1 raw data?", rows)


def test_near_miss_years_ago_is_no_duration_asked() -> None:
    rows = facts(("archive", "the L0 raw archive was set up 7 years ago"))
    no_answer("How long do we retain L0 raw data?", rows)


# --- an event's time: a time of day --------------------------------------------------------


def test_an_event_s_time_is_a_time_of_day() -> None:
    assert _kinds("What's the report time for pairing P-3381?") == (Kind.TIME,)
    rows = facts(("crewsched", "rebuilt pairing P-3381 — 2 sectors LBA-AMS-LBA, report time 05:25"))
    answers("What's the report time for pairing P-3381?", rows, "05:25")


def test_near_miss_a_time_taken_stays_a_duration() -> None:
    assert _kinds("What's the response time of the search API?") == (Kind.DURATION,)
    assert _kinds("What was the build time of the nightly?") == (Kind.DURATION,)
    assert _kinds("What's the cold start time on an iPhone 13?") == (Kind.DURATION,)
    assert _kinds("What was the p95 push delivery time on Wednesday?") == (Kind.DURATION,)


def test_near_miss_a_statistic_of_event_times_stays_a_duration() -> None:
    assert _kinds("What was the average arrival time of the feeds?") == (Kind.DURATION,)
    assert _kinds("What's the median report time for the batch?") == (Kind.DURATION,)


def test_near_miss_a_date_is_no_report_time() -> None:
    rows = facts(("crewsched", "rebuilt pairing P-3381, report date 2026-12-05"))
    no_answer("What's the report time for pairing P-3381?", rows)


# --- a queue's size: a count ---------------------------------------------------------------


def test_a_queue_s_size_is_a_count() -> None:
    assert _kinds("What was the peak size of the bulletin queue this morning?") == (Kind.NUMBER,)
    assert _kinds("How deep is the backlog on the inbound topic?") == (Kind.NUMBER,)
    rows = facts(("msgswitch", "bulletin queue peaked at 2,340 messages this morning"))
    answers("What was the peak size of the bulletin queue this morning?", rows, "2,340")
    rows = facts(("msgswitch", "bulletin queue size is 2,340 messages"))
    answers("What is the bulletin queue size?", rows, "2,340")


def test_near_miss_a_queue_s_disk_stays_a_size() -> None:
    assert _kinds("What is the size of the bulletin queue's disk?") == (Kind.SIZE,)
    assert _kinds("What's the size of the release tarball?") == (Kind.SIZE,)


def test_near_miss_bytes_are_no_count_of_a_queue() -> None:
    rows = facts(("msgswitch", "bulletin queue is holding 2.3 GB on disk"))
    no_answer("What was the peak size of the bulletin queue this morning?", rows)


# --- a temperature written in lower case ----------------------------------------------------


def test_a_lower_case_temperature_is_a_temperature() -> None:
    assert [(v.text, v.kind) for v in values_in("below 150 °c")] == [("150 °c", Kind.TEMPERATURE)]
    rows = facts(("mx", "G-RXAB brakes got below 150 °C within 25 min"))
    answers("How long did it take the G-RXAB brakes to get below 150 °C?", rows, "25 min")


def test_near_miss_another_temperature_is_not_held() -> None:
    rows = facts(("mx", "G-RXAB brakes got below 150 °C within 25 min"))
    no_answer("How long did it take the G-RXAB brakes to get below 120 °C?", rows)


def test_near_miss_an_angle_stays_an_angle() -> None:
    assert [(v.text, v.kind) for v in values_in("tilt 12°")] == [("12°", Kind.ANGLE)]
