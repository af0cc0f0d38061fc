"""PostgresStore: the Store port on PostgreSQL, for a crewline that outgrows one machine.

psycopg 3's synchronous driver with its connection pool. A transaction is the same plain
function over ``Tx`` as on SQLite; here it runs on a writer thread holding its own pooled
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
import re
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool

from crewline.errors import ConfigError, Unavailable
from crewline.models import Escalation, Event, Identity, Member, Question, Row, Session
from crewline.store import codec, pg_admin
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
from crewline.store.postgres_concierge import ConciergeReads
from crewline.store.postgres_tx import INDEX_DAMAGE, MEMBERS, PostgresTx, index_unavailable
from crewline.store.postgres_writer import RETRIES, GroupWriter

__all__ = ["PostgresStore", "migrations"]

log = logging.getLogger(__name__)
T = TypeVar("T")

POOL_SIZE = 16  # connections, and worker threads running reads and heavy transactions
# Writer threads committing batches of transactions (group commit); the pool holds a
# connection more for each. Enough that 100 concurrent callers form batches of about
# five, whose round trips run side by side (docs/performance.md has the measurement).
WRITERS = 16
_ESCALATIONS_TABLE = re.compile(
    r"CREATE TABLE escalations .*?;\s*CREATE INDEX escalations_by_member .*?;", re.S
)
_DUE_INDEX = re.compile(r"CREATE INDEX escalations_due .*?;", re.S)
_ESCALATION_COLUMN = re.compile(r"ALTER TABLE escalations ADD COLUMN .*?;", re.S)
_MIGRATION_LOCK = 0x637265776C696E65  # "crewline": one replica migrates at a time


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The numbered scripts in ``store/pg_schema``, in order."""
    found = []
    for entry in resources.files("crewline.store.pg_schema").iterdir():
        number, _, rest = entry.name.partition("_")
        if entry.name.endswith(".sql") and number.isdigit():
            found.append(Migration(int(number), rest.removesuffix(".sql"), entry.read_text()))
    return sorted(found, key=lambda m: m.version)


class PostgresStore(ConciergeReads, Store):
    """Open with ``async with PostgresStore(url) as store``; migrations run on open.

    ``writers=0``: no group commit, every transaction alone in its own database transaction
    on a pooled connection (what ``bench.store_commit`` compares group commit with)."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE, writers: int = WRITERS) -> None:
        self.url = url
        self._pool_size = pool_size
        self._writers = writers
        self._pool: ConnectionPool[psycopg.Connection[DictRow]] | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._writer: GroupWriter | None = None

    @property
    def batches_committed(self) -> int:
        """Group commits so far (transactions per batch, for benchmarks)."""
        return 0 if self._writer is None else self._writer.batches_committed

    # lifecycle ------------------------------------------------------------------------------
    async def __aenter__(self) -> PostgresStore:
        self._threads = ThreadPoolExecutor(self._pool_size, thread_name_prefix="crewline-pg")
        pool: ConnectionPool[psycopg.Connection[DictRow]] = ConnectionPool(
            self.url,
            min_size=2,
            max_size=self._pool_size + self._writers,
            kwargs={"row_factory": dict_row, "autocommit": True},
            connection_class=psycopg.Connection[DictRow],
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
                current = _schema_version(conn)
                for migration in migrations():
                    if migration.version > current:
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

    async def schema_version(self) -> int:

        def read() -> int:
            assert self._pool is not None
            with self._pool.connection() as conn:
                return _schema_version(conn)

        return await self._on_thread(read)

    # writes ---------------------------------------------------------------------------------
    async def write(self, transaction: Callable[[Tx], T], *, heavy: bool = False) -> T:
        if heavy or self._writer is None:  # heavy: alone, not holding a batch's answers back
            return await self._on_thread(self._run, transaction)
        return await self._writer.submit(transaction)  # type: ignore[no-any-return]

    def _run(self, transaction: Callable[[Tx], T]) -> T:
        """One transaction alone in its own database transaction."""
        if self._pool is None:
            raise RuntimeError("the store is not open")
        for attempt in range(1, RETRIES + 1):
            tx: PostgresTx | None = None
            try:
                # Pipeline mode: statements whose results the transaction does not read
                # travel with the next one it does (BEGIN and COMMIT included).
                with (
                    self._pool.connection() as conn,
                    conn.pipeline() as pipeline,
                    conn.transaction(),
                ):
                    tx = PostgresTx(conn, pipeline)
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
    async def _read(
        self, sql: str, params: tuple[Any, ...] = (), *, prepare: bool = True
    ) -> list[DictRow]:
        def read() -> list[DictRow]:
            if self._pool is None:
                raise RuntimeError("the store is not open")
            with self._pool.connection() as conn:
                return conn.execute(sql, params, prepare=None if prepare else False).fetchall()

        return await self._on_thread(read)

    async def member(self, slug: str) -> Member | None:
        members = codec.members_from(
            await self._read(MEMBERS.format(where="WHERE m.slug = %s"), (slug,))
        )
        return members[0] if members else None

    async def members(self) -> list[Member]:
        return codec.members_from(await self._read(MEMBERS.format(where="")))

    async def session_by_key_hash(self, key_hash: str) -> Session | None:
        rows = await self._read(
            f"SELECT {codec.SESSION_COLUMNS} FROM sessions"
            " WHERE key_hash = %s AND revoked_at IS NULL",
            (key_hash,),
        )
        return codec.session_from(rows[0]) if rows else None

    async def live_sessions(self, session_ids: Collection[str]) -> set[str]:
        if not session_ids:
            return set()
        rows = await self._read(
            "SELECT id FROM sessions WHERE revoked_at IS NULL AND id = ANY(%s)",
            (sorted(session_ids),),
        )
        return {str(r["id"]) for r in rows}

    async def human_by_token_hash(self, token_hash: str) -> int | None:
        rows = await self._read("SELECT id FROM humans WHERE token_hash = %s", (token_hash,))
        return int(rows[0]["id"]) if rows else None

    async def humans(self) -> list[int]:
        return [int(r["id"]) for r in await self._read("SELECT id FROM humans ORDER BY id")]

    async def human_of(self, platform: str, user_id: str) -> int | None:
        rows = await self._read(
            "SELECT human FROM identities WHERE platform = %s AND user_id = %s",
            (platform, user_id),
        )
        return int(rows[0]["human"]) if rows else None

    async def identities(self, human: int) -> list[Identity]:
        rows = await self._read(
            "SELECT platform, user_id FROM identities WHERE human = %s ORDER BY platform, user_id",
            (human,),
        )
        return [Identity(platform=r["platform"], user_id=r["user_id"]) for r in rows]

    async def thread_ref(self, member: str, transport: str) -> str | None:
        rows = await self._read(
            "SELECT thread_ref FROM threads WHERE member = %s AND transport = %s",
            (member, transport),
        )
        return str(rows[0]["thread_ref"]) if rows else None

    async def member_for_thread(self, transport: str, thread_ref: str) -> str | None:
        rows = await self._read(
            "SELECT member FROM threads WHERE transport = %s AND thread_ref = %s",
            (transport, thread_ref),
        )
        return str(rows[0]["member"]) if rows else None

    async def live_rows(self, conversation: str) -> list[Row]:
        rows = await self._read(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE conversation = %s"
            " AND rewound_in IS NULL ORDER BY seq",
            (conversation,),
        )
        return [codec.row_from(r) for r in rows]

    async def row(self, row_id: str, *, include_rewound: bool = False) -> Row | None:
        live = "" if include_rewound else " AND rewound_in IS NULL"
        rows = await self._read(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE id = %s{live}", (row_id,)
        )
        return codec.row_from(rows[0]) if rows else None

    async def escalation(self, escalation_id: str) -> Escalation | None:
        rows = await self._index_read(
            f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE id = %s", (escalation_id,)
        )
        return codec.escalation_from(rows[0]) if rows else None

    async def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        where = "member = %s AND state = 'pending'" if pending_only else "member = %s"
        rows = await self._index_read(
            f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE {where}"
            " ORDER BY created_at, ord",
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
            "SELECT id, member, deadline FROM escalations WHERE state = 'pending'"
            " AND deadline IS NOT NULL AND deadline < %s AND window_held = 0 ORDER BY deadline",
            (codec.epoch(before),),
        )
        return [(r["id"], r["member"], codec.moment(r["deadline"])) for r in rows]

    async def _index_read(self, sql: str, params: tuple[Any, ...] = ()) -> list[DictRow]:
        try:
            return await self._read(sql, params)
        except psycopg.DatabaseError as error:
            if isinstance(error, psycopg.OperationalError):
                raise  # the server, not the index
            raise Unavailable(
                f"the escalation index cannot be read ({error}); it is being rebuilt from the"
                " transcript",
                code="escalation_index_unavailable",
            ) from error

    async def check_index(self) -> None:
        await self._index_read("SELECT id, state, deadline FROM escalations LIMIT 1")

    async def rebuild_index_table(self) -> None:
        """Replace the index table by an empty one for reconciliation to refill (it derives
        from the transcript, so nothing true is lost)."""
        ddl = _escalations_ddl()

        def rebuild() -> None:
            assert self._pool is not None
            with self._pool.connection() as conn, conn.transaction():
                # One rebuild at a time (two callers may find the index unreadable at once).
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                conn.execute("DROP TABLE IF EXISTS escalations")
                conn.execute(ddl.encode())

        await self._on_thread(rebuild)

    async def question(self, question_id: str) -> Question | None:
        rows = await self._read(
            f"SELECT {codec.QUESTION_COLUMNS} FROM questions WHERE id = %s", (question_id,)
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
            " WHERE member = %s AND state = 'waiting' ORDER BY created_at, id",
            (member,),
        )
        return [codec.question_from(r) for r in rows]

    async def events_after(self, session: str, cursor: int, *, limit: int = 100) -> list[Event]:
        rows = await self._read(
            "SELECT cursor, session, kind, body, created_at FROM events"
            " WHERE session = %s AND cursor > %s AND withdrawn_in IS NULL"
            " ORDER BY cursor LIMIT %s",
            (session, cursor, limit),
        )
        return [codec.event_from(r) for r in rows]

    async def outbox_heads(self, transport: str) -> list[OutboxEntry]:
        rows = await self._read(
            f"SELECT DISTINCT ON (lane) {codec.OUTBOX_COLUMNS} FROM outbox"
            " WHERE transport = %s ORDER BY lane, id",
            (transport,),
        )
        return sorted((codec.outbox_from(r) for r in rows), key=lambda e: e.id)

    async def outbox_head(self, transport: str, lane: str) -> OutboxEntry | None:
        rows = await self._read(
            f"SELECT {codec.OUTBOX_COLUMNS} FROM outbox WHERE transport = %s AND lane = %s"
            " ORDER BY id LIMIT 1",
            (transport, lane),
        )
        return codec.outbox_from(rows[0]) if rows else None

    async def outbox_last_id(self) -> int:
        rows = await self._read("SELECT coalesce(max(id), 0) AS n FROM outbox")
        return int(rows[0]["n"])

    async def outbox_object_ids(
        self, transport: str, lane: str, op: str, object_key: str
    ) -> list[int]:
        rows = await self._read(
            "SELECT id FROM outbox WHERE transport = %s AND lane = %s AND op = %s"
            " AND object_key = %s ORDER BY id",
            (transport, lane, op, object_key),
        )
        return [int(r["id"]) for r in rows]

    async def outbox_size(self, transport: str | None = None) -> int:
        if transport is None:
            rows = await self._read("SELECT count(*) AS n FROM outbox")
        else:
            rows = await self._read(
                "SELECT count(*) AS n FROM outbox WHERE transport = %s", (transport,)
            )
        return int(rows[0]["n"])

    async def outbox_backlog(self) -> list[OutboxBacklog]:
        pending = await self._read(
            "SELECT DISTINCT ON (transport) transport, created_at, last_error,"
            " count(*) OVER (PARTITION BY transport) AS pending FROM outbox"
            " ORDER BY transport, id"
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
        rows = await self._read(
            "SELECT transport, object_key, thread_ref, message_ref FROM platform_messages"
            " WHERE transport = %s AND object_key = %s",
            (transport, object_key),
        )
        return codec.platform_message_from(rows[0]) if rows else None

    async def object_for_message(self, transport: str, message_ref: str) -> str | None:
        rows = await self._read(
            "SELECT object_key FROM platform_messages WHERE transport = %s AND message_ref = %s",
            (transport, message_ref),
        )
        return str(rows[0]["object_key"]) if rows else None

    async def sel(self, *, action_prefix: str = "") -> list[SelRecord]:
        rows = await self._read(
            "SELECT id, at, action, outcome, actor, member, details FROM sel"
            " WHERE starts_with(action, %s) ORDER BY id",
            (action_prefix,),
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
        where = ["id > %s"]
        params: list[object] = [after]
        if member is not None:
            where.append("member = %s")
            params.append(member)
        if since is not None:
            where.append("at >= %s")
            params.append(codec.epoch(since))
        if action is not None:
            where.append("(action = %s OR starts_with(action, %s))")
            params += [action, f"{action}:"]
        rows = await self._read(
            "SELECT id, at, action, outcome, actor, member, details FROM sel"
            f" WHERE {' AND '.join(where)} ORDER BY id LIMIT %s",
            (*params, limit),
        )
        return [codec.sel_from(r) for r in rows]

    async def setting(self, key: str) -> str | None:
        rows = await self._read("SELECT value FROM settings WHERE key = %s", (key,))
        return str(rows[0]["value"]) if rows else None

    async def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        rows = await self._read(
            f"SELECT {codec.IDEMPOTENCY_COLUMNS} FROM idempotency_keys"
            " WHERE session = %s AND key = %s",
            (session, key),
        )
        return codec.idempotency_from(rows[0]) if rows else None

    async def webhook(self, session: str) -> Webhook | None:
        rows = await self._read(
            f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks w JOIN sessions s ON s.id = w.session"
            " WHERE w.session = %s AND s.revoked_at IS NULL",
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
            f" WHERE s.revoked_at IS NULL{behind} ORDER BY w.created_at, w.session"
        )
        return [codec.webhook_from(r) for r in rows]


_WEBHOOK_COLUMNS = ", ".join(f"w.{c.strip()}" for c in codec.WEBHOOK_COLUMNS.split(","))


def _escalations_ddl() -> str:
    """The index table as the migrations leave it: the first migration's table with the
    columns later ones added, its due index as the latest migration that defines it has it."""
    scripts = migrations()
    table = _ESCALATIONS_TABLE.search(scripts[0].sql)
    assert table is not None, "001_initial.sql defines the escalations table"
    added = [c.group(0) for s in scripts[1:] for c in _ESCALATION_COLUMN.finditer(s.sql)]
    due = [found.group(0) for script in scripts for found in _DUE_INDEX.finditer(script.sql)]
    assert due, "a migration defines escalations_due"
    return "\n".join([table.group(0), *added, due[-1]])


def _schema_version(conn: psycopg.Connection[DictRow]) -> int:
    exists = conn.execute("SELECT to_regclass('crewline_schema') AS t").fetchone()
    if exists is None or exists["t"] is None:
        return 0
    row = conn.execute("SELECT version FROM crewline_schema").fetchone()
    return int(row["version"]) if row else 0
