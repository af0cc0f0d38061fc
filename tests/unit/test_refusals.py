"""The window of a transport's refusal records is crewline's clock's: it moves when that
clock does, and only then."""

from __future__ import annotations

from datetime import UTC, datetime

from crewline.testing import FakeClock
from crewline.transports.refusals import AUDIT_EVERY, RefusalThrottle


def test_a_kind_is_recorded_once_per_window_of_crewlines_clock_counting_the_rest() -> None:
    clock = FakeClock(datetime(2026, 12, 5, 12, 0, tzinfo=UTC))
    throttle = RefusalThrottle(clock.now)
    assert throttle.admit("wrong") == 0
    assert throttle.admit("missing") == 0  # each kind has its own window
    assert [throttle.admit("wrong") for _ in range(3)] == [None, None, None]
    clock.advance(AUDIT_EVERY / 2)
    assert throttle.admit("wrong") is None
    clock.advance(AUDIT_EVERY / 2)
    assert throttle.admit("wrong") == 4  # the four since the last record
    assert throttle.admit("wrong") is None


def test_a_clock_set_back_ends_the_window_rather_than_silencing_the_kind() -> None:
    clock = FakeClock(datetime(2026, 12, 5, 12, 0, tzinfo=UTC))
    throttle = RefusalThrottle(clock.now)
    assert throttle.admit("wrong") == 0
    assert throttle.admit("wrong") is None
    clock.advance(-3600.0)  # the wall clock stepped back an hour
    assert throttle.admit("wrong") == 1
