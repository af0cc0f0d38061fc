"""The ordering guarantees of the Store port, on every store, through the port alone.

Each test makes two transactions commit in the order opposite to the one in which they took
their cursor or outbox id, where the store lets them overlap at all: transaction A takes its
value and then holds its transaction open (when it runs on a worker thread; a store that runs
transactions on the loop, one after another, cannot overlap them), while B takes the next
value and tries to commit. A reader in between must never be able to page past A's value.
On a store that hands out ids from a plain sequence, B commits first and the test fails.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import pytest

from crewline.models import Escalation
from crewline.store import Store, Tx
from crewline.store.open import open_store

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
HOLD = 10.0  # seconds A holds its transaction open at most (released long before)
OVERTAKE = 1.0  # how long B gets to commit ahead of A, were the store to let it
T = TypeVar("T")


@dataclass
class Held:
    """Transaction A: runs ``step``, then (off the loop) waits to be released."""

    loop_thread: int = field(default_factory=threading.get_ident)
    took: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def wrap(self, step: Callable[[Tx], T]) -> Callable[[Tx], T]:
        def run(tx: Tx) -> T:
            result = step(tx)
            self.took.set()
            if threading.get_ident() != self.loop_thread:
                self.release.wait(HOLD)
            return result

        return run


async def _overlap(
    store: Store, step: Callable[[Tx], object], read: Callable[[], object]
) -> tuple[asyncio.Task[object], asyncio.Task[object], Held]:
    """Start A (held) and B (the same step), give B the chance to commit first, then
    ``read`` while A is still open; A is released afterwards."""
    held = Held()
    a = asyncio.create_task(store.write(held.wrap(step)))
    assert await asyncio.to_thread(held.took.wait, HOLD), "transaction A ran"
    b = asyncio.create_task(store.write(step))
    await asyncio.wait({b}, timeout=OVERTAKE)
    await read()  # type: ignore[misc]
    held.release.set()
    await asyncio.gather(a, b)
    return a, b, held


async def test_an_event_committed_late_is_not_paged_past(store: Store) -> None:
    """A reader that advances its cursor over what it read never skips an event."""
    seen: list[int] = []

    async def read() -> None:
        seen.extend(e.cursor for e in await store.events_after("s", 0))

    await _overlap(store, lambda tx: tx.add_event("s", "k", {}, NOW), read)
    cursor = max(seen, default=0)
    seen.extend(e.cursor for e in await store.events_after("s", cursor))
    assert len(seen) == 2, f"the reader saw cursors {seen}: one was paged past"
    assert sorted(seen) == [e.cursor for e in await store.events_after("s", 0)]


async def test_a_redraw_covers_only_entries_committed_before_it_read(store: Store) -> None:
    """A redraw settles the entries it read before rendering; one committed later stays,
    whichever of the two got the smaller id."""
    covered: list[int] = []

    def edit(tx: Tx) -> int:
        return tx.enqueue(
            transport="memory", lane="L", op="update", object_key="card:x", now=NOW,
            ordered=False,
        )  # fmt: skip

    async def read() -> None:
        covered.extend(await store.outbox_object_ids("memory", "L", "update", "card:x"))

    await _overlap(store, edit, read)
    await store.write(lambda tx: tx.settle_outbox_entries(covered))
    left = await store.outbox_object_ids("memory", "L", "update", "card:x")
    assert len(left) == 2 - len(covered), "an edit the redraw could not have shown was dropped"
    assert not set(left) & set(covered)


async def test_a_lane_is_delivered_in_commit_order(store: Store) -> None:
    """A lane's head is its oldest committed entry; later heads never precede it."""
    heads: list[int] = []

    async def read() -> None:
        head = await store.outbox_head("memory", "L")
        heads.extend([head.id] if head else [])

    def post(tx: Tx) -> int:
        return tx.enqueue(transport="memory", lane="L", op="post", object_key="row", now=NOW)

    await _overlap(store, post, read)
    while (head := await store.outbox_head("memory", "L")) is not None:
        heads.append(head.id)
        await store.write(lambda tx, entry=head.id: tx.settle_outbox(entry))
    assert len(set(heads)) == 2 and heads[-2:] == sorted(heads[-2:])
    assert heads[0] == min(heads), "a later entry was offered before an earlier one"


@pytest.fixture
async def two_stores(store_url: str, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores over one database: two processes' (replicas') connections."""
    async with open_store(store_url, tmp_path) as one, open_store(store_url, tmp_path) as two:
        yield one, two


async def test_the_backlog_ceiling_holds_under_racing_writers(
    two_stores: tuple[Store, Store],
) -> None:
    """100 callers on two connections, each adding a record only under the ceiling of 50:
    exactly 50 get in."""

    def escalate(n: int) -> Callable[[Tx], bool]:
        def run(tx: Tx) -> bool:
            if tx.count_pending("radar") >= 50:
                return False
            record = Escalation(
                id=f"e{n:04d}", member="radar", row_id=f"r{n}", session="s", message="?",
                created_at=NOW,
            )  # fmt: skip
            tx.put_escalation(record)
            return True

        return run

    outcomes = await asyncio.gather(*[two_stores[n % 2].write(escalate(n)) for n in range(100)])
    assert sum(outcomes) == 50
    assert (await two_stores[0].pending_counts()) == {"radar": 50}
