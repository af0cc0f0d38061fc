"""Fixtures shared by every suite: a data directory, a movable clock, a running crewline."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from crewline import crew
from crewline.config import Config
from crewline.server import Crewline
from crewline.testing import FakeClock, MemoryTransport

OWNER = "alice"  # the human's user id on every memory transport


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(data_dir=tmp_path / "data", port=0, transports=())


@pytest.fixture
async def crewline(config: Config, clock: FakeClock) -> AsyncIterator[Crewline]:
    """crewline serving on a free loopback port with two memory transports."""
    async with Crewline(config, transports=[MemoryTransport("memory"), MemoryTransport("memory-b")],
                        clock=clock, outbox_poll_interval=0.2) as running:
        yield running


async def add_member(running: Crewline, slug: str = "radar", name: str = "Radar", *,
                     transports: tuple[str, ...] = ("memory", "memory-b")) -> str:
    """Add a member owned by alice on both memory transports; returns its session key."""
    created = await crew.add_member(
        running.store, slug=slug, name=name,
        owners=[f"{t}:{OWNER}" for t in ("memory", "memory-b")], transports=transports)
    return created.key


def api(running: Crewline, key: str | None = None) -> httpx.AsyncClient:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.AsyncClient(base_url=running.url, headers=headers, timeout=10)
