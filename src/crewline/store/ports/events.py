"""Session events: each session's stream, paged by cursor.

Cursors are visible in commit order within a session: once a reader sees cursor *n* of a
session, every event of that session with a smaller cursor is already visible, so
``events_after(n)`` skips nothing that commits later."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from crewline.models import Event

__all__ = ["EventsReads", "EventsTx"]


class EventsTx(ABC):
    """Appending, taking and withdrawing session events in a transaction."""

    @abstractmethod
    def add_event(self, session: str, kind: str, body: Mapping[str, Any], now: datetime) -> int:
        """Append to the session's event stream; returns the cursor."""

    @abstractmethod
    def take_events(self, session: str, after: int, *, limit: int = 100) -> list[Event]:
        """The session's events after ``after`` (withdrawn ones left out), remembered as
        delivered: a boundary's commit never withdraws or moves them any more."""

    @abstractmethod
    def unread_events(self, sessions: Sequence[str]) -> list[Event]:
        """The events of ``sessions`` not yet delivered (nor withdrawn), in cursor order."""

    @abstractmethod
    def withdraw_events(self, cursors: Sequence[int], *, generation: int) -> None:
        """Take back undelivered events: a reader never sees them."""

    @abstractmethod
    def withdraw_event(self, session: str, cursor: int) -> bool:
        """Remove one event from the session's stream (an answer withdrawn before the session
        read it); False when there was no such event."""

    @abstractmethod
    def last_cursor(self, session: str) -> int:
        """The cursor of the session's newest event (0 when it has none)."""


class EventsReads(ABC):
    """Session events as committed."""

    @abstractmethod
    async def events_after(self, session: str, cursor: int, *, limit: int = 100) -> list[Event]:
        """Up to ``limit`` of the session's events after ``cursor``, in cursor order. Paging
        on from the last cursor read skips nothing (cursors are visible in commit order)."""

    @abstractmethod
    async def has_events_after(self, session: str, cursor: int) -> bool:
        """Whether the session has an event after ``cursor`` (withdrawn ones left out): what
        a reader asks before it takes them (``EventsTx.take_events``) in a transaction."""
