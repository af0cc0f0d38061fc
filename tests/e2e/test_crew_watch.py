"""The crew watch (``crewline.app.crew_watch``): a crew write made on another connection —
another process's store on the same SQLite file, the command line or another replica on
PostgreSQL — is followed, however the writes fall between the watch's looks; a watch
with nothing to follow reads no table (SQLite: the ``data_version`` pragma alone; on
PostgreSQL nothing at all), and one whose notifications may have been lost looks again."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path

import psycopg

from crewline import crew as crew_admin
from crewline.app.crew_watch import CrewChange, CrewWatch
from crewline.crew import CREW_VERSION
from crewline.replication.replicas import holder_tag
from crewline.store import Store
from crewline.store.postgres import PostgresStore
from crewline.store.postgres_coordination import PostgresCoordination, with_application_name
from crewline.store.sqlite import SqliteStore
from tests.e2e.replica_kit import until
from tests.pg_cluster import end_listening

WRITES = 30  # crew writes racing the watch's looks


class CountedSqliteStore(SqliteStore):
    """SqliteStore, counting its reads of the crew's version and of its data_version."""

    crew_reads = 0
    version_reads = 0

    async def setting(self, key: str) -> str | None:
        self.crew_reads += key == CREW_VERSION
        return await super().setting(key)

    async def data_version(self) -> int | None:
        self.version_reads += 1
        return await super().data_version()


class CountedPostgresStore(PostgresStore):
    """PostgresStore, counting its reads of the crew's version."""

    crew_reads = 0

    async def setting(self, key: str) -> str | None:
        self.crew_reads += key == CREW_VERSION
        return await super().setting(key)


class Followed:
    """What a watch handed to ``follow``: the members it knows of, by its changes."""

    def __init__(self) -> None:
        self.members: set[str] = set()

    async def __call__(self, change: CrewChange) -> None:
        self.members = (self.members - change.gone) | change.added

    async def has(self, slugs: set[str]) -> bool:
        return self.members == slugs


async def _add(store: Store, slug: str) -> None:
    await crew_admin.add_member(
        store, slug=slug, name=slug, owners=["memory:alice"], transports=["memory"]
    )


async def test_sqlite_a_write_by_another_connection_is_followed_and_idle_reads_no_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / "crewline.db"
    followed = Followed()
    async with (
        CountedSqliteStore(path) as served,
        SqliteStore(path) as cli,  # the command line: a connection of its own
        CrewWatch(served, followed, interval=0.001),
    ):
        # Idle: many looks at the data_version, not one read of the crew.
        reads, looks = served.crew_reads, served.version_reads
        await until(lambda: _now(served.version_reads >= looks + 20))
        assert served.crew_reads == reads
        # A write by the other connection, then writes racing the looks, from both stores
        # (the server's own writer moves the data_version too): each one is followed.
        await _add(cli, "first")
        await until(lambda: followed.has({"first"}))
        assert served.crew_reads > reads
        slugs = {f"m{n}" for n in range(WRITES)}
        await asyncio.gather(*[_add(cli if n % 2 else served, f"m{n}") for n in range(WRITES)])
        await until(lambda: followed.has(slugs | {"first"}))
        await crew_admin.remove_member(cli, "first")
        await until(lambda: followed.has(slugs))


async def _replica(
    stack: AsyncExitStack, url: str, name: str
) -> tuple[CountedPostgresStore, PostgresCoordination, Followed]:
    """A replica's store, coordination and crew watch, wired as the server wires them,
    open on ``stack``."""
    holder = holder_tag(name)
    store = await stack.enter_async_context(
        CountedPostgresStore(with_application_name(url, holder))
    )
    coordination = await stack.enter_async_context(PostgresCoordination(url, holder))
    followed = Followed()
    # An hour between looks: whatever it follows, it was told of.
    await stack.enter_async_context(
        CrewWatch(store, followed, interval=3600, coordination=coordination)
    )
    return store, coordination, followed


async def _now(value: bool) -> bool:
    return value


async def test_postgresql_replicas_are_told_of_crew_writes_and_read_nothing_idle(
    postgres_url: str,
) -> None:
    async with AsyncExitStack() as stack:
        cli = await stack.enter_async_context(PostgresStore(postgres_url))
        a_store, a, a_followed = await _replica(stack, postgres_url, "a")
        b_store, b, b_followed = await _replica(stack, postgres_url, "b")
        assert a.listening and b.listening  # the precondition: both hear the database
        reads = (a_store.crew_reads, b_store.crew_reads)
        # Idle: another setting announced is heard by B (its watch, registered first, was
        # told of it before this) and makes no watch read the crew.
        heard: list[str | None] = []
        b.on_setting_changed(heard.append)
        await cli.write(lambda tx: tx.set_setting("elsewhere", "1", announce=True))
        await until(lambda: _now("elsewhere" in heard))
        assert (a_store.crew_reads, b_store.crew_reads) == reads
        # The command line's write, then writes racing the looks, from the CLI and from each
        # replica (a replica's own write is followed too): every one is followed by both.
        await _add(cli, "first")
        await until(lambda: a_followed.has({"first"}))
        await until(lambda: b_followed.has({"first"}))
        slugs = {f"m{n}" for n in range(WRITES)}
        writers = (cli, a_store, b_store)
        await asyncio.gather(*[_add(writers[n % 3], f"m{n}") for n in range(WRITES)])
        await until(lambda: a_followed.has(slugs | {"first"}))
        await until(lambda: b_followed.has(slugs | {"first"}))
        # B's listening connection ends; a write made meanwhile may go unheard, so B looks
        # again once it listens anew, and follows it.
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            end_listening(conn, b.holder)
        await crew_admin.remove_member(cli, "first")
        await until(lambda: a_followed.has(slugs))
        await until(lambda: b_followed.has(slugs))
