"""The memory transport's waits for a delivery: each delivery looks at the waiting conditions
and ends only the waits whose condition holds; a wait for one post, by its key, is ended by
that post alone."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from crewline.models import OutboundMessage
from crewline.transports.memory import MemoryTransport

MESSAGE = OutboundMessage(author="Radar", text="Ship?")


async def _waiting(task: asyncio.Task[None]) -> None:
    """Let ``task`` run until it waits (its condition did not hold when it started)."""
    for _ in range(10):
        await asyncio.sleep(0)
    assert not task.done()


async def test_a_delivery_ends_only_the_waits_whose_condition_holds() -> None:
    """A post looks at each waiting condition as it lands and ends the wait for its own
    message; a wait for another goes on, its task not woken."""
    transport = MemoryTransport()
    looks: Counter[str] = Counter()

    def posted(key: str) -> bool:
        looks[key] += 1
        return transport.message_for(key) is not None

    first = asyncio.create_task(transport.wait_until(lambda: posted("row:1")))
    second = asyncio.create_task(transport.wait_until(lambda: posted("row:2")))
    await _waiting(first)
    await _waiting(second)
    assert looks == {"row:1": 1, "row:2": 1}

    await transport.post("thread", MESSAGE, key="row:1", retry=False)
    assert looks == {"row:1": 2, "row:2": 2}  # looked at by the post itself: no task woken
    await asyncio.wait_for(first, timeout=5)
    await _waiting(second)
    assert looks == {"row:1": 2, "row:2": 2}

    await transport.post("thread", MESSAGE, key="row:2", retry=False)
    await asyncio.wait_for(second, timeout=5)
    assert looks == {"row:1": 2, "row:2": 3}


async def test_a_condition_that_raises_ends_its_wait_with_the_error() -> None:
    """What a condition raises when a delivery checks it is raised by the wait."""
    transport = MemoryTransport()
    broken: list[bool] = []

    def check() -> bool:
        if broken:
            raise LookupError("no such card")
        return False

    waiting = asyncio.create_task(transport.wait_until(check))
    await _waiting(waiting)
    broken.append(True)
    await transport.post("thread", MESSAGE, key="row:1", retry=False)
    with pytest.raises(LookupError, match="no such card"):
        await asyncio.wait_for(waiting, timeout=5)


async def test_a_wait_that_times_out_leaves_nothing_behind() -> None:
    """A wait that ends by its timeout raises TimeoutError, and a later delivery does not
    look at its condition again."""
    transport = MemoryTransport()
    looks: list[int] = []

    def never() -> bool:
        looks.append(1)
        return False

    with pytest.raises(TimeoutError):
        await transport.wait_until(never, timeout=0)
    assert looks == [1]
    await transport.post("thread", MESSAGE, key="row:1", retry=False)
    assert looks == [1]


async def test_a_post_ends_the_waits_for_its_key_alone() -> None:
    """``wait_for_post`` gives the message posted for its key; another key's post leaves it
    waiting, and a post already made answers at once."""
    transport = MemoryTransport()
    first = asyncio.create_task(transport.wait_for_post("row:1"))
    await _waiting(first)

    await transport.post("thread", MESSAGE, key="row:2", retry=False)
    await _waiting(first)
    ref = await transport.post("thread", MESSAGE, key="row:1", retry=False)
    shown = await asyncio.wait_for(first, timeout=5)
    assert shown.ref == ref and shown.key == "row:1"
    assert (await transport.wait_for_post("row:2", timeout=0)).key == "row:2"


async def test_a_wait_for_a_post_that_times_out_leaves_nothing_behind() -> None:
    """A wait that ends by its timeout raises TimeoutError; the key's later post finds no
    waiter of it, and a new wait still gets the message."""
    transport = MemoryTransport()
    with pytest.raises(TimeoutError):
        await transport.wait_for_post("row:1", timeout=0)
    assert transport._post_waiters == {}
    await transport.post("thread", MESSAGE, key="row:1", retry=False)
    assert (await transport.wait_for_post("row:1", timeout=0)).key == "row:1"


async def test_a_wait_for_a_post_that_times_out_leaves_the_others_for_its_key_waiting() -> None:
    """Two waits for one key: the one that times out goes, the other is ended by the post."""
    transport = MemoryTransport()
    patient = asyncio.create_task(transport.wait_for_post("row:1"))
    await _waiting(patient)
    with pytest.raises(TimeoutError):
        await transport.wait_for_post("row:1", timeout=0)
    await _waiting(patient)
    await transport.post("thread", MESSAGE, key="row:1", retry=False)
    assert (await asyncio.wait_for(patient, timeout=5)).key == "row:1"
    assert transport._post_waiters == {}
