"""A member bound to the memory transport and to Slack: its withdrawn request settles on both."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import HARNESSES, MemoryHarness


@pytest.fixture
async def pair(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    async with HARNESSES["slack"]().running() as slack:
        driver = Crew(config, clock, [MemoryHarness("memory"), slack])
        await driver.start()
        yield driver
        await driver.stop()


async def test_a_withdrawn_request_settles_on_every_bound_transport(pair: Crew) -> None:
    """The card is live on both transports, then withdrawn: both redraw it without buttons."""
    key = await pair.add_member()
    created = await pair.escalate(key, message="Ship?", options=["yes", "no"])
    for harness in pair.harnesses:
        await harness.wait_until(lambda h=harness: len(h.cards("radar")) == 1)
        assert harness.cards("radar")[0].choices == ("yes", "no")
    response = await pair.call(
        key, "POST", f"/api/session-control/escalations/{created['escalation_id']}/retract"
    )
    assert response.json()["state"] == "retracted"
    for harness in pair.harnesses:
        await harness.wait_until(lambda h=harness: h.cards("radar")[0].settled)
        assert "Withdrawn" in harness.cards("radar")[0].text
