"""The end-to-end suites run once on each store.

Every test here that runs crewline in this process (it asks for ``config``, directly or
through ``crew``) runs on SQLite and then on a fresh PostgreSQL database of the session's
throwaway cluster (tests/pg_cluster.py). On PostgreSQL the transport-parametrised tests run
over the memory harness alone: the store does not see which platform a change came from,
and the cross product would double CI time. A test that reads one engine's own files or
counters is marked ``@pytest.mark.sqlite_only("why")``. The Crew driver is tests/driver.py.

The suites that start crewline as a separate process (the CLI, crash/restart) ask for
``cli_store`` instead: every crewline command they start reads ``$CREWLINE_DATABASE_URL``,
unset on SQLite and naming a fresh PostgreSQL database on PostgreSQL; ``sqlite_only`` works
there too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from crewline.config import Config
from tests.driver import Crew
from tests.e2e import agent_cli

__all__ = ["Crew"]

STORES = ("sqlite", "postgresql")


@pytest.fixture(params=STORES)
def config(request: pytest.FixtureRequest, config: Config) -> Config:
    """The suite's ``config`` on SQLite (in its data directory), then on PostgreSQL."""
    if request.param == "sqlite":
        return config
    return replace(config, database_url=request.getfixturevalue("postgres_url"))


@pytest.fixture(params=STORES)
def cli_store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """The store of every crewline process the test starts: SQLite in the data directory
    (None), then a fresh PostgreSQL database (its URL), through $CREWLINE_DATABASE_URL."""
    if request.param == "sqlite":
        monkeypatch.delenv("CREWLINE_DATABASE_URL", raising=False)
        return None
    url = str(request.getfixturevalue("postgres_url"))
    monkeypatch.setenv("CREWLINE_DATABASE_URL", url)
    return url


@pytest.fixture(autouse=True)
async def _no_agent_outlives_its_test() -> AsyncIterator[None]:
    """Kill what a test's agent processes left running (tests/e2e/agent_cli.py), in its loop."""
    yield
    await agent_cli.reap()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Drop the PostgreSQL runs that would test only what the SQLite run already has."""
    dropped = [item for item in items if _sqlite_suffices(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        gone = set(map(id, dropped))
        items[:] = [item for item in items if id(item) not in gone]


def _sqlite_suffices(item: pytest.Item) -> bool:
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "postgresql" not in (params.get("config"), params.get("cli_store")):
        return False
    return params.get("harness", "memory") != "memory" or bool(
        item.get_closest_marker("sqlite_only")
    )
