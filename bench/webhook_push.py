"""Push: how fast a session's events reach its webhook, against the long-poll reading them.

Subject: N members, each with a webhook to a loopback receiver (aiohttp, verifying every
signature). In each round a sender session makes one ``send`` to every member at once (a
``message`` event for each member's session); the latency of an event is from the start of
its ``send`` request to the receiver getting the signed POST. The next round starts when
every event of the round has arrived, so events/s is closed-loop.

Baseline (same run, same server, same rounds): each member's session long-polls
``GET /api/session/events?after=<cursor>&wait=30`` instead, and the latency runs to the
poll's answer. Both phases include the ``send`` itself (authentication, the member's actor,
the durable commit); what differs is how the event leaves: one signed POST per event after a
delivery-cursor write, against a waiting poll woken by the commit.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import socket
import time
from collections.abc import Awaitable, Callable

import httpx
from aiohttp import web

from bench.common import Options, figure, parse_options, percentile, scratch, write_result
from bench.serving import add_members, serving
from crewline import crew
from crewline.kept_alive import KEEP_ALIVE_EXPIRY
from crewline.models import CallerKind

NAME = "webhook_push"
SECRET = "bench-webhook-secret-0123456789"
LOOPBACK = ("127.0.0.0/8",)
POLL_WAIT = 30  # seconds a long poll waits for an event


class _Arrivals:
    """When each event (by its text) arrived; wakes the round when all of it is in."""

    def __init__(self) -> None:
        self.at: dict[str, float] = {}
        self.expected = 0
        self.complete = asyncio.Event()

    def arrived(self, text: str) -> None:
        self.at.setdefault(text, time.perf_counter())
        if len(self.at) >= self.expected:
            self.complete.set()


async def _rounds(
    client: httpx.AsyncClient, sender: str, slugs: list[str], rounds: int, arrivals: _Arrivals
) -> tuple[list[float], float]:
    """Latencies (s) of every event and the events per second over all rounds."""
    sent: dict[str, float] = {}

    async def send(text: str, slug: str) -> None:
        sent[text] = time.perf_counter()
        response = await client.post(
            "/api/session-control/send",
            json={"target": slug, "message": text},
            headers={"Authorization": f"Bearer {sender}"},
        )
        response.raise_for_status()

    started = time.perf_counter()
    for round_ in range(rounds):
        arrivals.expected += len(slugs)
        arrivals.complete.clear()
        await asyncio.gather(*[send(f"{round_}:{slug}", slug) for slug in slugs])
        async with asyncio.timeout(120):
            await arrivals.complete.wait()
    elapsed = time.perf_counter() - started
    latencies = [arrivals.at[text] - at for text, at in sent.items()]
    return latencies, len(sent) / elapsed


async def _long_polls(
    client: httpx.AsyncClient, keys: list[str], arrivals: _Arrivals
) -> Callable[[], Awaitable[None]]:
    """One long-poll reader per session; returns how to stop them."""

    async def read(key: str) -> None:
        cursor = 0
        while True:
            response = await client.get(
                "/api/session/events",
                params={"after": cursor, "wait": POLL_WAIT},
                headers={"Authorization": f"Bearer {key}"},
            )
            page = response.json()
            for event in page["events"]:
                arrivals.arrived(event["body"]["text"])
            cursor = page["cursor"]

    tasks = [asyncio.create_task(read(key)) for key in keys]

    async def stop() -> None:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    return stop


async def _receiver(arrivals: _Arrivals) -> tuple[str, Callable[[], Awaitable[None]]]:
    async def take(request: web.Request) -> web.Response:
        raw = await request.read()
        fields = dict(p.split("=", 1) for p in request.headers["X-Crewline-Signature"].split(","))
        mac = hmac.new(SECRET.encode(), fields["t"].encode() + b"." + raw, hashlib.sha256)
        if not hmac.compare_digest(mac.hexdigest(), fields["v1"]):
            return web.Response(status=401)
        arrivals.arrived(json.loads(raw)["body"]["text"])
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/hook/{slug}", take)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    await web.SockSite(runner, sock).start()
    return f"http://127.0.0.1:{sock.getsockname()[1]}", runner.cleanup


def _client(url: str) -> httpx.AsyncClient:
    """The sender's and readers' client: its reads wait out a long poll (httpx's default
    5 s timed them out on a loaded machine), and it lets an idle connection go before the
    server closes it (httpx's default keeps it the server's own 5 s, and a request sent as
    the server closed the connection failed with ReadError), as crewline's client does."""
    return httpx.AsyncClient(
        base_url=url,
        limits=httpx.Limits(max_connections=None, keepalive_expiry=KEEP_ALIVE_EXPIRY),
        timeout=httpx.Timeout(POLL_WAIT + 30),
    )


async def one_run(options: Options, members: int, rounds: int) -> dict[str, float]:
    with scratch(options, "push") as directory:
        # The receiver listens on loopback, which crewline refuses as a webhook address
        # unless its operator allows it (docs/agents/webhooks.md): allowed as they would.
        async with serving(directory, webhook_networks=LOOPBACK) as crewline:
            created = await add_members(
                crewline.store, members, prefix="agent", transports=["memory"]
            )
            keys = [made.key for made in created]
            slugs = [f"agent{n}" for n in range(members)]
            sender = (
                await crew.add_session(crewline.store, kind=CallerKind.PLAIN, member=None)
            ).key
            async with _client(crewline.url) as client:
                polled = _Arrivals()
                stop = await _long_polls(client, keys, polled)
                poll_latencies, poll_rate = await _rounds(client, sender, slugs, rounds, polled)
                await stop()

                pushed = _Arrivals()
                base, cleanup = await _receiver(pushed)
                for key, slug in zip(keys, slugs, strict=True):
                    registered = await client.put(
                        "/api/session/webhook",
                        json={"url": f"{base}/hook/{slug}", "secret": SECRET},
                        headers={"Authorization": f"Bearer {key}"},
                    )
                    registered.raise_for_status()
                try:
                    push_latencies, push_rate = await _rounds(client, sender, slugs, rounds, pushed)
                finally:
                    await cleanup()
    return {
        "push_p50": percentile(push_latencies, 50),
        "push_p99": percentile(push_latencies, 99),
        "push_per_s": push_rate,
        "poll_p50": percentile(poll_latencies, 50),
        "poll_p99": percentile(poll_latencies, 99),
        "poll_per_s": poll_rate,
    }


async def main(options: Options) -> None:
    started = time.perf_counter()
    members = options.size(20, 50, smoke=2)
    rounds = options.size(20, 60, smoke=2)
    runs = [await one_run(options, members, rounds) for _ in range(options.runs)]

    def col(key: str, scale: float = 1.0) -> list[float]:
        return [r[key] * scale for r in runs]

    poll_label = "GET /api/session/events long-poll, same server, same rounds"
    figures = [
        figure(
            "push_events_per_s",
            f"events/s delivered to webhooks, {members} sessions, one event each per round",
            "events/s",
            col("push_per_s"),
            higher_is_better=True,
            baseline=col("poll_per_s"),
            baseline_label=poll_label,
        ),
        figure(
            "push_p50_ms",
            "send → webhook POST received, p50",
            "ms",
            col("push_p50", 1000),
            higher_is_better=False,
            baseline=col("poll_p50", 1000),
            baseline_label=poll_label,
        ),
        figure(
            "push_p99_ms",
            "send → webhook POST received, p99",
            "ms",
            col("push_p99", 1000),
            higher_is_better=False,
            baseline=col("poll_p99", 1000),
            baseline_label=poll_label,
        ),
    ]
    write_result(
        options,
        title="Push: webhook delivery against long-polling the same events",
        sizes={"sessions": members, "rounds": rounds, "events": members * rounds},
        baseline=(
            "Each session long-polling its event stream, on the same server, with the same"
            " sender and rounds, measured right before the webhooks are registered."
        ),
        figures=figures,
        started=started,
        notes=[
            "crewline, the sender, the long-poll readers and the receiver share one process"
            " and event loop here, so the figures compare the two paths, not a deployment.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, runs_quick=3, runs_full=3)))
