"""The rest of the Store port, on every store through the port alone: humans and owner
tokens, threads, member removal, the transcript inside a transaction, questions, settings,
the outbox's retry and dead letters, and the escalation index's check and rebuild."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from crewline.errors import Unavailable
from crewline.models import CallerKind, Escalation, Identity, Question, RowRole, Session
from crewline.store import Store, Tx
from crewline.store.open import open_store
from tests.contract.test_store_contract import NOW, _member


async def test_an_owner_token_finds_its_human(store: Store) -> None:
    """set_owner_token replaces the hash the owner logs in with; identities are listed."""
    member = await _member(store)
    await store.write(lambda tx: tx.set_owner_token(member.owner, "token-1"))
    assert await store.human_by_token_hash("token-1") == member.owner
    await store.write(lambda tx: tx.set_owner_token(member.owner, "token-2"))
    assert await store.human_by_token_hash("token-1") is None
    assert await store.humans() == [member.owner]
    assert await store.identities(member.owner) == [Identity(platform="memory", user_id="alice")]


async def test_threads_map_members_both_ways_and_move(store: Store) -> None:
    """record_thread sets a member's thread; recording it again replaces it."""
    await _member(store)
    assert await store.thread_ref("radar", "slack") is None
    await store.write(lambda tx: tx.record_thread("radar", "slack", "D1"))
    await store.write(lambda tx: tx.record_thread("radar", "slack", "D2"))
    assert await store.thread_ref("radar", "slack") == "D2"
    assert await store.member_for_thread("slack", "D2") == "radar"
    assert await store.member_for_thread("slack", "D1") is None


async def test_a_thread_settled_first_stays_unless_it_is_the_one_replaced(store: Store) -> None:
    """settle_thread records a thread just opened, but keeps one another process recorded
    first (returning it), unless that is the thread being replaced (gone)."""
    await _member(store)
    assert await store.write(lambda tx: tx.settle_thread("radar", "telegram", "T1")) == "T1"
    assert await store.write(lambda tx: tx.settle_thread("radar", "telegram", "T2")) == "T1"
    assert await store.write(lambda tx: tx.settle_thread("radar", "telegram", "T1")) == "T1"
    moved = await store.write(
        lambda tx: tx.settle_thread("radar", "telegram", "T3", replacing="T1")
    )
    assert moved == "T3"
    assert await store.thread_ref("radar", "telegram") == "T3"
    assert await store.member_for_thread("telegram", "T1") is None


async def test_removing_a_member_takes_its_sessions_and_retracts_its_records(
    store: Store,
) -> None:
    """remove_member is true once; its sessions go, its pending records are retracted."""
    await _member(store)
    session = Session(id="s1", kind=CallerKind.MEMBER, member="radar")
    record = Escalation(
        id="e1", member="radar", row_id="r1", session="s1", message="?", created_at=NOW
    )

    def setup(tx: Tx) -> list[Session]:
        tx.add_session(session, "hash-1", NOW)
        tx.put_escalation(record)
        assert tx.session("s1") == session and tx.count_pending("radar") == 1
        return tx.member_sessions("radar")

    assert await store.write(setup) == [session]
    assert await store.write(lambda tx: tx.remove_member("radar")) is True
    assert await store.write(lambda tx: tx.remove_member("radar")) is False
    assert await store.member("radar") is None
    assert await store.session_by_key_hash("hash-1") is None
    assert await store.pending_counts() == {}


async def test_a_transaction_reads_its_own_transcript_writes(store: Store) -> None:
    """Inside one transaction: rows, live rows and the rows naming a record."""
    await _member(store)

    def write(tx: Tx) -> None:
        first = tx.append_row(
            conversation="radar", role=RowRole.MEMBER, author="Radar", text="a", meta={}, now=NOW
        )
        card = tx.append_row(
            conversation="radar", role=RowRole.MEMBER, author="Radar", text="card",
            meta={"escalation_id": "e1"}, now=NOW, record="e1",
        )  # fmt: skip
        assert tx.row(first.id) == first
        assert [r.id for r in tx.live_rows("radar")] == [first.id, card.id]
        assert [r.id for r in tx.record_rows("radar")] == [card.id]
        assert tx.member("radar") is not None

    await store.write(write)
    assert len(await store.live_rows("radar")) == 2


async def test_questions_and_settings_round_trip(store: Store) -> None:
    """put_question replaces; a setting is replaced by a second set, announced or not."""
    question = Question(
        id="q1", member=None, session="s1", row_id="r1", question="Which?", options=("a", "b"),
        created_at=NOW,
    )  # fmt: skip
    await store.write(lambda tx: tx.put_question(question))
    assert await store.question("q1") == question
    assert await store.write(lambda tx: tx.question("q1")) == question
    assert await store.setting("k") is None
    await store.write(lambda tx: tx.set_setting("k", "1"))
    await store.write(lambda tx: tx.set_setting("k", "2", announce=True))
    assert await store.setting("k") == "2"


async def test_the_data_version_moves_when_another_connection_commits(
    store: Store, store_url: str, tmp_path: Path
) -> None:
    """data_version is None where the store cannot tell (its watchers are told instead);
    else it stays put while nothing commits, and moves when another store on the same
    database (another process) commits, and when this store's own writer does."""
    first = await store.data_version()
    if first is None:
        return
    assert await store.data_version() == first
    async with open_store(store_url, tmp_path / "other") as other:
        await other.write(lambda tx: tx.set_setting("k", "1"))
    moved = await store.data_version()
    assert moved not in (None, first)
    await store.write(lambda tx: tx.set_setting("k", "2"))
    assert await store.data_version() not in (None, moved)


async def test_an_outbox_entry_is_retried_then_buried(store: Store) -> None:
    """retry_outbox counts the attempt and defers it; bury_outbox takes it out of the lane."""
    entry_id = await store.write(
        lambda tx: tx.enqueue(transport="memory", lane="L", op="post", object_key="r", now=NOW)
    )
    assert await store.outbox_last_id() >= entry_id
    await store.write(lambda tx: tx.retry_outbox(entry_id, not_before=123.0, error="429"))
    head = await store.outbox_head("memory", "L")
    assert head is not None and (head.id, head.attempts, head.not_before) == (entry_id, 1, 123.0)
    await store.write(lambda tx: tx.bury_outbox(entry_id, error="gone", now=NOW))
    assert await store.outbox_head("memory", "L") is None
    assert await store.outbox_size() == 0


async def test_the_index_is_rebuilt_only_while_torn_and_refilled_in_its_transaction(
    store: Store, store_url: str
) -> None:
    """check_index passes on a readable index, which a rebuild leaves alone; a torn one is
    replaced by a table the refill fills in the rebuild's own transaction, with every column
    the migrations gave it, or, when the refill fails, left torn: never half built."""
    record = Escalation(
        id="e1", member="radar", row_id="r1", session="s1", message="?",
        deadline=NOW + timedelta(hours=1), created_at=NOW,
    )  # fmt: skip
    await store.write(lambda tx: tx.put_escalation(record))
    await store.check_index()
    assert await store.rebuild_index(lambda tx: pytest.fail("a readable index refilled")) is None
    assert await store.escalation("e1") == record
    await asyncio.to_thread(_drop_index, store_url)
    with pytest.raises(Unavailable):
        await store.check_index()

    def failing(tx: Tx) -> None:
        tx.put_escalation(record)
        raise RuntimeError("the refill failed")

    with pytest.raises(RuntimeError):
        await store.rebuild_index(failing)
    with pytest.raises(Unavailable):
        await store.check_index()
    held = replace(record, window_held=True)  # a column a later migration added

    def refill(tx: Tx) -> list[Escalation]:
        tx.put_escalation(held)
        return tx.escalations("radar", pending_only=True)

    assert await store.rebuild_index(refill) == [held]
    assert await store.escalations("radar", pending_only=True) == [held]
    assert await store.schema_version() == store.latest_schema_version()


def _drop_index(store_url: str) -> None:
    if store_url.startswith("sqlite://"):
        with sqlite3.connect(store_url.removeprefix("sqlite://")) as conn:
            conn.execute("DROP TABLE escalations")
        return
    with psycopg.connect(store_url, autocommit=True) as conn:
        conn.execute("DROP TABLE escalations")
