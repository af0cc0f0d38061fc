"""A closed-loop HTTP load generator, run as its own process so it has its own core.

``python -m bench.loadgen SPEC.json`` reads what to send and prints one JSON line with the
elapsed time, the status counts and every request's latency. Each worker holds one
keep-alive connection and sends its requests back to back; a worker may carry several
session keys and moves to the next one every ``per_key`` requests (a member's backlog
holds at most 50 open escalations).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections import Counter
from typing import Any

from bench.wire import HttpConnection

__all__ = ["run_load"]


async def _worker(
    connection: HttpConnection,
    spec: dict[str, Any],
    keys: list[str],
    count: int,
    latencies: list[float],
    statuses: Counter[int],
) -> None:
    per_key = int(spec.get("per_key") or count or 1)
    for n in range(count):
        token = keys[min(n // per_key, len(keys) - 1)] if keys else None
        started = time.perf_counter()
        status, _ = await connection.request(
            spec["method"],
            spec["path"],
            token=token,
            body=spec.get("body"),
            headers=spec.get("headers"),
        )
        latencies.append(time.perf_counter() - started)
        statuses[status] += 1


async def run_load(spec: dict[str, Any]) -> dict[str, Any]:
    """Connect every worker first, then time the requests alone."""
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    workers = spec["workers"]
    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection(spec["url"])) for _ in workers
        ]
        started = time.perf_counter()
        await asyncio.gather(
            *[
                _worker(c, spec, w.get("keys", []), w["count"], latencies, statuses)
                for c, w in zip(connections, workers, strict=True)
            ]
        )
        elapsed = time.perf_counter() - started
    return {
        "elapsed": elapsed,
        "requests": len(latencies),
        "statuses": {str(k): v for k, v in statuses.items()},
        "latencies": latencies,
    }


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        loaded = json.load(file)
    print(json.dumps(asyncio.run(run_load(loaded))))
