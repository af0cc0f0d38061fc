"""Where the server loop's CPU goes per escalation: ``bench.api_escalate``'s load, its loop
CPU split by the tasks that spent it.

Subject: ``bench.api_escalate``'s run on SQLite (50 agents back to back, the concierge under
``never``), its escalation phase: from the first request to the last card delivered. Every
step of the named tasks' coroutines (from a resumption to its next suspension) is timed with
the loop thread's CPU clock (``time.thread_time_ns``): a step's work is its task's, with all
it calls without suspending (the store's look-ups run on the loop, synchronously). The
transaction functions the writer runs are timed by themselves too, each named by the
feature whose change it is, and a few parts of the outbox's lanes by themselves (within
their lanes' figure). What no named task ran is the rest: uvicorn's parsing, the app and
the verb's own steps in each request's task, the event loop's own work.

Baseline: ``/healthz``'s loop CPU per request in the same run, as ``bench.api_escalate``
measures it (the escalation's total, against it, is that benchmark's target ratio).

Every figure is microseconds of the loop thread's CPU per escalation. The timing adds two
clock reads to every step it times; a part's figure is its share of the same run, so read
the parts against the total of the same run, not against another benchmark's figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterator
from typing import Any
from unittest import mock

from bench import api_escalate
from bench.common import Options, figure, parse_options, write_result
from crewline.bot.actors import MemberActors
from crewline.bot.concierge.feature import Concierge
from crewline.bot.domain import DomainEvents
from crewline.bot.hub import Hub
from crewline.bot.render import CoreRenderer
from crewline.store.sql.outbox import SqlOutboxReads
from crewline.store.sqlite import SqliteStore
from crewline.transports.outbox import OutboxDispatcher

NAME = "loop_parts"
TOTAL = "total"
REST = "rest"
# The tasks whose steps are timed, each a part; what they run is not in the rest.
TASKS = (
    (OutboxDispatcher, "_drain_lane", "outbox_lanes", "the outbox's lanes (one task each)"),
    (SqliteStore, "_write_loop", "writer", "the writer (group commits, their transactions)"),
    (MemberActors, "_serve", "actors", "the member actors (a change's hop, after-commit)"),
    (Concierge, "_judge_waiting", "concierge", "the concierge's judging"),
    (DomainEvents, "_deliver", "domain_events", "the domain events' subscribers"),
)
# Within a task above: counted in its part too.
WITHIN = (
    (SqlOutboxReads, "outbox_head", "head_reads", "of the lanes: their heads' look-ups"),
    (SqlOutboxReads, "post_context", "post_contexts", "of the lanes: a post's look-up"),
    (CoreRenderer, "message", "cards_drawn", "of the lanes: drawing cards"),
    (CoreRenderer, "bell", "bells_drawn", "of the lanes: drawing bells"),
)


class _Parts:
    """Loop CPU (ns) by part, counted while ``on``."""

    def __init__(self) -> None:
        self.ns: Counter[str] = Counter()
        self.on = False

    def add(self, part: str, started: int) -> None:
        if self.on:
            self.ns[part] += time.thread_time_ns() - started

    def stepped(self, part: str, coroutine: Coroutine[Any, Any, Any]) -> Awaitable[Any]:
        """``coroutine``, each of its steps timed into ``part``."""
        return _Stepped(self, part, coroutine)

    def timed(self, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time_ns()
            try:
                return function(*args, **kwargs)
            finally:
                self.add(part, started)

        return run


class _Stepped:
    def __init__(self, parts: _Parts, part: str, coroutine: Coroutine[Any, Any, Any]) -> None:
        self.parts, self.part, self.coroutine = parts, part, coroutine

    def __await__(self) -> Generator[Any, Any, Any]:
        sent: Any = None
        thrown: BaseException | None = None
        while True:
            started = time.thread_time_ns()
            try:
                if thrown is None:
                    yielded = self.coroutine.send(sent)
                else:
                    yielded = self.coroutine.throw(thrown)
            except StopIteration as done:
                return done.value
            finally:
                self.parts.add(self.part, started)
            try:
                sent, thrown = (yield yielded), None
            except BaseException as error:  # cancelled, or thrown in: its coroutine's to meet
                sent, thrown = None, error


def _feature(transaction: Callable[..., Any]) -> str:
    """The feature whose change ``transaction`` is: ``crewline.bot.<feature>.…``."""
    module = getattr(transaction, "__module__", "") or ""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["crewline", "bot"] and len(parts) > 2 else module


@contextlib.contextmanager
def _instrumented(parts: _Parts) -> Iterator[None]:
    with contextlib.ExitStack() as patches:
        for owner, name, part, _ in TASKS + WITHIN:
            method = getattr(owner, name)

            def step_timed(
                *args: Any, _method: Any = method, _part: str = part, **kwargs: Any
            ) -> Coroutine[Any, Any, Any]:
                async def run() -> Any:
                    return await parts.stepped(_part, _method(*args, **kwargs))

                return run()

            patches.enter_context(mock.patch.object(owner, name, step_timed))
        change, write = Hub.change, OutboxDispatcher._write

        async def timed_change(hub: Hub, transaction: Any, **kwargs: Any) -> Any:
            part = f"tx_{_feature(transaction)}"
            return await change(hub, parts.timed(part, transaction), **kwargs)

        async def timed_write(dispatcher: OutboxDispatcher, transaction: Any, **kwargs: Any) -> Any:
            return await write(
                dispatcher, parts.timed("tx_outbox", transaction), **kwargs
            )  # settles

        patches.enter_context(mock.patch.object(Hub, "change", timed_change))
        patches.enter_context(mock.patch.object(OutboxDispatcher, "_write", timed_write))
        yield


async def one_run(options: Options, per_agent: int, health_per_agent: int) -> dict[str, float]:
    parts = _Parts()

    @contextlib.contextmanager
    def escalating() -> Iterator[None]:
        parts.on = True
        started = time.thread_time_ns()
        try:
            yield
        finally:
            parts.on = False
            parts.ns[TOTAL] = time.thread_time_ns() - started

    with _instrumented(parts):
        run = await api_escalate.one_run(
            options, per_agent, health_per_agent, during_escalations=escalating
        )
    escalations = api_escalate.AGENTS * per_agent
    result = {part: ns / 1000 / escalations for part, ns in parts.ns.items()}
    tasks = sum(result.get(part, 0.0) for _, _, part, _ in TASKS)
    result[REST] = result[TOTAL] - tasks
    result["healthz_cpu_us"] = run["healthz_cpu_us"]
    return result


async def main(options: Options) -> None:
    started = time.perf_counter()
    per_agent = options.size(30, 100, smoke=2)
    health_per_agent = options.size(40, 200, smoke=2)
    runs = [await one_run(options, per_agent, health_per_agent) for _ in range(options.runs)]
    healthz = [run["healthz_cpu_us"] for run in runs]
    labels = [
        (TOTAL, "loop CPU per escalation, from its request to its delivered cards"),
        *[(part, label) for _, _, part, label in TASKS],
        (REST, "the rest: HTTP, the verb's steps in the request's task, the event loop"),
        *[(part, label) for _, _, part, label in WITHIN],
    ]
    features = sorted({part for run in runs for part in run if part.startswith("tx_")})
    labels += [(part, f"of the writer: the changes of {part[3:]}") for part in features]
    figures = [
        figure(
            part,
            label,
            "us",
            [run.get(part, 0.0) for run in runs],
            higher_is_better=False,
            baseline=healthz,
            baseline_label="loop CPU per GET /healthz, same server",
        )
        for part, label in labels
    ]
    write_result(
        options,
        title="The server loop's CPU per escalation, by the tasks that spent it",
        sizes={
            "agents": api_escalate.AGENTS,
            "escalations_per_agent": per_agent,
            "escalations": api_escalate.AGENTS * per_agent,
        },
        baseline="GET /healthz's loop CPU per request on the same server, same run.",
        figures=figures,
        started=started,
        notes=[
            "Each step of the named tasks timed with the loop thread's CPU clock; the"
            " 'of the lanes' and 'of the writer' figures are within their task's figure.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, runs_quick=3, runs_full=5)))
