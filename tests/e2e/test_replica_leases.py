"""Single-connection transports under a lease: of two replicas on one PostgreSQL only one
long-polls Telegram (no 409 Conflict from the fake while both run), the other takes over
when the holder stops, a silent holder's lease is taken once it expires, and a holder
whose lease was taken stops at once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx
import psycopg
import pytest

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.ops.doctor import examine
from crewline.replication.replicas import holder_tag
from crewline.replication.transport_lease import TransportLease
from crewline.store.postgres import PostgresStore
from crewline.store.postgres_coordination import PostgresCoordination
from crewline.testing import FakeClock
from tests.bounds import HTTP_TIMEOUT
from tests.e2e.replica_kit import BOUND, TTL, StallClock, replica
from tests.fakes.telegram import Call
from tests.harnesses.telegram import TelegramHarness


@pytest.fixture
async def telegram() -> AsyncIterator[TelegramHarness]:
    made = TelegramHarness()
    async with made.running() as running:
        yield running


def _conflicts(calls: list[Call], *, since: int = 0) -> list[Call]:
    return [c for c in calls[since:] if c.method == "getUpdates" and c.status == 409]


async def _holder(*replicas: Crewline) -> Crewline:
    """The replica that took the Telegram lease (waiting, bounded, for one to)."""
    waits = {asyncio.ensure_future(r.leases["telegram"].wait(held=True, timeout=BOUND)): r
             for r in replicas}  # fmt: skip
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    for task in done:
        task.result()  # raises TimeoutError if none took it
    return waits[done.pop()]


async def _escalate_and_answer(
    replica: Crewline, key: str, telegram: TelegramHarness, text: str
) -> None:
    """An escalation through ``replica``'s API; its card reaches Telegram (sent by the
    holder's outbox) and the owner's press comes back through the holder's polling."""
    async with httpx.AsyncClient(base_url=replica.url, timeout=HTTP_TIMEOUT) as client:
        response = await client.post(
            "/api/session-control/escalate",
            json={"message": text, "options": ["yes", "no"]},
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 200, response.text
    record = response.json()["escalation_id"]
    await telegram.wait_until(
        lambda: any(text in c.text and c.buttons for c in telegram.cards("radar")), timeout=BOUND
    )
    card = next(c for c in telegram.cards("radar") if text in c.text)
    await telegram.press("radar", card, 0)
    settled = await replica.store.escalation(record)
    assert settled is not None and settled.state.value == "answered"


async def test_one_replica_polls_telegram_and_the_other_takes_over_when_it_stops(
    tmp_path: Path, postgres_url: str, clock: FakeClock, telegram: TelegramHarness
) -> None:
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    a, b = replica(config, "a", telegram, clock), replica(config, "b", telegram, clock)
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(a)
        await stack.enter_async_context(b)
        created = await crew_admin.add_member(
            a.store,
            slug="radar",
            name="Radar",
            owners=[f"telegram:{telegram.owner}"],
            transports=["telegram"],
        )
        holder = await _holder(a, b)
        standby = b if holder is a else a
        assert not standby.leases["telegram"].status().held
        assert "telegram" not in standby.outboxes  # its outbox runs with its connection
        await _escalate_and_answer(standby, created.key, telegram, "First?")
        assert _conflicts(telegram.fake.calls) == []  # one poller in steady state
        ready = await _readyz(standby)
        assert "standby" in str(ready["transport:telegram"]["detail"]), ready
        assert ready["replica"]["ok"], ready
        found = {f.check: f for f in await examine(replace(config, data_dir=tmp_path / "a"))}
        lease = found["lease:telegram"]
        assert lease.status == "ok" and f"replica {holder.replica}/" in lease.detail, lease

        seen = len(telegram.fake.calls)
        await holder.__aexit__(None, None, None)  # a deploy stops it; it releases the lease
        await standby.leases["telegram"].wait(held=True, timeout=BOUND)
        await _escalate_and_answer(standby, created.key, telegram, "Second?")
        # Only the stopped poller's last request may have been cut off by the new one.
        assert len(_conflicts(telegram.fake.calls, since=seen)) <= 1
        steady = len(telegram.fake.calls)
        await _escalate_and_answer(standby, created.key, telegram, "Third?")
        assert _conflicts(telegram.fake.calls, since=steady) == []


async def _readyz(replica: Crewline) -> dict[str, dict[str, object]]:
    async with httpx.AsyncClient(base_url=replica.url, timeout=HTTP_TIMEOUT) as client:
        response = await client.get("/readyz")
    assert response.status_code == 200, response.text
    checks: dict[str, dict[str, object]] = response.json()["checks"]
    return checks


async def test_a_silent_holders_lease_is_taken_over_once_it_expires(postgres_url: str) -> None:
    """A replica that died holding the lease never releases it: another takes it only
    once it expires, within the bound, under a new epoch, knowing it was taken over."""
    async with PostgresStore(postgres_url):
        pass  # the migrations
    dead = PostgresCoordination(postgres_url, holder_tag("dead"))
    async with dead:
        taken = await dead.acquire("transport:telegram", TTL)
        assert taken is not None and taken.epoch == 1
    started: list[int] = []
    async with PostgresCoordination(postgres_url, holder_tag("live")) as live:

        async def start() -> None:
            started.append(1)

        async def stop() -> None:
            return None

        async with TransportLease(live, "telegram", start=start, stop=stop, ttl=TTL) as lease:
            assert not lease.status().held  # the dead one's lease has not expired yet
            await lease.wait(held=True, timeout=BOUND)
            assert started == [1] and lease.status().epoch == 2
            views = await live.leases("transport:")
            assert [v.holder for v in views] == [live.holder]


async def test_a_refused_acquire_writes_nothing_and_waits_for_no_lock(postgres_url: str) -> None:
    """A replica asking for a lease another live replica holds (a lane that one sends) is
    refused by a read: it neither writes nor takes the lease row's lock, so it is not held
    up by a transaction locking that row, and the holder's lease is untouched."""
    async with PostgresStore(postgres_url):
        pass  # the migrations
    async with (
        PostgresCoordination(postgres_url, holder_tag("holder")) as holder,
        PostgresCoordination(postgres_url, holder_tag("other")) as other,
    ):
        held = await holder.acquire("outbox:memory:radar", TTL, from_gone=True)
        assert held is not None
        with psycopg.connect(postgres_url) as conn:  # a transaction holding the row's lock
            conn.execute(
                "SELECT 1 FROM crewline_leases WHERE name = 'outbox:memory:radar' FOR UPDATE"
            )
            async with asyncio.timeout(BOUND):
                refused = await other.acquire("outbox:memory:radar", TTL, from_gone=True)
            assert refused is None
            conn.rollback()
        views = await other.leases("outbox:")
        assert [(v.holder, v.epoch) for v in views] == [(holder.holder, held.epoch)]
        assert await holder.renew(held, TTL)


async def test_a_holder_whose_lease_was_taken_stops_at_once(postgres_url: str) -> None:
    """Fencing: when another replica holds the lease under a newer epoch, the old holder's
    next renewal fails and it stops its transport, never running beside the new one."""
    stopped = asyncio.Event()
    async with PostgresStore(postgres_url):
        pass  # the migrations
    async with PostgresCoordination(postgres_url, holder_tag("old")) as old:

        async def start() -> None:
            return None

        async def stop() -> None:
            stopped.set()

        async with TransportLease(old, "discord", start=start, stop=stop, ttl=TTL) as lease:
            await lease.wait(held=True, timeout=BOUND)
            with psycopg.connect(postgres_url, autocommit=True) as conn:  # a long pause, say
                conn.execute(
                    "UPDATE crewline_leases SET expires_at = clock_timestamp()"
                    " - interval '1 second' WHERE name = 'transport:discord'"
                )
            async with PostgresCoordination(postgres_url, holder_tag("new")) as new:
                taken = await new.acquire("transport:discord", TTL)
                assert taken is not None and taken.taken_over and taken.epoch == 2
                async with asyncio.timeout(BOUND):
                    await stopped.wait()
                assert not lease.status().held
                assert not await old.renew(taken, TTL)  # not even with the new epoch


async def test_a_holder_whose_loop_stalled_past_its_lease_polls_no_more(
    tmp_path: Path, postgres_url: str, clock: FakeClock, telegram: TelegramHarness
) -> None:
    """The holder's clock jumps past its lease's deadline (the stall as the holder sees it;
    the database lets the lease expire for real, since nobody renews it). Every task of the
    holder that runs afterwards finds its time gone: not one getUpdates more from it —
    neither a long poll nor the last confirmation as polling stops — before the standby has
    taken over (its getMe; the lease taken anew, by either replica); no 409 Conflict;
    polling then goes on and presses are answered."""
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    clocks = {"a": StallClock(), "b": StallClock()}
    a, b = (replica(config, n, telegram, clock, lease_clock=clocks[n]) for n in "ab")
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(a)
        await stack.enter_async_context(b)
        created = await crew_admin.add_member(
            a.store,
            slug="radar",
            name="Radar",
            owners=[f"telegram:{telegram.owner}"],
            transports=["telegram"],
        )
        holder = await _holder(a, b)
        await _escalate_and_answer(a, created.key, telegram, "Before?")
        polls = telegram.fake.calls_to("getUpdates")
        # A long poll fits between two renewals with the fence's margin to spare.
        assert 0 < float(polls[-1].params["timeout"]) <= TTL / 3 + 1e-3, polls[-1].params

        takeovers = sum(r.leases["telegram"].status().takeovers for r in (a, b))
        # The stall lands while the holder's long poll is open at Telegram, not in the moment
        # between its fence check and its bytes reaching the fake: a poll in that moment has
        # passed its check and goes out (the fence's margin is for exactly that gap), and the
        # fake would record it after ``stalled_at``.
        await telegram.fake.wait_for(lambda: telegram.fake.long_poll_open)
        stalled_at = time.monotonic()
        clocks[holder.replica or ""].stalled = TTL  # the whole lease went by in the stall
        await holder.leases["telegram"].wait(held=False, timeout=BOUND)
        # Whichever replica takes the expired lease next (the stalled one, awake again, may).
        successor = await _holder(a, b)
        assert sum(r.leases["telegram"].status().takeovers for r in (a, b)) == takeovers + 1
        assert successor.leases["telegram"].status().held
        took_over = min(c.at for c in telegram.fake.calls_to("getMe") if c.at > stalled_at)
        late = [c for c in telegram.fake.calls_to("getUpdates") if stalled_at < c.at < took_over]
        assert late == [], late  # the poll open at the stall was sent before it
        other = b if successor is a else a
        await _escalate_and_answer(other, created.key, telegram, "After?")
        assert _conflicts(telegram.fake.calls) == []
