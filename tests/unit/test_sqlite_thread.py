"""The SQLite writer's thread: calls run there one at a time, in order, and each answer
(or what it raised) comes back to the loop that gave the call."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from crewline.store.sqlite import SqliteStore
from crewline.store.sqlite_thread import WriterThread
from tests.bounds import WAIT


async def test_calls_run_on_the_thread_in_the_order_given() -> None:
    thread = WriterThread("test-writer")
    ran: list[tuple[int, str]] = []

    def call(n: int) -> int:
        ran.append((n, threading.current_thread().name))
        return n * 2

    try:
        async with asyncio.timeout(WAIT):
            answers = await asyncio.gather(*[thread.run(call, n) for n in range(200)])
    finally:
        thread.stop()
    assert answers == [n * 2 for n in range(200)]
    assert ran == [(n, "test-writer") for n in range(200)]


async def test_calls_given_while_the_thread_answers_others_each_get_their_own_answer() -> None:
    """Fifty callers give a call each as soon as their last is answered, so the loop puts
    calls on the queue while the thread takes from it and answers: no answer is lost, none
    goes to another caller, each caller's calls run in its order."""
    thread = WriterThread("test-writer")
    ran: list[tuple[int, int]] = []

    def call(caller: int, k: int) -> tuple[int, int]:
        ran.append((caller, k))
        return caller, k

    async def caller(n: int) -> list[tuple[int, int]]:
        return [await thread.run(call, n, k) for k in range(20)]

    try:
        async with asyncio.timeout(WAIT):
            answers = await asyncio.gather(*[caller(n) for n in range(50)])
    finally:
        thread.stop()
    assert answers == [[(n, k) for k in range(20)] for n in range(50)]
    for n in range(50):
        assert [k for c, k in ran if c == n] == list(range(20))


async def test_what_a_call_raises_is_raised_to_its_caller_alone() -> None:
    thread = WriterThread("test-writer")

    def refuse() -> None:
        raise ValueError("refused")

    try:
        async with asyncio.timeout(WAIT):
            failed, after = await asyncio.gather(
                thread.run(refuse), thread.run(lambda: "ran"), return_exceptions=True
            )
    finally:
        thread.stop()
    assert isinstance(failed, ValueError)
    assert after == "ran"


async def test_a_cancelled_call_still_runs_and_its_answer_is_dropped() -> None:
    """A COMMIT handed over runs to its end even when its waiter is cancelled (closing)."""
    thread = WriterThread("test-writer")
    release = threading.Event()
    ran: list[str] = []

    def held() -> str:
        release.wait(WAIT)
        ran.append("held")
        return "held"

    try:
        cancelled = thread.run(held)
        cancelled.cancel()
        release.set()
        async with asyncio.timeout(WAIT):
            assert await thread.run(lambda: "next") == "next"
    finally:
        thread.stop()
    assert ran == ["held"]
    assert cancelled.cancelled()


async def test_stop_runs_what_was_given_first() -> None:
    thread = WriterThread("test-writer")
    ran: list[int] = []
    for n in range(5):
        thread.run(ran.append, n)
    thread.stop()
    assert ran == [0, 1, 2, 3, 4]


async def test_the_store_commits_on_its_writer_thread(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "crewline.db") as store:
        assert store._writer is not None and store._writer_thread is not None
        its_thread = store._writer_thread._thread
        committed_on: list[threading.Thread] = []

        def traced(statement: str) -> None:
            if statement == "COMMIT":
                committed_on.append(threading.current_thread())

        store._writer.set_trace_callback(traced)
        await asyncio.gather(
            *[store.write(lambda tx, n=n: tx.set_setting(f"k{n}", "v")) for n in range(20)]
        )
        store._writer.set_trace_callback(None)
        assert await store.setting("k19") == "v"
    assert committed_on and all(thread is its_thread for thread in committed_on)
    assert not its_thread.is_alive()  # closing the store ends its thread
