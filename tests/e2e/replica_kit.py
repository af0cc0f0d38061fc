"""What the lease tests share: a short lease, its bound, a replica of crewline that runs
one harness's transport under it, an event loop of its own that the test can freeze, and a
bounded wait for a condition."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any, TypeVar

from crewline.app.server import Crewline
from crewline.config import Config
from crewline.testing import FakeClock
from tests.harness import Harness

__all__ = ["BOUND", "TTL", "WAIT", "OwnLoop", "StallClock", "replica", "until"]

T = TypeVar("T")

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


class StallClock:
    """A replica's monotonic clock that the test moves on at once, as a replica whose event
    loop stalled finds it moved on when it runs again."""

    def __init__(self) -> None:
        self.stalled = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.stalled


class OwnLoop:
    """An event loop on a thread of its own, for a replica the test freezes as a process
    freezes (a stop signal, a paused virtual machine): every task of it at once, its
    monotonic clock going on meanwhile, its sockets left open; thawed, each task goes on
    where it stopped, in whatever order they become ready."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="own-loop")
        self._frozen = threading.Event()
        self._thawed = threading.Event()

    async def __aenter__(self) -> OwnLoop:
        self._thread.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.thaw()
        await self.run(self.loop.shutdown_asyncgens())
        self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self._thread.join, WAIT)
        self.loop.close()

    async def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """``coroutine`` run on this loop, awaited from the caller's."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, self.loop))

    @contextlib.asynccontextmanager
    async def entered(self, manager: contextlib.AbstractAsyncContextManager[T]) -> AsyncIterator[T]:
        """``manager`` entered and left on this loop (thawed first, should a test fail
        while it is frozen)."""
        entered = await self.run(manager.__aenter__())
        try:
            yield entered
        finally:
            self.thaw()
            await self.run(manager.__aexit__(None, None, None))

    async def freeze(self) -> None:
        """Stop the loop between two of its callbacks; return once it stopped."""
        self._frozen.clear()
        self._thawed.clear()
        self.loop.call_soon_threadsafe(self._stall)
        assert await asyncio.to_thread(self._frozen.wait, WAIT), "the loop did not freeze"

    def thaw(self) -> None:
        self._thawed.set()

    def _stall(self) -> None:
        self._frozen.set()
        self._thawed.wait()
