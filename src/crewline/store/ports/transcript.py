"""The transcript: each conversation's rows, in order, by generation. It is the truth the
index and the roster are derived from (reconciliation rebuilds them from it)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from crewline.models import Row, RowRole

__all__ = ["TranscriptReads", "TranscriptTx"]


class TranscriptTx(ABC):
    """Rows appended, read and rewound in a transaction."""

    @abstractmethod
    def append_row(
        self,
        *,
        conversation: str,
        role: RowRole,
        author: str,
        text: str,
        meta: Mapping[str, Any],
        now: datetime,
        row_id: str | None = None,
        record: str | None = None,
    ) -> Row:
        """Append a row at the end of the conversation's live generation.

        ``record`` names the escalation the row concerns (its card, its answer, its closing),
        which ``record_rows`` finds without reading the rest of the transcript."""

    @abstractmethod
    def row(self, row_id: str) -> Row | None:
        """The live row with this id, or None (also for a rewound one)."""

    @abstractmethod
    def live_rows(self, conversation: str) -> list[Row]:
        """The conversation's rows that no rewind removed, in order."""

    @abstractmethod
    def record_rows(self, conversation: str) -> list[Row]:
        """The live rows of the conversation that name a record, in order."""

    @abstractmethod
    def rows_after(self, conversation: str, seq: int) -> list[Row]:
        """The live rows of the conversation after position ``seq``, in order."""

    @abstractmethod
    def row_before(self, conversation: str, seq: int) -> Row | None:
        """The live row just before position ``seq``, if any."""

    @abstractmethod
    def last_rows(self, conversation: str, *, role: RowRole, limit: int) -> list[Row]:
        """The conversation's last ``limit`` live rows of ``role``, newest first."""

    @abstractmethod
    def generation(self, conversation: str) -> int:
        """The conversation's live generation (1 until a rewind or a boundary starts
        another)."""

    @abstractmethod
    def begin_generation(self, conversation: str, *, rewound: Sequence[str]) -> int:
        """Start a new generation in which the live rows ``rewound`` (ids) leave the
        transcript; every other row stays where it is. Returns the new generation."""

    @abstractmethod
    def move_to_end(self, conversation: str, row_ids: Sequence[str]) -> None:
        """Place the live rows ``row_ids`` after every other row, in the order given, in
        the live generation (their ids are unchanged)."""

    @abstractmethod
    def truncate_conversation(self, conversation: str, *, keep_through: str) -> int:
        """Rewind: rows after ``keep_through`` leave the transcript; returns the new
        generation. Raises NotFound if the row is not live in that conversation."""


class TranscriptReads(ABC):
    """Rows as committed."""

    @abstractmethod
    async def live_rows(self, conversation: str) -> list[Row]:
        """The conversation's rows that no rewind removed, in order."""

    @abstractmethod
    async def row(self, row_id: str, *, include_rewound: bool = False) -> Row | None:
        """The row, or None; a rewound row only with ``include_rewound``."""
