"""A round-robin load balancer on loopback, in front of several crewline replicas.

What a platform's requests meet in front of replicas (HAProxy's ``balance roundrobin`` with
``option redispatch``, as in ``deploy/replicas/haproxy.cfg``): each request goes to the next
backend in turn; a backend that refuses the connection (a replica killed and not yet back)
is skipped and the request sent to the next one, since nothing of it was sent; a request cut
off after it was sent (the replica died while handling it) is answered 502, as a proxy must:
it cannot know what was done, so the platform's own retry decides (Slack and Telegram send
the same event again). Backends are named, so a test can see which replica served what and
point a name at the new port of a replica started again.
"""

from __future__ import annotations

import itertools
from collections import Counter

import aiohttp
from aiohttp import web

__all__ = ["RoundRobinProxy"]

_HOP_BY_HOP = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade"}
)


class RoundRobinProxy:
    """``async with RoundRobinProxy() as proxy``; ``proxy.backends[name] = url`` (None:
    known down); requests to ``proxy.url`` are spread over the backends in turn."""

    def __init__(self) -> None:
        self.backends: dict[str, str | None] = {}
        self.url = ""
        self.served: Counter[str] = Counter()  # requests answered by each backend
        self.redispatched = 0  # requests moved on from a backend that refused the connection
        self.cut_off = 0  # requests answered 502: the backend died while handling them
        self._turn = itertools.count()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> RoundRobinProxy:
        app = web.Application(client_max_size=1 << 20)
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP_BY_HOP}
        names = list(self.backends)
        for _ in range(len(names)):
            name = names[next(self._turn) % len(names)]
            backend = self.backends.get(name)
            if backend is None:
                continue
            try:
                async with self._session.request(
                    request.method, backend + request.path_qs, data=body, headers=headers
                ) as answer:
                    payload = await answer.read()
                    kept = {k: v for k, v in answer.headers.items() if k.lower() not in _HOP_BY_HOP}
            except aiohttp.ClientConnectorError:
                self.redispatched += 1
                continue  # refused: nothing was sent, so the next backend may have it
            except (aiohttp.ClientError, TimeoutError):
                self.cut_off += 1
                return web.Response(status=502, text="the backend went away mid-request")
            self.served[name] += 1
            return web.Response(status=answer.status, body=payload, headers=kept)
        return web.Response(status=503, text="no backend is up")
