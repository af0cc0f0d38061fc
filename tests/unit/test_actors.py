"""Member actors: one job at a time per key, in submission order; an idle actor ends, unless
its last job was an agent's call: then it waits for the next until two sweeps found it idle."""

from __future__ import annotations

import asyncio

from crewline.bot.actors import MemberActors
from tests.bounds import WAIT


async def _job() -> int:
    """A job whose work is beside the point: it gives 1."""
    return 1


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

    assert await actors.run("radar", _job) == 1  # the actor left as its queue ran dry
    assert actors._tasks == {} and actors._queues == {}
    assert await actors.run("radar", _job) == 1  # a new actor takes it
    await actors.aclose()


async def test_an_actor_waits_only_when_its_last_job_asked_to() -> None:
    actors = MemberActors()

    await actors.run("radar", _job, linger=True)
    waiting = actors._tasks["radar"]
    await actors.run("radar", _job)  # not an agent's call: it ends after this one
    assert waiting.done() and actors._tasks == {}
    await actors.run("radar", _job, linger=True)
    await actors.aclose()


async def test_with_no_linger_an_agents_call_ends_its_actor_too() -> None:
    actors = MemberActors(linger=0)

    assert await actors.run("radar", _job, linger=True) == 1
    assert actors._tasks == {} and actors._queues == {}
    await actors.aclose()


async def test_an_idle_actor_takes_the_next_job_until_two_sweeps_found_it_idle() -> None:
    actors = MemberActors()

    assert await actors.run("radar", _job, linger=True) == 1
    lingering = actors._tasks["radar"]
    assert await actors.run("radar", _job, linger=True) == 1
    assert actors._tasks["radar"] is lingering  # woken, not started anew
    actors.sweep()  # the first sweep only notes it idle
    await asyncio.sleep(0)
    assert not lingering.done()
    actors.sweep()  # idle since the last one: it ends
    await asyncio.wait_for(lingering, WAIT)
    assert actors._tasks == {} and actors._queues == {}
    assert await actors.run("radar", _job, linger=True) == 1  # a new actor takes the next job
    assert actors._tasks["radar"] is not lingering
    await actors.aclose()


async def test_beyond_the_most_that_may_wait_an_idle_actor_ends_at_once() -> None:
    actors = MemberActors(max_idle=1)

    await actors.run("radar", _job, linger=True)
    await actors.run("probe", _job, linger=True)
    assert set(actors._tasks) == {"radar"}  # the first waits; the second found no room
    await actors.aclose()


async def test_an_actor_that_worked_between_two_sweeps_is_not_ended() -> None:
    actors = MemberActors()

    await actors.run("radar", _job, linger=True)
    lingering = actors._tasks["radar"]
    actors.sweep()
    await actors.run("radar", _job, linger=True)  # idle again since, but not since the last sweep
    actors.sweep()
    await asyncio.sleep(0)
    assert not lingering.done()
    await actors.aclose()


async def test_a_job_that_comes_as_a_sweep_ends_the_actor_still_runs() -> None:
    actors = MemberActors()

    await actors.run("radar", _job, linger=True)
    lingering = actors._tasks["radar"]
    actors.sweep()
    actors.sweep()  # the actor is told to end, and has not run since
    assert await asyncio.wait_for(actors.submit("radar", _job, linger=True), WAIT) == 1
    assert actors._tasks["radar"] is lingering  # it found the _job, and went on serving
    await actors.aclose()


async def test_a_job_runs_to_completion_when_its_caller_stops_waiting() -> None:
    actors = MemberActors()
    started, release = asyncio.Event(), asyncio.Event()
    ran: list[str] = []

    async def job() -> int:
        started.set()
        await release.wait()
        ran.append("done")
        return 1

    caller = asyncio.create_task(actors.run("radar", job))
    await asyncio.wait_for(started.wait(), WAIT)
    caller.cancel()
    await asyncio.gather(caller, return_exceptions=True)
    assert caller.cancelled()
    release.set()

    async def after() -> int:
        return 2

    assert await asyncio.wait_for(actors.run("radar", after), WAIT) == 2  # queued behind it
    assert ran == ["done"]
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
