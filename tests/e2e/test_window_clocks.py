"""A veto window is due by crewline's clock (injected), while its timer waits by the wall
clock: the timer waits the time left by crewline's clock, and a timer that fires before the
window is due by that clock is armed again, never dropped until the next horizon."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import pytest

from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


async def _early_timers(crew: Crew) -> float:
    text = (await crew.call(None, "GET", "/metrics")).text
    found = re.search(r"^crewline_window_timers_early_total (\S+)$", text, re.MULTILINE)
    assert found is not None, "the counter is not exported"
    return float(found.group(1))


async def test_a_window_closes_by_crewlines_clock_however_far_behind_the_wall_it_runs(
    crew: Crew,
) -> None:
    """crewline's clock a day behind the wall clock: the deadline is long past by the wall,
    yet the timer waits for the second left by crewline's clock, and closes the window when
    that clock passes it."""
    crew.clock.advance(timedelta(days=-1))
    key = await crew.add_member()
    await crew.escalate(key, message="Quick one", deadline="PT1S", default_action="go")
    assert crew.crewline.windows.armed == 1
    crew.clock.advance(timedelta(seconds=2))
    event = await crew.wait_for_event(key, "window_closed")
    assert event["body"]["state"] == "defaulted"
    assert await _early_timers(crew) == 0


async def test_a_timer_that_fires_before_the_window_is_due_is_armed_again(crew: Crew) -> None:
    """crewline's clock stands still: the timer fires when the wall clock has waited the
    second, finds the window not due, and is armed again; the window closes once crewline's
    clock passes its deadline, without a re-arm of the horizon."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Quick one", deadline="PT1S", default_action="go")
    async with asyncio.timeout(10):
        while await _early_timers(crew) == 0:  # noqa: ASYNC110 - read as an operator would
            await asyncio.sleep(0.05)
    record = await crew.crewline.store.escalation(result["escalation_id"])
    assert record is not None and record.state.value == "pending"
    assert crew.crewline.windows.armed == 1
    crew.clock.advance(timedelta(seconds=2))
    event = await crew.wait_for_event(key, "window_closed")
    assert event["body"]["state"] == "defaulted"
