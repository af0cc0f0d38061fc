"""Store: escalation transactions per second, on SQLite and on PostgreSQL.

Subject: 100 concurrent callers, each running whole escalation transactions through
``SqliteStore.write`` — the real ``record_escalation`` of the core: the backlog count, the
card row, the index record and the outbox entries for the card, the bell and the roster,
in one transaction. Durable: WAL with ``synchronous=FULL``, one fsync per group commit.

Baseline (same run, same disk, fresh file): raw ``sqlite3`` from one thread, WAL with
``synchronous=FULL``, each transaction ``BEGIN IMMEDIATE; INSERT`` one row into a table with
the schema of crewline's ``rows`` table (same unique index, same text sizes) ``; COMMIT`` —
sequentially, as fast as it goes. That is what "just commit each write" costs.

PostgreSQL (same run): the same 100 callers through ``PostgresStore.write`` against a local
cluster started for the run (fsync on, ``synchronous_commit = on``), with its group commit
(the default) and without it (``writers=0``: each transaction alone). Its baseline is the
floor: the same statements an escalation runs, issued by raw psycopg, grouped the same way
(bench/store_floor.py derives them at the start of the run from what the store sends for one
real escalation, and checks that a replay sends the same and writes the same): the same 100
callers, each on its own connection (psycopg's async driver), in pipeline mode, one
transaction per escalation, for its own member. Also, without a target: the floor on as many
connections as the store has writers (16, shared by the callers: what pooling alone gives);
the same, grouped as the store groups it (as many escalations per transaction as the
store's group commits held in the run: what the store costs above its statements);
raw psycopg with the same 100 callers each committing one row of the ``rows`` table per
transaction (the old baseline: what "just commit each write" costs, not what an escalation
must); raw psycopg from one connection, sequentially (as SQLite's baseline is). And CPU per
transaction, PostgresStore's escalation against the floor's and against raw psycopg's
commit (100 callers each): the client process and the server's processes, apart. On a
shared, loaded machine the tx/s ratio swings with whatever else runs; the CPU ratio says
what it comes to where CPU is the limit.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import secrets
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

import psycopg
from tests.pg_cluster import cluster

from bench.common import Options, Target, figure, parse_options, scratch, write_result
from bench.store_floor import Floor, Values, derive, recording, table_counts
from crewline import crew
from crewline.bot.changes import Change
from crewline.bot.escalations import (
    EscalationRequest,
    Routing,
    record_escalation,
    validate,
)
from crewline.limits import MAX_PENDING
from crewline.models import Session, SystemClock, new_id
from crewline.store import Store
from crewline.store.postgres import WRITERS, PostgresStore
from crewline.store.postgres import migrations as pg_migrations
from crewline.store.sqlite import SqliteStore, migrations

NAME = "store_commit"
CALLERS = 100
MESSAGE = "Ship the v2 migration tonight? The dry run passed on staging; 3 tables change."
GROUPED_FLOOR = (
    f"the floor grouped as the store groups it: on {WRITERS} connections (its writers), each"
    f" taking its share of the {CALLERS} callers in turn, as many escalations per transaction"
    " as the store's mean per group commit in the same run (rounded), right after it"
)


@contextmanager
def pg_cluster(*, durable: bool = True) -> Iterator[str]:
    """A throwaway local PostgreSQL cluster for the run (tests/pg_cluster.py)."""
    with cluster(durable=durable) as url:
        yield url


@contextmanager
def pg_server(options: Options) -> Iterator[str]:
    """The PostgreSQL server of the run: the one given (``--smoke --postgres URL``, the test
    suite's cluster), else a throwaway cluster of its own with fsync on."""
    if options.postgres is not None:
        yield options.postgres
        return
    with pg_cluster(durable=True) as url:
        yield url


@dataclass(frozen=True, kw_only=True, slots=True)
class Cpu:
    """CPU seconds so far: this process (every thread) and the PostgreSQL server's processes
    (the postmaster and its live children, from ``/proc/<pid>/schedstat``: exact, where the
    tick-counted ``utime`` would round each of 100 short-lived backends down to nothing)."""

    client: float
    server: float

    @staticmethod
    def now(postmaster: int | None = None) -> Cpu:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return Cpu(client=usage.ru_utime + usage.ru_stime, server=_server_cpu(postmaster))

    def per_transaction_ms(self, since: Cpu, count: int) -> Cpu:
        return Cpu(
            client=(self.client - since.client) / count * 1000,
            server=(self.server - since.server) / count * 1000,
        )


def _server_cpu(postmaster: int | None) -> float:
    if postmaster is None:
        return 0.0
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            if int(entry) == postmaster or int(stat[1]) == postmaster:
                total += int(Path(f"/proc/{entry}/schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return total / 1e9


def postmaster_of(url: str) -> int | None:
    """The pid of the local server's postmaster (a backend's parent); None off Linux."""
    with psycopg.connect(url) as conn:  # read while the backend lives
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        try:
            return int(Path(f"/proc/{row[0]}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            return None


def fresh_database(server: str, name: str) -> str:
    """A new empty database on ``server`` (``name`` and a random suffix: the server may be
    shared, as the test suite's is); its URL."""
    name = f"{name}_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + "/" + name


async def crewline_rate(
    path: Path | str,
    *,
    callers: int,
    per_caller: int,
    writers: int = WRITERS,
    postmaster: int | None = None,
) -> tuple[float, float, Cpu]:
    """Escalation transactions per second, the mean transactions per group commit, and the
    CPU per transaction in ms (the server's when ``postmaster`` is given). ``path``: a
    SQLite file, or a PostgreSQL URL (``writers``: PostgresStore's, 0 for no group
    commit)."""
    clock = SystemClock()
    per_member = MAX_PENDING
    opened: Store = (
        PostgresStore(path, writers=writers) if isinstance(path, str) else SqliteStore(path)
    )
    async with opened as store:
        slugs, sessions = await _members(store, callers=callers, per_caller=per_caller)
        members = {m.slug: m for m in await store.members()}
        valid = validate(EscalationRequest(message=MESSAGE, options=("yes", "no")), clock.now())

        async def caller(own: list[str]) -> None:
            for n in range(per_caller):
                member = members[own[n // per_member]]
                session = sessions[member.slug]
                routing = Routing(conversation=member.slug, member=member.slug)
                await store.write(
                    lambda tx, m=member, s=session, r=routing: record_escalation(
                        Change(tx, clock.now(), ("memory",)),
                        caller=s,
                        member=m,
                        routing=r,
                        valid=valid,
                    )
                )

        batches_before = getattr(store, "batches_committed", 0)
        cpu_before = Cpu.now(postmaster)
        started = time.perf_counter()
        await asyncio.gather(*[caller(own) for own in slugs])
        elapsed = time.perf_counter() - started
        total = callers * per_caller
        cpu = Cpu.now(postmaster).per_transaction_ms(cpu_before, total)
        batches = getattr(store, "batches_committed", total) - batches_before
        recorded = sum((await store.pending_counts()).values())
        assert recorded == total, f"expected {total} records, found {recorded}"
    return total / elapsed, total / max(1, batches), cpu


async def _members(
    store: Store, *, callers: int, per_caller: int
) -> tuple[list[list[str]], dict[str, Session]]:
    """Each caller's own members (the backlog ceiling allows MAX_PENDING pending per member:
    a caller moves on to its next one), created through the store, and their sessions."""
    members_each = -(-per_caller // MAX_PENDING)
    slugs = [[f"m{c}-{k}" for k in range(members_each)] for c in range(callers)]
    created = await asyncio.gather(
        *[
            crew.add_member(
                store, slug=slug, name=slug, owners=["memory:alice"], transports=["memory"]
            )
            for own in slugs
            for slug in own
        ]
    )
    return slugs, {made.session.member: made.session for made in created}


async def floor_rate(
    floor: Floor,
    url: str,
    *,
    callers: int,
    per_caller: int,
    connections: int | None = None,
    grouped: int = 1,
    postmaster: int | None = None,
) -> tuple[float, Cpu]:
    """The floor's escalation transactions per second (``floor``: the statements the store
    sent for one, bench/store_floor.py) from ``callers`` concurrent callers, each on its own
    connection (the async driver), each transaction for the caller's own member as in
    ``crewline_rate``; and the CPU per transaction in ms. The members are made as
    ``crewline_rate`` makes them, through the store, before the timed part; each connection
    is warmed up by one escalation rolled back. ``connections``: fewer connections than
    callers, each running its share of the callers' escalations one after another, taking
    its callers in turn (as the store's writers take whoever's escalation comes next);
    ``grouped``: that many of them in each database transaction (as a group commit's
    batch)."""
    async with PostgresStore(url) as store:
        slugs, sessions = await _members(store, callers=callers, per_caller=per_caller)
    # Each caller's transactions, each for its own member (as crewline_rate runs them).
    work = [[own[n // MAX_PENDING] for n in range(per_caller)] for own in slugs]
    if connections is not None:  # caller c's transactions on connection c % connections
        work = [
            [s for turn in zip_longest(*work[k::connections]) for s in turn if s is not None]
            for k in range(connections)
        ]
    connected = [
        await psycopg.AsyncConnection.connect(url, autocommit=True) for _ in range(len(work))
    ]
    try:

        def values(slug: str) -> Values:
            return Values(
                member=slug,
                session=sessions[slug].id,
                escalation=new_id(),
                row=new_id(),
                now=time.time(),
            )

        async def caller(own: list[str], conn: psycopg.AsyncConnection[Any]) -> None:
            for first in range(0, len(own), grouped):
                await floor.transaction(conn, *map(values, own[first : first + grouped]))

        # A new backend's first statements pay for loading the catalog: one escalation on
        # each connection, rolled back, so that the floor measures the steady state.
        pairs = list(zip(work, connected, strict=True))
        await asyncio.gather(*[floor.transaction(c, values(w[0]), keep=False) for w, c in pairs])
        cpu_before = Cpu.now(postmaster)
        started = time.perf_counter()
        await asyncio.gather(*[caller(own, conn) for own, conn in pairs])
        elapsed = time.perf_counter() - started
        total = callers * per_caller
        assert sum(map(len, work)) == total
        return total / elapsed, Cpu.now(postmaster).per_transaction_ms(cpu_before, total)
    finally:
        for conn in connected:
            await conn.close()


def rows_ddl() -> str:
    """crewline's own ``rows`` table and its unique index, from the first migration."""
    sql = migrations()[0].sql
    match = re.search(r"CREATE TABLE rows .*?;\s*CREATE UNIQUE INDEX rows_in_order .*?;", sql, re.S)
    assert match is not None, "001_initial.sql defines the rows table"
    return match.group(0)


def raw_rate(path: Path, *, count: int) -> float:
    """Raw sqlite3 single-row commits per second (WAL, synchronous=FULL, one thread)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.executescript(rows_ddl())
        meta = '{"escalation_id":"0123456789abcdef","options":["yes","no"]}'
        started = time.perf_counter()
        for seq in range(1, count + 1):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(
                "INSERT INTO rows (id, conversation, seq, generation, role, author, text, meta,"
                " created_at) VALUES (?, 'radar', ?, 1, 'escalation', 'Radar', ?, ?, ?)",
                (new_id(), seq, MESSAGE, meta, time.time()),
            )
            conn.execute("COMMIT")
        return count / (time.perf_counter() - started)
    finally:
        conn.close()


_PG_INSERT = (
    "INSERT INTO rows (id, conversation, seq, generation, role, author, text, meta,"
    " created_at) VALUES (%s, 'radar', %s, 1, 'escalation', 'Radar', %s, %s, %s)"
)
_META = '{"escalation_id":"0123456789abcdef","options":["yes","no"]}'


def _pg_rows_table(url: str) -> None:
    """crewline's own ``rows`` table and its unique index, from the first PG migration."""
    sql = pg_migrations()[0].sql
    match = re.search(r"CREATE TABLE rows .*?;\s*CREATE UNIQUE INDEX rows_in_order .*?;", sql, re.S)
    assert match is not None, "001_initial.sql defines the rows table"
    with psycopg.connect(url) as conn:
        conn.execute(match.group(0).encode())


def raw_pg_rate(url: str, *, count: int) -> float:
    """Raw psycopg single-row commits per second (one connection, autocommit off)."""
    _pg_rows_table(url)
    with psycopg.connect(url) as conn:
        started = time.perf_counter()
        for seq in range(1, count + 1):
            conn.execute(_PG_INSERT, (new_id(), seq, MESSAGE, _META, time.time()))
            conn.commit()
        return count / (time.perf_counter() - started)


async def raw_pg_concurrent_rate(
    url: str, *, callers: int, per_caller: int, postmaster: int | None = None
) -> tuple[float, Cpu]:
    """Raw psycopg single-row commits per second from ``callers`` concurrent callers, each on
    its own connection (the async driver: no pool, no threads), each row its own commit;
    and the CPU per commit in ms (the server's when ``postmaster`` is given)."""
    _pg_rows_table(url)
    connections = [await psycopg.AsyncConnection.connect(url) for _ in range(callers)]
    try:

        async def caller(n: int, conn: psycopg.AsyncConnection[Any]) -> None:
            for k in range(per_caller):
                seq = n * per_caller + k + 1
                await conn.execute(_PG_INSERT, (new_id(), seq, MESSAGE, _META, time.time()))
                await conn.commit()

        cpu_before = Cpu.now(postmaster)
        started = time.perf_counter()
        await asyncio.gather(*[caller(n, conn) for n, conn in enumerate(connections)])
        elapsed = time.perf_counter() - started
        total = callers * per_caller
        return total / elapsed, Cpu.now(postmaster).per_transaction_ms(cpu_before, total)
    finally:
        for conn in connections:
            await conn.close()


async def main(options: Options) -> None:
    started = time.perf_counter()
    per_caller = options.size(20, 50, smoke=2)
    raw_count = options.size(1000, 3000, smoke=50)
    subject: list[float] = []
    single: list[float] = []
    baseline: list[float] = []
    batch_sizes: list[float] = []
    stores = options.extra.store
    for run in range(options.runs if stores in ("both", "sqlite") else 0):
        with scratch(options, f"run{run}") as directory:
            # The baseline brackets the subject (before and after, averaged), so a change in
            # the shared machine's load during the run hits both sides alike.
            before = raw_rate(directory / "raw-before.db", count=raw_count)
            rate, batch, _ = await crewline_rate(
                directory / "crewline.db", callers=CALLERS, per_caller=per_caller
            )
            one, _, _ = await crewline_rate(
                directory / "single.db", callers=1, per_caller=options.size(300, 1000, smoke=20)
            )
            after = raw_rate(directory / "raw-after.db", count=raw_count)
            subject.append(rate)
            batch_sizes.append(batch)
            single.append(one)
            baseline.append((before + after) / 2)
    pg_subject: list[float] = []
    pg_batch_sizes: list[float] = []
    pg_alone: list[float] = []  # PostgresStore without group commit (writers=0)
    pg_baseline: list[float] = []  # raw psycopg, the same 100 callers
    pg_one_connection: list[float] = []
    pg_cpu: list[Cpu] = []  # PostgresStore's CPU per escalation, ms
    pg_raw_cpu: list[Cpu] = []  # raw psycopg's per commit, 100 callers (before and after)
    pg_floor: list[float] = []  # the same statements by raw psycopg (before and after)
    pg_floor_cpu: list[Cpu] = []
    pg_pooled_floor: list[float] = []  # the same on WRITERS connections shared by the callers
    pg_grouped_floor: list[float] = []  # ... and as many per transaction as the store's commits
    pg_grouped_floor_cpu: list[Cpu] = []
    floor: Floor | None = None
    batches: Counter[int] = Counter()  # escalations per group commit in the recorded probe
    with pg_server(options) as server:
        postmaster = postmaster_of(server)
        for run in range(options.runs if stores in ("both", "postgres") else 0):
            if floor is None:  # what the store sends for an escalation, recorded once
                floor = await derive(fresh_database(server, "floor_probe"), message=MESSAGE)
                # ... and what it sends with group commit: the same, batch after batch.
                with recording() as events:
                    await crewline_rate(
                        fresh_database(server, "grouped_probe"), callers=CALLERS, per_caller=2
                    )
                batches = floor.check_grouped(events)
            before, raw_cpu_before = await raw_pg_concurrent_rate(
                fresh_database(server, f"raw_before{run}"),
                callers=CALLERS,
                per_caller=per_caller,
                postmaster=postmaster,
            )
            one_before = raw_pg_rate(fresh_database(server, f"one_before{run}"), count=raw_count)
            floor_before_url = fresh_database(server, f"floor_before{run}")
            floor_before, floor_cpu_before = await floor_rate(
                floor,
                floor_before_url,
                callers=CALLERS,
                per_caller=per_caller,
                postmaster=postmaster,
            )
            pooled_before_url = fresh_database(server, f"pooled_before{run}")
            pooled_before, _ = await floor_rate(
                floor,
                pooled_before_url,
                callers=CALLERS,
                per_caller=per_caller,
                connections=WRITERS,
            )
            crewline_url = fresh_database(server, f"crewline{run}")
            rate, batch, cpu = await crewline_rate(
                crewline_url,
                callers=CALLERS,
                per_caller=per_caller,
                postmaster=postmaster,
            )
            # The floor grouped as the store just grouped it: its writers' connections, its
            # mean batch per transaction; right after it, under the same load.
            grouped_url = fresh_database(server, f"grouped{run}")
            grouped, grouped_cpu = await floor_rate(
                floor,
                grouped_url,
                callers=CALLERS,
                per_caller=per_caller,
                connections=WRITERS,
                grouped=max(1, round(batch)),
                postmaster=postmaster,
            )
            alone, _, _ = await crewline_rate(
                fresh_database(server, f"alone{run}"),
                callers=CALLERS,
                per_caller=per_caller,
                writers=0,
            )
            pooled_after_url = fresh_database(server, f"pooled_after{run}")
            pooled_after, _ = await floor_rate(
                floor,
                pooled_after_url,
                callers=CALLERS,
                per_caller=per_caller,
                connections=WRITERS,
            )
            floor_after_url = fresh_database(server, f"floor_after{run}")
            floor_after, floor_cpu_after = await floor_rate(
                floor,
                floor_after_url,
                callers=CALLERS,
                per_caller=per_caller,
                postmaster=postmaster,
            )
            written = table_counts(crewline_url, floor.tables)
            floors = (floor_before_url, pooled_before_url, grouped_url, pooled_after_url)
            for url in (*floors, floor_after_url):
                by_floor = table_counts(url, floor.tables)
                assert by_floor == written, f"the store wrote {written}, the floor {by_floor}"
            one_after = raw_pg_rate(fresh_database(server, f"one_after{run}"), count=raw_count)
            after, raw_cpu_after = await raw_pg_concurrent_rate(
                fresh_database(server, f"raw_after{run}"),
                callers=CALLERS,
                per_caller=per_caller,
                postmaster=postmaster,
            )
            pg_cpu.append(cpu)
            pg_raw_cpu.append(
                Cpu(
                    client=(raw_cpu_before.client + raw_cpu_after.client) / 2,
                    server=(raw_cpu_before.server + raw_cpu_after.server) / 2,
                )
            )
            pg_floor.append((floor_before + floor_after) / 2)
            pg_pooled_floor.append((pooled_before + pooled_after) / 2)
            pg_grouped_floor.append(grouped)
            pg_grouped_floor_cpu.append(grouped_cpu)
            pg_floor_cpu.append(
                Cpu(
                    client=(floor_cpu_before.client + floor_cpu_after.client) / 2,
                    server=(floor_cpu_before.server + floor_cpu_after.server) / 2,
                )
            )
            pg_subject.append(rate)
            pg_batch_sizes.append(batch)
            pg_alone.append(alone)
            pg_baseline.append((before + after) / 2)
            pg_one_connection.append((one_before + one_after) / 2)
    raw_label = "raw sqlite3 single-row commits/s (WAL, synchronous=FULL, 1 thread)"
    figures: list[dict[str, Any]] = []
    if subject:
        figures += [
            figure(
                "escalation_tx_per_s",
                f"escalation transactions/s, {CALLERS} concurrent callers",
                "tx/s",
                subject,
                higher_is_better=True,
                baseline=baseline,
                baseline_label=raw_label,
                target=Target(kind="ratio_at_least", value=1.0),
            ),
            figure(
                "escalation_tx_per_s_one_caller",
                "escalation transactions/s, 1 caller (no grouping possible)",
                "tx/s",
                single,
                higher_is_better=True,
                baseline=baseline,
                baseline_label=raw_label,
            ),
            figure(
                "transactions_per_commit",
                f"transactions per group commit, {CALLERS} callers",
                "tx",
                batch_sizes,
                higher_is_better=True,
            ),
        ]
    if pg_subject:
        floor_label = (
            f"the floor: the same statements by raw psycopg/s ({CALLERS} callers, a connection"
            " each, pipeline mode, one transaction per escalation)"
        )
        figures += [
            figure(
                "postgres_escalation_tx_per_s_vs_floor",
                f"PostgresStore escalation transactions/s, {CALLERS} concurrent callers",
                "tx/s",
                pg_subject,
                higher_is_better=True,
                baseline=pg_floor,
                baseline_label=floor_label,
                target=Target(kind="ratio_at_least", value=0.8),
            ),
            figure(
                "postgres_escalation_tx_per_s_without_group_commit_vs_floor",
                f"PostgresStore(writers=0) escalation transactions/s, {CALLERS} callers: each"
                " transaction alone in its own database transaction",
                "tx/s",
                pg_alone,
                higher_is_better=True,
                baseline=pg_floor,
                baseline_label=floor_label,
            ),
            figure(
                "postgres_escalation_tx_per_s_vs_pooled_floor",
                f"PostgresStore escalation transactions/s, {CALLERS} concurrent callers",
                "tx/s",
                pg_subject,
                higher_is_better=True,
                baseline=pg_pooled_floor,
                baseline_label=(
                    f"the floor on {WRITERS} connections (the store's writers), each running"
                    f" its share of the {CALLERS} callers' escalations one after another"
                ),
            ),
            *_cpu_figures(
                pg_cpu,
                pg_floor_cpu,
                suffix="_vs_floor",
                baseline=f"the floor's CPU per escalation ({CALLERS} callers, before and after)",
            ),
            figure(
                "postgres_escalation_tx_per_s_vs_grouped_floor",
                f"PostgresStore escalation transactions/s, {CALLERS} concurrent callers",
                "tx/s",
                pg_subject,
                higher_is_better=True,
                baseline=pg_grouped_floor,
                baseline_label=GROUPED_FLOOR,
            ),
            *_cpu_figures(
                pg_cpu,
                pg_grouped_floor_cpu,
                suffix="_vs_grouped_floor",
                baseline=f"{GROUPED_FLOOR}: its CPU per escalation",
            ),
            figure(
                "postgres_escalation_tx_per_s",
                f"PostgresStore escalation transactions/s, {CALLERS} concurrent callers",
                "tx/s",
                pg_subject,
                higher_is_better=True,
                baseline=pg_baseline,
                baseline_label=(
                    f"raw psycopg single-row commits/s (fsync on, {CALLERS} callers,"
                    " a connection each)"
                ),
            ),
            figure(
                "postgres_escalation_tx_per_s_without_group_commit",
                f"PostgresStore(writers=0) escalation transactions/s, {CALLERS} callers: each"
                " transaction alone in its own database transaction",
                "tx/s",
                pg_alone,
                higher_is_better=True,
                baseline=pg_baseline,
                baseline_label=(
                    f"raw psycopg single-row commits/s (fsync on, {CALLERS} callers,"
                    " a connection each)"
                ),
            ),
            figure(
                "postgres_transactions_per_commit",
                f"PostgresStore transactions per group commit, {CALLERS} callers",
                "tx",
                pg_batch_sizes,
                higher_is_better=True,
            ),
            *_cpu_figures(
                pg_cpu,
                pg_raw_cpu,
                suffix="",
                baseline=(
                    f"raw psycopg CPU per single-row commit ({CALLERS} callers, before and after)"
                ),
            ),
            figure(
                "postgres_escalation_tx_per_s_vs_one_connection",
                f"PostgresStore escalation transactions/s, {CALLERS} concurrent callers",
                "tx/s",
                pg_subject,
                higher_is_better=True,
                baseline=pg_one_connection,
                baseline_label="raw psycopg single-row commits/s (fsync on, 1 connection)",
            ),
        ]
    write_result(
        options,
        title="Store: SqliteStore vs raw sqlite3, PostgresStore vs its statements by raw psycopg",
        sizes={
            "callers": CALLERS,
            "transactions_per_caller": per_caller,
            "transactions": CALLERS * per_caller,
            "raw_commits_before_and_after": raw_count,
        },
        baseline=(
            "Raw sqlite3 from one thread, WAL with synchronous=FULL (the store's own"
            " durability), each transaction BEGIN IMMEDIATE; INSERT one row into a table with"
            " crewline's rows schema; COMMIT, sequentially, on a fresh file in the same"
            " directory; measured right before and right after crewline in each run and"
            " averaged."
        ),
        figures=figures,
        started=started,
        notes=[
            "Each crewline transaction is the core's record_escalation: backlog count, card"
            " row, index record, and outbox entries for card, bell and roster (6 statements"
            " plus the conversation counter), so it does several times the baseline's work.",
            "PostgreSQL (postgres_* figures): a local cluster started for the run, fsync and"
            " synchronous_commit on. The target's baseline (*_vs_floor) is the floor: the"
            " statements PostgresStore sent for one real escalation (recorded at the start of"
            " the run), replayed by raw psycopg with fresh ids, member, session and time, by"
            " the same 100 callers, each on its own connection, in pipeline mode, one"
            f" transaction per escalation: {floor.describe() if floor else '-'}; checked on"
            f" a recorded run of PostgresStore with group commit ({CALLERS} callers, 2 each) to"
            " send each escalation's steps in the same order, and nothing else but each"
            " batch's two lock_timeout settings, in batches of (escalations: batches)"
            f" {dict(sorted(batches.items()))}; measured"
            " right before and right after PostgresStore in each run and averaged, and checked"
            " to write as many rows to each of those tables as PostgresStore did;"
            " *_without_group_commit_vs_floor is PostgresStore(writers=0), each transaction"
            " alone; *_vs_pooled_floor divides by the floor on 16 connections shared by the"
            " callers; *_vs_grouped_floor (no target) by the floor grouped as the store"
            " groups it: the same 16 connections, as many escalations per transaction as the"
            " store's group commits held in the run (what the store costs above the"
            " statements it sends, its grouping taken out). postgres_escalation_tx_per_s (no"
            " target since the floor) divides by raw psycopg with the same 100 callers"
            " committing one row per transaction;"
            " postgres_escalation_tx_per_s_vs_one_connection by raw psycopg from one"
            " connection.",
            "postgres_*cpu_ms_per_escalation*: CPU per escalation (this process's getrusage and"
            " the PostgreSQL processes' schedstat, around the timed part alone) against the"
            " floor's per escalation (*_vs_floor) and raw psycopg's per commit in the same run;"
            " where CPU is the limit (an idle machine with the server on it), the tx/s ratio"
            " comes to the inverse of their ratio.",
        ],
    )


def _cpu_figures(
    store: list[Cpu], raw: list[Cpu], *, suffix: str, baseline: str
) -> list[dict[str, Any]]:
    """CPU per escalation through PostgresStore against a baseline's per transaction (the
    same 100 callers): what the tx/s ratio comes to on a machine where CPU is the limit
    (its inverse), whatever else the shared machine was running."""
    if not store or not any(c.server for c in store):
        return []  # no /proc: the server's share cannot be read
    return [
        figure(
            f"postgres_{part}cpu_ms_per_escalation{suffix}",
            f"PostgresStore {label} per escalation, {CALLERS} callers",
            "ms",
            [pick(c) for c in store],
            higher_is_better=False,
            baseline=[pick(c) for c in raw],
            baseline_label=baseline,
        )
        for part, label, pick in (
            ("", "CPU (client process and PostgreSQL server)", lambda c: c.client + c.server),
            ("client_", "client-process CPU (every thread)", lambda c: c.client),
            ("server_", "PostgreSQL server CPU (all its processes)", lambda c: c.server),
        )
    ]


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        choices=("both", "sqlite", "postgres"),
        default="both",
        help="which stores to measure (default both; one alone while working on it)",
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, runs_quick=5, runs_full=5, add_arguments=_arguments)))
