"""The concierge's answer on the status line and roster for a minute (SPEC §4), moved by the
injected clock: the roster every transport publishes carries it, `/roster` and
`GET /api/members` say it, and it leaves when the clock passes the minute, when it is
undone, and after a restart too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from crewline.config import Config
from crewline.models import RosterEntry
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import MemoryHarness


@pytest.fixture
async def crew(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    harness = MemoryHarness()
    async with harness.running() as running:
        driver = Crew(config, clock, [running])
        await driver.start()
        yield driver
        await driver.stop()


def _shown(crew: Crew) -> RosterEntry | None:
    """radar's entry in the roster the transport published last."""
    harness = crew.harness
    assert isinstance(harness, MemoryHarness)
    rosters = harness.memory.rosters
    return next((e for e in rosters[-1] if e.slug == "radar"), None) if rosters else None


def _answer_shown(crew: Crew) -> bool:
    entry = _shown(crew)
    return entry is not None and entry.concierge_answer is not None


async def _answered(crew: Crew) -> str:
    key = await crew.add_member()
    await crew.harness.command("concierge", "answer", "routine")
    await crew.escalate(key, message="Shall I proceed with the plan?")
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    await crew.harness.wait_until(lambda: _answer_shown(crew))
    return key


async def _api_answer(crew: Crew) -> object:
    token = await crew.owner_token()
    response = await crew.call(token, "GET", "/api/members")
    assert response.status_code == 200, response.text
    return response.json()["members"][0]["concierge_answer"]


async def test_an_answer_shows_on_the_roster_for_a_minute(crew: Crew, clock: FakeClock) -> None:
    await _answered(crew)
    entry = _shown(crew)
    assert entry is not None and entry.concierge_answer is not None
    assert entry.concierge_answer.text == "yes"
    assert entry.concierge_status("now") == (
        "concierge · answered radar: yes (now) · /concierge undo"
    )
    roster = await crew.harness.command("roster")
    assert roster is not None and "concierge · answered radar: yes" in roster
    assert (await _api_answer(crew)) == {"text": "yes", "at": entry.concierge_answer.at.isoformat()}
    assert clock.sleepers == 1  # the timer that redraws the roster when the minute is over
    clock.advance(59)
    await crew.delivered()
    assert clock.sleepers == 1 and _answer_shown(crew)
    clock.advance(2)
    await crew.harness.wait_until(lambda: not _answer_shown(crew))
    assert clock.sleepers == 0
    roster = await crew.harness.command("roster")
    assert roster is not None and "concierge" not in roster
    assert (await _api_answer(crew)) is None


async def test_an_undone_answer_leaves_the_roster_at_once(crew: Crew) -> None:
    await _answered(crew)
    said = await crew.harness.command("concierge", "undo")
    assert said is not None and "Withdrawn" in said
    await crew.harness.wait_until(lambda: not _answer_shown(crew))
    assert (await _api_answer(crew)) is None


async def test_after_a_restart_the_answer_stays_its_minute_and_then_leaves(
    crew: Crew, clock: FakeClock
) -> None:
    await _answered(crew)
    harness = crew.harness
    assert isinstance(harness, MemoryHarness)
    published = len(harness.memory.rosters)
    clock.advance(30)
    await crew.restart()
    await harness.wait_until(lambda: len(harness.memory.rosters) > published)
    assert _answer_shown(crew)  # republished at start, still within its minute
    assert clock.sleepers == 1  # re-armed from the store, not from the stopped process
    clock.advance(31)
    await crew.harness.wait_until(lambda: not _answer_shown(crew))
    assert (await _api_answer(crew)) is None
