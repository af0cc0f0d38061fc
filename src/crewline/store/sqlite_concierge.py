"""The concierge's part of the SQLite store: suggestions, answers, the ledger, fleet text.

Kept apart from ``sqlite_tx``/``sqlite`` so each module stays one concept; ``SqliteTx`` and
``SqliteStore`` mix these in.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from crewline.errors import Conflict
from crewline.models import JUDGEMENTS, ConciergeAnswer, LedgerEntry, Row, Suggestion
from crewline.store import codec

__all__ = ["FLEET_QUERY", "FLEET_WINDOW", "ConciergeReads", "ConciergeWrites", "fts5_match"]

_SUGGESTION = codec.SUGGESTION_COLUMNS
_ANSWER = codec.ANSWER_COLUMNS
_LEDGER = codec.LEDGER_COLUMNS
_MEMBER = "SELECT 1 FROM members WHERE slug = ?"
_ADD_LEDGER = (
    "INSERT INTO concierge_ledger"
    " (at, member, record_id, decision, verdict, policy, brain, rationale, evidence,"
    " actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class ConciergeWrites:
    """The concierge's Tx methods over one sqlite3 connection."""

    _conn: sqlite3.Connection

    def _first(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._conn.execute(sql, params).fetchone()
        return row

    def setting(self, key: str) -> str | None:
        r = self._first("SELECT value FROM settings WHERE key = ?", (key,))
        return None if r is None else str(r["value"])

    def withdraw_event(self, session: str, cursor: int) -> bool:
        done = self._conn.execute(
            "DELETE FROM events WHERE session = ? AND cursor = ?", (session, cursor)
        )
        return done.rowcount == 1

    def session_ended(self, session_id: str) -> bool:
        r = self._first("SELECT revoked_at FROM sessions WHERE id = ?", (session_id,))
        return r is None or r["revoked_at"] is not None

    def end_session(self, session_id: str, now: datetime) -> bool:
        done = self._conn.execute(
            "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            (codec.epoch(now), session_id),
        )
        return done.rowcount == 1

    def put_suggestion(self, suggestion: Suggestion) -> None:
        self.put_suggestions([suggestion])

    def put_suggestions(self, suggestions: Sequence[Suggestion]) -> None:
        try:
            self._conn.executemany(
                f"INSERT OR REPLACE INTO concierge_suggestions ({_SUGGESTION})"
                " VALUES (?, ?, ?, ?, ?, ?, 0)",
                [
                    (s.record_id, s.member, s.text, s.why, s.brain, codec.epoch(s.at))
                    for s in suggestions
                ],
            )
        except sqlite3.IntegrityError:
            unknown = next(
                (s.member for s in suggestions if self._first(_MEMBER, (s.member,)) is None), ""
            )
            raise Conflict(f"no member named {unknown!r}", code="unknown_member") from None

    def suggestion(self, record_id: str) -> Suggestion | None:
        r = self._first(
            f"SELECT {_SUGGESTION} FROM concierge_suggestions WHERE record_id = ?", (record_id,)
        )
        return None if r is None else codec.suggestion_from(r)

    def drop_suggestion(self, record_id: str) -> bool:
        done = self._conn.execute(
            "DELETE FROM concierge_suggestions WHERE record_id = ?", (record_id,)
        )
        return done.rowcount == 1

    def drop_member_suggestions(self, member: str) -> list[str]:
        rows = self._conn.execute(
            "DELETE FROM concierge_suggestions WHERE member = ? RETURNING record_id", (member,)
        ).fetchall()
        return sorted(str(r["record_id"]) for r in rows)

    def dismiss_suggestion(self, record_id: str) -> bool:
        done = self._conn.execute(
            "UPDATE concierge_suggestions SET dismissed = 1 WHERE record_id = ?", (record_id,)
        )
        return done.rowcount == 1

    def judged(self, record_id: str) -> bool:
        marks = ", ".join("?" * len(JUDGEMENTS))
        return (
            self._first(
                "SELECT 1 FROM concierge_ledger"
                f" WHERE record_id = ? AND decision IN ({marks}) LIMIT 1",
                (record_id, *JUDGEMENTS),
            )
            is not None
        )

    def add_ledger(self, entry: LedgerEntry) -> int:
        cursor = self._conn.execute(_ADD_LEDGER, codec.ledger_params(entry))
        return int(cursor.lastrowid or 0)

    def add_ledger_entries(self, entries: Sequence[LedgerEntry]) -> None:
        self._conn.executemany(_ADD_LEDGER, [codec.ledger_params(e) for e in entries])

    def add_concierge_answer(self, answer: ConciergeAnswer, *, keep: int = 20) -> int:
        cursor = self._conn.execute(
            "INSERT INTO concierge_answers"
            " (at, member, record_id, record_kind, session, text, why, row_id, event_cursor,"
            " undone_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                codec.epoch(answer.at),
                answer.member,
                answer.record_id,
                answer.record_kind,
                answer.session,
                answer.text,
                answer.why,
                answer.row_id,
                answer.event_cursor,
                codec.maybe_epoch(answer.undone_at),
            ),
        )
        new_id = int(cursor.lastrowid or 0)
        self._conn.execute(
            "DELETE FROM concierge_answers WHERE id NOT IN"
            " (SELECT id FROM concierge_answers ORDER BY id DESC LIMIT ?)",
            (keep,),
        )
        return new_id

    def last_concierge_answer(self, *, record_id: str | None = None) -> ConciergeAnswer | None:
        r = self._first(
            f"SELECT {_ANSWER} FROM concierge_answers WHERE undone_at IS NULL"
            " AND (? IS NULL OR record_id = ?) ORDER BY id DESC LIMIT 1",
            (record_id, record_id),
        )
        return None if r is None else codec.answer_from(r)

    def mark_answer_undone(self, answer_id: int, now: datetime) -> None:
        self._conn.execute(
            "UPDATE concierge_answers SET undone_at = ? WHERE id = ?",
            (codec.epoch(now), answer_id),
        )


class ConciergeReads:
    """The concierge's Store reads; the host provides ``_read`` and ``_lookup``."""

    async def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    async def _lookup(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    async def suggestion(self, record_id: str) -> Suggestion | None:
        rows = await self._lookup(
            f"SELECT {_SUGGESTION} FROM concierge_suggestions WHERE record_id = ?", (record_id,)
        )
        return codec.suggestion_from(rows[0]) if rows else None

    async def ledger(self, *, limit: int = 100) -> list[LedgerEntry]:
        rows = await self._read(
            f"SELECT {_LEDGER} FROM concierge_ledger ORDER BY id DESC LIMIT ?", (limit,)
        )
        return [codec.ledger_from(r) for r in rows]

    async def ledger_after(
        self,
        after: int,
        *,
        limit: int,
        member: str | None = None,
        since: datetime | None = None,
        decision: str | None = None,
    ) -> list[LedgerEntry]:
        where = ["id > ?"]
        params: list[object] = [after]
        for column, value in (("member", member), ("decision", decision)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if since is not None:
            where.append("at >= ?")
            params.append(codec.epoch(since))
        rows = await self._read(
            f"SELECT {_LEDGER} FROM concierge_ledger WHERE {' AND '.join(where)}"
            " ORDER BY id LIMIT ?",
            (*params, limit),
        )
        return [codec.ledger_from(r) for r in rows]

    async def concierge_answers(self) -> list[ConciergeAnswer]:
        rows = await self._read(f"SELECT {_ANSWER} FROM concierge_answers ORDER BY id DESC")
        return [codec.answer_from(r) for r in rows]

    async def fleet_rows(
        self, terms: Sequence[str], *, excluding: str, limit: int = 5, prefix: bool = False
    ) -> list[Row]:
        match = fts5_match(terms, prefix=prefix)
        if not match:
            return []
        rows = await self._read(FLEET_QUERY, (match, FLEET_WINDOW, excluding, limit))
        return [codec.row_from(r) for r in rows]


def fts5_match(terms: Sequence[str], *, prefix: bool = False) -> str:
    """An FTS5 query matching any of ``terms``, each a phrase of its words (quoted: nothing
    in a term is query syntax), the last word a prefix with ``prefix``; "" for no terms."""
    star = "*" if prefix else ""
    phrases = ('"' + term.replace('"', '""') + '"' + star for term in terms if term.strip())
    return " OR ".join(phrases)


# The newest FLEET_WINDOW matching rows, ranked (bm25), best first: FTS5 walks the matches
# newest first and stops, so a question made of common words costs a bounded amount
# however large the fleet's history grows, while the ranking still puts the row that
# states the asked-for thing first.
FLEET_WINDOW = codec.FLEET_WINDOW
FLEET_QUERY = (
    f"SELECT {codec.qualified('r', codec.ROW_COLUMNS)} FROM"
    " (SELECT rowid, rank FROM fleet_text WHERE fleet_text MATCH ? ORDER BY rowid DESC LIMIT ?)"
    " AS hit JOIN rows r ON r.rowid = hit.rowid"
    " WHERE r.conversation <> ? AND r.rewound_in IS NULL ORDER BY hit.rank LIMIT ?"
)
