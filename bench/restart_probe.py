"""One crewline start in a fresh process: how long it takes and what it then holds.

``python -m bench.restart_probe SPEC.json`` (spec: ``{"data_dir": ...}``) starts the parts
of crewline whose cost depends on the number of open windows — the store, the Hub (which
reconciles every member's index on start) and the WindowScheduler (which closes what is
past and arms the timers due within its horizon) — in the order ``Crewline`` starts them,
and prints one JSON line:

- the time of each stage and in all, and the resident memory after start (``VmRSS``);
- then, after stopping and starting again under ``tracemalloc``, the Python memory the
  started parts hold (traced current and peak) and the number of armed timers.

The first start is timed without tracemalloc (which slows allocation); memory is read in
a fresh process each time because a process's resident memory never shrinks back.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.common import rss
from crewline.app.assembly import Bot
from crewline.app.scheduler import WindowScheduler
from crewline.store.sqlite import SqliteStore

__all__ = ["probe"]


async def _start(data_dir: Path) -> tuple[dict[str, float], int]:
    timings: dict[str, float] = {}
    started = time.perf_counter()
    async with SqliteStore.in_directory(data_dir) as store:
        opened = time.perf_counter()
        async with Bot(store, transports=["memory"]) as bot:
            reconciled = time.perf_counter()
            async with WindowScheduler(bot.hub, bot.escalations) as windows:
                armed_at = time.perf_counter()
                armed = windows.armed
                timings = {
                    "store_open_s": opened - started,
                    "hub_start_s": reconciled - opened,
                    "rearm_s": armed_at - reconciled,
                    "restart_s": armed_at - started,
                }
                timings.update({k: float(v) for k, v in rss().items()})
    return timings, armed


async def _traced(data_dir: Path) -> dict[str, float]:
    gc.collect()
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    async with (
        SqliteStore.in_directory(data_dir) as store,
        Bot(store, transports=["memory"]) as bot,
        WindowScheduler(bot.hub, bot.escalations) as windows,
    ):
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        armed = windows.armed
    tracemalloc.stop()
    return {
        "traced_kib": (current - baseline) / 1024,
        "traced_peak_kib": (peak - baseline) / 1024,
        "armed_traced": float(armed),
    }


async def probe(spec: dict[str, Any]) -> dict[str, Any]:
    data_dir = Path(spec["data_dir"])
    timings, armed = await _start(data_dir)
    return {**timings, "armed": armed, **await _traced(data_dir)}


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        loaded = json.load(file)
    print(json.dumps(asyncio.run(probe(loaded))), flush=True)
