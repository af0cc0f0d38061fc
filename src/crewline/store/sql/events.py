"""Session events in SQL: each session's stream, and how far the session has read it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from crewline.models import Event
from crewline.store.ports.events import EventsReads, EventsTx
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, dumps, epoch

__all__ = ["SqlEventsReads", "SqlEventsTx"]

EVENT = ("cursor", "session", "kind", "body", "created_at")
_event = decoder(Event, EVENT)
_AFTER = (
    "SELECT cursor, session, kind, body, created_at FROM events"
    " WHERE session = ? AND cursor > ? AND withdrawn_in IS NULL ORDER BY cursor LIMIT ?"
)
_ANY_AFTER = (
    "SELECT 1 FROM events WHERE session = ? AND cursor > ? AND withdrawn_in IS NULL LIMIT 1"
)


class SqlEventsTx(TxPart, EventsTx):
    def add_event(self, session: str, kind: str, body: Mapping[str, Any], now: datetime) -> int:
        return self._s.insert_next(
            "events",
            ("session", "kind", "body", "created_at"),
            (session, kind, dumps(body), epoch(now)),
            stream=f"events\n{session}",
        )

    def take_events(self, session: str, after: int, *, limit: int = 100) -> list[Event]:
        events = [_event(r) for r in self._all(_AFTER, (session, after, limit))]
        if events:
            self._s.execute(
                "INSERT INTO session_reads (session, through) VALUES (?, ?)"
                " ON CONFLICT (session) DO UPDATE"
                " SET through = {greatest}(session_reads.through, excluded.through)",
                (session, events[-1].cursor),
            )
        return events

    def unread_events(self, sessions: Sequence[str]) -> list[Event]:
        # Delivered: read by the session (session_reads) or acknowledged by its webhook.
        return [
            _event(r)
            for r in self._all(
                "SELECT e.cursor, e.session, e.kind, e.body, e.created_at FROM events e"
                " WHERE e.session {in_array} AND e.withdrawn_in IS NULL AND e.cursor > {greatest}("
                "coalesce((SELECT through FROM session_reads r WHERE r.session = e.session), 0),"
                " coalesce((SELECT delivered_through FROM webhooks w"
                " WHERE w.session = e.session), 0)) ORDER BY e.cursor",
                (self._d.array(list(sessions)),),
            )
        ]

    def withdraw_events(self, cursors: Sequence[int], *, generation: int) -> None:
        self._s.execute(
            "UPDATE events SET withdrawn_in = ? WHERE cursor {in_array} AND withdrawn_in IS NULL",
            (generation, self._d.array(list(cursors))),
        )

    def withdraw_event(self, session: str, cursor: int) -> bool:
        return (
            self._s.count("DELETE FROM events WHERE session = ? AND cursor = ?", (session, cursor))
            == 1
        )

    def last_cursor(self, session: str) -> int:
        r = self._one("SELECT max(cursor) FROM events WHERE session = ?", (session,))
        return int(r[0]) if r is not None and r[0] is not None else 0


class SqlEventsReads(ReadPart, EventsReads):
    async def events_after(self, session: str, cursor: int, *, limit: int = 100) -> list[Event]:
        return [_event(r) for r in await self._fetch(_AFTER, (session, cursor, limit))]

    async def has_events_after(self, session: str, cursor: int) -> bool:
        # One row of the session's index at most: a lookup (on SQLite's event loop), where
        # a page of events goes to the reader.
        return bool(await self._fetch(_ANY_AFTER, (session, cursor), lookup=True))
