"""SqliteStore's writer: where transactions run, and next to another writer of the file.

Transactions run on the event loop (a heavy one on the writer's thread). The store begins
its group commits on the loop without waiting; when another connection (the CLI while
crewline serves) holds the write lock, the waiting moves to the writer's thread, so the
loop — and every read on it — goes on meanwhile, and the write lands once the lock is free.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from crewline.store import Tx
from crewline.store import sqlite as sqlite_store
from crewline.store.sqlite import SqliteStore
from tests.bounds import WAIT


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(tmp_path / "crewline.db") as opened:
        yield opened


@pytest.fixture
def other_process(store: SqliteStore) -> Iterator[sqlite3.Connection]:
    """Another writer of the same file (a connection of its own, as the CLI has)."""
    conn = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False)
    yield conn
    if conn.in_transaction:
        conn.execute("ROLLBACK")
    conn.close()


async def test_a_write_waits_for_another_writer_off_the_loop(
    store: SqliteStore, other_process: sqlite3.Connection
) -> None:
    other_process.execute("BEGIN IMMEDIATE")  # holds the write lock
    write = asyncio.create_task(store.write(lambda tx: tx.set_setting("seen", "yes")))
    for _ in range(20):  # let the writer try, fail to lock, and hand the wait to its thread
        await asyncio.sleep(0)
    assert await store.setting("seen") is None  # the loop answers reads meanwhile
    assert not write.done()

    other_process.execute("COMMIT")
    async with asyncio.timeout(WAIT):
        await write
    assert await store.setting("seen") == "yes"


async def test_a_write_after_the_wait_begins_on_the_loop_again(
    store: SqliteStore, other_process: sqlite3.Connection
) -> None:
    other_process.execute("BEGIN IMMEDIATE")
    waiting = asyncio.create_task(store.write(lambda tx: tx.set_setting("first", "1")))
    for _ in range(20):
        await asyncio.sleep(0)
    other_process.execute("COMMIT")
    async with asyncio.timeout(WAIT):
        await waiting
    # The wait raised busy_timeout on the writer's connection for a moment only.
    assert store._writer is not None
    assert store._writer.execute("PRAGMA busy_timeout").fetchone()[0] == 0
    await store.write(lambda tx: tx.set_setting("second", "2"))
    assert await store.setting("second") == "2"


async def test_a_transaction_runs_on_the_loop_and_a_heavy_one_off_it(store: SqliteStore) -> None:
    loop_thread = threading.current_thread()
    light = await store.write(lambda tx: threading.current_thread())
    heavy = await store.write(lambda tx: threading.current_thread(), heavy=True)
    assert light is loop_thread
    assert heavy is not loop_thread


async def test_a_transactions_savepoint_journal_is_kept_in_memory(store: SqliteStore) -> None:
    """Each transaction's savepoint journals the pages it changes: in memory, not in a
    temporary file, where each insert would cost about twice as much."""

    def temp_store(tx: object) -> int:
        assert store._writer is not None
        return int(store._writer.execute("PRAGMA temp_store").fetchone()[0])

    assert await store.write(temp_store) == 2  # MEMORY


async def test_concurrent_transactions_share_group_commits(store: SqliteStore) -> None:
    """200 concurrent transactions land in fewer than 200 commits (one fsync per batch)."""
    from datetime import UTC, datetime

    now = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    batches_before = store.batches_committed
    await asyncio.gather(
        *[store.write(lambda tx, n=n: tx.add_event("s", "k", {"n": n}, now)) for n in range(200)]
    )
    assert len(await store.events_after("s", 0, limit=500)) == 200
    assert store.batches_committed - batches_before < 200


async def test_a_lazy_write_waits_for_another_write_and_shares_its_commit(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An outbox settle waits for the change that comes next instead of starting an fsync
    that change would queue behind; both land in one commit."""
    monkeypatch.setattr(sqlite_store, "LAZY_WINDOW", WAIT)  # no run is slow enough to end it
    batches_before = store.batches_committed
    lazy = asyncio.create_task(store.write(lambda tx: tx.set_setting("settled", "1"), lazy=True))
    for _ in range(20):  # the writer takes it and waits
        await asyncio.sleep(0)
    assert not lazy.done()
    assert store.batches_committed == batches_before

    async with asyncio.timeout(WAIT):
        await store.write(lambda tx: tx.set_setting("answered", "1"))
        await lazy
    assert store.batches_committed - batches_before == 1, "the two were one commit"
    assert await store.setting("settled") == "1"


async def test_a_lazy_write_alone_commits_after_its_window(store: SqliteStore) -> None:
    batches_before = store.batches_committed
    async with asyncio.timeout(WAIT):
        await store.write(lambda tx: tx.set_setting("settled", "1"), lazy=True)
    assert store.batches_committed - batches_before == 1
    assert await store.setting("settled") == "1"


async def test_a_lazy_write_queued_behind_another_goes_with_it(store: SqliteStore) -> None:
    """A write that is not lazy already queued: no wait, one commit for both."""
    batches_before = store.batches_committed
    async with asyncio.timeout(WAIT):
        await asyncio.gather(
            store.write(lambda tx: tx.set_setting("settled", "1"), lazy=True),
            store.write(lambda tx: tx.set_setting("answered", "1")),
        )
    assert store.batches_committed - batches_before == 1


async def test_the_audit_log_refuses_a_raw_delete(store: SqliteStore) -> None:
    """The SEL's append-only trigger holds even against SQL outside the port."""
    from datetime import UTC, datetime

    await store.write(lambda tx: tx.audit("a", "ok", datetime(2026, 11, 30, tzinfo=UTC)))
    with sqlite3.connect(store.path) as raw, pytest.raises(sqlite3.DatabaseError, match="append"):
        raw.execute("DELETE FROM sel")
    assert len(await store.sel()) == 1


async def test_a_batch_runs_without_savepoints_unless_one_of_it_raises(store: SqliteStore) -> None:
    """The common batch costs no savepoint; one that raises sends its batch round again, each
    transaction in its own savepoint, so it is rolled back alone (and a lone one that raises
    commits nothing)."""
    from datetime import UTC, datetime

    now = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    assert store._writer is not None
    said: list[str] = []
    store._writer.set_trace_callback(said.append)

    def fails(tx: Tx) -> None:
        tx.add_event("s", "k", {"n": "failed"}, now)
        raise ValueError("refused")

    try:
        await asyncio.gather(
            *[store.write(lambda tx, n=n: tx.add_event("s", "k", {"n": n}, now)) for n in range(5)]
        )
        assert not [s for s in said if s.startswith("SAVEPOINT")]
        assert said.count("COMMIT") >= 1

        said.clear()
        outcomes = await asyncio.gather(
            store.write(lambda tx: tx.add_event("s", "k", {"n": 5}, now)),
            store.write(fails),
            store.write(lambda tx: tx.add_event("s", "k", {"n": 6}, now)),
            return_exceptions=True,
        )
        assert isinstance(outcomes[1], ValueError)
        assert not isinstance(outcomes[0], Exception) and not isinstance(outcomes[2], Exception)
        assert [s for s in said if s.startswith("SAVEPOINT")]  # the batch ran again, one by one

        said.clear()
        with pytest.raises(ValueError, match="refused"):
            await store.write(fails)
        assert "COMMIT" not in said and "ROLLBACK" in said
    finally:
        store._writer.set_trace_callback(None)
    bodies = [event.body["n"] for event in await store.events_after("s", 0, limit=50)]
    assert sorted(bodies, key=str) == sorted([0, 1, 2, 3, 4, 5, 6], key=str)
