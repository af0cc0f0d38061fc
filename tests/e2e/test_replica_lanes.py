"""What a lane held by another replica costs the replica that is woken for it: the lease
request, refused, and no read of the lane's head; once the holder lets the lane go, the
next wake takes it and sends what it holds."""

from __future__ import annotations

from collections import Counter
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
    """PostgresStore, counting its reads of each lane's outbox head."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.head_reads: Counter[str] = Counter()

    async def outbox_head(self, transport: str, lane: str) -> OutboxEntry | None:
        self.head_reads[lane] += 1
        return await super().outbox_head(transport, lane)


class CountedCoordination(PostgresCoordination):
    """PostgresCoordination, counting the lease requests it made (once each is answered)."""

    def __init__(self, url: str, holder: str) -> None:
        super().__init__(url, holder)
        self.requests: Counter[str] = Counter()

    async def acquire(self, name: str, ttl: float, *, from_gone: bool = False) -> Lease | None:
        try:
            return await super().acquire(name, ttl, from_gone=from_gone)
        finally:
            self.requests[name] += 1


class NothingToDraw:
    """The core's renderer for records that are gone: each entry is settled unsent."""

    async def message(self, object_key: str) -> tuple[Member, OutboundMessage] | None:
        return None

    async def bell(self, object_key: str) -> Bell | None:
        return None

    async def roster(self) -> list[RosterEntry]:
        return []


async def test_a_lane_last_found_held_elsewhere_is_asked_for_before_its_head_is_read(
    postgres_url: str,
) -> None:
    def queue(tx: Tx) -> int:
        return tx.enqueue(transport="memory", lane="radar", op="post", object_key="x", now=NOW)

    async with (
        CountedStore(postgres_url) as store,
        CountedCoordination(postgres_url, holder_tag("a")) as a,
        PostgresCoordination(postgres_url, holder_tag("b")) as b,
    ):
        await store.write(queue)
        held_by_b = LaneClaims(b, PREFIX)
        assert await held_by_b.hold("radar") is Claim.HELD
        outbox = OutboxDispatcher(
            store,
            MemoryTransport("memory"),
            NothingToDraw(),
            poll_interval=WAIT * 10,  # no poll: only the wakes below start the lane
            claims=LaneClaims(a, PREFIX),
        )
        async with outbox:

            async def refused(times: int) -> bool:
                return a.requests[PREFIX + "radar"] == times

            await until(lambda: refused(1))  # the start's scan: the head read, then refused
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
