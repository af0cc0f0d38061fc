"""Fakes and helpers for testing code that embeds crewline (and for crewline's own tests)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from crewline.transports.memory import MemoryTransport

__all__ = ["FakeClock", "MemoryTransport"]


class FakeClock:
    """A clock a test moves by hand; it starts at the wall clock's time unless told."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, by: timedelta | float) -> datetime:
        self._now += by if isinstance(by, timedelta) else timedelta(seconds=by)
        return self._now
