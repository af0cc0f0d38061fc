"""The SQLite writer's own thread: where what may wait on the writer's connection runs.

``COMMIT`` waits for the disk (an fsync at ``synchronous = FULL``), ``BEGIN IMMEDIATE``
for another process's write lock, a heavy batch for seconds of work: none of it may run on
the event loop. A ``ThreadPoolExecutor`` did this at first, and its hand-off cost the loop
more than the calls it handed over needed: each ``submit`` takes two locks and a
semaphore's condition (which the worker takes too as it finishes), and each answer passes
through a ``concurrent.futures.Future`` (another lock) on its way to a second future on
the loop. Here the loop puts a call on a ``SimpleQueue`` (no Python lock) and the thread
answers it with one ``call_soon_threadsafe``: about a third of the loop's CPU per
hand-off, and the thread runs as little Python, so holds the GIL as briefly, as it can
(docs/performance.md, "The writer's hand-off and the look-ups after a commit").
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["WriterThread"]

T = TypeVar("T")
_Call = tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]


class WriterThread:
    """One thread running calls one at a time, in the order given; each call's answer is
    set on the loop that gave it."""

    def __init__(self, name: str) -> None:
        self._loop = asyncio.get_running_loop()
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        # A daemon: an interpreter that exits with a store left open is not held up by it.
        # A COMMIT cut short that way is one nobody was told of (SQLite rolls it back).
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def run(self, call: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``call(*args)`` on the thread, after every call given before it. Cancelling the
        future does not stop the call: it runs, and its answer is dropped."""
        future: asyncio.Future[T] = self._loop.create_future()
        self._calls.put((future, call, args))
        return future

    def stop(self) -> None:
        """End the thread once the calls given so far have run."""
        self._calls.put(None)
        self._thread.join()

    def _run(self) -> None:
        while (given := self._calls.get()) is not None:
            future, call, args = given
            try:
                outcome: tuple[bool, Any] = (True, call(*args))
            except BaseException as error:  # handed to the caller, as an executor would
                outcome = (False, error)
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                self._loop.call_soon_threadsafe(_answer, future, outcome)


def _answer(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.cancelled():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
