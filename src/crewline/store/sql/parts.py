"""What every role's SQL shares: a transaction part runs its statements on the
transaction's ``Statements``; a read part asks its engine to fetch rows."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from crewline.errors import Unavailable
from crewline.store.sql.dialect import Cursor, Dialect, Statements, index_unavailable

__all__ = ["ReadPart", "TxPart"]


class TxPart:
    """A role's part of ``SqlTx``."""

    _s: Statements
    _d: Dialect
    # An index write went out unread: a missing or damaged index surfacing later in this
    # transaction (at a later read or its commit) is reported as the index's.
    index_written: bool

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._s.execute(sql, params).fetchone()

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._s.execute(sql, params).fetchall()

    def _index(self, sql: str, params: Sequence[Any] = (), *, settle: bool = True) -> Cursor:
        """A statement on the escalation index, run now (``settle``; else when the engine
        sends it); a missing or damaged index is Unavailable, never empty, so no writer goes
        on as if there were no records."""
        try:
            cursor = self._s.execute(sql, params)
            if settle:
                self._s.settle()
        except Exception as error:
            if self._d.index_damage(error, reading=False):
                raise index_unavailable(error) from error
            raise
        return cursor


class ReadPart(ABC):
    """A role's part of ``SqlStore``'s reads."""

    dialect: Dialect

    @abstractmethod
    async def _fetch(
        self, sql: str, params: Sequence[Any] = (), *, lookup: bool = False, prepare: bool = True
    ) -> list[Any]:
        """The rows of ``sql``. ``lookup``: a read of a few rows by key, which an engine may
        answer where it is cheapest (SQLite: on the event loop). ``prepare=False``: plan it
        for these parameters every time, never by a plan kept for any (a full-text search,
        whose best plan depends on how common its words are)."""

    async def _fetch_index(
        self, sql: str, params: Sequence[Any] = (), *, lookup: bool = False
    ) -> list[Any]:
        """``_fetch`` on the escalation index: a missing or damaged one is Unavailable."""
        try:
            return await self._fetch(sql, params, lookup=lookup)
        except Exception as error:
            if self.dialect.index_damage(error, reading=True):
                raise Unavailable(
                    f"the escalation index cannot be read ({error}); it is being rebuilt from"
                    " the transcript",
                    code="escalation_index_unavailable",
                ) from error
            raise
