"""A loopback webhook receiver: what an agent's service would run to take crewline's pushes.

It checks each delivery's signature itself (written from docs/agents/webhooks.md, not from
crewline's code), records every request, and can be told to fail (answer 5xx) or to hold a
request open, so tests drive retries and slow receivers by condition, never by sleeping.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import json
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from aiohttp import web

from tests.bounds import WAIT

__all__ = ["LOOPBACK", "Delivery", "Receiver", "verify"]

TOLERANCE = 300  # seconds a signature's timestamp may be off
# The receiver listens on loopback, which crewline posts to only when its operator allows it
# ([webhooks] allow_networks, or CREWLINE_WEBHOOK_ALLOW_NETWORKS).
LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))


def verify(secret: str, header: str, body: bytes, *, now: float | None = None) -> bool:
    """``t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>." + body>``, fresh within 5 minutes."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    if "t" not in fields or "v1" not in fields or not fields["t"].isdigit():
        return False
    if abs((now or time.time()) - int(fields["t"])) > TOLERANCE:
        return False
    expected = hmac.new(secret.encode(), fields["t"].encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest(expected.hexdigest(), fields["v1"])


@dataclass(frozen=True, kw_only=True, slots=True)
class Delivery:
    """One request the receiver got, and what it answered."""

    cursor: int
    kind: str
    body: dict[str, Any]
    headers: dict[str, str]
    verified: bool
    status: int


class Receiver:
    """``async with Receiver(secret) as r``: ``r.url`` takes deliveries; ``r.accepted`` are
    the distinct cursors answered 2xx, in the order first accepted."""

    def __init__(self, secret: str) -> None:
        self.secret = secret
        self.deliveries: list[Delivery] = []
        self.failures: dict[int, int] = {}  # cursor -> how many more times to answer 503
        self.hold = asyncio.Event()  # cleared: requests wait until it is set
        self.hold.set()
        self.inflight = 0
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._url: str | None = None

    async def __aenter__(self) -> Receiver:
        app = web.Application()
        app.router.add_post("/hook", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        await web.SockSite(self._runner, sock).start()
        self._url = f"http://127.0.0.1:{sock.getsockname()[1]}/hook"
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.hold.set()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def url(self) -> str:
        assert self._url is not None, "the receiver is not started"
        return self._url

    @property
    def accepted(self) -> list[int]:
        seen: list[int] = []
        for delivery in self.deliveries:
            if delivery.status == 200 and delivery.cursor not in seen:
                seen.append(delivery.cursor)
        return seen

    def tries(self, cursor: int) -> int:
        return sum(d.cursor == cursor for d in self.deliveries)

    async def wait_until(self, condition: Callable[[], bool], *, timeout: float = WAIT) -> None:
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(condition)

    async def _handle(self, request: web.Request) -> web.Response:
        raw = await request.read()
        body = json.loads(raw)
        verified = verify(self.secret, request.headers.get("X-Crewline-Signature", ""), raw)
        self.inflight += 1
        await self._notify()
        try:
            await self.hold.wait()
        finally:
            self.inflight -= 1
        cursor = int(body["cursor"])
        status = 200 if verified else 401
        if status == 200 and self.failures.get(cursor, 0) > 0:
            self.failures[cursor] -= 1
            status = 503
        self.deliveries.append(
            Delivery(
                cursor=cursor,
                kind=body["kind"],
                body=body,
                headers=dict(request.headers),
                verified=verified,
                status=status,
            )
        )
        await self._notify()
        return web.json_response({"ok": status == 200}, status=status)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()
