"""Waking the readers of session event streams when new events commit, and ending them
when their key stops working or crewline stops."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence, Set
from contextlib import contextmanager

from crewline.models import Event

__all__ = ["EventFeed", "until_final"]


def until_final(events: Sequence[Event]) -> list[Event]:
    """``events`` up to and including the first that ends the session's key."""
    for index, event in enumerate(events):
        if event.is_final:
            return list(events[: index + 1])
    return list(events)


class EventFeed:
    """Long-poll readers wait here; ``notify`` is called after a commit that added events.

    A reader registers *before* it reads the store, then waits on the signal it got: an
    event committed between its read and its wait still wakes it.

    A reader also holds ``reading(session)`` while it is open, so crewline knows whose
    streams are open: ``end`` wakes the readers of sessions whose key stopped working (each
    then finishes with what its key may still read, and says so), and ``close`` wakes every
    reader when crewline stops.
    """

    def __init__(self) -> None:
        self._signals: dict[str, asyncio.Event] = {}
        self._listeners: list[Callable[[Set[str]], None]] = []
        self._readers: Counter[str] = Counter()
        self._ended: set[str] = set()
        self._closed = False

    def waiting(self, session: str) -> bool:
        """Whether a reader waits for the session's next event now."""
        signal = self._signals.get(session)
        return signal is not None and not signal.is_set()

    def register(self, session: str) -> asyncio.Event:
        """The signal to wait on for the session's next event; already set once crewline
        is stopping or the session's key has stopped working (there is nothing to wait for)."""
        if self._closed or session in self._ended:
            done = asyncio.Event()
            done.set()
            return done
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
        self._wake(named)
        if named:
            for listener in self._listeners:
                listener(named)

    def _wake(self, sessions: Iterable[str]) -> None:
        for session in sessions:
            signal = self._signals.pop(session, None)
            if signal is not None:
                signal.set()

    # open readers ---------------------------------------------------------------------------
    @contextmanager
    def reading(self, session: str) -> Iterator[None]:
        """Held by a long poll or an event stream of ``session`` while it is open."""
        self._readers[session] += 1
        try:
            yield
        finally:
            self._readers[session] -= 1
            if self._readers[session] <= 0:
                del self._readers[session]
                self._ended.discard(session)

    def reading_count(self, session: str) -> int:
        """How many long polls and event streams of ``session`` are open now."""
        return self._readers.get(session, 0)

    def readers(self) -> frozenset[str]:
        """The sessions with an open long poll or event stream."""
        return frozenset(self._readers)

    def open_readers(self, session: str) -> int:
        """How many long polls and event streams of the session are open."""
        return self._readers.get(session, 0)

    def end(self, sessions: Iterable[str]) -> None:
        """The keys of ``sessions`` no longer work: wake their open readers to finish."""
        ended = set(sessions) & set(self._readers)
        self._ended |= ended
        self._wake(ended)

    def ended(self, session: str) -> bool:
        """Whether the session's key stopped working while a reader of it was open."""
        return session in self._ended

    def close(self) -> None:
        """crewline is stopping: every reader, open or yet to come, answers at once."""
        self._closed = True
        self.wake_all()

    @property
    def closed(self) -> bool:
        return self._closed
