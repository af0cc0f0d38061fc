"""SqliteStore: the embedded default Store, on sqlite3 and aiosqlite.

Its reads and transactions are the store's one SQL implementation (``store/sql``); this
module holds what only SQLite does: its dialect, its statements, and three connections to
one WAL database, each used where it costs least:

- **The writer** takes whole transactions from a queue and commits many at once (group
  commit: one fsync per batch), with no savepoint unless one of them raises (then the
  batch runs again, each transaction in its own). What may wait runs on the writer's own
  thread (``sqlite_thread``): ``COMMIT`` (the disk), and ``BEGIN IMMEDIATE`` when another
  process holds the write lock. The transactions themselves run on the event loop, as
  plain CPU work.
  Running them on the thread, as aiosqlite does, made every statement hand the GIL to and
  fro between the loop and the thread: a transaction's ten statements cost more in
  hand-overs than in SQLite.
  A transaction that may take seconds (reconciling a long transcript) is written with
  ``heavy=True`` and its batch runs on the thread, so the loop keeps serving meanwhile.
  Bookkeeping nobody else waits for is written with ``lazy=True``: a batch of nothing
  else waits a moment (``LAZY_WINDOW``) for a write that is not, and goes with it.
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
import collections
import contextlib
import logging
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import aiosqlite

from crewline.files import create_private_file, private_directory
from crewline.store import schema
from crewline.store.base import Tx
from crewline.store.schema import Migration
from crewline.store.sql import Dialect, SqlStore, SqlTx, Statements
from crewline.store.sql.dialect import FLEET_WINDOW, OUTBOX_ENTRY, Cursor
from crewline.store.sql.records import INDEX_PROBE
from crewline.store.sql.rowmap import dumps
from crewline.store.sql.transcript import ROW
from crewline.store.sqlite_thread import WriterThread
from crewline.tasks import cancel_and_wait

__all__ = ["SqliteDialect", "SqliteStore", "migrations"]

log = logging.getLogger(__name__)
T = TypeVar("T")
Outcome = tuple[bool, Any]  # (True, the transaction's result) or (False, what it raised)

MAX_BATCH = 256
# How long a batch of lazy writes alone (outbox settles, ledger records) waits for another
# write to share its commit: a change that arrives meanwhile then finds no commit of
# bookkeeping in flight (an fsync) to wait behind. A lane waits for its settle, so this is
# also the most a lane's next call can be held up when nothing else is written.
LAZY_WINDOW = 0.002
DATABASE_NAME = "crewline.db"


def migrations() -> list[Migration]:
    """The migrations as SQLite runs them, the baseline first."""
    return schema.migrations("sqlite")


@dataclass(slots=True)
class _Pending:
    transaction: Callable[[Tx], Any]
    future: asyncio.Future[Any]
    heavy: bool
    lazy: bool


class SqliteDialect(Dialect):
    """SQLite's SQL: JSON arrays as list parameters, FTS5 for fleet search, one writer."""

    name = "sqlite"
    single_writer = True
    writes_in_with = False

    def array(self, values: Sequence[Any]) -> Any:
        return dumps(list(values))

    def index_damage(self, error: BaseException, *, reading: bool) -> bool:
        return isinstance(error, sqlite3.DatabaseError)

    def fleet_search(
        self, terms: Sequence[str], *, excluding: str, limit: int, prefix: bool
    ) -> tuple[str, tuple[Any, ...]]:
        # Each term an FTS5 phrase, quoted (its quotes doubled), so nothing in it is syntax.
        star = "*" if prefix else ""
        match = " OR ".join(f'"{term.replace(chr(34), chr(34) * 2)}"{star}' for term in terms)
        return _FLEET_SEARCH, (match, FLEET_WINDOW, excluding, limit)


# The newest FLEET_WINDOW matching rows, ranked (bm25), best first: FTS5 walks the matches
# newest first and stops, so a question made of common words costs a bounded amount
# however large the fleet's history grows, while the ranking still puts the row that
# states the asked-for thing first.
_FLEET_SEARCH = (
    f"SELECT {', '.join(f'r.{c}' for c in ROW)} FROM"
    " (SELECT rowid, rank FROM fleet_text WHERE fleet_text MATCH ? ORDER BY rowid DESC LIMIT ?)"
    " AS hit JOIN rows r ON r.rowid = hit.rowid"
    " WHERE r.conversation <> ? AND r.rewound_in IS NULL ORDER BY hit.rank LIMIT ?"
)
DIALECT = SqliteDialect()
_QUEUE = f"INSERT INTO outbox ({', '.join(OUTBOX_ENTRY)}) VALUES ({', '.join('?' * 6)})"


class SqliteStatements(Statements):
    """A transaction's statements on the writer's connection, run as they come: the writer
    is the only one, so there is nothing to lock, to hold back or to tell."""

    __slots__ = ("_conn", "_rendered", "_text", "dialect")

    _INSERTS: ClassVar[dict[tuple[str, tuple[str, ...]], str]] = {}

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.dialect = DIALECT
        self._rendered = DIALECT.rendered
        self._text = DIALECT.text

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self._conn.execute(self._rendered.get(sql) or self._text(sql), params)

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(self._text(sql), params)

    def fetch_each(self, sql: str, params: Sequence[Sequence[Any]]) -> list[Any]:
        text = self._text(sql)
        return [self._conn.execute(text, each).fetchone() for each in params]

    def count(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(self._text(sql), params).rowcount

    def settle(self) -> None:
        pass  # every statement has run when execute returns

    def lock(self, key: str, space: int) -> None:
        pass  # one writer commits one batch at a time: every transaction is serial already

    def insert_next(
        self, table: str, columns: Sequence[str], params: Sequence[Any], *, stream: str | None
    ) -> int:
        # One writer: ids (AUTOINCREMENT) commit in the order they are taken, every stream's.
        shape = (table, tuple(columns))
        sql = self._INSERTS.get(shape)
        if sql is None:
            marks = ", ".join("?" * len(columns))
            sql = self._INSERTS[shape] = (
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            )
        return int(self._conn.execute(sql, params).lastrowid or 0)

    def queue(self, values: tuple[Any, ...], *, stream: str | None) -> None:
        self._conn.execute(_QUEUE, values)  # no round trip to save: inserted at once

    def notify(self, key: str) -> None:
        pass  # one process: its readers are woken after the commit, in-process

    def finish(self) -> None:
        pass  # nothing held back


class SqliteStore(SqlStore):
    """Open with ``async with SqliteStore(path) as store``; migrations run on open."""

    dialect = DIALECT

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._writer: sqlite3.Connection | None = None
        self._writer_thread: WriterThread | None = None
        self._reader: aiosqlite.Connection | None = None
        self._lookups: sqlite3.Connection | None = None
        # A deque and an event, not an asyncio.Queue: the loop alone puts and takes, and a
        # write then costs an append and an already-set event's check.
        self._queue: collections.deque[_Pending] = collections.deque()
        self._queued = asyncio.Event()  # set when a write is queued
        self._writer_task: asyncio.Task[None] | None = None
        self._eager_queued = 0  # queued writes that are not lazy
        self._eager = asyncio.Event()  # set when one is queued
        self.batches_committed = 0

    @classmethod
    def in_directory(cls, data_dir: Path) -> SqliteStore:
        return cls(data_dir / DATABASE_NAME)

    # lifecycle ------------------------------------------------------------------------------
    async def __aenter__(self) -> SqliteStore:
        private_directory(self.path.parent)
        create_private_file(self.path)
        self._writer_thread = WriterThread("crewline-store-writer")
        try:
            self._writer = await self._on_writer_thread(_open_writer, self.path)
            self._reader = await _connect(self.path)
            self._lookups = _connect_lookups(self.path)
        except BaseException:
            await self.__aexit__()
            raise
        self._writer_task = asyncio.create_task(self._write_loop(), name="crewline-store-writer")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await cancel_and_wait(self._writer_task)
        while self._queue:
            self._queue.popleft().future.cancel()
        if self._reader is not None:
            await self._reader.close()
        if self._writer is not None:
            await self._on_writer_thread(self._writer.close)
        if self._writer_thread is not None:
            self._writer_thread.stop()
        if self._lookups is not None:
            self._lookups.close()
        self._reader = self._writer = self._lookups = self._writer_thread = None

    async def _on_writer_thread(self, call: Callable[..., T], *args: Any) -> T:
        assert self._writer_thread is not None
        return await self._writer_thread.run(call, *args)

    def latest_schema_version(self) -> int:
        return migrations()[-1].version

    async def data_version(self) -> int | None:
        # The lookup connection never writes, so its data_version moves on every commit,
        # the writer's and other processes'. The pragma reads the WAL's header in shared
        # memory, no page of any table: a microsecond or two, right on the loop.
        if self._lookups is None:
            raise RuntimeError("the store is not open")
        try:
            return int(self._lookups.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode not in _BUSY:
                raise
            return None  # a lock held for a moment: cannot tell

    async def schema_version(self) -> int:
        rows = await self._fetch("PRAGMA user_version")
        return int(rows[0][0])

    # writes: one writer task, group commit --------------------------------------------------
    async def write(
        self, transaction: Callable[[Tx], T], *, heavy: bool = False, lazy: bool = False
    ) -> T:
        if self._writer_task is None or self._writer_task.done():
            raise RuntimeError("the store is not open")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append(_Pending(transaction, future, heavy, lazy))
        self._queued.set()
        if not lazy:
            self._eager_queued += 1
            self._eager.set()
        return await future

    async def _write_loop(self) -> None:
        assert self._writer is not None
        while True:
            while not self._queue:
                self._queued.clear()
                await self._queued.wait()
            first = self._queue.popleft()
            if first.lazy and not self._eager_queued:
                await self._wait_for_eager(first)
            batch = [first]
            while len(batch) < MAX_BATCH and self._queue:
                batch.append(self._queue.popleft())
            self._eager_queued -= sum(1 for p in batch if not p.lazy)
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

    async def _wait_for_eager(self, lazy: _Pending) -> None:
        """Only lazy writes wait: give a write somebody waits for ``LAZY_WINDOW`` to come
        and share their commit, which then starts the moment it does."""
        self._eager.clear()
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(LAZY_WINDOW):
                    await self._eager.wait()
        except asyncio.CancelledError:
            lazy.future.cancel()  # closing: taken off the queue, it would never be answered
            raise

    async def _commit(self, conn: sqlite3.Connection, batch: list[_Pending]) -> list[Outcome]:
        """One group commit: the batch's transactions inside one COMMIT, each one that raises
        rolled back alone. The common case runs them as they come, with no savepoint (each
        would journal the pages its transaction changes); if one raises, the batch is rolled
        back and runs again, each transaction in its own savepoint (as PostgresStore's)."""
        await self._begin(conn)
        try:
            if any(pending.heavy for pending in batch):  # seconds of work: not on the loop
                outcomes = await self._on_writer_thread(_in_savepoints, conn, batch)
            else:
                outcomes, failed = _all_at_once(conn, batch)
                if failed is not None:
                    if conn.in_transaction:  # (an I/O error may have ended it already)
                        conn.execute("ROLLBACK")
                    if len(batch) == 1:  # its outcome is known, and nothing is left to commit
                        return [(False, failed)]
                    await self._begin(conn)
                    outcomes = _in_savepoints(conn, batch)
            await self._on_writer_thread(conn.execute, "COMMIT")
        except asyncio.CancelledError:
            raise  # closing: the thread finishes what it was given (COMMIT) before the close
        except BaseException:
            if conn.in_transaction:
                await self._on_writer_thread(conn.execute, "ROLLBACK")
            raise
        return outcomes

    async def _begin(self, conn: sqlite3.Connection) -> None:
        try:
            conn.execute("BEGIN IMMEDIATE")  # the lock is free (busy_timeout 0: no waiting)
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode not in _BUSY:
                raise
            await self._on_writer_thread(_begin_waiting, conn)  # the CLI is writing

    # reads ----------------------------------------------------------------------------------
    async def _fetch(
        self, sql: str, params: Sequence[Any] = (), *, lookup: bool = False, prepare: bool = True
    ) -> list[Any]:
        if self._reader is None or self._lookups is None:
            raise RuntimeError("the store is not open")
        text = self.dialect.text(sql)
        if lookup:  # a few rows by key: on the event loop (see the module docstring)
            try:
                return self._lookups.execute(text, params).fetchall()
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode not in _BUSY:
                    raise  # else a lock is held: wait for it off the loop
        return list(await self._reader.execute_fetchall(text, params))

    async def rebuild_index(self, refill: Callable[[Tx], T]) -> T | None:
        ddl = schema.table_ddl("sqlite", "escalations")

        def rebuild(tx: Tx) -> T | None:
            # One writer: no other transaction runs between this probe and the commit.
            assert self._writer is not None  # the transaction runs on the writer's connection
            if _index_readable(self._writer):
                return None
            self._writer.execute("DROP TABLE IF EXISTS escalations")
            for statement in ddl:
                self._writer.execute(statement)
            return refill(tx)

        return await self.write(rebuild, heavy=True)


def _index_readable(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute(INDEX_PROBE).fetchall()
    except sqlite3.DatabaseError:  # what the dialect calls the index's damage
        return False
    return True


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
    conn.execute("PRAGMA query_only = ON")
    conn.execute("PRAGMA busy_timeout = 0")  # never wait for a lock on the event loop
    return conn


async def _connect(path: Path) -> aiosqlite.Connection:
    # isolation_level=None: crewline opens and commits its own transactions.
    conn = await aiosqlite.connect(path, isolation_level=None)
    for pragma in _PRAGMAS:
        await conn.execute(f"PRAGMA {pragma}")
    return conn


def _all_at_once(
    conn: sqlite3.Connection, batch: list[_Pending]
) -> tuple[list[Outcome], Exception | None]:
    """Run the batch's transactions one after another in the open transaction; stop at the
    first that raises and give what it raised (the batch's writes are then the caller's to
    roll back)."""
    statements = SqliteStatements(conn)  # nothing of one transaction's: shared by the batch
    outcomes: list[Outcome] = []
    for pending in batch:
        try:
            outcomes.append((True, pending.transaction(SqlTx(statements))))
        except Exception as error:
            return outcomes, error
    return outcomes, None


def _in_savepoints(conn: sqlite3.Connection, batch: list[_Pending]) -> list[Outcome]:
    statements = SqliteStatements(conn)  # nothing of one transaction's: shared by the batch
    return [_in_savepoint(conn, statements, pending.transaction) for pending in batch]


def _in_savepoint(
    conn: sqlite3.Connection, statements: Statements, transaction: Callable[[Tx], Any]
) -> Outcome:
    """Run one caller's transaction; its failure undoes its writes alone."""
    conn.execute("SAVEPOINT tx")
    try:
        result = transaction(SqlTx(statements))
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
    try:
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        start = schema.adopt("sqlite", current, where=str(path))  # refused: nothing changed
        for pragma in ("journal_mode = WAL", *_PRAGMAS):
            conn.execute(f"PRAGMA {pragma}")
        _migrate(conn, current, start)
    except BaseException:
        conn.close()
        raise
    conn.execute("PRAGMA busy_timeout = 0")  # the loop runs its BEGIN: it must not wait
    return conn


def _begin_waiting(conn: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE, waiting (on the writer's thread) for another process's write lock."""
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    try:
        conn.execute("BEGIN IMMEDIATE")
    finally:
        conn.execute("PRAGMA busy_timeout = 0")


def _migrate(conn: sqlite3.Connection, current: int, start: int) -> None:
    """Apply the migrations after ``start`` (the version a database at ``current`` goes on
    from: the baseline's, once adopted)."""
    if start != current:
        log.info("adopting schema version %d as the baseline %03d", current, start)
        conn.execute(f"PRAGMA user_version = {start}")
    for migration in migrations():
        if migration.version > start:
            log.info("applying migration %03d %s", migration.version, migration.name)
            conn.executescript(
                f"BEGIN; {migration.sql}; PRAGMA user_version = {migration.version}; COMMIT;"
            )
