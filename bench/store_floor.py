"""PostgreSQL's floor for an escalation: what PostgresStore sends for one, replayed by raw
psycopg, so that ``bench.store_commit`` can divide the store's rate by the rate of the same
statements without the store around them.

Derived, not written down, so that it cannot drift from the store: at the start of a run one
real ``record_escalation`` runs through ``PostgresStore`` (``writers=0``: one escalation, one
database transaction, as the floor groups them) while every statement, result read and
pipeline sync psycopg is asked for on its connection is recorded. The floor replays that
sequence verbatim — the same SQL text, the same parameters, the same results read at the
same points, in pipeline mode inside ``BEGIN``/``COMMIT`` — with fresh values only where a
unique key or a caller's own member needs one: the escalation's and the row's ids, the
member (its slug, which keys its locks, its backlog count, its conversation and its outbox
lanes), its session, and the time. The derivation then replays one transaction for a second
member and checks that it sent the same statements (recorded the same way) and wrote what
the store wrote: the same number of rows in every table, and the store reads it back as a
pending escalation.

With group commit the store sends the same steps for each escalation of a batch, one after
another in one transaction, and two of its own per batch (``lock_timeout``):
``Floor.check_grouped`` checks that on a recorded run, and ``Floor.transaction`` replays
several escalations in one transaction the same way (the floor grouped as the store groups
it).
"""

from __future__ import annotations

import functools
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg._connection_base import BaseConnection
from psycopg._cursor_base import BaseCursor

from crewline import crew
from crewline.bot.changes import Change
from crewline.bot.escalations import (
    EscalationRequest,
    Routing,
    record_escalation,
    validate,
)
from crewline.models import SystemClock, new_id
from crewline.store.postgres import PostgresStore

__all__ = ["Floor", "Step", "Values", "derive", "recording", "table_counts", "transactions"]

PROBE, CHECK = "floor-probe", "floor-check"  # the derivation's two members
_WRITES = re.compile(r"\b(?:INSERT INTO|UPDATE)\s+(?!SET\b)(\w+)")
_REPLAYED = frozenset({"execute", "fetchone", "fetchall", "sync"})
# A group commit's own statements, once per batch of several (postgres_writer.py): not an
# escalation's, so not the floor's.
_BATCH_SETTING = re.compile(r"SET LOCAL lock_timeout\b")


@dataclass(frozen=True, kw_only=True, slots=True)
class Values:
    """What one escalation's statements carry of its own: fresh in every transaction."""

    member: str  # the slug; the member's name is its slug in the benchmark
    session: str
    escalation: str
    row: str
    now: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Step:
    """One thing the store asked psycopg for inside the transaction: ``execute`` (``sql``,
    ``params``), ``fetchone``/``fetchall`` (of the ``of``-th statement) or ``sync``."""

    kind: str
    sql: str = ""
    params: Sequence[Any] = ()
    of: int = -1

    @property
    def shape(self) -> tuple[str, str, int]:
        return (self.kind, self.sql, self.of)


Event = tuple[Any, str, Any]  # (connection, kind, detail)


@contextmanager
def recording() -> Iterator[list[Event]]:
    """Every statement, result read, pipeline sync and transaction command that psycopg (the
    synchronous and the asynchronous driver) is asked for meanwhile, in order, with the
    connection it was asked of."""
    events: list[Event] = []
    patched: list[tuple[type, str, Any]] = []

    def wrap(cls: type, name: str, kind: str, where: Callable[[Any], Any]) -> None:
        original = cls.__dict__[name]

        @functools.wraps(original)
        def recorded(self: Any, *args: Any, **kwargs: Any) -> Any:
            if kind == "execute":
                detail: Any = (self, args[0], args[1] if len(args) > 1 else kwargs.get("params"))
            elif kind == "command":
                detail = args[0]
            else:
                detail = self
            events.append((where(self), kind, detail))
            return original(self, *args, **kwargs)

        patched.append((cls, name, original))
        setattr(cls, name, recorded)

    try:
        for cursor in (psycopg.Cursor, psycopg.AsyncCursor):
            for name in ("execute", "executemany", "fetchone", "fetchmany", "fetchall"):
                wrap(cursor, name, name, lambda c: c.connection)
        wrap(BaseCursor, "nextset", "nextset", lambda c: c.connection)
        for pipeline in (psycopg.Pipeline, psycopg.AsyncPipeline):
            wrap(pipeline, "sync", "sync", lambda p: p._conn)
        wrap(BaseConnection, "_exec_command", "command", lambda c: c)
        yield events
    finally:
        for cls, name, original in reversed(patched):
            setattr(cls, name, original)


def transaction_steps(events: list[Event]) -> list[Step]:
    """The steps of the one transaction recorded in ``events`` (on the connection that
    began it), between its ``BEGIN`` and its ``COMMIT``."""
    began = [conn for conn, kind, detail in events if kind == "command" and detail == b"BEGIN"]
    assert len(began) == 1, f"expected one transaction recorded, found {len(began)}"
    own = [(kind, detail) for conn, kind, detail in events if conn is began[0]]
    commands = [detail for kind, detail in own if kind == "command"]
    assert commands == [b"BEGIN", b"COMMIT"] == [own[0][1], own[-1][1]], (
        f"the floor replays one BEGIN ... COMMIT and nothing around it; the store sent {own}"
    )
    steps: list[Step] = []
    cursors: list[Any] = []
    for kind, detail in own:
        if kind == "command":
            continue
        assert kind in _REPLAYED, f"the floor cannot replay psycopg's {kind} yet"
        if kind == "execute":
            cursor, sql, params = detail
            assert isinstance(sql, str), f"a statement of the store's is not plain text: {sql!r}"
            cursors.append(cursor)
            steps.append(Step(kind=kind, sql=sql, params=params or ()))
        elif kind == "sync":
            steps.append(Step(kind=kind))
        else:
            of = next(n for n, c in enumerate(cursors) if c is detail)
            steps.append(Step(kind=kind, of=of))
    return steps


def transactions(events: list[Event]) -> list[list[tuple[str, str]]]:
    """Every database transaction recorded in ``events`` (on any connection), in the order
    they committed: each its steps' kinds and statements (a command's text; ``""`` for a
    result read or a sync), between its ``BEGIN`` and its ``COMMIT``."""
    began: dict[int, list[tuple[str, str]]] = {}
    committed: list[list[tuple[str, str]]] = []
    for conn, kind, detail in events:
        if kind == "command" and detail == b"BEGIN":
            began[id(conn)] = []
        elif kind == "command" and detail == b"COMMIT":
            committed.append(began.pop(id(conn)))
        elif id(conn) in began:
            text = detail[1] if kind == "execute" else detail if kind == "command" else ""
            began[id(conn)].append((kind, text if isinstance(text, str) else text.decode()))
    return committed


@dataclass(frozen=True, kw_only=True, slots=True)
class Floor:
    """An escalation's steps as the store sent them, and what in them is the probe's own."""

    steps: tuple[Step, ...]
    probe: Values
    tables: tuple[str, ...]  # those an escalation adds rows to

    @property
    def statements(self) -> int:
        return sum(step.kind == "execute" for step in self.steps)

    def describe(self) -> str:
        """The transaction in a line, for the result's notes."""
        reads = sum(step.kind in ("fetchone", "fetchall") for step in self.steps)
        syncs = sum(step.kind == "sync" for step in self.steps)
        verbs = [_gist(step.sql) for step in self.steps if step.kind == "execute"]
        return (
            f"BEGIN; {self.statements} statements ({'; '.join(verbs)}), {reads} results read,"
            f" {syncs} explicit syncs; COMMIT (on tables {', '.join(self.tables)})"
        )

    def check_grouped(self, events: list[Event]) -> Counter[int]:
        """Check that every group commit recorded in ``events`` (PostgresStore's default
        writers) sent, for each escalation it held, the floor's steps in the floor's order
        (the same statements, results read and syncs), and nothing else but the batch's own
        ``lock_timeout`` settings; how many batches held how many escalations. A batch run
        again one by one in savepoints is not checked: one of its transactions waited for a
        lock past the batch's ``lock_timeout`` (``postgres_writer.DEFER_AFTER``), sent part of
        its steps and was rolled back to its savepoint, to run again in the next batch — on
        a loaded machine that happens (the CI's smoke run met it); the batches that ran whole
        are the floor's measure."""
        shape = [(step.kind, step.sql) for step in self.steps]
        marker = next(sql for kind, sql in shape if "INSERT INTO escalations" in sql)
        sizes: Counter[int] = Counter()
        for steps in transactions(events):
            held = sum(sql == marker for _, sql in steps)
            if not held or any(kind == "command" for kind, _ in steps):
                continue  # the run's other transactions (its members made), or run again
            own = [(k, sql) for k, sql in steps if not _BATCH_SETTING.match(sql)]
            assert own == shape * held, (
                f"a group commit of {held} escalations sent other steps than the floor's: {steps}"
            )
            sizes[held] += 1
        assert sizes, "no group commit of escalations was recorded"
        return sizes

    def bind(self, params: Sequence[Any], values: Values) -> list[Any]:
        """``params`` with the probe's own values replaced by ``values``."""
        swaps = [
            (old, new)
            for old, new in (
                (self.probe.escalation, values.escalation),
                (self.probe.row, values.row),
                (self.probe.session, values.session),
                (self.probe.member, values.member),
            )
            if old != new
        ]
        bound: list[Any] = []
        for value in params:
            if isinstance(value, str):
                for old, new in swaps:
                    if old in value:
                        value = value.replace(old, new)
            elif isinstance(value, float) and value == self.probe.now:
                value = values.now
            bound.append(value)
        return bound

    async def transaction(
        self, conn: psycopg.AsyncConnection[Any], *each: Values, keep: bool = True
    ) -> None:
        """The escalations of ``each`` one after another in one transaction, each one's
        statements as the store sends them: in pipeline mode, each result read where the
        store read it (one: a lone escalation; several: as a group commit runs its batch,
        without the batch's own two ``lock_timeout`` settings, which are the store's, not the
        escalations'). Each statement is prepared on first use (the steady state: the store's
        long-lived pooled connections prepare theirs after psycopg's few first runs).
        ``keep=False``: rolled back at the end instead (a connection's warm-up)."""
        async with conn.pipeline() as pipeline, conn.transaction(force_rollback=not keep):
            for values in each:
                cursors: list[psycopg.AsyncCursor[Any]] = []
                for step in self.steps:
                    if step.kind == "execute":
                        cursors.append(
                            await conn.execute(
                                step.sql, self.bind(step.params, values), prepare=True
                            )
                        )
                    elif step.kind == "fetchone":
                        await cursors[step.of].fetchone()
                    elif step.kind == "fetchall":
                        await cursors[step.of].fetchall()
                    else:
                        await pipeline.sync()


def table_counts(url: str, tables: Sequence[str] | None = None) -> dict[str, int]:
    """Rows in each of ``tables`` (every table of the schema when None)."""
    with psycopg.connect(url) as conn:
        if tables is None:
            found = conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            ).fetchall()
            tables = [str(name) for (name,) in found]
        return {
            table: int(conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])  # type: ignore[index]
            for table in sorted(tables)
        }


async def derive(url: str, *, message: str) -> Floor:
    """Record one escalation through PostgresStore on ``url`` (a fresh database), derive
    the floor from it, and check one replayed transaction against it (see the module)."""
    clock = SystemClock()
    valid = validate(EscalationRequest(message=message, options=("yes", "no")), clock.now())
    async with PostgresStore(url, writers=0) as store:
        sessions = {
            slug: (
                await crew.add_member(
                    store, slug=slug, name=slug, owners=["memory:alice"], transports=["memory"]
                )
            ).session
            for slug in (PROBE, CHECK)
        }
        member = {m.slug: m for m in await store.members()}[PROBE]
        before = table_counts(url)
        with recording() as events:
            escalation, _ = await store.write(
                lambda tx: record_escalation(
                    Change(tx, clock.now(), ("memory",)),
                    caller=sessions[PROBE],
                    member=member,
                    routing=Routing(conversation=PROBE, member=PROBE),
                    valid=valid,
                )
            )
        by_store = _delta(before, table_counts(url))
        probe = Values(
            member=PROBE,
            session=sessions[PROBE].id,
            escalation=escalation.id,
            row=escalation.row_id,
            now=escalation.created_at.timestamp(),
        )
        steps = transaction_steps(events)
        _check_fresh(steps, probe)
        floor = Floor(
            steps=tuple(steps),
            probe=probe,
            tables=tuple(table for table, added in by_store.items() if added),
        )
        written = {t for s in steps for t in re.findall(_WRITES, s.sql)}
        assert set(floor.tables) <= written, (floor.tables, written)

        before = table_counts(url)
        conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
        try:
            with recording() as replayed:
                await floor.transaction(
                    conn,
                    Values(
                        member=CHECK,
                        session=sessions[CHECK].id,
                        escalation=new_id(),
                        row=new_id(),
                        now=time.time(),
                    ),
                )
        finally:
            await conn.close()
        again = transaction_steps(replayed)
        assert [s.shape for s in again] == [s.shape for s in steps], (
            "the floor's transaction sends other statements than the store's"
        )
        by_floor = _delta(before, table_counts(url))
        assert by_floor == by_store, f"the store wrote {by_store}, the floor {by_floor}"
        pending = await store.pending_counts()
        assert pending.get(PROBE) == 1 and pending.get(CHECK) == 1, pending
    return floor


def _gist(sql: str) -> str:
    """A statement in a few words: the tables it writes, else what it selects."""
    written = re.findall(_WRITES, sql)
    if written:
        return f"write {', '.join(written)}"
    called = re.match(r"SELECT (\w+)", sql)
    return f"SELECT {called.group(1)}" if called else sql.split()[0]


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {table: after[table] - before.get(table, 0) for table in after}


def _check_fresh(steps: list[Step], probe: Values) -> None:
    """Every value the floor makes fresh is one the store sent: else the probe's are not
    where the floor looks for them, and its transactions would all write the same keys."""
    sent = [value for step in steps for value in step.params]
    texts = [value for value in sent if isinstance(value, str)]
    for name in ("member", "escalation", "row"):
        token = getattr(probe, name)
        assert any(token in text for text in texts), f"the store sent no {name} ({token})"
    assert probe.now in sent, "the store sent no escalation time"
