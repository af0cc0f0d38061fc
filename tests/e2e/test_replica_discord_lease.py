"""The Discord gateway under a lease: of two replicas on one PostgreSQL only one opens a
gateway session (the fake counts IDENTIFYs), escalations through the standby's API reach the
owner's thread through the holder, the other replica takes the gateway over when the holder
stops, and no message the owner typed in the member's thread is handled twice."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.errors import TransientTransportError
from crewline.testing import FakeClock
from tests.bounds import HTTP_TIMEOUT
from tests.driver import bell_for
from tests.e2e.replica_kit import BOUND, TTL, StallClock, replica
from tests.fakes.discord import Json
from tests.harnesses.discord import DiscordHarness


@pytest.fixture
async def discord() -> AsyncIterator[DiscordHarness]:
    made = DiscordHarness()
    async with made.running() as running:
        yield running


async def _holder(*replicas: Crewline) -> Crewline:
    """The replica that took the Discord lease (waiting, bounded, for one to)."""
    waits = {asyncio.ensure_future(r.leases["discord"].wait(held=True, timeout=BOUND)): r
             for r in replicas}  # fmt: skip
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    for task in done:
        task.result()  # raises TimeoutError if none took it
    return waits[done.pop()]


async def _escalate(replica: Crewline, key: str, text: str) -> str:
    async with httpx.AsyncClient(base_url=replica.url, timeout=HTTP_TIMEOUT) as client:
        response = await client.post(
            "/api/session-control/escalate",
            json={"message": text, "options": ["yes", "no"]},
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 200, response.text
    record: str = response.json()["escalation_id"]
    return record


async def _answer_on_discord(
    replica: Crewline, key: str, discord: DiscordHarness, text: str
) -> None:
    """An escalation through ``replica``'s API; its card reaches the owner's thread (sent by
    the holder's outbox) and the owner's press comes back through the holder's gateway."""
    record = await _escalate(replica, key, text)
    await discord.wait_until(
        lambda: any(text in m.text and m.buttons for m in discord.messages("radar")),
        timeout=BOUND,
    )
    card = next(m for m in discord.messages("radar") if text in m.text)
    await discord.press("radar", card, 0)
    settled = await replica.store.escalation(record)
    assert settled is not None and settled.state.value == "answered"


async def _say_once(discord: DiscordHarness, text: str) -> str:
    """The owner types in the member's thread; exactly one replica answers it."""
    sent = await discord.fake.send_message(
        discord.thread_id("radar"), text, author=discord.user(None)
    )
    await discord.receipt(str(sent.id), timeout=BOUND)
    return str(sent.id)


async def test_one_replica_holds_the_discord_gateway_and_the_other_takes_over(
    tmp_path: Path, postgres_url: str, clock: FakeClock, discord: DiscordHarness
) -> None:
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    a, b = replica(config, "a", discord, clock), replica(config, "b", discord, clock)
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(a)
        await stack.enter_async_context(b)
        created = await crew_admin.add_member(
            a.store,
            slug="radar",
            name="Radar",
            owners=[f"discord:{discord.owner}"],
            transports=["discord"],
        )
        holder = await _holder(a, b)
        standby = b if holder is a else a
        await discord.fake.wait_for_ready(count=1, timeout=BOUND)
        assert not standby.leases["discord"].status().held
        assert "discord" not in standby.outboxes  # its outbox runs with its connection
        await _answer_on_discord(standby, created.key, discord, "First?")
        typed = [await _say_once(discord, f"note {n}") for n in range(3)]
        # One gateway session in steady state: the standby never identified.
        assert discord.fake.identifies == 1
        assert len(discord.fake.gateway_connections) == 1

        await holder.__aexit__(None, None, None)  # a deploy stops it; it releases the lease
        await standby.leases["discord"].wait(held=True, timeout=BOUND)
        await discord.fake.wait_for_ready(count=2, timeout=BOUND)
        await _answer_on_discord(standby, created.key, discord, "Second?")
        typed += [await _say_once(discord, f"later {n}") for n in range(3)]
        assert discord.fake.identifies == 2  # the new holder's one session, nobody else's

        # Every typed message and press was answered by exactly one replica.
        assert {event: len(discord.receipts(event)) for event in typed} == dict.fromkeys(typed, 1)
        pressed = [e.event_id for e, _ in discord.handled_events]
        assert len(pressed) == len(set(pressed)), pressed


def _bells(discord: DiscordHarness) -> list[Json]:
    crew = discord.fake.messages(discord.fake.crew_channel_id)
    return [m for m in crew if "needs you" in str(m.get("content")) + str(m.get("embeds"))]


async def test_a_holder_whose_loop_stalled_past_its_lease_calls_discord_no_more(
    tmp_path: Path, postgres_url: str, clock: FakeClock, discord: DiscordHarness
) -> None:
    """The holder's clock jumps past its lease's deadline (a stall as the holder sees it)
    before its lease's task has run again. A bell it rings then is refused, not one call of
    it reaching Discord (the outbox keeps the entry): the replica that takes the gateway
    over rings that bell too, and the crew channel shows it once."""
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    clocks = {"a": StallClock(), "b": StallClock()}
    a, b = (replica(config, n, discord, clock, lease_clock=clocks[n]) for n in "ab")
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(a)
        await stack.enter_async_context(b)
        await crew_admin.add_member(
            a.store, slug="radar", name="Radar", owners=[f"discord:{discord.owner}"],
            transports=["discord"],
        )  # fmt: skip
        holder = await _holder(a, b)
        await discord.fake.wait_for_ready(count=1, timeout=BOUND)
        await holder.outboxes["discord"].wait_idle(timeout=BOUND)  # the roster drawn
        lease = holder.leases["discord"]
        # Just renewed: its task sleeps until a third of the lease has gone by.
        assert await lease.runway(TTL - lease.margin)
        calls = len(discord.fake.calls)
        clocks[holder.replica or ""].stalled = TTL  # the whole lease went by in the stall
        bell = bell_for("radar", "Radar")
        with pytest.raises(TransientTransportError) as refused:
            await holder.transport("discord").ring(bell, message_ref=None)
        # Refused by the fence, or, had the lease's task run first, by the stopped transport.
        assert refused.value.code in {"lease_ending", "discord_not_connected"}, refused.value
        assert discord.fake.calls[calls:] == [], "the stalled holder called Discord"
        await lease.wait(held=False, timeout=BOUND)
        successor = await _holder(a, b)  # either: the stalled one, awake again, may
        await discord.fake.wait_for_ready(count=2, timeout=BOUND)
        await successor.transport("discord").ring(bell, message_ref=None)
        assert len(_bells(discord)) == 1, _bells(discord)
