"""The outbox's pacing of the roster (DeliveryLimits.roster_interval) in-process.

The end-to-end suites run the memory platform unpaced, as the local inbox is (a local push,
``roster_interval=0``), so a wait for delivery does not wait out the pacing after each
change; the rule that a paced platform's roster is redrawn at most once per interval, from
the state as of the redraw, is checked here once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from crewline.models import RosterEntry
from crewline.transports.base import DeliveryLimits
from crewline.transports.memory import MemoryTransport
from tests.core.kit import running

INTERVAL = 0.5  # seconds; the test waits it out twice at most


class _TimedMemory(MemoryTransport):
    """The memory platform, noting when each roster is drawn."""

    def __init__(self, *, limits: DeliveryLimits) -> None:
        super().__init__(limits=limits)
        self.drawn_at: list[float] = []

    async def show_roster(self, roster: Sequence[RosterEntry]) -> None:
        self.drawn_at.append(time.monotonic())
        await super().show_roster(roster)


def _open(roster: list[RosterEntry]) -> int:
    return sum(entry.open_count for entry in roster if entry.slug == "radar")


async def test_a_paced_roster_is_redrawn_at_most_once_per_interval_with_the_latest_state(
    tmp_path: Path,
) -> None:
    """A burst of changes after a redraw: the cards go out at once, the roster is drawn
    again only once the interval has passed since the last redraw, showing the whole burst."""
    paced = _TimedMemory(limits=DeliveryLimits(roster_interval=INTERVAL))
    async with running(tmp_path, memory=paced) as kit:
        radar = await kit.add_member()
        await kit.escalate(radar, "First?")
        await kit.wait_until(lambda: bool(paced.rosters) and _open(paced.rosters[-1]) == 1)
        for n in range(3):
            await kit.escalate(radar, f"Burst {n}?")
        await kit.card(count=4)
        await kit.wait_until(lambda: _open(paced.rosters[-1]) == 4)
        assert len(paced.drawn_at) >= 2, "precondition: the burst redrew the roster"
        gaps = [b - a for a, b in zip(paced.drawn_at, paced.drawn_at[1:], strict=False)]
        assert min(gaps) >= 0.9 * INTERVAL, gaps  # monotonic against the outbox's wall clock
