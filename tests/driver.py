"""The end-to-end driver: crewline running for real over the harnesses' transports."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Sequence
from typing import Any

import httpx

from crewline import crew as crew_admin
from crewline.app.crew_watch import WATCH_INTERVAL
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.models import Bell, CallerKind
from crewline.testing import FakeClock
from tests.bounds import WAIT
from tests.harness import Harness

# One TLS context for every client the driver opens: httpx builds a new one per client
# otherwise, loading the whole CA bundle (some 25 ms of CPU) for a loopback ``http://`` call
# that never uses it — thousands of times a run, one per ``call``.
LOOPBACK_TLS = ssl.create_default_context()


class Crew:
    """crewline serving over real HTTP with the harnesses' transports; restartable."""

    def __init__(
        self,
        config: Config,
        clock: FakeClock,
        harnesses: Sequence[Harness],
        *,
        outbox_poll_interval: float = 0.2,
        crew_watch_interval: float = WATCH_INTERVAL,
    ) -> None:
        """``crew_watch_interval``: seconds between the server's looks for crew writes made
        beside it (``add_member`` here); each look that finds one wakes every outbox lane."""
        self.config = config
        self.clock = clock
        self.harnesses = list(harnesses)
        self.outbox_poll_interval = outbox_poll_interval
        self.crew_watch_interval = crew_watch_interval
        self.running: Crewline | None = None

    @property
    def harness(self) -> Harness:
        return self.harnesses[0]

    async def start(self) -> None:
        self.running = Crewline(
            self.config,
            transports=[h.transport() for h in self.harnesses],
            clock=self.clock,
            outbox_poll_interval=self.outbox_poll_interval,
            # The suites judge cards by what the platforms show, not by the reply's delivery
            # (tests/e2e/test_first_run.py does): replies come back as soon as committed, so
            # a timer armed at the commit is not raced by a wait for the platform.
            delivery_wait=0.0,
            crew_watch_interval=self.crew_watch_interval,
        )
        await self.running.__aenter__()
        for harness in self.harnesses:
            harness.serving(self.running.url)

    async def stop(self) -> None:
        if self.running is not None:
            await self.running.__aexit__(None, None, None)
            self.running = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    @property
    def crewline(self) -> Crewline:
        assert self.running is not None, "crewline is not running"
        return self.running

    @property
    def url(self) -> str:
        return self.crewline.url

    async def add_member(
        self, slug: str = "radar", name: str = "Radar", *, stateless: bool = False
    ) -> str:
        created = await crew_admin.add_member(
            self.crewline.store,
            slug=slug,
            name=name,
            owners=[f"{h.name}:{h.owner}" for h in self.harnesses],
            transports=[h.name for h in self.harnesses],
            stateless=stateless,
        )
        return created.key

    async def add_session(self, kind: str, member: str | None = None) -> str:
        created = await crew_admin.add_session(
            self.crewline.store, kind=CallerKind(kind), member=member
        )
        return created.key

    async def owner_token(self) -> str:
        return await crew_admin.issue_owner_token(self.crewline.store)

    def client(self, key: str | None = None, *, timeout: float = WAIT) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.AsyncClient(
            base_url=self.url, headers=headers, timeout=timeout, verify=LOOPBACK_TLS
        )

    async def call(self, key: str | None, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async with self.client(key) as client:
            return await client.request(method, path, **kwargs)

    async def escalate(self, key: str, **body: Any) -> dict[str, Any]:
        response = await self.call(key, "POST", "/api/session-control/escalate", json=body)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    async def events(self, key: str, *, after: int = 0, wait: float = 0) -> list[dict[str, Any]]:
        response = await self.call(
            key, "GET", "/api/session/events", params={"after": after, "wait": wait}
        )
        assert response.status_code == 200, response.text
        events: list[dict[str, Any]] = response.json()["events"]
        return events

    async def wait_for_event(self, key: str, kind: str, *, timeout: float = WAIT) -> dict[str, Any]:
        """Long-poll the session's stream until an event of ``kind`` arrives (bounded by
        ``timeout`` seconds of the loop's time, however many other events come first)."""
        cursor = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with self.client(key) as client:
            while (left := deadline - loop.time()) > 0:
                response = await client.get(
                    "/api/session/events", params={"after": cursor, "wait": min(left, 5)}
                )
                for event in response.json()["events"]:
                    if event["kind"] == kind:
                        return dict(event)
                    cursor = event["cursor"]
        raise AssertionError(f"no {kind} event within {timeout}s")

    async def delivered(self, *, timeout: float = WAIT) -> None:
        """Wait (bounded) until every transport runs and its outbox is drained.

        A transport under a lease (PostgreSQL) has no outbox while the lease is lost — a
        stalled event loop on a loaded machine misses a renewal — and its queue waits until
        the lease is taken back; so it is waited for, not skipped as if it had nothing to
        send."""
        running = self.crewline
        async with asyncio.timeout(timeout):
            while True:
                for transport in running.transports:
                    lease = running.leases.get(transport.name)
                    if lease is not None:
                        await lease.wait(held=True, timeout=timeout)
                    outbox = running.outboxes.get(transport.name)
                    if outbox is not None:
                        await outbox.wait_idle(timeout=timeout)
                if all(t.name in running.outboxes for t in running.transports):
                    return

    async def lane_tried(self, transport: str, lane: str, *, timeout: float = WAIT) -> None:
        """Wait (bounded) until the outbox has tried the head of ``lane``: sent it, or
        failed and scheduled a retry (a test driving what a lane does before another)."""
        store = self.crewline.store
        async with asyncio.timeout(timeout):
            while (head := await store.outbox_head(transport, lane)) is not None:
                if head.attempts > 0:
                    return
                await asyncio.sleep(0.02)

    async def conversation(self, slug: str = "radar") -> dict[str, Any]:
        token = await self.owner_token()
        response = await self.call(token, "GET", f"/api/members/{slug}/conversation")
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result


def bell_for(slug: str, name: str, *, group: str = "first") -> Bell:
    """A member's bell as the outbox rings it for one escalation, to ring by hand."""
    return Bell(
        group_key=f"escalation:{slug}:{group}",
        member=slug,
        title=f"{name} needs you",
        body=f"{name} needs you with a request.",
        count=1,
    )
