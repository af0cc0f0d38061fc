"""The outbox in SQL: platform calls waiting per transport and lane, and the platform
messages that show crewline's objects."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from crewline.store.ports.outbox import (
    OutboxBacklog,
    OutboxEntry,
    OutboxReads,
    OutboxTx,
    PlatformMessage,
    PostContext,
    RedrawContext,
)
from crewline.store.sql.dialect import OUTBOX_ENTRY
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, dumps, epoch, moment

__all__ = ["ENTRY", "SqlOutboxReads", "SqlOutboxTx"]

ENTRY = (
    "id",
    "transport",
    "lane",
    "op",
    "object_key",
    "body",
    "attempts",
    "not_before",
    "created_at",
)
ENTRIES = f"SELECT {', '.join(ENTRY)} FROM outbox"
PLATFORM_MESSAGE = ("transport", "object_key", "thread_ref", "message_ref")
_entry = decoder(OutboxEntry, ENTRY)
_platform_message = decoder(PlatformMessage, PLATFORM_MESSAGE)
_HEAD = f"{ENTRIES} WHERE transport = ? AND lane = ? ORDER BY id LIMIT 1"
_SETTLE = "DELETE FROM outbox WHERE id = ?"
# A post's three look-ups in one statement, each part tagged: 0, the object's redraws in the
# lane; 1, the message showing it; 2, the lane's member's thread.
_POST_CONTEXT = (
    "SELECT 0, id, NULL, NULL FROM outbox"
    " WHERE transport = ? AND lane = ? AND op = 'update' AND object_key = ?"
    " UNION ALL SELECT 1, NULL, thread_ref, message_ref FROM platform_messages"
    " WHERE transport = ? AND object_key = ?"
    " UNION ALL SELECT 2, NULL, thread_ref, NULL FROM threads WHERE member = ? AND transport = ?"
    " ORDER BY 1, 2"
)
# A redraw's two look-ups in one statement, tagged as a post's are: 0, the object's entries
# of this op in the lane; 1, the message showing it.
_REDRAW_CONTEXT = (
    "SELECT 0, id, NULL, NULL FROM outbox"
    " WHERE transport = ? AND lane = ? AND op = ? AND object_key = ?"
    " UNION ALL SELECT 1, NULL, thread_ref, message_ref FROM platform_messages"
    " WHERE transport = ? AND object_key = ?"
    " ORDER BY 1, 2"
)
# Each post's entry is found from its lane's newest entries back (a post waiting to be
# judged was queued moments ago), its lane's head from the oldest: two index seeks.
# SQLite's JSON functions: only a single writer asks (see posts_not_begun).
_POSTS_NOT_BEGUN = """
SELECT asked.lane, asked.object_key FROM (
    SELECT ? AS transport, value ->> 0 AS lane, value ->> 1 AS object_key FROM json_each(?)
) AS asked
WHERE (SELECT min(id) FROM outbox WHERE transport = asked.transport AND lane = asked.lane)
    < (SELECT id FROM outbox
        WHERE transport = asked.transport AND lane = asked.lane
          AND op = 'post' AND object_key = asked.object_key
        ORDER BY id DESC LIMIT 1)
"""


def _body(body: Mapping[str, Any] | None) -> str:
    return dumps(body) if body else "{}"  # most calls carry none: no encoder for an empty one


class SqlOutboxTx(TxPart, OutboxTx):
    def enqueue(
        self,
        *,
        transport: str,
        lane: str,
        op: str,
        object_key: str,
        now: datetime,
        body: Mapping[str, Any] | None = None,
        ordered: bool = True,
    ) -> int:
        return self._s.insert_next(
            "outbox",
            OUTBOX_ENTRY,
            (transport, lane, op, object_key, _body(body), epoch(now)),
            stream=f"{transport}\n{lane}" if ordered else None,
        )

    def queue_call(
        self,
        *,
        transport: str,
        lane: str,
        op: str,
        object_key: str,
        now: datetime,
        body: Mapping[str, Any] | None = None,
        ordered: bool = True,
    ) -> None:
        self._s.queue(
            (transport, lane, op, object_key, _body(body), epoch(now)),
            stream=f"{transport}\n{lane}" if ordered else None,
        )

    def settle_outbox(self, entry_id: int) -> None:
        self._s.execute(_SETTLE, (entry_id,))

    def settle_outbox_entries(self, entry_ids: Sequence[int]) -> None:
        if len(entry_ids) == 1:  # the usual case (a post): a seek, no array to encode
            self._s.execute(_SETTLE, (entry_ids[0],))
        elif entry_ids:
            self._s.execute("DELETE FROM outbox WHERE id {in_array}", (self._d.array(entry_ids),))

    def posts_not_begun(
        self, transport: str, posts: Sequence[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        # With one writer, the head a dispatcher reads next is the one seen here until the
        # commit. Where another connection may settle the entry ahead and draw the post
        # before this transaction commits, promise nothing.
        if not posts or not self._d.single_writer:
            return set()
        rows = self._all(_POSTS_NOT_BEGUN, (transport, dumps(list(posts))))
        return {(str(r[0]), str(r[1])) for r in rows}

    def retry_outbox(self, entry_id: int, *, not_before: float, error: str) -> None:
        self._s.execute(
            "UPDATE outbox SET attempts = attempts + 1, not_before = ?, last_error = ?"
            " WHERE id = ?",
            (not_before, error, entry_id),
        )

    def bury_outbox(self, entry_id: int, *, error: str, now: datetime) -> None:
        self._s.execute(
            "INSERT INTO outbox_dead (id, transport, lane, op, object_key, body, attempts,"
            " last_error, created_at, failed_at)"
            " SELECT id, transport, lane, op, object_key, body, attempts + 1, ?, created_at, ?"
            " FROM outbox WHERE id = ?",
            (error, epoch(now), entry_id),
        )
        self.settle_outbox(entry_id)

    def record_platform_message(self, message: PlatformMessage) -> None:
        self._s.execute(
            "INSERT INTO platform_messages (transport, object_key, thread_ref, message_ref)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (transport, object_key) DO UPDATE"
            " SET thread_ref = excluded.thread_ref, message_ref = excluded.message_ref",
            (message.transport, message.object_key, message.thread_ref, message.message_ref),
        )


class SqlOutboxReads(ReadPart, OutboxReads):
    async def outbox_heads(self, transport: str) -> list[OutboxEntry]:
        rows = await self._fetch(
            f"{ENTRIES} WHERE id IN (SELECT min(id) FROM outbox WHERE transport = ?"
            " GROUP BY lane) ORDER BY id",
            (transport,),
        )
        return [_entry(r) for r in rows]

    async def outbox_head(self, transport: str, lane: str) -> OutboxEntry | None:
        rows = await self._fetch(_HEAD, (transport, lane), lookup=True)
        return _entry(rows[0]) if rows else None

    async def outbox_last_id(self) -> int:
        rows = await self._fetch("SELECT coalesce(max(id), 0) FROM outbox", lookup=True)
        return int(rows[0][0])

    async def outbox_object_ids(
        self, transport: str, lane: str, op: str, object_key: str
    ) -> list[int]:
        rows = await self._fetch(
            "SELECT id FROM outbox WHERE transport = ? AND lane = ? AND op = ?"
            " AND object_key = ? ORDER BY id",
            (transport, lane, op, object_key),
            lookup=True,
        )
        return [int(r[0]) for r in rows]

    async def post_context(self, transport: str, lane: str, object_key: str) -> PostContext:
        rows = await self._fetch(
            _POST_CONTEXT,
            (transport, lane, object_key, transport, object_key, lane, transport),
            lookup=True,
        )
        redraws: list[int] = []
        shown: PlatformMessage | None = None
        thread_ref: str | None = None
        for part, entry_id, thread, message in rows:
            if part == 0:
                redraws.append(int(entry_id))
            elif part == 1:
                shown = PlatformMessage(
                    transport=transport,
                    object_key=object_key,
                    thread_ref=thread,
                    message_ref=message,
                )
            else:
                thread_ref = str(thread)
        return PostContext(redraws=tuple(redraws), shown=shown, thread_ref=thread_ref)

    async def redraw_context(
        self, transport: str, lane: str, op: str, object_key: str
    ) -> RedrawContext:
        rows = await self._fetch(
            _REDRAW_CONTEXT,
            (transport, lane, op, object_key, transport, object_key),
            lookup=True,
        )
        covered: list[int] = []
        shown: PlatformMessage | None = None
        for part, entry_id, thread, message in rows:
            if part == 0:
                covered.append(int(entry_id))
            else:
                shown = PlatformMessage(
                    transport=transport,
                    object_key=object_key,
                    thread_ref=thread,
                    message_ref=message,
                )
        return RedrawContext(covered=tuple(covered), shown=shown)

    async def outbox_size(self, transport: str | None = None) -> int:
        if transport is None:
            rows = await self._fetch("SELECT count(*) FROM outbox")
        else:
            rows = await self._fetch(
                "SELECT count(*) FROM outbox WHERE transport = ?", (transport,)
            )
        return int(rows[0][0])

    async def outbox_backlog(self) -> list[OutboxBacklog]:
        # One statement: the oldest entry of each transport read with its count, so a
        # delivery in between cannot leave a count without its entry.
        pending = await self._fetch(
            "SELECT o.transport, n.pending, o.created_at, o.last_error FROM"
            " (SELECT transport, count(*) AS pending, min(id) AS oldest FROM outbox"
            " GROUP BY transport) AS n JOIN outbox o ON o.id = n.oldest"
        )
        dead = {
            r[0]: int(r[1])
            for r in await self._fetch(
                "SELECT transport, count(*) FROM outbox_dead GROUP BY transport"
            )
        }
        found = {
            r[0]: OutboxBacklog(
                transport=r[0],
                pending=int(r[1]),
                oldest=moment(r[2]),
                oldest_error=r[3],
                dead=dead.get(r[0], 0),
            )
            for r in pending
        }
        for transport, count in dead.items():
            if transport not in found:
                found[transport] = OutboxBacklog(
                    transport=transport, pending=0, oldest=None, oldest_error=None, dead=count
                )
        return [found[name] for name in sorted(found)]

    async def platform_message(self, transport: str, object_key: str) -> PlatformMessage | None:
        rows = await self._fetch(
            f"SELECT {', '.join(PLATFORM_MESSAGE)} FROM platform_messages"
            " WHERE transport = ? AND object_key = ?",
            (transport, object_key),
            lookup=True,
        )
        return _platform_message(rows[0]) if rows else None

    async def object_for_message(self, transport: str, message_ref: str) -> str | None:
        rows = await self._fetch(
            "SELECT object_key FROM platform_messages WHERE transport = ? AND message_ref = ?",
            (transport, message_ref),
            lookup=True,
        )
        return str(rows[0][0]) if rows else None
