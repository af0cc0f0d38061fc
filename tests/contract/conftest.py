"""The ``store`` fixture of the contract suites: every Store implementation in turn, fresh
and empty, chosen by URL as a deployment chooses it (like APScheduler's data-store tests)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from crewline.store import Store
from crewline.store.open import open_store

STORES = ("sqlite", "postgresql")


@pytest.fixture(params=STORES)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL naming a fresh database of each store in turn."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'c.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store(store_url: str, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(store_url, tmp_path) as opened:
        yield opened
