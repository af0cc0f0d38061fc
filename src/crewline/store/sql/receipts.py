"""Receipts and dedupe in SQL: platform events taken, with their kept receipts, and the
outcomes of agents' keyed writes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from crewline.store.ports.receipts import (
    IdempotencyRecord,
    ReceiptsReads,
    ReceiptsTx,
    SeenEvent,
)
from crewline.store.sql.dialect import upsert
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, dumps, encoder, epoch

__all__ = ["SqlReceiptsReads", "SqlReceiptsTx"]

KEYED = ("session", "key", "fingerprint", "status", "response", "created_at")
_KEYED = f"SELECT {', '.join(KEYED)} FROM idempotency_keys WHERE session = ? AND key = ?"
_keyed = decoder(IdempotencyRecord, KEYED)
_keyed_values = encoder(IdempotencyRecord, KEYED)
_REMEMBER = upsert("idempotency_keys", KEYED, ("session", "key"))
_seen = decoder(SeenEvent, ("seen_at", "receipt"))


class SqlReceiptsTx(TxPart, ReceiptsTx):
    def mark_seen(self, transport: str, event_id: str, now: datetime) -> bool:
        return (
            self._s.count(
                "INSERT INTO seen_events (transport, event_id, seen_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (transport, event_id, epoch(now)),
            )
            == 1
        )

    def keep_receipt(self, transport: str, event_id: str, receipt: Mapping[str, Any]) -> None:
        self._s.execute(
            "UPDATE seen_events SET receipt = ? WHERE transport = ? AND event_id = ?",
            (dumps(receipt), transport, event_id),
        )

    def forget_seen_events(self, *, before: datetime, limit: int) -> int:
        # {skip_locked}: replicas sweeping at once take disjoint batches instead of queueing
        # on each other's rows (and a batch of a group commit never waits on a lock).
        return self._s.count(
            "DELETE FROM seen_events WHERE (transport, event_id) IN"
            " (SELECT transport, event_id FROM seen_events WHERE seen_at < ?"
            " ORDER BY seen_at LIMIT ?{skip_locked})",
            (epoch(before), limit),
        )

    def seen_event(self, transport: str, event_id: str) -> SeenEvent | None:
        r = self._one(
            "SELECT seen_at, receipt FROM seen_events WHERE transport = ? AND event_id = ?",
            (transport, event_id),
        )
        return None if r is None else _seen(r)

    def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        r = self._one(_KEYED, (session, key))
        return None if r is None else _keyed(r)

    def remember_idempotency(self, record: IdempotencyRecord, *, forget_before: datetime) -> None:
        self._s.execute(
            "DELETE FROM idempotency_keys WHERE created_at < ?", (epoch(forget_before),)
        )
        self._s.execute(_REMEMBER, _keyed_values(record))


class SqlReceiptsReads(ReadPart, ReceiptsReads):
    async def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        rows = await self._fetch(_KEYED, (session, key), lookup=True)
        return _keyed(rows[0]) if rows else None
