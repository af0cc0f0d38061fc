"""Waking the readers of session event streams when new events commit."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable

__all__ = ["EventFeed"]


class EventFeed:
    """Long-poll readers wait here; ``notify`` is called after a commit that added events."""

    def __init__(self) -> None:
        self._signals: dict[str, asyncio.Event] = {}

    def notify(self, sessions: Iterable[str]) -> None:
        for session in sessions:
            signal = self._signals.pop(session, None)
            if signal is not None:
                signal.set()

    async def wait(self, session: str, timeout: float) -> None:
        """Return when an event for ``session`` committed, or after ``timeout`` seconds.

        Register before reading the store, then read, then wait: an event committed between
        the read and the wait still wakes the reader.
        """
        signal = self._signals.setdefault(session, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await signal.wait()

    def register(self, session: str) -> asyncio.Event:
        return self._signals.setdefault(session, asyncio.Event())
