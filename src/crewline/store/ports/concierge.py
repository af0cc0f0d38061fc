"""The concierge's part of the store (SPEC §4): its suggestions, the answers it gave (for
undo), the ledger of its decisions, and fleet retrieval over what members said."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime

from crewline.models import ConciergeAnswer, LedgerEntry, Row, Suggestion

__all__ = ["ConciergeReads", "ConciergeTx"]


class ConciergeTx(ABC):
    """The concierge's writes and reads in a transaction."""

    @abstractmethod
    def put_suggestion(self, suggestion: Suggestion) -> None:
        """Store the suggestion for its record, replacing any earlier one (and its dismissal).
        Raises Conflict(unknown_member) if the member does not exist."""

    @abstractmethod
    def put_suggestions(self, suggestions: Sequence[Suggestion]) -> None:
        """``put_suggestion`` for each of ``suggestions``, in order (a later one for the same
        record replaces an earlier); Conflict as ``put_suggestion``."""

    @abstractmethod
    def suggestion(self, record_id: str) -> Suggestion | None:
        """The record's suggestion (dismissed or not) as this transaction sees it, or None."""

    @abstractmethod
    def drop_suggestion(self, record_id: str) -> bool:
        """Forget the record's suggestion; False when it had none."""

    @abstractmethod
    def drop_member_suggestions(self, member: str) -> list[str]:
        """Forget every suggestion of the member's records; returns their record ids."""

    @abstractmethod
    def dismiss_suggestion(self, record_id: str) -> bool:
        """Hide the record's suggestion until a new one is stored; False when it had none."""

    @abstractmethod
    def add_ledger(self, entry: LedgerEntry) -> int:
        """Append one decision to the ledger (``entry.id`` is ignored); returns its id."""

    @abstractmethod
    def add_ledger_entries(self, entries: Sequence[LedgerEntry]) -> None:
        """``add_ledger`` for each of ``entries``, in order: their ids increase in that order."""

    @abstractmethod
    def judged(self, record_id: str) -> bool:
        """Whether the ledger holds one of the concierge's own judgements of the record (a
        decision in ``models.JUDGEMENTS``), as this transaction sees it."""

    @abstractmethod
    def add_concierge_answer(self, answer: ConciergeAnswer, *, keep: int = 20) -> int:
        """Remember an answer the concierge gave (``answer.id`` is ignored) and forget all
        but the newest ``keep``; returns its id."""

    @abstractmethod
    def last_concierge_answer(self, *, record_id: str | None = None) -> ConciergeAnswer | None:
        """The newest kept answer not yet undone (to ``record_id`` when given), or None."""

    @abstractmethod
    def mark_answer_undone(self, answer_id: int, now: datetime) -> None:
        """The answer was undone: ``last_concierge_answer`` passes over it from now on (an
        id no longer kept changes nothing)."""


class ConciergeReads(ABC):
    """The concierge's reads as committed."""

    @abstractmethod
    async def suggestion(self, record_id: str) -> Suggestion | None:
        """The record's suggestion (dismissed or not), or None."""

    @abstractmethod
    async def ledger(self, *, limit: int = 100) -> list[LedgerEntry]:
        """The newest ``limit`` ledger entries, newest first."""

    @abstractmethod
    async def ledger_after(
        self,
        after: int,
        *,
        limit: int,
        member: str | None = None,
        since: datetime | None = None,
        decision: str | None = None,
    ) -> list[LedgerEntry]:
        """At most ``limit`` ledger entries with an id above ``after``, oldest first; only
        ``member``'s when given, only those at or after ``since``, only ``decision``'s."""

    @abstractmethod
    async def concierge_answers(self) -> list[ConciergeAnswer]:
        """The kept answers (at most 20), newest first."""

    @abstractmethod
    async def fleet_rows(
        self, terms: Sequence[str], *, excluding: str, limit: int = 5, prefix: bool = False
    ) -> list[Row]:
        """Fleet retrieval: live rows members said in their own threads (role ``member``)
        that match any of ``terms``, best first among the newest few hundred matches (so
        its cost stays bounded as the history grows), leaving out the conversation
        ``excluding`` (the asking member's). A row matches a term when it says the term's
        words in a row (a member's slug counts as said in its thread): words are stemmed,
        their accents folded and their case ignored, and ASCII punctuation separates them,
        so "staging.example.com" is three words in a row. ``prefix``: a term's last word
        also matches the words it begins ("creat" finds "created"). A term is only words:
        quotes, operators and punctuation in it are never query syntax. No terms (or only
        terms without a word) find nothing."""
