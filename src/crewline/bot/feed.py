"""Waking the readers of session event streams when new events commit, and ending them
when their key stops working or crewline stops."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from contextlib import contextmanager

from crewline.models import Event

__all__ = ["EventFeed", "Taker", "until_final"]


def until_final(events: Sequence[Event]) -> list[Event]:
    """``events`` up to and including the first that ends the session's key."""
    for index, event in enumerate(events):
        if event.is_final:
            return list(events[: index + 1])
    return list(events)


class Taker:
    """A long poll parked for its session's events after ``after``: the change that adds
    them takes them for it in its own transaction (``events``, handed over after the
    commit), so the poll answers without a transaction and a commit of its own."""

    __slots__ = ("after", "events")

    def __init__(self, after: int) -> None:
        self.after = after
        self.events: list[Event] | None = None


class EventFeed:
    """Long-poll readers wait here; ``notify`` is called after a commit that added events.

    A reader registers *before* it reads the store, then waits on the signal it got: an
    event committed between its read and its wait still wakes it.

    A reader also holds ``reading(session)`` while it is open, so crewline knows whose
    streams are open: ``end`` wakes the readers of sessions whose key stopped working (each
    then finishes with what its key may still read, and says so), and ``close`` wakes every
    reader when crewline stops.

    A long poll that waits alone for its session is also parked as a :class:`Taker`
    (``park``): a change in this process that adds events for the session takes them for
    it, read and remembered as delivered in the change's own transaction, and they are
    handed over (``hand``) before the wake. With two readers of one session waiting, or
    events written elsewhere, each reader takes its events itself after the wake.
    """

    def __init__(self) -> None:
        self._signals: dict[str, asyncio.Event] = {}
        self._listeners: list[Callable[[Set[str]], None]] = []
        self._readers: Counter[str] = Counter()
        self._ended: set[str] = set()
        self._closed = False
        self._takers: dict[str, Taker] = {}
        self._parked: Counter[str] = Counter()

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

    def park(self, session: str, after: int) -> Taker:
        """A long poll of ``session`` waits for events after ``after``; ``unpark`` it when
        it stops waiting. Only a lone reader's events are taken for it."""
        taker = Taker(after)
        self._parked[session] += 1
        if self._parked[session] == 1:
            self._takers[session] = taker
        else:
            self._takers.pop(session, None)  # two readers: each takes its own
        return taker

    def unpark(self, session: str, taker: Taker) -> None:
        if self._takers.get(session) is taker:
            del self._takers[session]
        self._parked[session] -= 1
        if self._parked[session] <= 0:
            del self._parked[session]

    def parked(self, session: str) -> int:
        """How many long polls of ``session`` wait now."""
        return self._parked.get(session, 0)

    def taker(self, session: str) -> Taker | None:
        """The lone parked reader of ``session``, for a change that adds its events (read
        from the store's writer: one lookup, nothing changed)."""
        return self._takers.get(session)

    def hand(self, taken: Mapping[str, tuple[Taker, list[Event]]]) -> None:
        """Give parked readers the events a committed change took for them (before
        ``notify`` wakes them); a reader that stopped waiting meanwhile gets nothing, and
        reads its events by cursor when it asks again."""
        for session, (taker, events) in taken.items():
            if self._takers.get(session) is taker:
                taker.events = events

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
