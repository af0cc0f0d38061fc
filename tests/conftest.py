"""Fixtures shared by every suite: a data directory, a movable clock, and crewline running
over one transport harness per parametrised run."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import HARNESSES, Harness


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
