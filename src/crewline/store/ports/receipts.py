"""Receipts and dedupe: the platform events already taken (with what their first delivery
was told) and the outcomes of agents' keyed writes (``Idempotency-Key``). Both hold under
concurrent writers: a redelivery or a retried write is recognised whichever connection or
replica takes it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["IdempotencyRecord", "ReceiptsReads", "ReceiptsTx", "SeenEvent"]


@dataclass(frozen=True, kw_only=True, slots=True)
class SeenEvent:
    """A platform event that was taken (its id is remembered for dedupe), with the receipt
    its first delivery got, so a redelivery is answered with what the first was told.
    ``receipt`` is None when none was kept: a command still running, or cut short by a
    crash between its mark and its answer."""

    seen_at: datetime
    receipt: Mapping[str, Any] | None


@dataclass(frozen=True, kw_only=True, slots=True)
class IdempotencyRecord:
    """The first outcome of a write a session sent with an ``Idempotency-Key``."""

    session: str
    key: str
    fingerprint: str  # of the verb and the request body: a reused key must say the same
    status: int
    response: Mapping[str, Any]
    created_at: datetime


class ReceiptsTx(ABC):
    """Dedupe marks, kept receipts and keyed outcomes in a transaction."""

    @abstractmethod
    def mark_seen(self, transport: str, event_id: str, now: datetime) -> bool:
        """Remember a platform event id; False when it was already seen (a redelivery)."""

    @abstractmethod
    def keep_receipt(self, transport: str, event_id: str, receipt: Mapping[str, Any]) -> None:
        """Keep ``receipt`` (what the human was told) beside the event's mark, so a
        redelivery gets the same; in the transaction of the event's effect where it has one.
        A mark not made (a refusal) keeps nothing. Nothing else is touched: old marks are
        forgotten by :meth:`forget_seen_events`, off the event's transaction."""

    @abstractmethod
    def forget_seen_events(self, *, before: datetime, limit: int) -> int:
        """Forget up to ``limit`` marks made before ``before``, with their receipts (the
        oldest first); returns how many. A periodic sweep calls it until it forgets fewer
        than ``limit``, which keeps both bounded without a delete on every event's
        transaction. Marks another transaction holds are skipped, never waited for."""

    @abstractmethod
    def seen_event(self, transport: str, event_id: str) -> SeenEvent | None:
        """The event's mark and kept receipt, or None when it was never taken (or is
        forgotten)."""

    @abstractmethod
    def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        """The remembered outcome of the session's keyed write, or None."""

    @abstractmethod
    def remember_idempotency(self, record: IdempotencyRecord, *, forget_before: datetime) -> None:
        """Keep the outcome of a keyed write (replacing an expired one of the same key), and
        forget every outcome older than ``forget_before``."""


class ReceiptsReads(ABC):
    """Keyed outcomes as committed."""

    @abstractmethod
    async def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        """The remembered outcome of the session's keyed write, or None."""
