"""Ending background tasks: every one cancelled, then awaited, None skipped."""

from __future__ import annotations

import asyncio

from crewline.tasks import cancel_and_wait
from tests.bounds import WAIT


async def test_cancel_and_wait_ends_every_task_before_it_returns() -> None:
    """Each running task is cancelled and has finished (its cleanup run) when it returns."""
    started = [asyncio.Event(), asyncio.Event()]
    cleaned: list[int] = []

    async def work(n: int) -> None:
        started[n].set()
        try:
            await asyncio.Event().wait()
        finally:
            await asyncio.sleep(0)  # cleanup that itself suspends must be waited for too
            cleaned.append(n)

    tasks = [asyncio.create_task(work(n)) for n in range(2)]
    async with asyncio.timeout(WAIT):
        for event in started:
            await event.wait()
    assert (cleaned, [t.done() for t in tasks]) == ([], [False, False])

    await cancel_and_wait(tasks[0], None, tasks[1])

    assert (sorted(cleaned), [t.cancelled() for t in tasks]) == ([0, 1], [True, True])


async def test_cancel_and_wait_with_nothing_started_does_nothing() -> None:
    """A resource left before it started a task (its task is still None) leaves quietly."""
    assert await cancel_and_wait(None) is None
    assert await cancel_and_wait() is None
