"""Veto windows: closing lateness under a large backlog, memory, and restart.

1. Lateness. A store holds ``pending`` open windows (seeded in one transaction: members
   of 50 open escalations each, deadlines spread over the next 29 days). crewline starts
   (the real server: Hub, WindowScheduler, memory transport, HTTP) and probe members raise
   ``probes`` escalations through the Hub whose deadlines fall due at ``rate`` per second a
   few seconds later; the real scheduler and Hub close them. Lateness = when the closing
   committed minus the deadline. Baseline (same run): the same probes on an empty store.
2. Memory and restart. In a fresh process per measurement (``bench.restart_probe``), the
   store, the Hub and the WindowScheduler start on a store with ``memory_pending`` open
   windows; the figures are the start (re-arm) times, the resident and Python memory held
   after start, and the number of timers armed. Baseline (same run): the same crew with no
   open window. Target: memory bounded by the horizon (the ratio stays near 1), not by
   the number of windows.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common import Options, Target, figure, parse_options, percentile, scratch, write_result
from bench.seed import seed_pending_windows
from bench.serving import add_members, helper_process, serving
from crewline.bot.escalations import MAX_PENDING, EscalationRequest
from crewline.store.sqlite import SqliteStore

NAME = "windows"
RATE = 100.0  # probe windows falling due per second
DAY = 86_400.0


async def seed(directory: Path, pending: int, *, members: int | None = None) -> None:
    """A store in ``directory`` with ``pending`` open windows (members of 50 each)."""
    now = time.time()
    async with SqliteStore.in_directory(directory) as store:
        if pending:
            await seed_pending_windows(
                store,
                members=pending // MAX_PENDING,
                per_member=MAX_PENDING,
                deadlines=(now + 120, now + 29 * DAY),
            )
        elif members:
            await seed_pending_windows(store, members=members, per_member=0, deadlines=(0, 0))


async def lateness(directory: Path, *, pending: int, probes: int) -> dict[str, float]:
    """Seed, start crewline, raise probe windows due at RATE/s; their closing lateness."""
    await seed(directory, pending)
    started = time.perf_counter()
    async with serving(directory) as crewline:
        start_s = time.perf_counter() - started
        hub = crewline.hub
        created = await add_members(
            crewline.store, -(-probes // MAX_PENDING), prefix="probe", transports=["memory"]
        )
        closed_at: dict[str, float] = {}
        all_closed = asyncio.Event()

        async def agent(session: Any) -> None:
            # The probe member's agent reads its event stream in-process (Hub.events, the
            # call behind GET /api/session/events): a window has closed for it when its
            # window_closed event can be read.
            cursor = 0
            while not all_closed.is_set():
                found = await hub.events(session, after=cursor, wait=1.0)
                now = time.time()
                for event in found:
                    if event.kind == "window_closed":
                        closed_at.setdefault(event.body["escalation_id"], now)
                    cursor = event.cursor
                if len(closed_at) >= probes:
                    all_closed.set()

        lead = 2.0 + probes / 400  # time to raise every probe before the first is due
        first_due = time.time() + lead
        deadlines: dict[str, float] = {}

        async def raise_probes(offset: int, session: Any) -> None:
            for index in range(offset, probes, len(created)):
                due = first_due + index / RATE
                receipt = await hub.escalate(
                    session,
                    EscalationRequest(
                        message=f"Window {index}",
                        deadline=datetime.fromtimestamp(due, UTC).isoformat(),
                        default_action="go ahead",
                    ),
                )
                deadlines[receipt.escalation.id] = due

        await asyncio.gather(*[raise_probes(n, c.session) for n, c in enumerate(created)])
        if time.time() > first_due:
            raise RuntimeError("raising the probes took longer than their lead; raise the lead")
        armed = crewline.windows.armed
        agents = [asyncio.create_task(agent(c.session)) for c in created]
        last_due = first_due + (probes - 1) / RATE
        try:
            async with asyncio.timeout(last_due - time.time() + 120):
                await all_closed.wait()
        finally:
            all_closed.set()
            await asyncio.gather(*agents)
    late = [closed_at[e] - due for e, due in deadlines.items()]
    return {
        "p50": percentile(late, 50),
        "p99": percentile(late, 99),
        "max": max(late),
        "armed": float(armed),
        "start_s": start_s,
    }


async def main(options: Options) -> None:
    started = time.perf_counter()
    pending = options.size(20_000, 100_000)
    probes = options.size(300, 2000)
    memory_pending = options.size(20_000, 1_000_000)
    late: list[dict[str, float]] = []
    late_base: list[dict[str, float]] = []
    for _ in range(options.runs):
        with scratch(options, "late") as directory:
            late.append(await lateness(directory, pending=pending, probes=probes))
        with scratch(options, "late-empty") as directory:
            late_base.append(await lateness(directory, pending=0, probes=probes))

    full: list[dict[str, float]] = []
    none: list[dict[str, float]] = []
    with scratch(options, "memory") as directory:
        with_windows, without = directory / "pending", directory / "none"
        await seed(with_windows, memory_pending)
        await seed(without, 0, members=memory_pending // MAX_PENDING)
        for _ in range(options.runs):
            timeout = 120 + memory_pending / 2000
            none.append(
                await helper_process("restart_probe", {"data_dir": str(without)}, timeout=timeout)
            )
            full.append(
                await helper_process(
                    "restart_probe", {"data_dir": str(with_windows)}, timeout=timeout
                )
            )

    def col(rows: list[dict[str, float]], key: str, scale: float = 1.0) -> list[float]:
        return [r[key] * scale for r in rows]

    empty = "the same probes on an empty store, same run"
    no_windows = f"the same {memory_pending // MAX_PENDING} members with no open window, same run"
    figures = [
        figure(
            "closing_lateness_p50_ms",
            f"window closing lateness p50, {pending:,} pending",
            "ms",
            col(late, "p50", 1000),
            higher_is_better=False,
            baseline=col(late_base, "p50", 1000),
            baseline_label=f"{empty}, p50",
        ),
        figure(
            "closing_lateness_p99_ms",
            f"window closing lateness p99, {pending:,} pending",
            "ms",
            col(late, "p99", 1000),
            higher_is_better=False,
            baseline=col(late_base, "p99", 1000),
            baseline_label=f"{empty}, p99",
        ),
        figure(
            "armed_timers_lateness",
            f"timers armed while {pending:,} windows are pending (probes included)",
            "timers",
            col(late, "armed"),
            higher_is_better=False,
            baseline=col(late_base, "armed"),
            baseline_label="timers armed, empty store (the probes alone)",
        ),
        figure(
            "rss_after_start_mib",
            f"resident memory after start, {memory_pending:,} pending",
            "MiB",
            col(full, "rss_kib", 1 / 1024),
            higher_is_better=False,
            baseline=col(none, "rss_kib", 1 / 1024),
            baseline_label=f"resident memory, {no_windows}",
            target=Target(kind="ratio_at_most", value=1.25),
        ),
        figure(
            "traced_python_mib",
            f"Python memory held after start (tracemalloc), {memory_pending:,} pending",
            "MiB",
            col(full, "traced_kib", 1 / 1024),
            higher_is_better=False,
            baseline=col(none, "traced_kib", 1 / 1024),
            baseline_label=f"tracemalloc, {no_windows}",
        ),
        figure(
            "armed_timers",
            f"timers armed after start, {memory_pending:,} pending (10-minute horizon)",
            "timers",
            col(full, "armed"),
            higher_is_better=False,
            baseline=col(none, "armed"),
            baseline_label=f"timers armed, {no_windows}",
        ),
        figure(
            "rearm_s",
            f"re-arm on restart (close past windows, arm the horizon), {memory_pending:,} pending",
            "s",
            col(full, "rearm_s"),
            higher_is_better=False,
            baseline=col(none, "rearm_s"),
            baseline_label=f"re-arm, {no_windows}",
        ),
        figure(
            "restart_s",
            f"restart: store + Hub (reconcile every member) + re-arm, {memory_pending:,} pending",
            "s",
            col(full, "restart_s"),
            higher_is_better=False,
            baseline=col(none, "restart_s"),
            baseline_label=f"restart, {no_windows}",
        ),
    ]
    write_result(
        options,
        title="Veto windows: closing lateness, memory and restart",
        sizes={
            "lateness_pending": pending,
            "lateness_probes": probes,
            "probe_rate_per_s": RATE,
            "memory_pending": memory_pending,
            "memory_members": memory_pending // MAX_PENDING,
            "horizon_minutes": 10,
        },
        baseline=(
            "Lateness: the same probe windows on an empty store. Memory and restart: the same"
            " number of members with no open window. Each measured in the same run."
        ),
        figures=figures,
        started=started,
        notes=[
            "Pending windows are seeded 50 per member (the backlog ceiling), deadlines spread"
            " at random from 2 minutes to 29 days ahead, so about one in 4,600 falls within"
            " the 10-minute horizon when crewline starts; windows that passed while a later"
            " run started are closed by that start, as after a real restart.",
            "Lateness is measured from the deadline to the commit of the closing (the"
            " window_closed event and the card redraw are in that transaction).",
            f"Crewline start with {pending:,} pending (lateness runs) took"
            f" {percentile(col(late, 'start_s'), 50):.1f} s (median).",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME)))
