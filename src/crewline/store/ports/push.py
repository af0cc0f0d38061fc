"""Pushed events: a session's webhook and how far its receiver has acknowledged."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime

__all__ = ["PushReads", "PushTx", "Webhook"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Webhook:
    """Where a session's events are pushed, and how far they have been acknowledged."""

    session: str
    url: str
    secret: str
    delivered_through: int
    attempts: int = 0
    not_before: float = 0.0
    last_error: str | None = None
    created_at: datetime


class PushTx(ABC):
    """Webhooks registered, acknowledged and failed in a transaction."""

    @abstractmethod
    def webhook(self, session: str) -> Webhook | None:
        """The session's webhook (revoked session or not), or None."""

    @abstractmethod
    def put_webhook(self, webhook: Webhook) -> None:
        """Register or replace the session's webhook."""

    @abstractmethod
    def delete_webhook(self, session: str) -> bool:
        """Forget the session's webhook; False when it had none."""

    @abstractmethod
    def webhook_delivered(self, session: str, cursor: int) -> None:
        """The receiver acknowledged every event through ``cursor``; failures are cleared."""

    @abstractmethod
    def webhook_failed(self, session: str, *, not_before: float, error: str) -> None:
        """A delivery failed: count the attempt, and wait until ``not_before`` (epoch s)."""


class PushReads(ABC):
    """Webhooks as committed."""

    @abstractmethod
    async def webhook(self, session: str) -> Webhook | None:
        """The webhook of a live (unrevoked) session."""

    @abstractmethod
    async def webhooks(self, *, behind_only: bool = False) -> list[Webhook]:
        """The webhooks of live sessions; ``behind_only``: those with events not yet
        acknowledged."""
