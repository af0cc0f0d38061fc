"""Fleet retrieval: how long the concierge takes to find other members' facts for a question.

``rows`` member rows spread over 100 members (chatter of 12 words, each one of the words the
questions use with a chance of 5 % and otherwise one of 20,000 others; and every 1,000th row
a finding such as "Scan done: staging answered on port 4321"), indexed by the concierge migration's
FTS5 table through its triggers as they are inserted. Subject:
``Concierge.facts(member, question)`` — the gate's ``search_terms``, the store's
``fleet_rows`` (the asker's own rows left out), and the ``Fact`` values — for a set of
questions, one at a time; figure: its p99 in ms.

Baseline (same run, same file): the store's own FTS5 query (the newest 500 matches, ranked,
the asker's rows left out, five kept) run raw on a ``sqlite3`` connection of its own,
fetched into tuples; its p99.
The target is p99 ≤ 20 ms at 1,000,000 rows. Wall time on a shared machine includes the
time a query waits for a core, so the same percentiles are also given in CPU time: the raw
query's own thread's (``time.thread_time``), and the subject's whole process's (the loop
and the store's reader thread; nothing else runs in the bench process meanwhile).

Also the concierge's cost on ``bench.api_escalate``'s load (50 agents escalating over HTTP):
escalations/s with the concierge judging every escalation under ``routine`` against the same
server with no concierge at all, measured in the same run (off then on, and on then off,
pair by pair), each server on a fresh database of its own: the member rows above are the
retrieval's, and this load's question needs no fleet fact. The target is ≥ 0.9x. Beside it,
the server's event-loop CPU per escalation (from its request until its cards are
delivered, the concierge's judging included), on against off: what the concierge costs the
loop that the HTTP path shares, whatever the machine's load. The load average before and
after is in the notes.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from bench.api_escalate import one_run
from bench.common import (
    Options,
    Target,
    figure,
    parse_options,
    percentile,
    scratch,
    write_result,
)
from crewline.bot import Hub
from crewline.bot.concierge import Concierge
from crewline.models import new_id
from crewline.policy.routine import search_terms
from crewline.store.sqlite import DIALECT, SqliteStore

NAME = "concierge"
MEMBERS = 100
QUESTIONS = (
    "Which port did the probe session find?",
    "What url did the deploy checker report for staging?",
    "Which commit did the reviewer approve?",
    "How many tests failed in the nightly run?",
    "Which branch holds the migration fix?",
    "What version of postgres does the inventory list?",
)
WORDS = (
    *("build", "test", "lint", "review", "merge", "branch", "cache", "queue", "worker"),
    *("latency", "retry", "schema", "index", "migration", "report", "nightly", "staging"),
    *("inventory", "dashboard", "alert", "metric", "endpoint", "port", "deploy", "run"),
)
VOCABULARY = 20_000  # other words, as pseudo-words: w0 … w19999
COMMON = 0.05  # the chance that a word of a row is one of WORDS (which questions use)


def seed(path: Path, rows: int) -> None:
    """``rows`` member rows over MEMBERS members, through the triggers that index them."""
    rng = random.Random(7)
    now = time.time()
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.executemany(
            "INSERT INTO conversations (key, generation, next_seq) VALUES (?, 1, ?)",
            [(f"m{n}", rows + 1) for n in range(MEMBERS)],
        )

        def generated() -> Any:
            for seq in range(rows):
                member = f"m{seq % MEMBERS}"
                if seq % 1000 == 0:
                    text = f"Scan done: staging answered on port {4000 + seq % 997}, not 8080."
                else:
                    text = " ".join(
                        rng.choice(WORDS)
                        if rng.random() < COMMON
                        else f"w{rng.randrange(VOCABULARY)}"
                        for _ in range(12)
                    )
                yield (new_id(), member, seq, "member", member, text, now)

        conn.executemany(
            "INSERT INTO rows (id, conversation, seq, generation, role, author, text, meta,"
            " created_at) VALUES (?, ?, ?, 1, ?, ?, ?, '{}', ?)",
            generated(),
        )
        conn.commit()
    finally:
        conn.close()


def _raw(question: str) -> tuple[str, tuple[Any, ...]]:
    """The store's own search for ``question``'s terms, to run raw."""
    terms = list(search_terms(question))
    sql, params = DIALECT.fleet_search(terms, excluding="m0", limit=10, prefix=False)
    return DIALECT.text(sql), params


def raw_times(path: Path, rounds: int) -> tuple[list[float], list[float]]:
    """Wall and CPU (this thread's) ms of each raw query."""
    conn = sqlite3.connect(path)
    try:
        wall, cpu = [], []
        for n in range(rounds):
            question = QUESTIONS[n % len(QUESTIONS)]
            started, on_cpu = time.perf_counter(), time.thread_time()
            if search_terms(question):  # none sent for a question with no terms, as the concierge
                conn.execute(*_raw(question)).fetchall()
            cpu.append((time.thread_time() - on_cpu) * 1000)
            wall.append((time.perf_counter() - started) * 1000)
    finally:
        conn.close()
    return wall, cpu


async def facts_times(path: Path, rounds: int) -> tuple[list[float], list[float]]:
    """Wall and CPU (the process's: the loop and the reader thread) ms of each retrieval."""
    async with SqliteStore(path) as store:
        hub = Hub(store, transports=[])
        concierge = Concierge(hub)
        wall, cpu = [], []
        for n in range(rounds):
            question = QUESTIONS[n % len(QUESTIONS)]
            started, on_cpu = time.perf_counter(), time.process_time()
            await concierge.facts("m0", question)
            cpu.append((time.process_time() - on_cpu) * 1000)
            wall.append((time.perf_counter() - started) * 1000)
        await hub.domain.aclose()
    return wall, cpu


def _load() -> str:
    return "/".join(f"{n:.1f}" for n in os.getloadavg())


async def main(options: Options) -> None:
    started = time.perf_counter()
    rows = options.size(100_000, 1_000_000, smoke=2_000)
    rounds = options.size(200, 1000, smoke=10)
    subject: list[float] = []
    baseline: list[float] = []
    subject_p50: list[float] = []
    baseline_p50: list[float] = []
    cpu: dict[str, list[float]] = {
        "raw_p50": [],
        "raw_p99": [],
        "subject_p50": [],
        "subject_p99": [],
    }
    load_before = _load()
    with scratch(options, "concierge") as directory:
        path = directory / "crewline.db"
        async with SqliteStore(path):
            pass  # the schema, with the concierge migration's index and triggers
        seed(path, rows)
        for _ in range(options.runs):
            before, before_cpu = raw_times(path, rounds)
            measured, measured_cpu = await facts_times(path, rounds)
            after, after_cpu = raw_times(path, rounds)
            for p in (50, 99):
                cpu[f"raw_p{p}"].append(percentile(before_cpu + after_cpu, p))
                cpu[f"subject_p{p}"].append(percentile(measured_cpu, p))
            subject.append(percentile(measured, 99))
            subject_p50.append(percentile(measured, 50))
            baseline.append((percentile(before, 99) + percentile(after, 99)) / 2)
            baseline_p50.append((percentile(before, 50) + percentile(after, 50)) / 2)
    per_agent = options.size(30, 100, smoke=2)
    health_per_agent = options.size(10, 20, smoke=2)
    api_on: list[float] = []
    api_off: list[float] = []
    cpu_on: list[float] = []
    cpu_off: list[float] = []
    for run in range(options.runs):
        # Each pair in turn off first, then on first: whatever changes over the process's
        # life (its heap, the machine's load) weighs on both sides alike.
        if run % 2 == 0:
            off = await one_run(options, per_agent, health_per_agent, concierge=None)
            on = await one_run(options, per_agent, health_per_agent, concierge="routine")
        else:
            on = await one_run(options, per_agent, health_per_agent, concierge="routine")
            off = await one_run(options, per_agent, health_per_agent, concierge=None)
        api_off.append(off["escalations_per_s"])
        api_on.append(on["escalations_per_s"])
        cpu_off.append(off["escalate_cpu_us"])
        cpu_on.append(on["escalate_cpu_us"])
    write_result(
        options,
        title="Concierge: fleet retrieval vs a raw FTS5 query; its cost on escalations/s",
        sizes={
            "rows": rows,
            "members": MEMBERS,
            "questions_per_run": rounds,
            "api_escalations_per_run": 50 * per_agent,
        },
        baseline=(
            "Raw sqlite3 (its own connection) running the same FTS5 MATCH, join, exclusion and"
            " LIMIT on the same file, fetched into tuples; p99, right before and right after"
            " the subject, averaged."
        ),
        figures=[
            figure(
                "retrieval_p99_ms",
                f"fleet retrieval p99, ms ({rows:,} member rows)",
                "ms",
                subject,
                higher_is_better=False,
                baseline=baseline,
                baseline_label="raw FTS5 query p99, ms",
                target=Target(kind="at_most", value=20.0),
            ),
            figure(
                "api_escalations_per_s",
                "escalations/s over HTTP (50 agents) with the concierge judging (routine)",
                "req/s",
                api_on,
                higher_is_better=True,
                baseline=api_off,
                baseline_label="the same load on a server with no concierge, same run",
                target=Target(kind="ratio_at_least", value=0.9),
            ),
            figure(
                "api_escalate_loop_cpu_us",
                "server event-loop CPU per escalation, µs, concierge on (routine)",
                "µs",
                cpu_on,
                higher_is_better=False,
                baseline=cpu_off,
                baseline_label="the same, no concierge, same run",
            ),
            figure(
                "retrieval_cpu_p99_ms",
                f"fleet retrieval CPU p99, ms (the process; {rows:,} member rows)",
                "ms",
                cpu["subject_p99"],
                higher_is_better=False,
                baseline=cpu["raw_p99"],
                baseline_label="raw FTS5 query CPU p99 (its thread), ms",
            ),
            figure(
                "retrieval_cpu_p50_ms",
                f"fleet retrieval CPU p50, ms (the process; {rows:,} member rows)",
                "ms",
                cpu["subject_p50"],
                higher_is_better=False,
                baseline=cpu["raw_p50"],
                baseline_label="raw FTS5 query CPU p50 (its thread), ms",
            ),
            figure(
                "retrieval_p50_ms",
                f"fleet retrieval p50, ms ({rows:,} member rows)",
                "ms",
                subject_p50,
                higher_is_better=False,
                baseline=baseline_p50,
                baseline_label="raw FTS5 query p50, ms",
            ),
        ],
        started=started,
        notes=[
            "The subject reads through the store's reader (aiosqlite's thread), as the"
            " concierge does after each escalation commits.",
            f"Load average (1/5/15 min) at the start {load_before}, at the end {_load()},"
            f" on {os.cpu_count()} CPUs: wall times above CPU times are waits for a core.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, runs_quick=3, runs_full=5)))
