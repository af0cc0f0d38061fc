"""Fixtures shared by every suite: a data directory, a movable clock, and crewline running
over one transport harness per parametrised run."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
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


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the session's cluster for one test, dropped after it (so
    the cluster stays small and stops quickly)."""
    import psycopg

    name = f"t{os.getpid()}_{next(_databases)}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield postgres_server.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
