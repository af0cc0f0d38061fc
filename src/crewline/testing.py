"""Fakes and helpers for testing code that embeds crewline (and for crewline's own tests)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from crewline.transports.memory import MemoryTransport

__all__ = ["FakeClock", "MemoryTransport"]


class FakeClock:
    """A clock a test moves by hand; it starts at the wall clock's time unless told.

    Timers on it (``sleep_until``) fire when :meth:`advance` moves it past their time, never
    by themselves.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(UTC)
        self._sleepers: list[tuple[datetime, asyncio.Future[None]]] = []

    def now(self) -> datetime:
        return self._now

    def advance(self, by: timedelta | float) -> datetime:
        self._now += by if isinstance(by, timedelta) else timedelta(seconds=by)
        for when, sleeper in list(self._sleepers):
            if when <= self._now:
                sleeper.get_loop().call_soon_threadsafe(_wake, sleeper)
        return self._now

    async def sleep_until(self, when: datetime) -> None:
        if when <= self._now:
            return
        entry = (when, asyncio.get_running_loop().create_future())
        self._sleepers.append(entry)
        try:
            await entry[1]
        finally:
            self._sleepers.remove(entry)

    @property
    def sleepers(self) -> int:
        """How many timers wait on this clock now (a test's precondition)."""
        return len(self._sleepers)


def _wake(sleeper: asyncio.Future[None]) -> None:
    if not sleeper.done():
        sleeper.set_result(None)
