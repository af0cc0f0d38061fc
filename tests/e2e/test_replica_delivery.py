"""An escalation's reply says ``delivered`` only when its card was posted, whichever replica
posted it: with the member's outbox lane held by replica B, a request that lands on
replica A waits for B's recorded post, and says ``queued`` when B has not posted in time;
a request on the standby of a leased transport (Telegram polling) waits for the holder's.

B's platform accepts a post only when the test opens its gate, so B holds the lane for as
long as the test needs: the request on A comes while B's first card is still in the call.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import httpx

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.models import OutboundMessage
from crewline.testing import FakeClock
from crewline.transports.memory import MemoryTransport
from tests.e2e.replica_kit import BOUND, replica
from tests.harnesses.telegram import TelegramHarness

WAIT = 20.0  # bound of every wait below; A's delivery wait in the delivered case


class GatedPlatform(MemoryTransport):
    """The platform as replica B reaches it: a post is accepted once the gate opens."""

    def __init__(self) -> None:
        super().__init__("memory")
        self.gate = asyncio.Event()
        self.calling = asyncio.Event()  # a post is in the call, waiting on the gate

    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        self.calling.set()
        await self.gate.wait()
        return await super().post(thread, message, key=key, retry=retry, since=since)


@asynccontextmanager
async def _replicas(
    tmp_path: Path, postgres_url: str, clock: FakeClock, *, wait_on_a: float
) -> AsyncIterator[tuple[Crewline, MemoryTransport, GatedPlatform, str]]:
    """Replica A, with replica B holding the member's lane (B's first card in the call, its
    gate closed). A starts only once B holds the lane: started together, A's outbox could take
    the lane first (its scan beating B's own wake on a loaded machine), and the case under
    test would never arise."""
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    on_a, on_b = MemoryTransport("memory"), GatedPlatform()

    def gated(name: str, transport: MemoryTransport, wait: float) -> Crewline:
        return Crewline(
            replace(config, data_dir=config.data_dir / name, replica_id=name),
            transports=[transport],
            clock=clock,
            outbox_poll_interval=0.2,
            delivery_wait=wait,
            concierge=False,
        )

    async with gated("b", on_b, 0.0) as b:
        created = await crew_admin.add_member(
            b.store, slug="radar", name="Radar", owners=["memory:alice"], transports=["memory"]
        )
        first = await _escalate(b, created.key, "first")
        assert first["delivery"] == {"memory": "queued"}  # B's own wait is 0
        async with asyncio.timeout(WAIT):
            await on_b.calling.wait()
        async with gated("a", on_a, wait_on_a) as a:
            yield a, on_a, on_b, created.key


async def _escalate(replica: Crewline, key: str, message: str) -> dict[str, object]:
    async with httpx.AsyncClient(base_url=replica.url, timeout=WAIT * 2) as client:
        response = await client.post(
            "/api/session-control/escalate",
            json={"message": message, "options": ["yes", "no"]},
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 200, response.text
    result: dict[str, object] = response.json()
    return result


async def test_a_card_posted_by_the_replica_holding_its_lane_is_delivered(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    async with _replicas(tmp_path, postgres_url, clock, wait_on_a=WAIT) as (a, on_a, on_b, key):
        asking = asyncio.create_task(_escalate(a, key, "second"))
        async with asyncio.timeout(WAIT):  # the request's card is queued behind B's first
            while len(await a.store.escalations("radar")) < 2:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        assert not asking.done()
        on_b.gate.set()
        reply = await asking
        assert reply["delivery"] == {"memory": "delivered"}
        # B posted both cards; A's platform was never called.
        assert len(on_b.messages) == 2 and on_a.calls.count("post") == 0


async def test_a_card_the_lane_holder_has_not_posted_in_time_is_queued(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    async with _replicas(tmp_path, postgres_url, clock, wait_on_a=0.3) as (a, on_a, on_b, key):
        reply = await _escalate(a, key, "second")
        assert reply["delivery"] == {"memory": "queued"}
        assert not on_b.messages  # truthful: nothing was posted yet
        on_b.gate.set()
        await on_b.wait_until(lambda: len(on_b.messages) == 2, timeout=WAIT)
        assert on_a.calls.count("post") == 0


async def test_a_card_the_leased_transports_holder_posted_is_delivered_on_the_standby(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    telegram = TelegramHarness()
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    async with telegram.running(), contextlib.AsyncExitStack() as stack:
        a = await stack.enter_async_context(
            replica(config, "a", telegram, clock, delivery_wait=BOUND)
        )
        await a.leases["telegram"].wait(held=True, timeout=BOUND)
        b = await stack.enter_async_context(
            replica(config, "b", telegram, clock, delivery_wait=BOUND)
        )
        assert "telegram" not in b.outboxes  # b is the standby: a sends
        created = await crew_admin.add_member(
            a.store, slug="radar", name="Radar", owners=[f"telegram:{telegram.owner}"],
            transports=["telegram"],
        )  # fmt: skip
        reply = await _escalate(b, created.key, "on the standby")
        assert reply["delivery"] == {"telegram": "delivered"}
        assert [c for c in telegram.cards("radar") if "on the standby" in c.text]
