"""Escalation cards as the change that raised them wrote them, handed to their post.

A post draws its object in the state of the moment (``transports/outbox.py``), which for a
new escalation's card means reading back, a moment after the commit, the row, member and
record the raising change has just written. The change hands them over instead, and the
post draws from them while nothing since can have changed the card.

Every change that alters a card either queues a redraw of it (an ``update`` entry in the
card's lane, which the post's own look-up sees: the post then reads the card, as it always
did) or goes through ``Change.redraw``, which may leave the redraw out because the post
still waits behind another entry (``Tx.posts_not_begun``). That one touches the card here,
in the transaction, before its commit, and a hand-over taken before a touch is never used.
The one change a card meets before its post in the usual course, the concierge's
suggestion, hands the card over again with the suggestion on it, from the hand-over it
touched, if that was still good.

Only this process's changes touch. Another process's redraw leaves no entry out where a
dispatcher here could be drawing: on PostgreSQL ``Tx.posts_not_begun`` promises nothing;
on SQLite the server is the only process that runs the Hub (the command line writes crew
changes, which queue their redraws). A restart forgets every hand-over: the posts read.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from dataclasses import dataclass

from crewline.models import Escalation, Member, Suggestion

__all__ = ["Written", "WrittenCards"]

# Cards waiting for their post; beyond it the oldest hand-over is dropped (its post reads).
KEPT = 1024


@dataclass(frozen=True, slots=True)
class Written:
    """A new escalation's card as the changes that wrote it left it."""

    member: Member
    escalation: Escalation
    suggestion: Suggestion | None = None


class WrittenCards:
    """Hand-overs by card key, each with the tick taken in its transaction, and the tick of
    each card's latest touch. Touches come from writer threads (PostgreSQL's), hand-overs
    and takes from the loop: one lock."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._ticks = itertools.count(1)
        self._cards: OrderedDict[str, tuple[int, Written]] = OrderedDict()
        self._touched: OrderedDict[str, int] = OrderedDict()
        self._forgotten = 0  # the latest touch dropped from ``_touched``: all older are stale
        self._lock = threading.Lock()

    def tick(self) -> int:
        """Taken in the transaction that writes a card, before its commit."""
        with self._lock:
            return next(self._ticks)

    def touch(self, object_key: str) -> tuple[int, Written | None]:
        """A transaction changes (or may change) the card: no hand-over taken before now is
        drawn from. Returns the touch's tick and the hand-over that was good until now, if
        any (a change that knows all it changed may hand the card over again: ``keep`` it
        with this tick)."""
        with self._lock:
            good = self._good(object_key)
            tick = next(self._ticks)
            self._touched[object_key] = tick
            self._touched.move_to_end(object_key)
            if len(self._touched) > self._kept:
                _, forgotten = self._touched.popitem(last=False)
                self._forgotten = max(self._forgotten, forgotten)
            return tick, good

    def keep(self, object_key: str, tick: int, card: Written) -> None:
        """After the commit of the transaction that took ``tick`` (``tick`` or ``touch``)
        and left the card as ``card``."""
        with self._lock:
            self._cards[object_key] = (tick, card)
            if len(self._cards) > self._kept:
                self._cards.popitem(last=False)

    def take(self, object_key: str) -> Written | None:
        """The card's hand-over, once, if nothing touched the card since it was taken."""
        with self._lock:
            card = self._good(object_key)
            self._cards.pop(object_key, None)
            return card

    def _good(self, object_key: str) -> Written | None:
        kept = self._cards.get(object_key)
        if kept is None:
            return None
        tick, card = kept
        # A touch's own hand-over carries the touch's tick: good until the next touch.
        return card if self._touched.get(object_key, self._forgotten) <= tick else None
