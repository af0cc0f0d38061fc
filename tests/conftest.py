"""Fixtures shared by every suite: a data directory, a movable clock, and crewline running
over one transport harness per parametrised run."""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import HARNESSES, Harness
from tests.pg_cluster import PostgresUnavailable, cluster


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(data_dir=tmp_path / "data", port=0, transports=())


@pytest.fixture(params=sorted(HARNESSES))
async def harness(request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    """Each transport's harness in turn, with its platform fake running."""
    made = HARNESSES[request.param]()
    async with made.running() as running:
        yield running


@pytest.fixture
async def crew(config: Config, clock: FakeClock, harness: Harness) -> AsyncIterator[Crew]:
    """crewline serving over real HTTP on a free loopback port, with the harness's transport."""
    driver = Crew(config, clock, [harness])
    await driver.start()
    yield driver
    await driver.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for the whole run (started on first use); its URL.

    Skipped only where no PostgreSQL can be had; in CI (``CI=true``) that is a failure.
    """
    try:
        with cluster() as url:
            yield url
    except PostgresUnavailable as missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must test PostgresStore: {missing}")
        pytest.skip(f"PostgresStore not tested: {missing}")


_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_template(postgres_server: str) -> str:
    """The name of a database on the session's cluster migrated to the latest schema once,
    copied for each test (``CREATE DATABASE … TEMPLATE``): a copy costs a file copy, a
    migration some hundred statements."""
    import psycopg

    from crewline.store.postgres import PostgresStore

    name = f"crewline_template_{os.getpid()}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")

    async def migrate() -> None:
        async with PostgresStore(_on(postgres_server, name)):
            pass  # opening migrates; closing leaves no connection to block the copies

    with ThreadPoolExecutor(1) as thread:  # a fixture may be set up inside a running loop
        thread.submit(asyncio.run, migrate()).result()
    return name


@pytest.fixture
def postgres_url(postgres_server: str, postgres_template: str) -> Iterator[str]:
    """A fresh database at the latest schema, with no rows, on the session's cluster for one
    test, dropped after it (so the cluster stays small and stops quickly)."""
    with _database(postgres_server, template=postgres_template) as url:
        yield url


@pytest.fixture
def postgres_empty_url(postgres_server: str) -> Iterator[str]:
    """A fresh database without crewline's schema (nothing migrated), for one test."""
    with _database(postgres_server, template=None) as url:
        yield url


@contextmanager
def _database(server: str, *, template: str | None) -> Iterator[str]:
    import psycopg

    name = f"t{os.getpid()}_{next(_databases)}"
    copy = f" TEMPLATE {template}" if template else ""
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}{copy}")
    yield _on(server, name)
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _on(server: str, database: str) -> str:
    """The URL of ``database`` on the cluster at ``server``."""
    return server.rsplit("/", 1)[0] + "/" + database
