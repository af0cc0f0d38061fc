"""SqliteStore: the embedded default Store on aiosqlite.

Two connections to one WAL database: a writer that takes whole transactions from a queue
and commits many of them at once (group commit: one fsync per batch), and a reader for
everything else, each read one ``execute_fetchall`` hop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from crewline.errors import Unavailable
from crewline.models import Escalation, Event, Identity, Member, Question, Row, Session
from crewline.store import codec
from crewline.store.base import OutboxEntry, PlatformMessage, SelRecord, Store, Tx
from crewline.store.sqlite_tx import SqliteTx

__all__ = ["SqliteStore", "migrations"]

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BATCH = 256
DATABASE_NAME = "crewline.db"
_ESCALATIONS_DDL = re.compile(
    r"CREATE TABLE escalations .*?;\s*CREATE INDEX escalations_by_member .*?;"
    r"\s*CREATE INDEX escalations_due .*?;",
    re.S,
)


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The numbered scripts in ``store/schema``, in order."""
    found = []
    for entry in resources.files("crewline.store.schema").iterdir():
        number, _, rest = entry.name.partition("_")
        if entry.name.endswith(".sql") and number.isdigit():
            found.append(Migration(int(number), rest.removesuffix(".sql"), entry.read_text()))
    return sorted(found, key=lambda m: m.version)


@dataclass(slots=True)
class _Pending:
    transaction: Callable[[Tx], Any]
    future: asyncio.Future[Any]


class SqliteStore(Store):
    """Open with ``async with SqliteStore(path) as store``; migrations run on open."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._queue: asyncio.Queue[_Pending] = asyncio.Queue()
        self._writer_task: asyncio.Task[None] | None = None
        self.batches_committed = 0

    @classmethod
    def in_directory(cls, data_dir: Path) -> SqliteStore:
        return cls(data_dir / DATABASE_NAME)

    # lifecycle ------------------------------------------------------------------------------
    async def __aenter__(self) -> SqliteStore:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = await _connect(self.path)
        await self._writer.execute("PRAGMA journal_mode = WAL")
        await self._migrate(self._writer)
        self._reader = await _connect(self.path)
        self._writer_task = asyncio.create_task(self._write_loop(), name="crewline-store-writer")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._writer_task is not None:
            self._writer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer_task
        while not self._queue.empty():
            self._queue.get_nowait().future.cancel()
        for conn in (self._reader, self._writer):
            if conn is not None:
                await conn.close()
        self._reader = self._writer = None

    async def _migrate(self, conn: aiosqlite.Connection) -> None:
        rows = await conn.execute_fetchall("PRAGMA user_version")
        current = next(iter(rows))[0]
        for migration in migrations():
            if migration.version > current:
                log.info("applying migration %03d %s", migration.version, migration.name)
                await conn.executescript(
                    f"BEGIN; {migration.sql}; PRAGMA user_version = {migration.version}; COMMIT;"
                )

    async def schema_version(self) -> int:
        rows = await self._read("PRAGMA user_version")
        return int(rows[0][0])

    # writes: one writer task, group commit --------------------------------------------------
    async def write(self, transaction: Callable[[Tx], T]) -> T:
        if self._writer_task is None or self._writer_task.done():
            raise RuntimeError("the store is not open")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Pending(transaction, future))
        return await future

    async def _write_loop(self) -> None:
        assert self._writer is not None
        while True:
            batch = [await self._queue.get()]
            while len(batch) < MAX_BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            batch = [p for p in batch if not p.future.cancelled()]
            if not batch:
                continue
            try:
                # aiosqlite's public API runs one statement per thread hop; a group commit
                # must run many transactions in one hop, so it queues a function on the
                # connection's own thread (``_execute``; stable from aiosqlite 0.17 to 0.22).
                runner: Any = self._writer
                outcomes = await runner._execute(_run_batch, self._writer._conn, batch)
            except Exception as error:  # the COMMIT itself failed: nobody's write landed
                log.exception("group commit of %d transactions failed", len(batch))
                outcomes = [(False, error)] * len(batch)
            self.batches_committed += 1
            for pending, (ok, value) in zip(batch, outcomes, strict=True):
                if pending.future.cancelled():
                    continue
                if ok:
                    pending.future.set_result(value)
                else:
                    pending.future.set_exception(value)

    # reads ----------------------------------------------------------------------------------
    async def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        if self._reader is None:
            raise RuntimeError("the store is not open")
        return cast(list[sqlite3.Row], list(await self._reader.execute_fetchall(sql, params)))

    async def member(self, slug: str) -> Member | None:
        members = [m for m in await self._members("WHERE m.slug = ?", (slug,))]
        return members[0] if members else None

    async def members(self) -> list[Member]:
        return await self._members("", ())

    async def _members(self, where: str, params: tuple[Any, ...]) -> list[Member]:
        rows = await self._read(
            "SELECT m.slug, m.name, m.owner, group_concat(t.transport) AS transports"
            f" FROM members m LEFT JOIN member_transports t ON t.member = m.slug {where}"
            " GROUP BY m.slug ORDER BY m.created_at, m.slug",
            params,
        )
        return [
            Member(
                slug=r["slug"],
                name=r["name"],
                owner=r["owner"],
                transports=tuple(sorted((r["transports"] or "").split(",")))
                if r["transports"]
                else (),
            )
            for r in rows
        ]

    async def session_by_key_hash(self, key_hash: str) -> Session | None:
        rows = await self._read(
            f"SELECT {codec.SESSION_COLUMNS} FROM sessions"
            " WHERE key_hash = ? AND revoked_at IS NULL",
            (key_hash,),
        )
        return codec.session_from(rows[0]) if rows else None

    async def human_by_token_hash(self, token_hash: str) -> int | None:
        rows = await self._read("SELECT id FROM humans WHERE token_hash = ?", (token_hash,))
        return int(rows[0]["id"]) if rows else None

    async def humans(self) -> list[int]:
        return [int(r["id"]) for r in await self._read("SELECT id FROM humans ORDER BY id")]

    async def human_of(self, platform: str, user_id: str) -> int | None:
        rows = await self._read(
            "SELECT human FROM identities WHERE platform = ? AND user_id = ?", (platform, user_id)
        )
        return int(rows[0]["human"]) if rows else None

    async def identities(self, human: int) -> list[Identity]:
        rows = await self._read(
            "SELECT platform, user_id FROM identities WHERE human = ? ORDER BY platform, user_id",
            (human,),
        )
        return [Identity(platform=r["platform"], user_id=r["user_id"]) for r in rows]

    async def thread_ref(self, member: str, transport: str) -> str | None:
        rows = await self._read(
            "SELECT thread_ref FROM threads WHERE member = ? AND transport = ?", (member, transport)
        )
        return str(rows[0]["thread_ref"]) if rows else None

    async def member_for_thread(self, transport: str, thread_ref: str) -> str | None:
        rows = await self._read(
            "SELECT member FROM threads WHERE transport = ? AND thread_ref = ?",
            (transport, thread_ref),
        )
        return str(rows[0]["member"]) if rows else None

    async def live_rows(self, conversation: str) -> list[Row]:
        rows = await self._read(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE conversation = ? AND rewound_in IS NULL"
            " ORDER BY seq",
            (conversation,),
        )
        return [codec.row_from(r) for r in rows]

    async def row(self, row_id: str, *, include_rewound: bool = False) -> Row | None:
        live = "" if include_rewound else " AND rewound_in IS NULL"
        rows = await self._read(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE id = ?{live}", (row_id,)
        )
        return codec.row_from(rows[0]) if rows else None

    async def escalation(self, escalation_id: str) -> Escalation | None:
        rows = await self._index_read(
            f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE id = ?", (escalation_id,)
        )
        return codec.escalation_from(rows[0]) if rows else None

    async def escalations(self, member: str) -> list[Escalation]:
        rows = await self._index_read(
            f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE member = ?"
            " ORDER BY created_at, rowid",
            (member,),
        )
        return [codec.escalation_from(r) for r in rows]

    async def pending_counts(self) -> dict[str, int]:
        rows = await self._index_read(
            "SELECT member, count(*) AS n FROM escalations WHERE state = 'pending' GROUP BY member"
        )
        return {r["member"]: int(r["n"]) for r in rows}

    async def due_windows(self, before: datetime) -> list[tuple[str, str, datetime]]:
        rows = await self._index_read(
            "SELECT id, member, deadline FROM escalations"
            " WHERE state = 'pending' AND deadline IS NOT NULL AND deadline < ? ORDER BY deadline",
            (codec.epoch(before),),
        )
        return [(r["id"], r["member"], codec.moment(r["deadline"])) for r in rows]

    async def _index_read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        try:
            return await self._read(sql, params)
        except sqlite3.DatabaseError as error:
            raise Unavailable(
                f"the escalation index cannot be read ({error}); it is being rebuilt from the"
                " transcript",
                code="escalation_index_unavailable",
            ) from error

    async def check_index(self) -> None:
        await self._index_read("SELECT id, state, deadline FROM escalations LIMIT 1")

    async def rebuild_index_table(self) -> None:
        """Replace an unreadable index table by an empty one, for reconciliation to refill.

        Only reconciliation calls this, and only after ``check_index`` failed: the index is
        derived from the transcript, so nothing true is lost.
        """
        schema = migrations()[0].sql
        match = _ESCALATIONS_DDL.search(schema)
        assert match is not None, "001_initial.sql defines the escalations table"

        def rebuild(tx: Tx) -> None:
            conn = cast(SqliteTx, tx)._conn
            conn.execute("DROP TABLE IF EXISTS escalations")
            for statement in match.group(0).split(";"):
                if statement.strip():
                    conn.execute(statement)

        await self.write(rebuild)

    async def question(self, question_id: str) -> Question | None:
        rows = await self._read(
            f"SELECT {codec.QUESTION_COLUMNS} FROM questions WHERE id = ?", (question_id,)
        )
        return codec.question_from(rows[0]) if rows else None

    async def waiting_counts(self) -> dict[str, int]:
        rows = await self._read(
            "SELECT member, count(*) AS n FROM questions"
            " WHERE state = 'waiting' AND member IS NOT NULL GROUP BY member"
        )
        return {r["member"]: int(r["n"]) for r in rows}

    async def events_after(self, session: str, cursor: int, *, limit: int = 100) -> list[Event]:
        rows = await self._read(
            "SELECT cursor, session, kind, body, created_at FROM events"
            " WHERE session = ? AND cursor > ? ORDER BY cursor LIMIT ?",
            (session, cursor, limit),
        )
        return [codec.event_from(r) for r in rows]

    async def outbox_heads(self, transport: str) -> list[OutboxEntry]:
        rows = await self._read(
            f"SELECT {codec.OUTBOX_COLUMNS} FROM outbox WHERE id IN"
            " (SELECT min(id) FROM outbox WHERE transport = ? GROUP BY lane) ORDER BY id",
            (transport,),
        )
        return [codec.outbox_from(r) for r in rows]

    async def outbox_head(self, transport: str, lane: str) -> OutboxEntry | None:
        rows = await self._read(
            f"SELECT {codec.OUTBOX_COLUMNS} FROM outbox WHERE transport = ? AND lane = ?"
            " ORDER BY id LIMIT 1",
            (transport, lane),
        )
        return codec.outbox_from(rows[0]) if rows else None

    async def outbox_last_id(self) -> int:
        rows = await self._read("SELECT coalesce(max(id), 0) FROM outbox")
        return int(rows[0][0])

    async def outbox_size(self, transport: str | None = None) -> int:
        if transport is None:
            rows = await self._read("SELECT count(*) FROM outbox")
        else:
            rows = await self._read("SELECT count(*) FROM outbox WHERE transport = ?", (transport,))
        return int(rows[0][0])

    async def platform_message(self, transport: str, object_key: str) -> PlatformMessage | None:
        rows = await self._read(
            "SELECT transport, object_key, thread_ref, message_ref FROM platform_messages"
            " WHERE transport = ? AND object_key = ?",
            (transport, object_key),
        )
        return codec.platform_message_from(rows[0]) if rows else None

    async def object_for_message(self, transport: str, message_ref: str) -> str | None:
        rows = await self._read(
            "SELECT object_key FROM platform_messages WHERE transport = ? AND message_ref = ?",
            (transport, message_ref),
        )
        return str(rows[0]["object_key"]) if rows else None

    async def sel(self, *, action_prefix: str = "") -> list[SelRecord]:
        rows = await self._read(
            "SELECT id, at, action, outcome, actor, member, details FROM sel"
            " WHERE action LIKE ? ORDER BY id",
            (action_prefix.replace("%", "") + "%",),
        )
        return [codec.sel_from(r) for r in rows]

    async def setting(self, key: str) -> str | None:
        rows = await self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0]["value"]) if rows else None


async def _connect(path: Path) -> aiosqlite.Connection:
    # isolation_level=None: crewline opens and commits its own transactions.
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA synchronous = FULL")
    await conn.execute("PRAGMA busy_timeout = 5000")
    return conn


def _run_batch(conn: sqlite3.Connection, batch: list[_Pending]) -> list[tuple[bool, Any]]:
    """Run each transaction in its own savepoint inside one COMMIT (on the DB thread)."""
    outcomes: list[tuple[bool, Any]] = []
    tx = SqliteTx(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        for pending in batch:
            conn.execute("SAVEPOINT tx")
            try:
                result = pending.transaction(tx)
            except Exception as error:
                conn.execute("ROLLBACK TO tx")
                conn.execute("RELEASE tx")
                outcomes.append((False, error))
            else:
                conn.execute("RELEASE tx")
                outcomes.append((True, result))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes
