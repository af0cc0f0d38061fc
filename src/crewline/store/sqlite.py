"""SqliteStore: the embedded default Store, on sqlite3 and aiosqlite.

Three connections to one WAL database, each used where it costs least:

- **The writer** takes whole transactions from a queue and commits many at once (group
  commit: one fsync per batch). What may wait runs on the writer's own thread: ``COMMIT``
  (the disk), and ``BEGIN IMMEDIATE`` when another process holds the write lock. The
  transactions themselves run on the event loop, as plain CPU work. Running them on the
  thread, as aiosqlite does, made every statement hand the GIL to and fro between the loop
  and the thread: a transaction's ten statements cost more in hand-overs than in SQLite.
  A transaction that may take seconds (reconciling a long transcript) is written with
  ``heavy=True`` and its batch runs on the thread, so the loop keeps serving meanwhile.
- **The reader** (aiosqlite) answers scans — lists, counts, event pages — one
  ``execute_fetchall`` hop each.
- **The lookup connection** answers reads of a few rows by key right on the event loop:
  about 5 µs each, where a hop to a thread and back costs about 35 µs of the loop's time,
  and an escalation's path makes about twenty. A WAL reader never waits for the writer, and
  this connection waits on no lock (``busy_timeout = 0``): in the rare moment a checkpoint
  holds one, the lookup goes to the reader instead. ``tests/unit/test_store_lookups.py``
  checks that every lookup is an index search, so none can grow into a scan on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from crewline.errors import Unavailable
from crewline.files import create_private_file, private_directory
from crewline.models import Escalation, Event, Identity, Member, Question, Row, Session
from crewline.store import codec
from crewline.store.base import (
    IdempotencyRecord,
    OutboxBacklog,
    OutboxEntry,
    PlatformMessage,
    SelRecord,
    Store,
    Tx,
    Webhook,
)
from crewline.store.sqlite_concierge import ConciergeReads
from crewline.store.sqlite_tx import MEMBERS, SqliteTx

__all__ = ["SqliteStore", "migrations"]

log = logging.getLogger(__name__)
T = TypeVar("T")
Outcome = tuple[bool, Any]  # (True, the transaction's result) or (False, what it raised)

MAX_BATCH = 256
DATABASE_NAME = "crewline.db"
_ESCALATIONS_DDL = re.compile(
    r"CREATE TABLE escalations .*?;\s*CREATE INDEX escalations_by_member .*?;"
    r"\s*CREATE INDEX escalations_due .*?;",
    re.S,
)
# Columns later migrations added to the index table, which a rebuild adds again.
_ESCALATION_COLUMN = re.compile(r"ALTER TABLE escalations ADD COLUMN .*?;", re.S)


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
    heavy: bool


class SqliteStore(ConciergeReads, Store):
    """Open with ``async with SqliteStore(path) as store``; migrations run on open."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._writer: sqlite3.Connection | None = None
        self._writer_thread: ThreadPoolExecutor | None = None
        self._reader: aiosqlite.Connection | None = None
        self._lookups: sqlite3.Connection | None = None
        self._queue: asyncio.Queue[_Pending] = asyncio.Queue()
        self._writer_task: asyncio.Task[None] | None = None
        self.batches_committed = 0

    @classmethod
    def in_directory(cls, data_dir: Path) -> SqliteStore:
        return cls(data_dir / DATABASE_NAME)

    # lifecycle ------------------------------------------------------------------------------
    async def __aenter__(self) -> SqliteStore:
        private_directory(self.path.parent)
        create_private_file(self.path)
        self._writer_thread = ThreadPoolExecutor(1, thread_name_prefix="crewline-store-writer")
        self._writer = await self._on_writer_thread(_open_writer, self.path)
        self._reader = await _connect(self.path)
        self._lookups = _connect_lookups(self.path)
        self._writer_task = asyncio.create_task(self._write_loop(), name="crewline-store-writer")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._writer_task is not None:
            self._writer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer_task
        while not self._queue.empty():
            self._queue.get_nowait().future.cancel()
        if self._reader is not None:
            await self._reader.close()
        if self._writer is not None:
            await self._on_writer_thread(self._writer.close)
        if self._writer_thread is not None:
            self._writer_thread.shutdown()
        if self._lookups is not None:
            self._lookups.close()
        self._reader = self._writer = self._lookups = self._writer_thread = None

    async def _on_writer_thread(self, call: Callable[..., T], *args: Any) -> T:
        assert self._writer_thread is not None
        return await asyncio.get_running_loop().run_in_executor(self._writer_thread, call, *args)

    def latest_schema_version(self) -> int:
        return migrations()[-1].version

    async def schema_version(self) -> int:
        rows = await self._read("PRAGMA user_version")
        return int(rows[0][0])

    # writes: one writer task, group commit --------------------------------------------------
    async def write(self, transaction: Callable[[Tx], T], *, heavy: bool = False) -> T:
        if self._writer_task is None or self._writer_task.done():
            raise RuntimeError("the store is not open")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Pending(transaction, future, heavy))
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
                outcomes = await self._commit(self._writer, batch)
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

    async def _commit(self, conn: sqlite3.Connection, batch: list[_Pending]) -> list[Outcome]:
        """One group commit: each transaction in its own savepoint inside one COMMIT."""
        try:
            conn.execute("BEGIN IMMEDIATE")  # the lock is free (busy_timeout 0: no waiting)
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode not in _BUSY:
                raise
            await self._on_writer_thread(_begin_waiting, conn)  # the CLI is writing
        try:
            if any(pending.heavy for pending in batch):  # seconds of work: not on the loop
                outcomes = await self._on_writer_thread(_in_savepoints, conn, batch)
            else:
                outcomes = _in_savepoints(conn, batch)
            await self._on_writer_thread(conn.execute, "COMMIT")
        except asyncio.CancelledError:
            raise  # closing: the thread finishes what it was given (COMMIT) before the close
        except BaseException:
            if conn.in_transaction:
                await self._on_writer_thread(conn.execute, "ROLLBACK")
            raise
        return outcomes

    # reads ----------------------------------------------------------------------------------
    async def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        if self._reader is None:
            raise RuntimeError("the store is not open")
        return cast(list[sqlite3.Row], list(await self._reader.execute_fetchall(sql, params)))

    async def _lookup(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """A read of a few rows by key, run on the event loop (see the module docstring)."""
        if self._lookups is None:
            raise RuntimeError("the store is not open")
        try:
            return self._lookups.execute(sql, params).fetchall()
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode not in _BUSY:
                raise
            return await self._read(sql, params)  # a lock is held: wait for it off the loop

    async def member(self, slug: str) -> Member | None:
        members = codec.members_from(
            await self._lookup(MEMBERS.format(where="WHERE m.slug = ?"), (slug,))
        )
        return members[0] if members else None

    async def members(self) -> list[Member]:
        return codec.members_from(await self._read(MEMBERS.format(where="")))

    async def session_by_key_hash(self, key_hash: str) -> Session | None:
        rows = await self._lookup(
            f"SELECT {codec.SESSION_COLUMNS} FROM sessions"
            " WHERE key_hash = ? AND revoked_at IS NULL",
            (key_hash,),
        )
        return codec.session_from(rows[0]) if rows else None

    async def live_sessions(self, session_ids: Collection[str]) -> set[str]:
        if not session_ids:
            return set()
        rows = await self._read(
            "SELECT id FROM sessions WHERE revoked_at IS NULL"
            " AND id IN (SELECT value FROM json_each(?))",
            (codec.dumps(sorted(session_ids)),),
        )
        return {str(r["id"]) for r in rows}

    async def human_by_token_hash(self, token_hash: str) -> int | None:
        rows = await self._lookup("SELECT id FROM humans WHERE token_hash = ?", (token_hash,))
        return int(rows[0]["id"]) if rows else None

    async def humans(self) -> list[int]:
        return [int(r["id"]) for r in await self._read("SELECT id FROM humans ORDER BY id")]

    async def human_of(self, platform: str, user_id: str) -> int | None:
        rows = await self._lookup(
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
        rows = await self._lookup(
            "SELECT thread_ref FROM threads WHERE member = ? AND transport = ?", (member, transport)
        )
        return str(rows[0]["thread_ref"]) if rows else None

    async def member_for_thread(self, transport: str, thread_ref: str) -> str | None:
        rows = await self._lookup(
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
        rows = await self._lookup(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE id = ?{live}", (row_id,)
        )
        return codec.row_from(rows[0]) if rows else None

    async def escalation(self, escalation_id: str) -> Escalation | None:
        rows = await self._index_read(
            f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE id = ?",
            (escalation_id,),
            lookup=True,
        )
        return codec.escalation_from(rows[0]) if rows else None

    async def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        # Pending ones are at most a backlog's worth (50): a lookup. All of them: a scan.
        where = "member = ? AND state = 'pending'" if pending_only else "member = ?"
        rows = await self._index_read(
            f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE {where}"
            " ORDER BY created_at, rowid",
            (member,),
            lookup=pending_only,
        )
        return [codec.escalation_from(r) for r in rows]

    async def pending_counts(self) -> dict[str, int]:
        rows = await self._index_read(
            "SELECT member, count(*) AS n FROM escalations WHERE state = 'pending' GROUP BY member"
        )
        return {r["member"]: int(r["n"]) for r in rows}

    async def due_windows(self, before: datetime) -> list[tuple[str, str, datetime]]:
        rows = await self._index_read(
            "SELECT id, member, deadline FROM escalations WHERE state = 'pending'"
            " AND deadline IS NOT NULL AND deadline < ? AND window_held = 0 ORDER BY deadline",
            (codec.epoch(before),),
        )
        return [(r["id"], r["member"], codec.moment(r["deadline"])) for r in rows]

    async def _index_read(
        self, sql: str, params: tuple[Any, ...] = (), *, lookup: bool = False
    ) -> list[sqlite3.Row]:
        try:
            return await (self._lookup if lookup else self._read)(sql, params)
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
        scripts = migrations()
        match = _ESCALATIONS_DDL.search(scripts[0].sql)
        assert match is not None, "001_initial.sql defines the escalations table"
        added = [c.group(0) for m in scripts[1:] for c in _ESCALATION_COLUMN.finditer(m.sql)]

        def rebuild(tx: Tx) -> None:
            conn = cast(SqliteTx, tx)._conn
            conn.execute("DROP TABLE IF EXISTS escalations")
            for statement in [*match.group(0).split(";"), *added]:
                if statement.strip():
                    conn.execute(statement)

        await self.write(rebuild, heavy=True)

    async def question(self, question_id: str) -> Question | None:
        rows = await self._lookup(
            f"SELECT {codec.QUESTION_COLUMNS} FROM questions WHERE id = ?", (question_id,)
        )
        return codec.question_from(rows[0]) if rows else None

    async def waiting_counts(self) -> dict[str, int]:
        rows = await self._read(
            "SELECT member, count(*) AS n FROM questions"
            " WHERE state = 'waiting' AND member IS NOT NULL GROUP BY member"
        )
        return {r["member"]: int(r["n"]) for r in rows}

    async def waiting_questions(self, member: str) -> list[Question]:
        rows = await self._read(
            f"SELECT {codec.QUESTION_COLUMNS} FROM questions"
            " WHERE member = ? AND state = 'waiting' ORDER BY created_at, id",
            (member,),
        )
        return [codec.question_from(r) for r in rows]

    async def events_after(self, session: str, cursor: int, *, limit: int = 100) -> list[Event]:
        rows = await self._read(
            "SELECT cursor, session, kind, body, created_at FROM events"
            " WHERE session = ? AND cursor > ? AND withdrawn_in IS NULL ORDER BY cursor LIMIT ?",
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
        rows = await self._lookup(
            f"SELECT {codec.OUTBOX_COLUMNS} FROM outbox WHERE transport = ? AND lane = ?"
            " ORDER BY id LIMIT 1",
            (transport, lane),
        )
        return codec.outbox_from(rows[0]) if rows else None

    async def outbox_last_id(self) -> int:
        rows = await self._lookup("SELECT coalesce(max(id), 0) FROM outbox")
        return int(rows[0][0])

    async def outbox_object_ids(
        self, transport: str, lane: str, op: str, object_key: str
    ) -> list[int]:
        rows = await self._lookup(
            "SELECT id FROM outbox WHERE transport = ? AND lane = ? AND op = ?"
            " AND object_key = ? ORDER BY id",
            (transport, lane, op, object_key),
        )
        return [int(r["id"]) for r in rows]

    async def outbox_size(self, transport: str | None = None) -> int:
        if transport is None:
            rows = await self._read("SELECT count(*) FROM outbox")
        else:
            rows = await self._read("SELECT count(*) FROM outbox WHERE transport = ?", (transport,))
        return int(rows[0][0])

    async def outbox_backlog(self) -> list[OutboxBacklog]:
        # One read: with min() the bare columns come from the oldest row itself (SQLite's
        # documented rule), so a delivery between two reads cannot leave a dangling id.
        pending = await self._read(
            "SELECT transport, count(*) AS pending, min(id) AS oldest_id, created_at, last_error"
            " FROM outbox GROUP BY transport"
        )
        dead = {
            r["transport"]: int(r["dead"])
            for r in await self._read(
                "SELECT transport, count(*) AS dead FROM outbox_dead GROUP BY transport"
            )
        }
        found = {
            r["transport"]: OutboxBacklog(
                transport=r["transport"],
                pending=int(r["pending"]),
                oldest=codec.moment(r["created_at"]),
                oldest_error=r["last_error"],
                dead=dead.get(r["transport"], 0),
            )
            for r in pending
        }
        for transport, count in dead.items():
            if transport not in found:
                found[transport] = OutboxBacklog(
                    transport=transport, pending=0, oldest=None, oldest_error=None, dead=count
                )
        return [found[name] for name in sorted(found)]

    async def escalation_counts(self) -> dict[str, int]:
        rows = await self._index_read("SELECT state, count(*) AS n FROM escalations GROUP BY state")
        return {r["state"]: int(r["n"]) for r in rows}

    async def platform_message(self, transport: str, object_key: str) -> PlatformMessage | None:
        rows = await self._lookup(
            "SELECT transport, object_key, thread_ref, message_ref FROM platform_messages"
            " WHERE transport = ? AND object_key = ?",
            (transport, object_key),
        )
        return codec.platform_message_from(rows[0]) if rows else None

    async def object_for_message(self, transport: str, message_ref: str) -> str | None:
        rows = await self._lookup(
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

    async def sel_after(
        self,
        after: int,
        *,
        limit: int,
        member: str | None = None,
        since: datetime | None = None,
        action: str | None = None,
    ) -> list[SelRecord]:
        where = ["id > ?"]
        params: list[object] = [after]
        if member is not None:
            where.append("member = ?")
            params.append(member)
        if since is not None:
            where.append("at >= ?")
            params.append(codec.epoch(since))
        if action is not None:  # no LIKE: actions hold '_', its wildcard
            where.append("(action = ? OR substr(action, 1, ?) = ?)")
            params += [action, len(action) + 1, f"{action}:"]
        rows = await self._read(
            "SELECT id, at, action, outcome, actor, member, details FROM sel"
            f" WHERE {' AND '.join(where)} ORDER BY id LIMIT ?",
            (*params, limit),
        )
        return [codec.sel_from(r) for r in rows]

    async def setting(self, key: str) -> str | None:
        rows = await self._lookup("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0]["value"]) if rows else None

    async def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        rows = await self._lookup(
            f"SELECT {codec.IDEMPOTENCY_COLUMNS} FROM idempotency_keys"
            " WHERE session = ? AND key = ?",
            (session, key),
        )
        return codec.idempotency_from(rows[0]) if rows else None

    async def webhook(self, session: str) -> Webhook | None:
        rows = await self._lookup(
            f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks w JOIN sessions s ON s.id = w.session"
            " WHERE w.session = ? AND s.revoked_at IS NULL",
            (session,),
        )
        return codec.webhook_from(rows[0]) if rows else None

    async def webhooks(self, *, behind_only: bool = False) -> list[Webhook]:
        behind = (
            " AND EXISTS (SELECT 1 FROM events e"
            " WHERE e.session = w.session AND e.cursor > w.delivered_through)"
            if behind_only
            else ""
        )
        rows = await self._read(
            f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks w JOIN sessions s ON s.id = w.session"
            f" WHERE s.revoked_at IS NULL{behind}"
        )
        return [codec.webhook_from(r) for r in rows]


_WEBHOOK_COLUMNS = ", ".join(f"w.{c.strip()}" for c in codec.WEBHOOK_COLUMNS.split(","))
BUSY_TIMEOUT_MS = 5000  # how long a write or scan waits for another process's lock
# Every transaction runs in a savepoint of its group commit, and a savepoint keeps the pages
# it changes in a sub-journal, one SQLite may spill to a temporary file unless told to keep
# it in memory: kept there, an insert costs about half as much (docs/performance.md).
_PRAGMAS = (
    "foreign_keys = ON",
    "synchronous = FULL",
    f"busy_timeout = {BUSY_TIMEOUT_MS}",
    "temp_store = MEMORY",
)
_BUSY = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def _connect_lookups(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)  # used on the loop's thread only
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA query_only = ON")
    conn.execute("PRAGMA busy_timeout = 0")  # never wait for a lock on the event loop
    return conn


async def _connect(path: Path) -> aiosqlite.Connection:
    # isolation_level=None: crewline opens and commits its own transactions.
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    for pragma in _PRAGMAS:
        await conn.execute(f"PRAGMA {pragma}")
    return conn


def _in_savepoints(conn: sqlite3.Connection, batch: list[_Pending]) -> list[Outcome]:
    return [_in_savepoint(conn, pending.transaction) for pending in batch]


def _in_savepoint(conn: sqlite3.Connection, transaction: Callable[[Tx], Any]) -> Outcome:
    """Run one caller's transaction; its failure undoes its writes alone."""
    conn.execute("SAVEPOINT tx")
    try:
        result = transaction(SqliteTx(conn))
    except Exception as error:
        conn.execute("ROLLBACK TO tx")
        conn.execute("RELEASE tx")
        return False, error
    conn.execute("RELEASE tx")
    return True, result


def _open_writer(path: Path) -> sqlite3.Connection:
    # Used from the loop and from the writer's thread in turn, never from both at once,
    # which check_same_thread cannot know.
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    for pragma in ("journal_mode = WAL", *_PRAGMAS):
        conn.execute(f"PRAGMA {pragma}")
    _migrate(conn)
    conn.execute("PRAGMA busy_timeout = 0")  # the loop runs its BEGIN: it must not wait
    return conn


def _begin_waiting(conn: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE, waiting (on the writer's thread) for another process's write lock."""
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    try:
        conn.execute("BEGIN IMMEDIATE")
    finally:
        conn.execute("PRAGMA busy_timeout = 0")


def _migrate(conn: sqlite3.Connection) -> None:
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    for migration in migrations():
        if migration.version > current:
            log.info("applying migration %03d %s", migration.version, migration.name)
            conn.executescript(
                f"BEGIN; {migration.sql}; PRAGMA user_version = {migration.version}; COMMIT;"
            )
