"""What PostgresStore promises beyond the port's contract, checked against a real server:
its migrations, its append-only audit log, and locks that hold across connections."""

from __future__ import annotations

from collections.abc import AsyncIterator

import psycopg
import pytest

from crewline.store.postgres import PostgresStore, migrations


@pytest.fixture
async def store(postgres_url: str) -> AsyncIterator[PostgresStore]:
    async with PostgresStore(postgres_url) as opened:
        yield opened


async def test_opening_applies_every_migration_once(
    store: PostgresStore, postgres_url: str
) -> None:
    """A fresh database ends at the newest migration; reopening applies nothing again."""
    latest = migrations()[-1].version
    assert latest == len(migrations())  # numbered 1..N
    assert await store.schema_version() == latest
    async with PostgresStore(postgres_url) as again:
        assert await again.schema_version() == latest


async def test_the_audit_log_refuses_a_raw_delete(store: PostgresStore, postgres_url: str) -> None:
    """The SEL's append-only trigger holds even against SQL outside the port."""
    from datetime import UTC, datetime

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
    from datetime import UTC, datetime

    from crewline.errors import Unavailable
    from crewline.models import Escalation
    from crewline.store import Tx

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
