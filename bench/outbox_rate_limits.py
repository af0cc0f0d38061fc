"""Outbox under platform rate limits: 1,000 cards into 100 threads, 1 call per interval.

Setup: 100 members bound to a fake platform (``bench.paced_fake``) that allows one
message call per thread per ``interval`` and answers sooner calls with a 429
(``RateLimited(retry_after)``); each member raises 10 escalations through the Hub while
the dispatcher is stopped, so 1,000 cards wait in the outbox. Then the transport's real
``OutboxDispatcher`` starts; the time runs until the platform has accepted the last card.

Theoretical minimum: 10 cards per thread need 9 intervals after the first (all threads in
parallel). Figures: total time, its ratio to that minimum (target ≤ 1.1x), 429s, losses
(cards never posted; must be 0) and duplicates. The interval is scaled down from a
platform's 1 s so the benchmark is quick; the run with the full-size settings uses 1 s.

Three settings, each in every run: ``advertised`` (the transport's limits tell the outbox
the interval, as the platform transports do), ``learned`` (they do not: the outbox learns
from each 429's Retry-After), and ``advertised+latency`` (each call also takes a tenth of
the interval, as a platform's API round trip would, against the outbox's concurrency).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bench.common import Options, Target, figure, parse_options, scratch, write_result
from bench.paced_fake import PacedFakeTransport
from bench.serving import add_members
from crewline.app.assembly import Bot
from crewline.bot import CoreRenderer
from crewline.bot.escalations import EscalationRequest
from crewline.store.sqlite import SqliteStore
from crewline.transports import OutboxDispatcher

NAME = "outbox_rate_limits"
THREADS = 100  # at the quick and full sizes (the smoke size has 10)
PER_THREAD = 10  # cards per thread (the smoke size has 3)
SETTINGS = {
    "advertised": {"advertise": True, "latency": 0.0},
    "learned": {"advertise": False, "latency": 0.0},
    "advertised+latency": {"advertise": True, "latency": 0.1},
}


async def one_run(
    options: Options, interval: float, setting: dict[str, Any], *, threads: int, per_thread: int
) -> dict[str, float]:
    fake = PacedFakeTransport(
        "paced",
        interval=interval,
        advertise=setting["advertise"],
        latency=setting["latency"] * interval,
    )
    with scratch(options, "outbox") as directory:
        async with (
            SqliteStore.in_directory(directory) as store,
            Bot(store, transports=[fake.name]) as bot,
        ):
            created = await add_members(store, threads, prefix="t", transports=[fake.name])

            async def raise_cards(session: Any) -> None:
                for n in range(per_thread):
                    await bot.escalations.escalate(
                        session, EscalationRequest(message=f"Card {n}", options=("ok", "no"))
                    )

            await asyncio.gather(*[raise_cards(c.session) for c in created])
            queued = await store.outbox_size(fake.name)
            started = time.monotonic()
            async with OutboxDispatcher(
                store, fake, CoreRenderer(store), poll_interval=1.0
            ) as outbox:
                bot.hub.on_outbox(lambda _, lanes: outbox.wake(lanes))
                await outbox.wait_idle(timeout=120 + 30 * per_thread * interval)
                drained = time.monotonic() - started
            left = await store.outbox_size(fake.name)
    if not fake.cards:
        raise RuntimeError("the fake platform accepted no card")
    total = max(fake.cards.values()) - started
    minimum = (per_thread - 1) * interval
    return {
        "total_s": total,
        "ratio_to_minimum": total / minimum,
        "minimum_s": minimum,
        "drained_s": drained,
        "rate_limited": float(fake.rate_limited),
        "lost": float(threads * per_thread - len(fake.cards)),
        "duplicates": float(fake.duplicates),
        "outbox_left": float(left),
        "queued": float(queued),
    }


async def main(options: Options) -> None:
    started = time.perf_counter()
    interval = options.size(0.25, 1.0, smoke=0.05)
    threads = options.size(THREADS, THREADS, smoke=10)
    per_thread = options.size(PER_THREAD, PER_THREAD, smoke=3)
    cards = threads * per_thread
    results: dict[str, list[dict[str, float]]] = {name: [] for name in SETTINGS}
    for _ in range(options.runs):
        for name, setting in SETTINGS.items():
            results[name].append(
                await one_run(options, interval, setting, threads=threads, per_thread=per_thread)
            )
    minimum = (per_thread - 1) * interval
    figures: list[dict[str, Any]] = []
    for name, runs in results.items():

        def col(key: str) -> list[float]:
            return [r[key] for r in runs]  # noqa: B023 - used at once

        figures += [
            figure(
                f"{name}.total_s",
                f"{name}: time until the last card was accepted",
                "s",
                col("total_s"),
                higher_is_better=False,
                baseline=[minimum] * len(runs),
                baseline_label=(
                    f"theoretical minimum: {per_thread - 1} intervals of {interval:g} s"
                ),
                target=Target(kind="ratio_at_most", value=1.1),
            ),
            figure(
                f"{name}.rate_limited",
                f"{name}: 429 answers (RateLimited)",
                "429s",
                col("rate_limited"),
                higher_is_better=False,
            ),
            figure(
                f"{name}.lost",
                f"{name}: cards lost (never posted)",
                "cards",
                col("lost"),
                higher_is_better=False,
                target=Target(kind="at_most", value=0.0),
            ),
            figure(
                f"{name}.duplicates",
                f"{name}: cards posted twice",
                "cards",
                col("duplicates"),
                higher_is_better=False,
                target=Target(kind="at_most", value=0.0),
            ),
        ]
    write_result(
        options,
        title=f"Outbox under platform rate limits: {cards:,} cards into {threads} threads",
        sizes={
            "cards": cards,
            "threads": threads,
            "interval_s": interval,
            "theoretical_minimum_s": minimum,
            "settings": SETTINGS,
        },
        baseline=(
            f"The theoretical minimum: with one call per thread per interval, {per_thread}"
            f" cards in each of {threads} parallel threads need {per_thread - 1} intervals"
            " after the first."
        ),
        figures=figures,
        started=started,
        notes=[
            "The fake answers at once unless the setting adds latency; bells and the roster"
            " are not rate-limited by it, so only the cards' per-thread pacing is measured.",
            f"The clock starts when the dispatcher starts with all {cards:,} cards (and their bell"
            " and roster entries) already queued.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME)))
