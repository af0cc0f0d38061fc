"""Waking the readers of session event streams when new events commit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Set

__all__ = ["EventFeed"]


class EventFeed:
    """Long-poll readers wait here; ``notify`` is called after a commit that added events.

    A reader registers *before* it reads the store, then waits on the signal it got: an
    event committed between its read and its wait still wakes it.
    """

    def __init__(self) -> None:
        self._signals: dict[str, asyncio.Event] = {}
        self._listeners: list[Callable[[Set[str]], None]] = []

    def waiting(self, session: str) -> bool:
        """Whether a reader waits for the session's next event now."""
        signal = self._signals.get(session)
        return signal is not None and not signal.is_set()

    def register(self, session: str) -> asyncio.Event:
        return self._signals.setdefault(session, asyncio.Event())

    def on_notify(self, listener: Callable[[Set[str]], None]) -> None:
        """``listener(sessions)`` is called (synchronously: it must only schedule work)
        after each commit that added events for ``sessions``; webhooks hang off this."""
        self._listeners.append(listener)

    def wake_all(self) -> None:
        """Wake every waiting reader to look again (notifications may have been missed)."""
        signals, self._signals = self._signals, {}
        for signal in signals.values():
            signal.set()

    def notify(self, sessions: Iterable[str]) -> None:
        named = frozenset(sessions)
        for session in named:
            signal = self._signals.pop(session, None)
            if signal is not None:
                signal.set()
        if named:
            for listener in self._listeners:
                listener(named)
