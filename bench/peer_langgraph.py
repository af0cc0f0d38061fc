"""Peer, side by side: one decision round trip on LangGraph and on crewline.

The workload, the same on both: an agent raises a decision (a question with two options);
a human answers it; the agent resumes with the answer. ``agents`` agents do it
concurrently, each ``decisions / agents`` times in a row. Both keep their state durably in
SQLite in WAL mode with ``synchronous=FULL``, in one process, on the same disk.

- LangGraph: a one-node graph whose node calls ``interrupt()``, compiled with
  ``langgraph-checkpoint-sqlite``'s ``AsyncSqliteSaver`` (the async saver: the agents run
  concurrently on one event loop). Raise: ``ainvoke(input)`` until it returns the
  interrupt; answer and resume: ``ainvoke(Command(resume=answer))`` until the graph ends.
- crewline (in-process, no HTTP — LangGraph has none either): ``Escalations.escalate``; the card
  goes out through the memory transport's outbox; the human presses its first button;
  the agent reads ``escalation_answered`` with ``Messages.events`` (the call behind
  ``GET /api/session/events``).

crewline does more per decision (a transcript row, an index record, a card, a bell and
the roster through the outbox, a button press judged with owner check and dedupe, an
event stream); the figures say what that costs next to a checkpointer. The ratio is
crewline / LangGraph, whichever way it goes. Needs the ``peer`` extra; without LangGraph
the result file says so and holds no figure, except at the smoke size, which runs
crewline's side alone (the test suite does not install the extra).
"""

from __future__ import annotations

import asyncio
import importlib.util
import time
from pathlib import Path
from typing import Any, TypedDict

from bench.common import (
    Options,
    Target,
    figure,
    parse_options,
    percentile,
    scratch,
    write_result,
)
from bench.serving import add_members, serving
from crewline.bot.escalations import EscalationRequest
from crewline.transports.memory import MemoryTransport

NAME = "peer_langgraph"
QUESTION = "Deploy the hotfix to production now?"
OPTIONS = ("yes", "no")


class DecisionState(TypedDict, total=False):
    question: str
    answer: str


def _ask(state: DecisionState) -> DecisionState:
    from langgraph.types import interrupt

    answer = interrupt({"question": state["question"], "options": list(OPTIONS)})
    return {"answer": str(answer)}


async def langgraph_round(path: Path, *, agents: int, each: int) -> dict[str, Any]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import Command

    latencies: list[float] = []
    commits = 0

    def traced(statement: str) -> None:
        nonlocal commits
        commits += statement.lstrip().upper().startswith(("COMMIT", "END"))

    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        await saver.conn.set_trace_callback(traced)  # its commits: each an fsync (WAL, FULL)
        graph = StateGraph(DecisionState)
        graph.add_node("ask", _ask)
        graph.add_edge(START, "ask")
        graph.add_edge("ask", END)
        app = graph.compile(checkpointer=saver)

        async def agent(n: int) -> None:
            for k in range(each):
                config: Any = {"configurable": {"thread_id": f"agent-{n}-{k}"}}
                started = time.perf_counter()
                raised = await app.ainvoke({"question": QUESTION}, config)
                assert "__interrupt__" in raised, "the graph did not stop at interrupt()"
                done = await app.ainvoke(Command(resume=OPTIONS[0]), config)
                assert done["answer"] == OPTIONS[0]
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        cpu_before = time.process_time()
        loop_cpu_before = time.thread_time()  # this coroutine runs on the loop's thread
        commits_before = commits
        await asyncio.gather(*[agent(n) for n in range(agents)])
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_before
        loop_cpu = time.thread_time() - loop_cpu_before
        committed = commits - commits_before
        pragma = list(await (await saver.conn.execute("PRAGMA synchronous")).fetchall())
        journal = list(await (await saver.conn.execute("PRAGMA journal_mode")).fetchall())
    return {
        "per_s": len(latencies) / elapsed,
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "commits": committed / len(latencies),
        "cpu": cpu / len(latencies),
        "loop_cpu": loop_cpu / len(latencies),
        "sqlite": {"synchronous": pragma[0][0], "journal_mode": journal[0][0]},
    }


async def crewline_round(directory: Path, *, agents: int, each: int) -> dict[str, Any]:
    transport = MemoryTransport("memory")
    latencies: list[float] = []
    async with serving(directory, transports=[transport]) as crewline:
        bot = crewline.bot
        created = await add_members(crewline.store, agents, prefix="agent", transports=["memory"])

        async def human(row_id: str) -> None:
            shown = await transport.wait_for_post(f"row:{row_id}", timeout=60)
            await transport.press("alice", shown.ref, 0)

        async def agent(session: Any) -> None:
            cursor = 0
            for _ in range(each):
                started = time.perf_counter()
                receipt = await bot.escalations.escalate(
                    session, EscalationRequest(message=QUESTION, options=OPTIONS)
                )
                pressing = asyncio.create_task(human(receipt.escalation.row_id))
                answered = False
                while not answered:
                    for event in await bot.messages.events(session, after=cursor, wait=30):
                        cursor = event.cursor
                        answered = answered or (
                            event.kind == "escalation_answered"
                            and event.body["escalation_id"] == receipt.escalation.id
                        )
                latencies.append(time.perf_counter() - started)
                await pressing

        store: Any = crewline.store  # SqliteStore: its group commits, each an fsync
        commits_before = store.batches_committed
        started = time.perf_counter()
        cpu_before = time.process_time()
        loop_cpu_before = time.thread_time()  # this coroutine runs on the loop's thread
        await asyncio.gather(*[agent(c.session) for c in created])
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_before
        loop_cpu = time.thread_time() - loop_cpu_before
        committed = store.batches_committed - commits_before
    return {
        "per_s": len(latencies) / elapsed,
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "commits": committed / len(latencies),
        "cpu": cpu / len(latencies),
        "loop_cpu": loop_cpu / len(latencies),
    }


def langgraph_version() -> str | None:
    if importlib.util.find_spec("langgraph") is None:
        return None
    if importlib.util.find_spec("langgraph.checkpoint.sqlite") is None:
        return None
    from importlib.metadata import version

    return f"langgraph {version('langgraph')}, langgraph-checkpoint-sqlite" + (
        f" {version('langgraph-checkpoint-sqlite')}"
    )


async def main(options: Options) -> None:
    started = time.perf_counter()
    peer = langgraph_version()
    shapes = [
        (1, options.size(40, 200, smoke=4)),
        (options.size(20, 50, smoke=2), options.size(200, 2000, smoke=8)),
    ]
    sizes = {"workloads": [{"agents": a, "decisions": d} for a, d in shapes], "peer": peer}
    # Without LangGraph a smoke run still runs crewline's side (the test suite does not
    # install the peer extra); a measured run without its baseline would mean nothing.
    if peer is None and not options.smoke:
        write_result(
            options,
            title="Peer: LangGraph interrupt/resume vs crewline",
            sizes=sizes,
            figures=[],
            started=started,
            skipped=(
                "LangGraph is not installed: pip install 'crewline[peer]' (langgraph,"
                " langgraph-checkpoint-sqlite) to measure it."
            ),
        )
        return
    figures: list[dict[str, Any]] = []
    sqlite_settings: dict[str, Any] = {}
    for agents, decisions in shapes:
        each = decisions // agents
        ours: list[dict[str, Any]] = []
        theirs: list[dict[str, Any]] = []
        for run in range(options.runs):
            with scratch(options, "peer") as directory:
                # Alternate who goes first, so a drift in the machine's load is shared.
                if run % 2:
                    ours.append(await crewline_round(directory / "cl", agents=agents, each=each))
                if peer is not None:
                    lg = directory / "lg.db"
                    theirs.append(await langgraph_round(lg, agents=agents, each=each))
                if not run % 2:
                    ours.append(await crewline_round(directory / "cl", agents=agents, each=each))
        sqlite_settings = theirs[-1]["sqlite"] if theirs else {}

        def peers(key: str, scale: float = 1.0) -> list[float] | None:
            return [r[key] * scale for r in theirs] if theirs else None  # noqa: B023

        label = f"{agents} agent{'s' if agents > 1 else ''}"
        figures += [
            figure(
                f"agents{agents}.decisions_per_s",
                f"crewline decisions/s, {label}",
                "decisions/s",
                [r["per_s"] for r in ours],
                higher_is_better=True,
                baseline=peers("per_s"),
                baseline_label=f"LangGraph interrupt/resume decisions/s, {label}",
                # issue 29: ten times the peer with many agents, three times with one
                target=Target(kind="ratio_at_least", value=10.0 if agents > 1 else 3.0),
            ),
            figure(
                f"agents{agents}.p50_ms",
                f"crewline decision round trip p50, {label}",
                "ms",
                [r["p50"] * 1000 for r in ours],
                higher_is_better=False,
                baseline=peers("p50", 1000),
                baseline_label=f"LangGraph round trip p50, {label}",
            ),
            figure(
                f"agents{agents}.p99_ms",
                f"crewline decision round trip p99, {label}",
                "ms",
                [r["p99"] * 1000 for r in ours],
                higher_is_better=False,
                baseline=peers("p99", 1000),
                baseline_label=f"LangGraph round trip p99, {label}",
                target=Target(kind="ratio_at_most", value=0.2) if agents > 1 else None,
            ),
            figure(
                f"agents{agents}.commits_per_decision",
                f"crewline commits per decision, {label}",
                "commits",
                [r["commits"] for r in ours],
                higher_is_better=False,
                baseline=peers("commits"),
                baseline_label=f"LangGraph commits per decision, {label}",
                note=(
                    "Counted, not timed (the same under any load): crewline's group commits"
                    " (SqliteStore.batches_committed), LangGraph's COMMIT statements; each is"
                    " an fsync of the WAL at synchronous=FULL."
                ),
            ),
            figure(
                f"agents{agents}.cpu_us_per_decision",
                f"crewline CPU per decision, {label}",
                "us",
                [r["cpu"] * 1e6 for r in ours],
                higher_is_better=False,
                baseline=peers("cpu", 1e6),
                baseline_label=f"LangGraph CPU per decision, {label}",
                note=(
                    "The process's CPU (every thread, user and system) over the agents'"
                    " decisions alone, per decision: what a decision costs, which a loaded"
                    " machine moves far less than a rate. crewline's includes its idle"
                    " server's timers."
                ),
            ),
            figure(
                f"agents{agents}.loop_cpu_us_per_decision",
                f"crewline event loop's CPU per decision, {label}",
                "us",
                [r["loop_cpu"] * 1e6 for r in ours],
                higher_is_better=False,
                baseline=peers("loop_cpu", 1e6),
                baseline_label=f"LangGraph event loop's CPU per decision, {label}",
                note=(
                    "The event loop's thread alone (time.thread_time), over the agents'"
                    " decisions, per decision: with many agents the loop is what a decision"
                    " waits for, so this bounds the rate. crewline's loop runs its"
                    " transactions and look-ups (its COMMITs and scans on threads of their"
                    " own); LangGraph's runs the graph, its SQL on aiosqlite's thread."
                ),
            ),
        ]
    write_result(
        options,
        title="Peer: LangGraph interrupt/resume vs crewline, side by side",
        sizes={**sizes, "langgraph_sqlite": sqlite_settings},
        baseline=(
            f"{peer}: a one-node graph calling interrupt(), resumed with"
            " Command(resume=...), on AsyncSqliteSaver (a file in the same directory, WAL;"
            " its synchronous setting is recorded in sizes), same process, same run."
        ),
        figures=figures,
        started=started,
        notes=[
            *(
                ["LangGraph is not installed: crewline's side alone (a smoke run)."]
                if not peer
                else []
            ),
            "Ratios are crewline / LangGraph: above 1 means crewline is faster for decisions/s"
            " and slower for latencies.",
            "crewline's round trip includes delivering the card to the human (the outbox) and"
            " judging the press; LangGraph's human is the code that calls resume.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME)))
