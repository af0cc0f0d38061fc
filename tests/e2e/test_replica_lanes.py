"""What a lane held by another replica costs the replica that is woken for it: the lease
request, refused, and no read of the lane's head; once the holder lets the lane go, the
next wake takes it and sends what it holds. A poll that finds the lane's head asks for
nothing: one read of the leases says the lane is held elsewhere."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import AsyncExitStack
from datetime import UTC, datetime

from crewline.models import Bell, Member, OutboundMessage, RosterEntry
from crewline.replication.replicas import Claim, LaneClaims, Lease, holder_tag
from crewline.store import OutboxEntry, Tx
from crewline.store.postgres import PostgresStore
from crewline.store.postgres_coordination import PostgresCoordination
from crewline.transports.memory import MemoryTransport
from crewline.transports.outbox import OutboxDispatcher
from tests.e2e.replica_kit import WAIT, until

NOW = datetime(2026, 12, 5, tzinfo=UTC)
PREFIX = "outbox:memory:"


class CountedStore(PostgresStore):
    """PostgresStore, counting its reads of each lane's outbox head (as each starts) and
    of every lane's (a poll's, once each is answered)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.head_reads: Counter[str] = Counter()
        self.polls = 0

    async def outbox_heads(self, transport: str) -> list[OutboxEntry]:
        try:
            return await super().outbox_heads(transport)
        finally:
            self.polls += 1

    async def outbox_head(self, transport: str, lane: str) -> OutboxEntry | None:
        self.head_reads[lane] += 1
        return await super().outbox_head(transport, lane)


class CountedCoordination(PostgresCoordination):
    """PostgresCoordination, counting the lease requests it made (once each is answered)
    and its reads of the leases held elsewhere."""

    def __init__(self, url: str, holder: str) -> None:
        super().__init__(url, holder)
        self.requests: Counter[str] = Counter()
        self.lease_reads = 0

    async def held_elsewhere(self, prefix: str) -> set[str]:
        try:
            return await super().held_elsewhere(prefix)
        finally:
            self.lease_reads += 1

    async def acquire(self, name: str, ttl: float, *, from_gone: bool = False) -> Lease | None:
        try:
            return await super().acquire(name, ttl, from_gone=from_gone)
        finally:
            self.requests[name] += 1


class NothingToDraw:
    """The core's renderer for records that are gone: each entry is settled unsent."""

    async def message(
        self, object_key: str, *, unchanged: bool = False
    ) -> tuple[Member, OutboundMessage] | None:
        return None

    async def bell(self, object_key: str) -> Bell | None:
        return None

    async def roster(self) -> list[RosterEntry]:
        return []


def queue(lane: str) -> Callable[[Tx], int]:
    def queued(tx: Tx) -> int:
        return tx.enqueue(transport="memory", lane=lane, op="post", object_key="x", now=NOW)

    return queued


async def test_a_lane_last_found_held_elsewhere_is_asked_for_before_its_head_is_read(
    postgres_url: str,
) -> None:
    async with (
        CountedStore(postgres_url) as store,
        CountedCoordination(postgres_url, holder_tag("a")) as a,
        PostgresCoordination(postgres_url, holder_tag("b")) as b,
    ):
        held_by_b = LaneClaims(b, PREFIX)
        assert await held_by_b.hold("radar") is Claim.HELD
        outbox = OutboxDispatcher(
            store,
            MemoryTransport("memory"),
            NothingToDraw(),
            poll_interval=WAIT * 10,  # no poll but the start's: only wakes start the lane
            claims=LaneClaims(a, PREFIX),
        )
        async with outbox:

            async def polled() -> bool:
                return store.polls == 1

            await until(polled)  # the start's poll found nothing
            await store.write(queue("radar"))

            async def refused(times: int) -> bool:
                return a.requests[PREFIX + "radar"] == times

            outbox.wake(["radar"])  # a commit's wake: the head read, then refused
            await until(lambda: refused(1))
            assert store.head_reads["radar"] == 1
            outbox.wake(["radar"])
            await until(lambda: refused(2))
            assert store.head_reads["radar"] == 1  # asked for first: refused, nothing read
            assert await store.outbox_size("memory") == 1

            await held_by_b.release("radar")
            outbox.wake(["radar"])

            async def sent() -> bool:
                return await store.outbox_size("memory") == 0

            await until(sent)
            assert a.requests[PREFIX + "radar"] == 3


async def test_a_poll_leaves_a_lane_held_elsewhere_alone_until_its_holder_is_gone(
    postgres_url: str,
) -> None:
    async with (
        CountedStore(postgres_url) as store,
        CountedCoordination(postgres_url, holder_tag("a")) as a,
        AsyncExitStack() as b_runs,
    ):
        await store.write(queue("radar"))
        b = await b_runs.enter_async_context(PostgresCoordination(postgres_url, holder_tag("b")))
        assert await LaneClaims(b, PREFIX).hold("radar") is Claim.HELD
        outbox = OutboxDispatcher(
            store,
            MemoryTransport("memory"),
            NothingToDraw(),
            poll_interval=WAIT * 10,  # no poll but the start's and the wakes' below
            claims=LaneClaims(a, PREFIX),
        )
        async with outbox:

            async def left(size: int) -> bool:
                return await store.outbox_size("memory") == size

            async def read_leases() -> bool:
                return a.lease_reads == 1

            await until(read_leases)  # the start's poll: radar's head, held by b
            await store.write(queue("free"))
            outbox.wake()  # a poll: free is started and sent, radar is left alone
            await until(lambda: left(1))
            assert a.lease_reads == 2
            assert a.requests[PREFIX + "radar"] == 0  # not asked for, at either poll
            assert store.head_reads["radar"] == 0

            await b_runs.aclose()  # b is gone: its connections closed, its lease kept

            async def taken_over() -> bool:
                outbox.wake()  # polls until the database has seen b's connections end
                return await left(0)

            await until(taken_over)
            assert a.requests[PREFIX + "radar"] >= 1
