"""Fleet retrieval: how long the concierge takes to find other members' facts for a question.

``rows`` member rows spread over 100 members (chatter of 12 words, each one of the words the
questions use with a chance of 5 % and otherwise one of 20,000 others; and every 1,000th row
a finding such as "Scan done: staging answered on port 4321"), indexed by the concierge migration's
FTS5 table through its triggers as they are inserted. Subject:
``Concierge.facts(member, question)`` — the gate's ``fts_query`` terms, the store's
``fleet_rows`` (the asker's own rows left out), and the ``Fact`` values — for a set of
questions, one at a time; figure: its p99 in ms.

Baseline (same run, same file): the store's own FTS5 query (the newest 500 matches, ranked,
the asker's rows left out, five kept) run raw on a ``sqlite3`` connection of its own,
fetched into tuples; its p99.
The target is p99 ≤ 20 ms at 1,000,000 rows.

Also the concierge's cost on ``bench.api_escalate``'s load (50 agents escalating over HTTP):
escalations/s with the concierge judging every escalation under ``routine`` against the same
server with no concierge at all, measured in the same run (off, then on). The target is
≥ 0.9x.
"""

from __future__ import annotations

import asyncio
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
from crewline.models import new_id
from crewline.policy.routine import fts_query
from crewline.store.sqlite import SqliteStore
from crewline.store.sqlite_concierge import FLEET_QUERY, FLEET_WINDOW

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
RAW = FLEET_QUERY  # the store's own query, run raw


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


def raw_times(path: Path, rounds: int) -> list[float]:
    conn = sqlite3.connect(path)
    try:
        times = []
        for n in range(rounds):
            question = QUESTIONS[n % len(QUESTIONS)]
            started = time.perf_counter()
            conn.execute(RAW, (fts_query(question), FLEET_WINDOW, "m0", 5)).fetchall()
            times.append((time.perf_counter() - started) * 1000)
    finally:
        conn.close()
    return times


async def facts_times(path: Path, rounds: int) -> list[float]:
    async with SqliteStore(path) as store:
        hub = Hub(store, transports=[])
        times = []
        for n in range(rounds):
            question = QUESTIONS[n % len(QUESTIONS)]
            started = time.perf_counter()
            await hub.concierge.facts("m0", question)
            times.append((time.perf_counter() - started) * 1000)
        await hub.domain.aclose()
    return times


async def main(options: Options) -> None:
    started = time.perf_counter()
    rows = options.size(100_000, 1_000_000)
    rounds = options.size(200, 1000)
    subject: list[float] = []
    baseline: list[float] = []
    subject_p50: list[float] = []
    baseline_p50: list[float] = []
    with scratch(options, "concierge") as directory:
        path = directory / "crewline.db"
        async with SqliteStore(path):
            pass  # the schema, with the concierge migration's index and triggers
        seed(path, rows)
        for _ in range(options.runs):
            before = raw_times(path, rounds)
            measured = await facts_times(path, rounds)
            after = raw_times(path, rounds)
            subject.append(percentile(measured, 99))
            subject_p50.append(percentile(measured, 50))
            baseline.append((percentile(before, 99) + percentile(after, 99)) / 2)
            baseline_p50.append((percentile(before, 50) + percentile(after, 50)) / 2)
    per_agent = options.size(30, 100)
    health_per_agent = options.size(10, 20)
    api_on: list[float] = []
    api_off: list[float] = []
    for _ in range(options.runs):
        off = await one_run(options, per_agent, health_per_agent, concierge=None)
        on = await one_run(options, per_agent, health_per_agent, concierge="routine")
        api_off.append(off["escalations_per_s"])
        api_on.append(on["escalations_per_s"])
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
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME)))
