"""Index rebuild: how fast reconciliation re-derives a lost index from a long transcript.

One member's transcript holds ``rows`` rows: agent and human chatter, an escalation card
every 20 rows answered by the owner's next row, the last 50 cards still open. The index is
empty (lost). Subject: crewline starts its Hub on that store, which reconciles every member
(SPEC §2): it reads the live transcript, re-derives each record from its card and answer
rows, and writes them back with the card redraws, in one transaction. Figure: transcript
rows per second.

Baseline (same run, same file): a raw ``sqlite3`` scan of the same rows — the same query
the store uses for a live transcript (``WHERE conversation = ? AND rewound_in IS NULL
ORDER BY seq``, the same columns), fetched into Python tuples; measured right before and
right after the rebuild and averaged. The target is ≥ 0.5x that scan.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

from bench.common import Options, Target, figure, parse_options, scratch, write_result
from bench.seed import seed_transcript, sqlite_connection
from crewline.app.assembly import Bot
from crewline.store import Tx
from crewline.store.sqlite import SqliteStore

NAME = "index_rebuild"
SLUG = "long"
SCAN = (
    "SELECT id, conversation, generation, seq, role, author, text, meta, created_at FROM rows"
    " WHERE conversation = ? AND rewound_in IS NULL ORDER BY seq"
)


def raw_scan(path: Path, rows: int) -> float:
    """Rows per second of a raw sqlite3 scan of the transcript into Python tuples."""
    conn = sqlite3.connect(path)
    try:
        started = time.perf_counter()
        found = conn.execute(SCAN, (SLUG,)).fetchall()
        elapsed = time.perf_counter() - started
    finally:
        conn.close()
    assert len(found) == rows, f"scanned {len(found)} rows, expected {rows}"
    return rows / elapsed


def _forget_index(tx: Tx) -> None:
    # A lost index: the records and the redraws they caused are gone; the transcript stays.
    conn = sqlite_connection(tx)
    conn.execute("DELETE FROM escalations")
    conn.execute("DELETE FROM outbox")


async def rebuild(path: Path, *, cards: int, answered: int) -> float:
    """Seconds for the Hub's start to rebuild the index from the transcript."""
    async with SqliteStore(path) as store:
        await store.write(_forget_index)
        started = time.perf_counter()
        async with Bot(store, transports=["memory"]):
            elapsed = time.perf_counter() - started
        records = await store.escalations(SLUG)
    states = [r.state.value for r in records]
    if len(records) != cards or states.count("answered") != answered:
        raise RuntimeError(
            f"rebuilt {len(records)} records ({states.count('answered')} answered);"
            f" expected {cards} ({answered})"
        )
    return elapsed


async def main(options: Options) -> None:
    started = time.perf_counter()
    rows = options.size(100_000, 1_000_000, smoke=2_000)
    subject: list[float] = []
    baseline: list[float] = []
    seconds: list[float] = []
    with scratch(options, "rebuild") as directory:
        path = directory / "crewline.db"
        async with SqliteStore(path) as store:
            seeded = await seed_transcript(store, slug=SLUG, rows=rows)
        for _ in range(options.runs):
            before = raw_scan(path, rows)
            elapsed = await rebuild(path, cards=seeded.cards, answered=seeded.answered)
            after = raw_scan(path, rows)
            seconds.append(elapsed)
            subject.append(rows / elapsed)
            baseline.append((before + after) / 2)
    figures: list[dict[str, Any]] = [
        figure(
            "rebuild_rows_per_s",
            f"index rebuild, transcript rows/s ({rows:,} rows)",
            "rows/s",
            subject,
            higher_is_better=True,
            baseline=baseline,
            baseline_label="raw sqlite3 scan of the same rows into tuples, rows/s",
            target=Target(kind="ratio_at_least", value=0.5),
        ),
        figure(
            "rebuild_seconds",
            f"index rebuild, seconds for {rows:,} rows ({seeded.cards:,} records)",
            "s",
            seconds,
            higher_is_better=False,
        ),
    ]
    write_result(
        options,
        title="Index rebuild: reconciliation vs a raw sqlite3 scan",
        sizes={"rows": rows, "records": seeded.cards, "answered": seeded.answered},
        baseline=(
            "Raw sqlite3 (one connection) running the store's live-transcript query on the same"
            " file and fetching every row into Python tuples, right before and right after"
            " the rebuild, averaged."
        ),
        figures=figures,
        started=started,
        notes=[
            "The rebuild also writes every record back and queues a card redraw for each"
            " (one transaction, synchronous=FULL); the scan only reads.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME)))
