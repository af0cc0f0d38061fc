"""Member actors: one job at a time per key, in submission order; an idle actor ends."""

from __future__ import annotations

import asyncio

from crewline.bot.actors import MemberActors


async def test_jobs_of_one_key_run_one_at_a_time_in_order() -> None:
    actors = MemberActors()
    ran: list[str] = []
    gate = asyncio.Event()

    async def job(name: str) -> str:
        ran.append(f"{name} start")
        if name == "first":
            await gate.wait()  # the second job must not start meanwhile
        ran.append(f"{name} end")
        return name

    first = actors.submit("radar", lambda: job("first"))
    second = actors.submit("radar", lambda: job("second"))
    await asyncio.sleep(0)
    assert ran == ["first start"]
    gate.set()
    assert await asyncio.gather(first, second) == ["first", "second"]
    assert ran == ["first start", "first end", "second start", "second end"]
    await actors.aclose()


async def test_an_idle_actor_ends_and_the_next_job_starts_another() -> None:
    actors = MemberActors()

    async def job() -> int:
        return 1

    assert await actors.run("radar", job) == 1  # the actor left as its queue ran dry
    assert actors._tasks == {} and actors._queues == {}
    assert await actors.run("radar", job) == 1  # a new actor takes it
    await actors.aclose()


async def test_a_failing_job_fails_its_caller_only() -> None:
    actors = MemberActors()

    async def boom() -> int:
        raise ValueError("boom")

    async def fine() -> int:
        return 2

    failed = actors.submit("radar", boom)
    after = actors.submit("radar", fine)
    assert isinstance((await asyncio.gather(failed, return_exceptions=True))[0], ValueError)
    assert await after == 2
    await actors.aclose()
