"""Waking the readers of session event streams when new events commit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

__all__ = ["EventFeed"]


class EventFeed:
    """Long-poll readers wait here; ``notify`` is called after a commit that added events.

    A reader registers *before* it reads the store, then waits on the signal it got: an
    event committed between its read and its wait still wakes it.
    """

    def __init__(self) -> None:
        self._signals: dict[str, asyncio.Event] = {}

    def register(self, session: str) -> asyncio.Event:
        return self._signals.setdefault(session, asyncio.Event())

    def notify(self, sessions: Iterable[str]) -> None:
        for session in sessions:
            signal = self._signals.pop(session, None)
            if signal is not None:
                signal.set()
