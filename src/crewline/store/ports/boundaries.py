"""Context boundaries (SPEC §5) in flight: which sessions were asked to discard their
context, and what each answered."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

__all__ = ["BoundariesTx", "BoundaryRecord"]


@dataclass(frozen=True, kw_only=True, slots=True)
class BoundaryRecord:
    """A context boundary as stored: who was asked to discard, and what each answered."""

    id: str
    member: str
    kind: str
    state: str  # asking | committed | failed
    asked: tuple[str, ...]
    answers: Mapping[str, tuple[str, str | None]]  # session -> (ack | nack, reason)
    created_at: datetime  # when it was frozen: one older than its wait is abandoned


class BoundariesTx(ABC):
    """Boundaries recorded, answered and settled in a transaction."""

    @abstractmethod
    def put_boundary(
        self, boundary_id: str, *, member: str, kind: str, asked: Sequence[str], now: datetime
    ) -> None:
        """Record a boundary in flight (state ``asking``)."""

    @abstractmethod
    def boundary(self, boundary_id: str) -> BoundaryRecord | None:
        """The boundary with the answers recorded so far, or None."""

    @abstractmethod
    def boundary_in_flight(self, member: str) -> str | None:
        """The id of the member's boundary still asking, if any."""

    @abstractmethod
    def answer_boundary(
        self, boundary_id: str, session: str, *, answer: str, reason: str | None, now: datetime
    ) -> None:
        """Record one asked session's answer (``ack`` or ``nack``); the first one stands."""

    @abstractmethod
    def settle_boundary(self, boundary_id: str, *, state: str, now: datetime) -> None:
        """End the boundary as ``committed`` or ``failed``: it is no longer in flight."""
