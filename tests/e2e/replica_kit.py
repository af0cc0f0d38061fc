"""What the lease tests share: a short lease, its bound, a replica of crewline that runs
one harness's transport under it, and a bounded wait for a condition."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from crewline.app.server import Crewline
from crewline.config import Config
from crewline.testing import FakeClock
from tests.harness import Harness

__all__ = ["BOUND", "TTL", "WAIT", "replica", "until"]

TTL = 5.0  # seconds: short, so a takeover is quick, yet longer than a loaded loop stalls
WAIT = 20.0  # the bound on any one wait (a loaded machine)
BOUND = TTL * 2 + 8  # the takeover bound (ttl + ttl/3), with room for a loaded machine


def replica(
    config: Config,
    name: str,
    harness: Harness,
    clock: FakeClock,
    *,
    delivery_wait: float = 0.0,
    lease_clock: Callable[[], float] = time.monotonic,
) -> Crewline:
    """crewline as replica ``name`` (its own data directory) on ``config``'s database;
    ``lease_clock``: the monotonic clock its leases' deadlines are judged by."""
    return Crewline(
        replace(config, data_dir=config.data_dir / name, replica_id=name),
        transports=[harness.transport()],
        clock=clock,
        outbox_poll_interval=0.2,
        delivery_wait=delivery_wait,
        concierge=False,
        lease_ttl=TTL,
        lease_clock=lease_clock,
    )


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    """Until ``check()`` holds, looking every few milliseconds (bounded by ``WAIT``)."""
    async with asyncio.timeout(WAIT):
        while True:
            if await check():
                return
            await asyncio.sleep(0.01)
