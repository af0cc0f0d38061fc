"""One actor per member: that member's changes run one at a time, in arrival order.

This is what makes reply matching order-exact (SPEC §2 rule 6): a chip and the typed text
after it are judged against the state each found on arrival. Members run in parallel.

Across replicas the actor alone cannot serialise a member: ``Hub.change`` asks the store to
serialise the transaction on the key of the actor it runs on (``SERVING``), so a
change on another replica waits for this one's commit and reads what it wrote.

An actor lives while it has work: it ends when its queue runs dry and the next job starts a
new one. A crew of twenty thousand members would otherwise keep twenty thousand idle tasks
once each had been touched (at start, by reconciliation).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from crewline.tasks import cancel_and_wait

__all__ = ["SERVING", "MemberActors"]

log = logging.getLogger(__name__)
T = TypeVar("T")
_Job = tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]
# The key of the actor whose job is running here (None outside any actor).
SERVING: ContextVar[str | None] = ContextVar("crewline_actor", default=None)


class MemberActors:
    def __init__(self) -> None:
        self._queues: dict[str, deque[_Job]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}

    async def run(self, key: str, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job`` on ``key``'s actor after everything queued before it.

        If the caller stops waiting, the job still runs to completion: a change that was
        accepted is never half-done.
        """
        return await asyncio.shield(self.submit(key, job))

    def submit(self, key: str, job: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        """Queue ``job`` on ``key``'s actor now; the future holds its result."""
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
            self._tasks[key] = asyncio.create_task(self._serve(key, queue), name=f"actor-{key}")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        queue.append((job, future))
        return future

    async def _serve(self, key: str, queue: deque[_Job]) -> None:
        SERVING.set(key)  # this task's own context: its jobs, and the tasks they start
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
        # No await between the empty queue and leaving: a job submitted from now on finds
        # no actor and starts the next one.
        del self._queues[key], self._tasks[key]

    async def aclose(self) -> None:
        await cancel_and_wait(*self._tasks.values())
        self._tasks.clear()
        self._queues.clear()
