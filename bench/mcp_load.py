"""MCP load: agents calling ``session_escalate`` with the official SDK's client.

``python -m bench.mcp_load SPEC.json`` connects one ``mcp.Client`` per key over streamable
HTTP (each with its session key as a bearer token), then times ``count`` tool calls per
agent back to back, and prints one JSON line like ``bench.loadgen``'s: the elapsed time,
the outcomes and every call's latency. The SDK's client is what an agent really runs, so
its own cost is part of the round trip measured.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections import Counter
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

__all__ = ["run_load"]


async def _agent(
    client: Client, spec: dict[str, Any], latencies: list[float], outcomes: Counter[str]
) -> None:
    for _ in range(spec["count"]):
        started = time.perf_counter()
        result = await client.call_tool("session_escalate", spec["arguments"])
        latencies.append(time.perf_counter() - started)
        outcomes["error" if result.is_error else "ok"] += 1


async def run_load(spec: dict[str, Any]) -> dict[str, Any]:
    """Connect every agent first, then time the tool calls alone."""
    latencies: list[float] = []
    outcomes: Counter[str] = Counter()
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for key in spec["keys"]:
            http = await stack.enter_async_context(
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=120)
            )
            transport = streamable_http_client(f"{spec['url']}/mcp", http_client=http)
            clients.append(await stack.enter_async_context(Client(transport)))
        started = time.perf_counter()
        await asyncio.gather(*[_agent(c, spec, latencies, outcomes) for c in clients])
        elapsed = time.perf_counter() - started
    return {
        "elapsed": elapsed,
        "requests": len(latencies),
        "statuses": dict(outcomes),
        "latencies": latencies,
    }


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        loaded = json.load(file)
    print(json.dumps(asyncio.run(run_load(loaded))))
