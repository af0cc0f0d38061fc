"""Boundaries: a rewind of a long transcript while rows arrive and the session reads.

One member's transcript holds ``rows`` rows (100,000; 10,000 with ``--quick``). While a
writer sends the member 100 rows a second (``session_send`` from another session) and the
member's session long-polls its events and acknowledges every ``context_boundary`` at once,
each run makes ``rewinds`` rewinds through the whole boundary (freeze, the session's ack,
the commit by delta) and as many plain ``Escalations.truncate`` calls (truncate and reconcile: the
primitive a boundary replaces), alternately, each taking the last 50 rows away.

Figures per run: the p50 and p99 latency of a boundary and of a truncate (the baseline;
target ≤ 2x), and at the end of the run two counts that must be 0: rows lost (sent by the
writer, not live, and not rewound by anything) and events delivered twice to the session.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from functools import partial
from typing import Any

from bench.common import (
    Options,
    Target,
    figure,
    parse_options,
    percentile,
    scratch,
    write_result,
)
from bench.seed import seed_transcript, sqlite_connection
from crewline.app.assembly import Bot
from crewline.bot.boundaries import BoundaryKind, BoundaryRequest
from crewline.models import CallerKind, Session, new_id
from crewline.store.sqlite import SqliteStore

NAME = "boundaries"
SLUG = "long"
RATE = 100.0  # rows a second from the writer
SUFFIX = 50  # rows each rewind and each truncate takes away


class Traffic:
    """The writer and the reading session, running beside the rewinds."""

    def __init__(self, bot: Bot, session: Session) -> None:
        self.bot = bot
        self.session = session
        self.sender = Session(id=new_id(), kind=CallerKind.PLAIN, member=None)
        self.sent: list[str] = []
        self.delivered: Counter[str] = Counter()
        self.acks = 0
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._write()), asyncio.create_task(self._read())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _write(self) -> None:
        """Send at RATE whatever the member's actor is doing: a slow commit delays the
        rows (they queue on the actor) but not the rate they are sent at."""
        sending: set[asyncio.Task[None]] = set()
        started = time.perf_counter()
        n = 0
        try:
            while True:
                n += 1
                task = asyncio.create_task(self._send(n))
                sending.add(task)
                task.add_done_callback(sending.discard)
                delay = started + n / RATE - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
        finally:
            for task in sending:
                task.cancel()

    async def _send(self, n: int) -> None:
        row = await self.bot.messages.send(self.sender, SLUG, f"arrival {n}")
        self.sent.append(row.id)

    async def _read(self) -> None:
        cursor = 0
        while True:
            events = await self.bot.messages.events(self.session, after=cursor, wait=1.0)
            for event in events:
                cursor = event.cursor
                if event.kind == "message":
                    self.delivered[str(event.body["row_id"])] += 1
                elif event.kind == "context_boundary":
                    await self.bot.boundaries.answer(
                        self.session, str(event.body["boundary_id"]), ack=True
                    )
                    self.acks += 1


def _keep_row(tx: Any) -> str:
    """The row a rewind keeps through: SUFFIX rows before the end, read by the
    (conversation, seq) index (a scan of the transcript would distort the figures)."""
    conn = sqlite_connection(tx)
    found = conn.execute(
        "SELECT id FROM rows WHERE conversation = ? AND rewound_in IS NULL"
        " ORDER BY seq DESC LIMIT 1 OFFSET ?",
        (SLUG, SUFFIX),
    ).fetchone()
    return str(found[0])


async def one_run(options: Options, rewinds: int, rows: int) -> dict[str, Any]:
    with scratch(options, "boundaries") as directory:
        path = directory / "crewline.db"
        async with SqliteStore(path) as store:
            await seed_transcript(store, slug=SLUG, rows=rows)
            async with Bot(store, transports=["memory"], boundary_wait=30.0) as bot:
                [session] = await store.write(lambda tx: tx.member_sessions(SLUG))
                traffic = Traffic(bot, session)
                traffic.start()
                boundary: list[float] = []
                truncate: list[float] = []
                lost: list[str] = []
                try:
                    await asyncio.sleep(0.5)  # the writer and the reader are under way
                    for _ in range(rewinds):
                        keep = await store.write(_keep_row)
                        started_at = len(traffic.sent)
                        started = time.perf_counter()
                        outcome = await bot.boundaries.run(
                            BoundaryRequest(
                                member=SLUG, kind=BoundaryKind.REWIND, actor="bench", row=keep
                            )
                        )
                        boundary.append(time.perf_counter() - started)
                        if not outcome.committed:
                            raise RuntimeError(f"a rewind did not commit: {outcome.reason}")
                        # Every row that arrived during the boundary and that the boundary
                        # did not find in its frozen window must still be live.
                        arrived = traffic.sent[started_at:]
                        live = {r.id for r in await store.write(partial(_tail, row_ids=arrived))}
                        lost += [r for r in arrived if r not in live and r not in outcome.rewound]
                        keep = await store.write(_keep_row)
                        started = time.perf_counter()
                        await bot.escalations.truncate(SLUG, keep_through=keep)
                        truncate.append(time.perf_counter() - started)
                finally:
                    await traffic.stop()
                twice = [r for r, n in traffic.delivered.items() if n > 1]
                return {
                    "boundary": boundary,
                    "truncate": truncate,
                    "lost": len(lost),
                    "twice": len(twice),
                    "sent": len(traffic.sent),
                    "acks": traffic.acks,
                }


def _tail(tx: Any, *, row_ids: list[str]) -> list[Any]:
    return [row for row_id in row_ids if (row := tx.row(row_id)) is not None]


async def main(options: Options) -> None:
    started = time.perf_counter()
    rows = options.size(10_000, 100_000, smoke=500)
    rewinds = options.size(10, 30, smoke=2)
    runs = [await one_run(options, rewinds, rows) for _ in range(options.runs)]
    p50 = [percentile(r["boundary"], 50) * 1000 for r in runs]
    p99 = [percentile(r["boundary"], 99) * 1000 for r in runs]
    base50 = [percentile(r["truncate"], 50) * 1000 for r in runs]
    base99 = [percentile(r["truncate"], 99) * 1000 for r in runs]
    figures = [
        figure(
            "boundary_p50_ms",
            f"rewind latency p50, {rows:,}-row transcript under {RATE:g} rows/s",
            "ms",
            p50,
            higher_is_better=False,
            baseline=base50,
            baseline_label="Escalations.truncate of the same transcript, p50 ms",
            target=Target(kind="ratio_at_most", value=2.0),
        ),
        figure(
            "boundary_p99_ms",
            f"rewind latency p99, {rows:,}-row transcript under {RATE:g} rows/s",
            "ms",
            p99,
            higher_is_better=False,
            baseline=base99,
            baseline_label="Escalations.truncate of the same transcript, p99 ms",
            target=Target(kind="ratio_at_most", value=2.0),
        ),
        figure(
            "rows_lost",
            "rows that arrived during a rewind and were lost",
            "rows",
            [float(r["lost"]) for r in runs],
            higher_is_better=False,
            target=Target(kind="at_most", value=0),
        ),
        figure(
            "delivered_twice",
            "rows delivered to the reading session twice",
            "rows",
            [float(r["twice"]) for r in runs],
            higher_is_better=False,
            target=Target(kind="at_most", value=0),
        ),
    ]
    write_result(
        options,
        title="Boundaries: a rewind under traffic vs a plain truncate",
        sizes={
            "rows": rows,
            "rewinds_per_run": rewinds,
            "suffix": SUFFIX,
            "arrivals_per_s": RATE,
            "rows_sent": [r["sent"] for r in runs],
            "acks": [r["acks"] for r in runs],
        },
        baseline=(
            "Escalations.truncate (the rewind primitive: truncate and reconcile, one"
            " transaction) of the same transcript in the same run, alternating with the rewinds."
        ),
        figures=figures,
        started=started,
        notes=[
            "A rewind is the whole boundary: the freeze, the session's acknowledgement (it"
            " long-polls its events and acks at once), and the commit by delta.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME)))
