"""The statements of one PostgresTx, and its outbox entries sent together.

Why: an escalation queues three outbox entries (card, bell, roster) whose ids the core
never reads (``Tx.queue_call``). Sent one by one, each costs the client a statement's worth
of psycopg (about 65 µs of CPU on the loaded 2-core machine, docs/postgresql.md) and the
server a statement's execution. Held back and sent as one ``INSERT`` just before the
transaction's next statement, or at its end, they cost one: what the server runs, and in
what order, is otherwise unchanged (each ordered entry's lane lock is taken, in the order
the entries were queued, before any of their ids is drawn, and the ids are drawn in that
order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

import psycopg
from psycopg import sql
from psycopg.abc import Params
from psycopg.rows import DictRow

__all__ = ["STREAM_LOCKS", "QueuedEntry", "Statements"]

STREAM_LOCKS = 18  # the advisory key space of streams (a session's events, a lane)
Query: TypeAlias = str | bytes | sql.SQL | sql.Composed
_COLUMNS = "transport, lane, op, object_key, body, created_at"


@dataclass(frozen=True, kw_only=True, slots=True)
class QueuedEntry:
    """An outbox entry waiting to be sent; ``stream``: its lane's lock key, or None for an
    unordered one (a redraw), which takes no lock."""

    stream: str | None
    transport: str
    lane: str
    op: str
    object_key: str
    body: str
    created_at: float


class Statements:
    """The connection as a transaction's statements reach it: every statement first sends
    the outbox entries queued before it, so the server runs them in the order written."""

    __slots__ = ("_conn", "_queued")

    def __init__(self, conn: psycopg.Connection[DictRow]) -> None:
        self._conn = conn
        self._queued: list[QueuedEntry] = []

    def execute(self, query: Query, params: Params | None = None) -> psycopg.Cursor[DictRow]:
        if self._queued:
            self.flush()
        return self._conn.execute(query, params)

    def executemany(
        self, query: Query, params_seq: Sequence[Params], *, returning: bool = False
    ) -> psycopg.Cursor[DictRow]:
        if self._queued:
            self.flush()
        cursor = self._conn.cursor()
        cursor.executemany(query, params_seq, returning=returning)
        return cursor

    def queue(self, entry: QueuedEntry) -> None:
        self._queued.append(entry)

    def flush(self) -> None:
        """Send the queued entries (their result not read: it travels with the next
        statement whose result is, or the commit)."""
        queued, self._queued = self._queued, []
        if len(queued) == 1:
            self._conn.execute(*_one(queued[0]))
        elif queued:
            self._conn.execute(*_several(queued))


def _one(entry: QueuedEntry) -> tuple[str, Params]:
    values = (entry.transport, entry.lane, entry.op, entry.object_key, entry.body)
    if entry.stream is None:
        return (
            f"INSERT INTO outbox (id, {_COLUMNS}) SELECT nextval('outbox_ids'),"
            " %s, %s, %s, %s, %s, %s",
            (*values, entry.created_at),
        )
    # The materialized CTE takes the lane's lock when the insert reads its one row, before
    # the row's nextval is computed.
    return (
        "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(hashtextextended(%s, %s)))"
        f" INSERT INTO outbox (id, {_COLUMNS}) SELECT nextval('outbox_ids'),"
        " %s, %s, %s, %s, %s, %s FROM locked",
        (entry.stream, STREAM_LOCKS, *values, entry.created_at),
    )


def _several(entries: list[QueuedEntry]) -> tuple[str, Params]:
    # ``locked`` takes the ordered entries' lane locks in the order queued (an aggregate
    # consumes its ordered subquery in order) before the insert reads its one row; the
    # insert draws the ids after its sort by ``n`` (PostgreSQL evaluates a volatile target
    # after ORDER BY), so a lane's entries get ids in the order they were queued.
    rows = ", ".join(
        f"({n}, %s::text, %s::text, %s::text, %s::text, %s::text, %s::text, %s::float8)"
        for n in range(len(entries))
    )
    params = [
        value
        for e in entries
        for value in (e.stream, e.transport, e.lane, e.op, e.object_key, e.body, e.created_at)
    ]
    return (
        f"WITH entries (n, stream, {_COLUMNS}) AS (VALUES {rows}),"
        " locked AS MATERIALIZED (SELECT count(pg_advisory_xact_lock("
        f"hashtextextended(stream, {STREAM_LOCKS}))) AS locks"
        " FROM (SELECT stream FROM entries WHERE stream IS NOT NULL ORDER BY n) AS ordered)"
        f" INSERT INTO outbox (id, {_COLUMNS})"
        f" SELECT nextval('outbox_ids'), {_COLUMNS} FROM entries, locked ORDER BY n",
        params,
    )
