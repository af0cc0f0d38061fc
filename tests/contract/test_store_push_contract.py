"""The Store contract for agents' retried writes and pushed events, against every Store."""

from __future__ import annotations

from datetime import timedelta

from crewline.models import CallerKind, Session
from crewline.store import IdempotencyRecord, Store, Tx, Webhook
from tests.contract.test_store_contract import NOW


def _record(
    key: str, *, at: timedelta = timedelta(0), fingerprint: str = "f1"
) -> IdempotencyRecord:
    return IdempotencyRecord(
        session="s1",
        key=key,
        fingerprint=fingerprint,
        status=200,
        response={"escalation_id": key},
        created_at=NOW + at,
    )


async def test_an_idempotency_record_round_trips_and_old_ones_are_forgotten(store: Store) -> None:
    """What remember writes both reads return; a later write forgets records older than told."""
    old = _record("old", at=-timedelta(hours=25))
    await store.write(
        lambda tx: tx.remember_idempotency(old, forget_before=NOW - timedelta(days=9))
    )
    assert await store.idempotency_record("s1", "old") == old
    new = _record("new")
    await store.write(
        lambda tx: tx.remember_idempotency(new, forget_before=NOW - timedelta(hours=24))
    )
    assert await store.write(lambda tx: tx.idempotency_record("s1", "new")) == new
    assert await store.idempotency_record("s1", "old") is None
    assert await store.idempotency_record("s2", "new") is None


async def test_remembering_a_key_again_replaces_it(store: Store) -> None:
    """An expired key reused: the new outcome replaces the old one."""
    await store.write(lambda tx: tx.remember_idempotency(_record("k"), forget_before=NOW))
    again = _record("k", at=timedelta(hours=1), fingerprint="f2")
    await store.write(lambda tx: tx.remember_idempotency(again, forget_before=NOW))
    assert await store.idempotency_record("s1", "k") == again


async def _session(store: Store, session_id: str) -> None:
    session = Session(id=session_id, kind=CallerKind.PLAIN, member=None)
    await store.write(lambda tx: tx.add_session(session, f"hash-{session_id}", NOW))


def _hook(session: str, through: int = 0) -> Webhook:
    return Webhook(
        session=session, url="https://example.org/h", secret="x" * 16,
        delivered_through=through, created_at=NOW,
    )  # fmt: skip


async def test_a_webhook_tracks_its_delivery_cursor_and_failures(store: Store) -> None:
    """delivered advances (never back), failed counts attempts, delivered clears them."""
    await _session(store, "s1")
    await store.write(lambda tx: tx.put_webhook(_hook("s1")))
    cursors = [await store.write(lambda tx: tx.add_event("s1", "m", {}, NOW)) for _ in range(3)]
    assert await store.write(lambda tx: tx.last_cursor("s1")) == cursors[-1]
    assert [w.session for w in await store.webhooks(behind_only=True)] == ["s1"]
    await store.write(lambda tx: tx.webhook_failed("s1", not_before=99.0, error="HTTP 503"))
    failing = await store.webhook("s1")
    assert failing is not None
    assert (failing.attempts, failing.not_before, failing.last_error) == (1, 99.0, "HTTP 503")
    await store.write(lambda tx: tx.webhook_delivered("s1", cursors[-1]))
    await store.write(lambda tx: tx.webhook_delivered("s1", cursors[0]))  # a late, older ack
    done = await store.webhook("s1")
    assert done == _hook("s1", cursors[-1])
    assert await store.webhooks(behind_only=True) == []
    assert [w.session for w in await store.webhooks()] == ["s1"]


async def test_a_webhook_is_deleted_once(store: Store) -> None:
    """delete_webhook says whether there was one."""
    await _session(store, "s1")
    await store.write(lambda tx: tx.put_webhook(_hook("s1")))
    assert await store.write(lambda tx: tx.delete_webhook("s1")) is True
    assert await store.write(lambda tx: tx.delete_webhook("s1")) is False
    assert await store.webhook("s1") is None


async def test_a_session_without_events_has_cursor_zero(store: Store) -> None:
    """last_cursor of a session with no events is 0, the cursor before the first."""

    def read(tx: Tx) -> int:
        return tx.last_cursor("nobody")

    assert await store.write(read) == 0
