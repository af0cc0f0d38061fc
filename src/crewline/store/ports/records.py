"""Records: the escalation index and the questions, derived from the transcript.

The backlog ceiling (``count_pending`` then ``put_escalation``) is atomic against concurrent
writers, also on other connections or replicas. An unreadable index is reported as
Unavailable(escalation_index_unavailable), never read as empty."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from crewline.models import (
    BellLine,
    Escalation,
    EscalationState,
    Member,
    Question,
    Row,
    Suggestion,
)

__all__ = ["CardRead", "RecordsReads", "RecordsTx"]


class RecordsTx(ABC):
    """Escalations and questions in a transaction."""

    @abstractmethod
    def put_escalation(self, escalation: Escalation) -> None:
        """Insert or replace the index record."""

    @abstractmethod
    def escalation(self, escalation_id: str) -> Escalation | None:
        """The index record, or None. Raises Unavailable(escalation_index_unavailable) when
        the index cannot be read."""

    @abstractmethod
    def escalation_states(self, escalation_ids: Sequence[str]) -> dict[str, EscalationState]:
        """The state of each of ``escalation_ids`` at once, by id: the records that exist
        (what ``escalation`` gives, reduced to its state); Unavailable as ``escalation``."""

    @abstractmethod
    def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        """The member's records, oldest first (insertion order breaks ties); Unavailable as
        ``escalation``."""

    @abstractmethod
    def count_pending(self, member: str) -> int:
        """The member's pending records. The count stays true until this transaction
        commits: a concurrent writer's count waits for it (the backlog ceiling). Unavailable
        as ``escalation``."""

    @abstractmethod
    def put_question(self, question: Question) -> None:
        """Insert or replace the question."""

    @abstractmethod
    def question(self, question_id: str) -> Question | None:
        """The question, or None."""

    @abstractmethod
    def waiting_questions(self, member: str) -> list[Question]:
        """The member's question cards still waiting for an answer, oldest first."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CardRead:
    """What ``RecordsReads.card_read`` finds of a card's row."""

    row: Row
    member: Member | None  # the row's conversation's member; None: no member's (any more)
    escalation: Escalation | None  # an escalation card row's record, as read with it
    suggestion: Suggestion | None  # that record's suggestion


class RecordsReads(ABC):
    """Escalations and questions as committed, and the index's own upkeep."""

    @abstractmethod
    async def escalation(self, escalation_id: str) -> Escalation | None:
        """The index record, or None; Unavailable(escalation_index_unavailable) when the
        index cannot be read (as for every index read below)."""

    @abstractmethod
    async def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        """The member's records, oldest first; ``pending_only``: the open ones alone."""

    @abstractmethod
    async def card_read(self, row_id: str) -> CardRead | None:
        """The row (a rewound one too), its conversation's member and, when it is an
        escalation's card row, its index record and the record's suggestion, in one read:
        what drawing a card needs. None when there is no such row. The record comes as None
        whenever it is not found this way, an unreadable index included (never Unavailable
        here): its reader then asks ``escalation`` for the record its row names, as before."""

    @abstractmethod
    async def bell_lines(self, member: str, goal: str) -> list[BellLine]:
        """What the bell of the member's open escalations about ``goal`` ("": those without
        a goal) says of each, oldest first (insertion order breaks ties)."""

    @abstractmethod
    async def pending_counts(self) -> dict[str, int]:
        """Pending escalations per member slug (members with none are absent)."""

    @abstractmethod
    async def due_windows(self, before: datetime) -> list[tuple[str, str, datetime]]:
        """(escalation id, member, deadline) of pending records due before ``before``."""

    @abstractmethod
    async def question(self, question_id: str) -> Question | None:
        """The question, or None."""

    @abstractmethod
    async def waiting_counts(self) -> dict[str, int]:
        """Questions waiting for an answer per member slug (members with none are absent)."""

    @abstractmethod
    async def waiting_questions(self, member: str) -> list[Question]:
        """The member's questions still waiting for an answer, oldest first."""

    @abstractmethod
    async def unjudged_escalations(
        self, *, after: str = "", limit: int
    ) -> tuple[list[Escalation], str]:
        """Of the next ``limit`` records by id above ``after`` (settled ones count), the
        pending ones the ledger holds none of the concierge's own judgements of
        (``ConciergeTx.judged``), by id, and the id to read on from ("" at the end): what a
        start judges again, a page at a time, each page's read bounded by ``limit``."""

    @abstractmethod
    async def unjudged_questions(
        self, *, after: str = "", limit: int
    ) -> tuple[list[Question], str]:
        """``unjudged_escalations`` for the questions still waiting for an answer."""

    @abstractmethod
    async def escalation_counts(self) -> dict[str, int]:
        """Escalation records per state (states with none are absent)."""

    @abstractmethod
    async def check_index(self) -> None:
        """Raise Unavailable(escalation_index_unavailable) if the index cannot be read."""
