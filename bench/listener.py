"""Agents listening to their event streams, run as their own process.

``python -m bench.listener SPEC.json``: one keep-alive connection per session key
long-polls ``GET /api/session/events?after=&wait=`` and notes, on the system-wide monotonic
clock, when each ``escalation_answered`` event arrived. Beside them a pinger sends
``GET /healthz`` at a fixed rate on its own connection: the round trip of an HTTP request
that does no work, under the same load, is the floor any event delivery stands on.

Prints ``ready`` once every stream is connected, then, when ``expect`` events arrived (or
``timeout`` passed), one JSON line: ``{"events": {escalation_id: t}, "pings": [s, ...]}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from typing import Any

from bench.wire import HttpConnection

__all__ = ["listen"]

EVENTS = "/api/session/events"


async def _stream(
    connection: HttpConnection, key: str, arrived: dict[str, float], done: asyncio.Event
) -> None:
    cursor = 0
    while not done.is_set():
        status, body = await connection.request("GET", f"{EVENTS}?after={cursor}&wait=1", token=key)
        now = time.monotonic()
        if status != 200:
            raise RuntimeError(f"events answered {status}: {body[:200]!r}")
        page = json.loads(body)
        for event in page["events"]:
            if event["kind"] == "escalation_answered":
                arrived.setdefault(event["body"]["escalation_id"], now)
        cursor = page["cursor"]


async def _ping(
    connection: HttpConnection, rate: float, pings: list[float], done: asyncio.Event
) -> None:
    interval = 1.0 / rate
    next_at = time.monotonic()
    while not done.is_set():
        started = time.monotonic()
        status, _ = await connection.request("GET", "/healthz")
        if status == 200:
            pings.append(time.monotonic() - started)
        next_at += interval
        delay = next_at - time.monotonic()
        if delay > 0:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await done.wait()


async def listen(spec: dict[str, Any]) -> dict[str, Any]:
    arrived: dict[str, float] = {}
    pings: list[float] = []
    done = asyncio.Event()
    expect = int(spec["expect"])
    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection(spec["url"])) for _ in spec["keys"]
        ]
        pinger = await stack.enter_async_context(HttpConnection(spec["url"]))
        for connection, key in zip(connections, spec["keys"], strict=True):
            status, _ = await connection.request("GET", f"{EVENTS}?after=0&wait=0", token=key)
            if status != 200:
                raise RuntimeError(f"events answered {status} for a listening agent")
        tasks = [
            asyncio.create_task(_stream(c, k, arrived, done))
            for c, k in zip(connections, spec["keys"], strict=True)
        ]
        tasks.append(asyncio.create_task(_ping(pinger, float(spec["ping_rate"]), pings, done)))
        print("ready", flush=True)
        deadline = time.monotonic() + float(spec["timeout"])
        while len(arrived) < expect and time.monotonic() < deadline:
            failed = [t for t in tasks if t.done() and t.exception() is not None]
            if failed:
                raise failed[0].exception()  # type: ignore[misc]
            await asyncio.sleep(0.05)
        done.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"events": arrived, "pings": pings}


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        loaded = json.load(file)
    print(json.dumps(asyncio.run(listen(loaded))), flush=True)
