"""What PostgresStore promises beyond the port's contract, checked against a real server:
its migrations, its append-only audit log, and locks that hold across connections."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import TypeVar

import psycopg
import pytest

from crewline.models import RowRole
from crewline.store import Tx, schema
from crewline.store.postgres import PostgresStore, migrations

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
async def store(postgres_url: str) -> AsyncIterator[PostgresStore]:
    async with PostgresStore(postgres_url) as opened:
        yield opened


async def test_opening_applies_every_migration_once(
    store: PostgresStore, postgres_url: str
) -> None:
    """A fresh database ends at the newest migration; reopening applies nothing again."""
    latest = migrations()[-1].version
    assert latest == schema.BASELINE + len(migrations()) - 1  # numbered on from the baseline
    assert await store.schema_version() == latest
    async with PostgresStore(postgres_url) as again:
        assert await again.schema_version() == latest


async def test_the_audit_log_refuses_a_raw_delete(store: PostgresStore, postgres_url: str) -> None:
    """The SEL's append-only trigger holds even against SQL outside the port."""
    await store.write(lambda tx: tx.audit("a", "ok", datetime(2026, 11, 30, tzinfo=UTC)))
    with (
        psycopg.connect(postgres_url, autocommit=True) as raw,
        pytest.raises(psycopg.errors.RaiseException, match="append-only"),
    ):
        raw.execute("DELETE FROM sel")
    assert len(await store.sel()) == 1


async def test_a_record_put_on_a_missing_index_is_unavailable(
    store: PostgresStore, postgres_url: str
) -> None:
    """``put_escalation`` reads no result (pipeline mode), so a missing index surfaces at the
    transaction's next read or at its commit: still the index's error, nothing written."""
    from crewline.errors import Unavailable
    from crewline.models import Escalation

    now = datetime(2026, 11, 30, tzinfo=UTC)
    record = Escalation(
        id="e1", member="radar", row_id="r1", session="s1", message="?", created_at=now
    )

    def then_enqueue(tx: Tx) -> None:
        tx.put_escalation(record)
        tx.enqueue(transport="memory", lane="radar", op="post", object_key="row:r1", now=now)

    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("DROP TABLE escalations")
    for transaction in (lambda tx: tx.put_escalation(record), then_enqueue):
        with pytest.raises(Unavailable) as refused:
            await store.write(transaction)
        assert refused.value.code == "escalation_index_unavailable"
    assert await store.outbox_size() == 0


async def test_the_due_index_leaves_out_records_without_a_deadline(
    store: PostgresStore, postgres_url: str
) -> None:
    """After the migrations and after a rebuilt index table alike, the due index holds only
    pending records with a deadline (one index entry fewer per escalation without one), and
    the scheduler's query still finds what is due."""
    from crewline.models import Escalation

    def indexed() -> tuple[str, int]:
        with psycopg.connect(postgres_url, autocommit=True) as raw:
            found = raw.execute(
                "SELECT indexdef FROM pg_indexes WHERE indexname = 'escalations_due'"
            ).fetchone()
            size = raw.execute(
                "SELECT count(*) FROM bt_page_items('escalations_due', 1)"
            ).fetchone()
            assert found is not None and size is not None
            return str(found[0]), int(size[0])

    due = datetime(2026, 11, 30, 10, tzinfo=UTC)
    records = [
        Escalation(id="e1", member="radar", row_id="r1", session="s", message="?", created_at=NOW),
        Escalation(
            id="e2", member="radar", row_id="r2", session="s", message="?", created_at=NOW,
            deadline=due,
        ),
    ]  # fmt: skip
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("CREATE EXTENSION IF NOT EXISTS pageinspect")
    for _ in ("migrated", "rebuilt"):
        for record in records:
            await store.write(lambda tx, r=record: tx.put_escalation(r))
        definition, entries = indexed()
        assert "deadline IS NOT NULL" in definition
        assert entries == 1  # e2 alone
        assert await store.due_windows(datetime(2026, 12, 1, tzinfo=UTC)) == [("e2", "radar", due)]
        with psycopg.connect(postgres_url, autocommit=True) as raw:
            raw.execute("DROP TABLE escalations")
        await store.rebuild_index(lambda tx: None)


# --- group commit ---------------------------------------------------------------------------
# One writer thread (writers=1), so what is queued while it works forms its next batch: a
# first transaction held open on the writer's thread makes the others queue behind it.

T = TypeVar("T")
HOLD = 10.0  # seconds a held transaction waits at most (released long before)


def _audited(tx: Tx) -> None:
    tx.audit("held", "ok", NOW)


def _holding(
    release: threading.Event, took: threading.Event, change: Callable[[Tx], T]
) -> Callable[[Tx], T]:
    """``change``, then its transaction held open (its locks kept) until ``release``."""

    def hold(tx: Tx) -> T:
        result = change(tx)
        took.set()
        release.wait(HOLD)
        return result

    return hold


def _row(text: str) -> Callable[[Tx], str]:
    return lambda tx: (
        tx.append_row(
            conversation="radar", role=RowRole.MEMBER, author="Radar", text=text, meta={}, now=NOW
        ).id
    )


async def _queued_behind_a_held_batch(
    store: PostgresStore, *writes: Callable[[Tx], object]
) -> tuple[asyncio.Task[None], list[asyncio.Task[object]], threading.Event]:
    release, took = threading.Event(), threading.Event()
    first = asyncio.create_task(store.write(_holding(release, took, _audited)))
    assert await asyncio.to_thread(took.wait, HOLD), "the first batch is running"
    tasks = [asyncio.create_task(store.write(w)) for w in writes]
    await asyncio.sleep(0)  # each task's first step puts its transaction on the queue
    return first, tasks, release


async def test_one_failing_transaction_of_a_batch_rolls_back_alone(postgres_url: str) -> None:
    """Three transactions queued together commit in one batch; the one that raises is
    rolled back to its savepoint, its neighbours commit."""

    def bad(tx: Tx) -> None:
        _row("half-written")(tx)
        raise ValueError("boom")

    async with PostgresStore(postgres_url, writers=1) as store:
        first, tasks, release = await _queued_behind_a_held_batch(
            store, _row("good 1"), bad, _row("good 2")
        )
        before = store.batches_committed
        release.set()
        await first
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        assert store.batches_committed - before == 2, "the three were one batch"
        assert isinstance(outcomes[1], ValueError)
        assert [r.text for r in await store.live_rows("radar")] == ["good 1", "good 2"]


async def test_a_write_returns_only_once_its_batch_has_committed(postgres_url: str) -> None:
    """A transaction that finished early in its batch is not answered until the batch's
    COMMIT: while a later one in the same batch still runs, the first is neither answered
    nor visible to another connection."""
    async with PostgresStore(postgres_url, writers=1) as store:
        first, (early,), release = await _queued_behind_a_held_batch(store, _row("early"))
        later_took, later_release = threading.Event(), threading.Event()
        later = asyncio.create_task(store.write(_holding(later_release, later_took, _audited)))
        await asyncio.sleep(0)  # later is on the queue before the writer is let go
        release.set()
        await first
        # The next batch is [early, later]: later holds it open after early ran.
        assert await asyncio.to_thread(later_took.wait, HOLD), "the later one is running"
        assert not early.done(), "answered before its batch committed"
        with psycopg.connect(postgres_url, autocommit=True) as raw:
            assert raw.execute("SELECT count(*) FROM rows").fetchone() == (0,)
        later_release.set()
        await asyncio.gather(early, later)
        with psycopg.connect(postgres_url, autocommit=True) as raw:
            assert raw.execute("SELECT count(*) FROM rows").fetchone() == (1,)


async def test_a_batch_never_waits_for_a_lock_held_elsewhere_after_its_first(
    postgres_url: str,
) -> None:
    """Another replica holds lane L's lock in an open transaction. In a batch of three, the
    second needs that lock: it steps out (to run first in the next batch, waiting there as a
    lone transaction would), and the other two commit without waiting for the replica.
    Once the replica commits, the lane holds both entries in commit order."""

    def post(key: str) -> Callable[[Tx], int]:
        return lambda tx: tx.enqueue(
            transport="memory", lane="L", op="post", object_key=key, now=NOW
        )

    async with (
        PostgresStore(postgres_url, writers=1) as store,
        PostgresStore(postgres_url) as replica,
    ):
        held_release, held_took = threading.Event(), threading.Event()
        replica_posts = _holding(held_release, held_took, post("replica"))
        elsewhere = asyncio.create_task(replica.write(replica_posts))
        assert await asyncio.to_thread(held_took.wait, HOLD), "the replica holds lane L"
        first, (x, y, z), release = await _queued_behind_a_held_batch(
            store, _row("x"), post("y"), _row("z")
        )
        release.set()
        await first
        done, _ = await asyncio.wait({x, z}, timeout=HOLD)
        assert done == {x, z}, "the batch waited for a lock another connection held"
        assert not y.done() and not elsewhere.done()
        held_release.set()
        ids = await asyncio.gather(elsewhere, y)
        assert ids[0] < ids[1], "lane L's entries are in commit order"
        keys = await store.outbox_object_ids("memory", "L", "post", "replica")
        assert keys == [ids[0]]
        assert [r.text for r in await store.live_rows("radar")] == ["x", "z"]


def _member_event(member: str, *, postgres_url: str | None = None) -> Callable[[Tx], int]:
    """One member's change as the core writes it: the member's lock (its result not read),
    then an event on the member's session. With ``postgres_url``, the event is sent only
    once the server answered the lock (gave up on it, or waits for it, as the first of a
    batch does), so a lock given up reaches the client as the event is sent, leaving the
    event's statement in the aborted pipeline."""

    def change(tx: Tx) -> int:
        tx.serialize(member)
        if postgres_url is not None:
            _until_a_lock_is_answered(postgres_url)
        return tx.add_event(f"session-{member}", "note", {}, NOW)

    return change


def _until_a_lock_is_answered(postgres_url: str) -> None:
    """Until a backend's last statement is a lock it no longer waits for (given up), or one
    it has been waiting for over two looks (the first of a batch, which waits)."""
    waited = 0
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        for _ in range(int(HOLD / 0.005)):
            waits = [
                wait
                for (wait,) in raw.execute(
                    "SELECT wait_event_type FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    " AND query LIKE 'SELECT pg_advisory_xact_lock%%'"
                )
            ]
            waited = waited + 1 if "Lock" in waits else 0
            if waited >= 2 or any(w != "Lock" for w in waits):
                return
            time.sleep(0.005)  # a poll's interval, not a wait for something to happen


@pytest.mark.parametrize("batched", [False, True], ids=["at-once", "one-by-one"])
async def test_a_transaction_stepping_out_of_its_batch_leaves_no_pipeline_aborted(
    postgres_url: str, batched: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """Another replica holds member m's lock. A later transaction of a batch that needs it
    gives up on the lock (``DEFER_AFTER``), which aborts what its pipeline holds after the
    lock; the pipeline is brought back before the batch (or the savepoint) is rolled back,
    so psycopg has no aborted pipeline to warn of, and every change commits exactly once.
    ``one-by-one``: a neighbour fails too, so the batch runs again in savepoints."""
    writes: list[Callable[[Tx], object]] = [
        _member_event("free"),
        _member_event("m", postgres_url=postgres_url),
    ]
    if batched:
        writes.insert(1, _failing)
    async with (
        PostgresStore(postgres_url, writers=1) as store,
        PostgresStore(postgres_url) as replica,
    ):
        held_release, held_took = threading.Event(), threading.Event()
        replica_changes_m = _holding(held_release, held_took, _member_event("m"))
        elsewhere = asyncio.create_task(replica.write(replica_changes_m))
        assert await asyncio.to_thread(held_took.wait, HOLD), "the replica holds m's lock"
        first, tasks, release = await _queued_behind_a_held_batch(store, *writes)
        free, m = tasks[0], tasks[-1]
        release.set()
        await first
        done, _ = await asyncio.wait({free}, timeout=HOLD)
        assert done == {free} and not m.done(), "precondition: m's change stepped out"
        held_release.set()
        await asyncio.gather(elsewhere, *tasks, return_exceptions=True)
        assert isinstance(m.result(), int) and isinstance(free.result(), int)
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        counts = dict(raw.execute("SELECT session, count(*) FROM events GROUP BY session"))
    assert counts == {"session-free": 1, "session-m": 2}
    aborted = [r.getMessage() for r in caplog.records if "pipeline aborted" in r.getMessage()]
    assert aborted == []


def _failing(tx: Tx) -> None:
    _row("half-written")(tx)
    raise ValueError("boom")


@pytest.mark.parametrize("failing", [False, True], ids=["at-once", "one-by-one"])
async def test_a_batch_commits_with_the_lock_timeout_of_a_lone_transaction(
    postgres_url: str, failing: bool
) -> None:
    """Only a batch's later transactions give up on a held lock at once; its COMMIT waits as
    a lone one would, since a commit that notified takes the database's notification-queue
    lock, which any other connection's commit may hold for a moment. A deferred trigger
    reads the setting at commit time."""
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("CREATE TABLE at_commit (lock_timeout text)")
        raw.execute(
            "CREATE FUNCTION note_lock_timeout() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            " INSERT INTO at_commit VALUES (current_setting('lock_timeout')); RETURN NULL;"
            " END $$"
        )
        raw.execute(
            "CREATE CONSTRAINT TRIGGER at_commit AFTER INSERT ON rows"
            " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION note_lock_timeout()"
        )
    writes = (_row("a"), _failing, _row("b")) if failing else (_row("a"), _row("b"))
    async with PostgresStore(postgres_url, writers=1) as store:
        first, tasks, release = await _queued_behind_a_held_batch(store, *writes)
        release.set()
        await first
        await asyncio.gather(*tasks, return_exceptions=True)
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        noted = [r[0] for r in raw.execute("SELECT lock_timeout FROM at_commit")]
    assert noted == ["0", "0"], "the batch (of two rows) committed under its later ones' timeout"
