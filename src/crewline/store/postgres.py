"""PostgresStore: the Store port on PostgreSQL, for a crewline that outgrows one machine.

psycopg 3's synchronous driver with its connection pool. Its reads and transactions are the
store's one SQL implementation (``store/sql``) in PostgreSQL's dialect and statements
(``postgres_statements.py``). A transaction is the same plain function over ``Tx`` as on
SQLite; here it runs on a writer thread holding its own pooled
connection, in pipeline mode: statements whose results it does not read travel with the
next one whose result it does, so it pays a round trip per result read, not per statement.
Group commit, as on SQLite: a writer runs the transactions queued meanwhile in one database
transaction (READ COMMITTED), each in its own savepoint, and commits them together
(``postgres_writer.py`` says what each caller still gets). Commits stay synchronous
(``synchronous_commit`` as the server has it, on by default): ``write`` returns once the
batch holding the transaction is durable. What READ COMMITTED alone would not make atomic
takes a lock until commit:

- the backlog ceiling: ``count_pending`` holds the member's advisory lock, so a concurrent
  writer counts only after this one's record is in;
- event cursors and outbox ids come from sequences, taken under the session's (the lane's)
  advisory lock held until commit, so within a session (a lane) they become visible in the
  order they were taken: a reader paging ``cursor > n`` skips nothing, a lane's head is its
  oldest entry. Writers of other sessions and lanes do not wait; roster redraws
  (``ordered=False``) take no lane lock at all;
- a conversation's row is locked by every append (sequence numbers in commit order).

Dedupe (``mark_seen``, identities, idempotency keys) rests on unique constraints. A
transaction that loses a deadlock or a serialization check is run again from the start;
transactions have no effects outside ``Tx`` (the port says so), so that is safe.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool

from crewline.errors import ConfigError
from crewline.store import pg_admin, schema
from crewline.store.base import Tx
from crewline.store.postgres_statements import (
    DIALECT,
    INDEX_DAMAGE,
    PostgresStatements,
    synced_on_error,
)
from crewline.store.postgres_writer import RETRIES, GroupWriter
from crewline.store.schema import Migration
from crewline.store.sql import SqlStore, SqlTx
from crewline.store.sql.dialect import index_unavailable
from crewline.store.sql.records import INDEX_PROBE

__all__ = ["PostgresStore", "migrations"]

log = logging.getLogger(__name__)
T = TypeVar("T")

POOL_SIZE = 16  # connections, and worker threads running reads and heavy transactions
# Writer threads committing batches of transactions (group commit); the pool holds a
# connection more for each. Enough that 100 concurrent callers form batches of about
# five, whose round trips run side by side (docs/performance.md has the measurement).
WRITERS = 16
_MIGRATION_LOCK = 0x637265776C696E65  # "crewline": one replica migrates at a time


def migrations() -> list[Migration]:
    """The migrations as PostgreSQL runs them, the baseline first."""
    return schema.migrations("postgresql")


class PostgresStore(SqlStore):
    """Open with ``async with PostgresStore(url) as store``; migrations run on open.

    ``writers=0``: no group commit, every transaction alone in its own database transaction
    on a pooled connection (what ``bench.store_commit`` compares group commit with)."""

    dialect = DIALECT

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE, writers: int = WRITERS) -> None:
        self.url = url
        self._pool_size = pool_size
        self._writers = writers
        self._pool: ConnectionPool[psycopg.Connection[Any]] | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._writer: GroupWriter | None = None

    @property
    def batches_committed(self) -> int:
        """Group commits so far (transactions per batch, for benchmarks)."""
        return 0 if self._writer is None else self._writer.batches_committed

    # lifecycle ------------------------------------------------------------------------------
    async def __aenter__(self) -> PostgresStore:
        self._threads = ThreadPoolExecutor(self._pool_size, thread_name_prefix="crewline-pg")
        pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            self.url,
            min_size=2,
            max_size=self._pool_size + self._writers,
            kwargs={"autocommit": True},
            connection_class=psycopg.Connection[Any],
            open=False,
        )
        try:
            # One bounded connection first: a server that is not there is one clear error
            # now, not the pool's retries (a warning each) and a PoolTimeout 30 s later.
            await self._on_thread(pg_admin.reach, self.url)
            await self._on_thread(pool.open, True, 30.0)
            self._pool = pool
            await self._on_thread(self._migrate)
            self._writer = GroupWriter(pool, self._writers) if self._writers else None
        except BaseException:
            await self._on_thread(pool.close)
            self._pool = None
            self._threads.shutdown()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._writer is not None:
            writer, self._writer = self._writer, None  # a write from now on runs alone
            await self._on_thread(writer.stop)
        if self._pool is not None:
            await self._on_thread(self._pool.close)
        if self._threads is not None:
            self._threads.shutdown()
        self._pool = self._threads = None

    async def _on_thread(self, call: Callable[..., T], *args: Any) -> T:
        if self._threads is None:
            raise RuntimeError("the store is not open")
        return await asyncio.get_running_loop().run_in_executor(self._threads, call, *args)

    def _migrate(self) -> None:
        """Apply the newer migrations in one transaction. Raises ConfigError
        (migration_refused) when the server refuses crewline's role what they need (to
        create its tables, to read them, the unaccent extension): the server's reason and
        its hint in one line, nothing applied."""
        assert self._pool is not None
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                current = pg_admin.schema_version(conn)
                start = schema.adopt("postgresql", current, where=pg_admin.shown(self.url))
                if start != current:
                    log.info("adopting schema version %d as the baseline %03d", current, start)
                    conn.execute("UPDATE crewline_schema SET version = %s", (start,))
                for migration in migrations():
                    if migration.version > start:
                        log.info("applying migration %03d %s", migration.version, migration.name)
                        conn.execute(migration.sql.encode())
                        conn.execute(
                            "UPDATE crewline_schema SET version = %s", (migration.version,)
                        )
        except (pg_errors.InsufficientPrivilege, pg_errors.ObjectNotInPrerequisiteState) as error:
            hint = f"; {error.diag.message_hint}" if error.diag.message_hint else ""
            raise ConfigError(
                f"the database {pg_admin.shown(self.url)} refused crewline's role:"
                f" {error.diag.message_primary or error}{hint} (docs/postgresql.md, Set-up)",
                code="migration_refused",
                key="database",
            ) from None

    def latest_schema_version(self) -> int:
        return migrations()[-1].version

    async def data_version(self) -> None:
        return None  # replicas hear of changes by notification instead (PostgresCoordination)

    async def schema_version(self) -> int:

        def read() -> int:
            assert self._pool is not None
            with self._pool.connection() as conn:
                return pg_admin.schema_version(conn)

        return await self._on_thread(read)

    # writes ---------------------------------------------------------------------------------
    async def write(
        self, transaction: Callable[[Tx], T], *, heavy: bool = False, lazy: bool = False
    ) -> T:
        # ``lazy`` is not held back: the writer threads commit on several connections at
        # once, so a lone commit in flight holds up no other.
        if heavy or self._writer is None:  # heavy: alone, not holding a batch's answers back
            return await self._on_thread(self._run, transaction)
        return await self._writer.submit(transaction)  # type: ignore[no-any-return]

    def _run(self, transaction: Callable[[Tx], T]) -> T:
        """One transaction alone in its own database transaction."""
        if self._pool is None:
            raise RuntimeError("the store is not open")
        for attempt in range(1, RETRIES + 1):
            tx: SqlTx | None = None
            try:
                # Pipeline mode: statements whose results the transaction does not read
                # travel with the next one it does (BEGIN and COMMIT included).
                with (
                    self._pool.connection() as conn,
                    conn.pipeline() as pipeline,
                    conn.transaction(),
                    synced_on_error(pipeline),
                ):
                    tx = SqlTx(PostgresStatements(conn, pipeline))
                    result = transaction(tx)
                    tx.finish()
                    return result
            except INDEX_DAMAGE as error:
                if tx is not None and tx.index_written:
                    raise index_unavailable(error) from error
                raise
            except (pg_errors.DeadlockDetected, pg_errors.SerializationFailure):
                if attempt == RETRIES:
                    raise
                log.info("transaction lost a lock conflict; running it again (%d)", attempt)
        raise AssertionError("unreachable")

    # reads ----------------------------------------------------------------------------------
    async def _fetch(
        self, sql: str, params: Sequence[Any] = (), *, lookup: bool = False, prepare: bool = True
    ) -> list[Any]:
        text = self.dialect.text(sql)

        def read() -> list[Any]:
            if self._pool is None:
                raise RuntimeError("the store is not open")
            with self._pool.connection() as conn:
                return conn.execute(text, params, prepare=None if prepare else False).fetchall()

        return await self._on_thread(read)

    async def rebuild_index(self, refill: Callable[[Tx], T]) -> T | None:
        ddl = schema.table_ddl("postgresql", "escalations")

        def rebuild() -> T | None:
            assert self._pool is not None
            with self._pool.connection() as conn, conn.transaction():
                # One rebuild at a time, on every replica; the next one's probe, after the
                # lock, reads what the one before committed.
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                if _index_readable(conn):
                    return None
                conn.execute("DROP TABLE IF EXISTS escalations")
                for statement in ddl:
                    conn.execute(statement.encode())
                # Until the commit the new table is this transaction's alone: everyone else
                # still finds the index torn.
                with conn.pipeline() as pipeline, synced_on_error(pipeline):
                    tx = SqlTx(PostgresStatements(conn, pipeline))
                    result = refill(tx)
                    tx.finish()
                return result

        return await self._on_thread(rebuild)


def _index_readable(conn: psycopg.Connection[Any]) -> bool:
    try:
        with conn.transaction():  # a savepoint: the probe's error leaves the rebuild going
            conn.execute(INDEX_PROBE)
    except psycopg.DatabaseError as error:
        if DIALECT.index_damage(error, reading=True):
            return False
        raise
    return True
