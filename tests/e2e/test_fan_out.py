"""One member bound to two transports: a card on each, the first answer settles both."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import MemoryHarness


@pytest.fixture
async def pair(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    driver = Crew(config, clock, [MemoryHarness("memory"), MemoryHarness("memory-b")])
    await driver.start()
    yield driver
    await driver.stop()


async def test_a_card_appears_on_every_bound_transport(pair: Crew) -> None:
    """The outbox fans the card out to each transport the member is bound to."""
    key = await pair.add_member()
    await pair.escalate(key, message="Ship?", options=["yes", "no"])
    for harness in pair.harnesses:
        await harness.wait_until(lambda h=harness: len(h.cards("radar")) == 1)
        assert harness.cards("radar")[0].choices == ("yes", "no")


async def test_the_first_answer_settles_the_card_everywhere(pair: Crew) -> None:
    """A press on one transport settles the record and redraws the card on the other."""
    key = await pair.add_member()
    await pair.escalate(key, message="Ship?", options=["yes", "no"])
    first, second = pair.harnesses
    await second.wait_until(lambda: len(second.cards("radar")) == 1)
    await first.wait_until(lambda: len(first.cards("radar")) == 1)
    stale_yes = first.cards("radar")[0].payloads[0]
    await second.press("radar", second.cards("radar")[0], 1)
    await first.wait_until(lambda: first.cards("radar")[0].settled)
    assert "Answered: no — by you" in first.cards("radar")[0].text
    late = await first.press_payload("radar", stale_yes)
    assert late is not None and "already settled" in late
    assert (await pair.conversation())["escalations"][0]["answer"] == "no"
