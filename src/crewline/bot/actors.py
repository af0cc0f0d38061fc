"""One actor per member: that member's changes run one at a time, in arrival order.

This is what makes reply matching order-exact (SPEC §2 rule 6): a chip and the typed text
after it are judged against the state each found on arrival. Members run in parallel.

Across replicas the actor alone cannot serialise a member: ``Hub.change`` asks the store to
serialise the transaction on the key of the actor it runs on (``SERVING``), so a
change on another replica waits for this one's commit and reads what it wrote.

An actor lives while it has work. One whose last job was an agent's call (``linger``)
waits a moment after for the next: an agent's next request usually comes within
milliseconds of its last answer, and waking a waiting actor costs the loop less than
starting a task. A sweep every ``linger`` seconds ends the actors that have waited since the
sweep before, and at most ``MAX_IDLE`` wait at once. Any other actor ends when its queue
runs dry (the next job starts a new one): a crew of twenty thousand members touched once at
start, by reconciliation, keeps no idle task.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from crewline.tasks import cancel_and_wait

__all__ = ["LINGER", "MAX_IDLE", "SERVING", "MemberActors"]

log = logging.getLogger(__name__)
T = TypeVar("T")
_Job = tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]
# The key of the actor whose job is running here (None outside any actor).
SERVING: ContextVar[str | None] = ContextVar("crewline_actor", default=None)
LINGER = 1.0  # seconds between sweeps: an idle actor ends after one to two of them
MAX_IDLE = 256  # actors waiting for work at once (a few hundred tasks: about a megabyte)


class MemberActors:
    def __init__(self, *, linger: float = LINGER, max_idle: int = MAX_IDLE) -> None:
        """``linger``: seconds between two sweeps of idle actors (0: an actor ends as soon
        as its queue runs dry); ``max_idle``: how many may wait for work at once."""
        self.linger = linger
        self.max_idle = max_idle
        self._queues: dict[str, deque[_Job]] = {}
        self._lingering: set[str] = set()  # actors whose last job asked them to wait after
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._idle: dict[str, asyncio.Future[None]] = {}  # key -> what wakes its actor
        self._seen_idle: dict[str, asyncio.Future[None]] = {}  # idle at the last sweep
        self._sweep: asyncio.TimerHandle | None = None

    async def run(self, key: str, job: Callable[[], Awaitable[T]], *, linger: bool = False) -> T:
        """Run ``job`` on ``key``'s actor after everything queued before it; ``linger``: an
        agent's call, whose next one is likely soon (the actor waits for it).

        If the caller stops waiting, the job still runs to completion: a change that was
        accepted is never half-done (the actor runs each job it took, whatever became of
        its future).
        """
        return await self.submit(key, job, linger=linger)

    def submit(
        self, key: str, job: Callable[[], Awaitable[T]], *, linger: bool = False
    ) -> asyncio.Future[T]:
        """Queue ``job`` on ``key``'s actor now; the future holds its result."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
            self._tasks[key] = asyncio.create_task(self._serve(key, queue), name=f"actor-{key}")
        queue.append((job, future))
        if linger:
            self._lingering.add(key)
        else:
            self._lingering.discard(key)
        wake = self._idle.pop(key, None)
        if wake is not None and not wake.done():
            wake.set_result(None)
        return future

    async def _serve(self, key: str, queue: deque[_Job]) -> None:
        SERVING.set(key)  # this task's own context: its jobs, and the tasks they start
        loop = asyncio.get_running_loop()
        while True:
            while queue:
                job, future = queue.popleft()
                try:
                    result = await job()
                except Exception as error:
                    if not future.done():
                        future.set_exception(error)
                else:
                    if not future.done():
                        future.set_result(result)
            if self.linger <= 0 or key not in self._lingering or len(self._idle) >= self.max_idle:
                break
            wake = self._idle[key] = loop.create_future()
            if self._sweep is None:
                self._sweep = loop.call_later(self.linger, self.sweep)
            await wake  # a job came (submit), or a sweep found this actor idle twice
            if not queue:
                break
        # No await between the empty queue and leaving: a job submitted from now on finds
        # no actor and starts the next one.
        self._idle.pop(key, None)
        self._lingering.discard(key)
        del self._queues[key], self._tasks[key]

    def sweep(self) -> None:
        """End the actors that were idle at the last sweep and still are (waited since)."""
        self._sweep = None
        for key, wake in self._seen_idle.items():
            if self._idle.get(key) is wake:
                del self._idle[key]
                wake.set_result(None)
        self._seen_idle = dict(self._idle)
        if self._idle:
            self._sweep = asyncio.get_running_loop().call_later(self.linger, self.sweep)

    async def aclose(self) -> None:
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None
        await cancel_and_wait(*self._tasks.values())
        self._tasks.clear()
        self._queues.clear()
        self._idle.clear()
        self._seen_idle.clear()
        self._lingering.clear()
