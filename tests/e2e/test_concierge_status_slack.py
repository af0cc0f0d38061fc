"""The concierge's answer on Slack's thread root for a minute (SPEC §4), beside the App Home:
the root crewline keeps per member ("Radar: all clear") gains the answer's line when the
concierge answers and loses it when the injected clock passes the minute — after a restart
too, without a redraw that would change nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harnesses.slack import SlackHarness

ANSWERED = "concierge · answered radar: yes ("


@pytest.fixture
async def harness() -> AsyncIterator[SlackHarness]:
    async with SlackHarness().running() as running:
        assert isinstance(running, SlackHarness)
        yield running


@pytest.fixture
async def crew(config: Config, clock: FakeClock, harness: SlackHarness) -> AsyncIterator[Crew]:
    driver = Crew(config, clock, [harness])
    await driver.start()
    yield driver
    await driver.stop()


def _root(harness: SlackHarness) -> dict[str, Any]:
    root = harness.root("radar")
    assert root is not None
    root_message: dict[str, Any] = harness.fake.thread(harness.dm, root)[0]
    return root_message


def _root_text(harness: SlackHarness) -> str:
    return str(_root(harness)["text"])


def _root_updates(harness: SlackHarness) -> int:
    root = harness.root("radar")
    return sum(1 for call in harness.fake.calls_to("chat.update") if call.params["ts"] == root)


async def _answered(crew: Crew, harness: SlackHarness) -> None:
    key = await crew.add_member()
    assert await harness.command("concierge", "answer", "routine") is not None
    await crew.escalate(key, message="Shall I proceed with the plan?")
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    await harness.wait_until(lambda: ANSWERED in _root_text(harness))


async def test_the_thread_root_shows_the_concierges_answer_for_a_minute(
    crew: Crew, clock: FakeClock, harness: SlackHarness
) -> None:
    await _answered(crew, harness)
    first, _, line = _root_text(harness).partition("\n")
    assert first == "Radar: all clear"
    assert line.startswith(ANSWERED) and line.endswith(") · /concierge undo")
    assert "<!date^" in line  # Slack draws the time in each reader's own view
    contexts = [b for b in _root(harness)["blocks"] if b["type"] == "context"]
    assert contexts[0]["elements"][0]["text"] == line
    clock.advance(59)
    await crew.delivered()
    assert ANSWERED in _root_text(harness)
    clock.advance(2)
    await harness.wait_until(lambda: _root_text(harness) == "Radar: all clear")
    assert [b["type"] for b in _root(harness)["blocks"]] == ["section", "context"]


async def test_an_undone_answer_leaves_the_thread_root_at_once(
    crew: Crew, harness: SlackHarness
) -> None:
    await _answered(crew, harness)
    said = await harness.command("concierge", "undo")
    assert said is not None and "Withdrawn" in said
    await harness.wait_until(lambda: ANSWERED not in _root_text(harness))
    assert _root_text(harness) == "Radar: needs you"  # the request is the human's again


async def test_after_a_restart_the_root_keeps_its_line_and_loses_it_after_the_minute(
    crew: Crew, clock: FakeClock, harness: SlackHarness
) -> None:
    await _answered(crew, harness)
    updates = _root_updates(harness)
    homes = len(harness.fake.calls_to("views.publish"))
    clock.advance(30)
    await crew.restart()
    # The new process publishes the roster (its App Home first, then the roots)…
    await harness.wait_until(lambda: len(harness.fake.calls_to("views.publish")) > homes)
    await crew.delivered()
    # … and reads from the root's metadata that it already shows the answer: no redraw.
    assert _root_updates(harness) == updates
    assert ANSWERED in _root_text(harness)
    clock.advance(31)
    await harness.wait_until(lambda: _root_text(harness) == "Radar: all clear")
