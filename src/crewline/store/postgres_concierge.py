"""The concierge's part of the PostgreSQL store: suggestions, answers, the ledger, fleet text.

Kept apart from ``postgres_tx``/``postgres`` as ``sqlite_concierge`` is from SQLite's
modules; ``PostgresTx`` and ``PostgresStore`` mix these in. Rows are decoded by ``codec``,
shared with SQLite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import DictRow

from crewline.errors import Conflict
from crewline.models import JUDGEMENTS, ConciergeAnswer, LedgerEntry, Row, Suggestion
from crewline.store import codec
from crewline.store.postgres_statements import Statements

__all__ = ["FLEET_QUERY", "FLEET_WINDOW", "ConciergeReads", "ConciergeWrites"]

_Params = Sequence[Any] | Mapping[str, Any]
_ANSWERS_LOCK = 19  # an advisory key space (the seed of hashtextextended), as postgres_tx's
_ADD_LEDGER = (
    "INSERT INTO concierge_ledger"
    " (at, member, record_id, decision, verdict, policy, brain, rationale, evidence,"
    " actor) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
)


class ConciergeWrites:
    """The concierge's Tx methods over one psycopg connection, inside its transaction."""

    _conn: Statements
    _pipeline: psycopg.Pipeline | None

    def _settled(self, cursor: psycopg.Cursor[DictRow]) -> psycopg.Cursor[DictRow]:
        """``cursor`` with its statement's outcome in: its error raised here, its row count
        set (in pipeline mode a statement whose rows are not fetched is only queued)."""
        if self._pipeline is not None:
            self._pipeline.sync()
        return cursor

    def _fetch_one(
        self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
    ) -> DictRow | None:
        return self._conn.execute(sql, params).fetchone()

    def _rowcount(self, sql: str, params: _Params = ()) -> int:
        return self._settled(self._conn.execute(sql, params)).rowcount

    def setting(self, key: str) -> str | None:
        r = self._fetch_one("SELECT value FROM settings WHERE key = %s", (key,))
        return None if r is None else str(r["value"])

    def withdraw_event(self, session: str, cursor: int) -> bool:
        return (
            self._rowcount(
                "DELETE FROM events WHERE session = %s AND cursor = %s", (session, cursor)
            )
            == 1
        )

    def session_ended(self, session_id: str) -> bool:
        r = self._fetch_one("SELECT revoked_at FROM sessions WHERE id = %s", (session_id,))
        return r is None or r["revoked_at"] is not None

    def end_session(self, session_id: str, now: datetime) -> bool:
        return (
            self._rowcount(
                "UPDATE sessions SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                (codec.epoch(now), session_id),
            )
            == 1
        )

    def put_suggestion(self, suggestion: Suggestion) -> None:
        self.put_suggestions([suggestion])

    def put_suggestions(self, suggestions: Sequence[Suggestion]) -> None:
        # Inserted only beside its member, so an unknown member is a Conflict, not a foreign
        # key error that would leave the transaction unusable. One statement each (in order:
        # a later suggestion for the same record replaces an earlier), sent together.
        if not suggestions:
            return
        cursor = self._conn.executemany(
            f"INSERT INTO concierge_suggestions ({codec.SUGGESTION_COLUMNS})"
            " SELECT %s, slug, %s, %s, %s, %s, 0 FROM members WHERE slug = %s"
            " ON CONFLICT (record_id) DO UPDATE SET member = excluded.member,"
            " text = excluded.text, why = excluded.why, brain = excluded.brain,"
            " at = excluded.at, dismissed = 0 RETURNING record_id",
            [
                (s.record_id, s.text, s.why, s.brain, codec.epoch(s.at), s.member)
                for s in suggestions
            ],
            returning=True,
        )
        for suggestion in suggestions:
            if cursor.fetchone() is None:
                raise Conflict(f"no member named {suggestion.member!r}", code="unknown_member")
            cursor.nextset()

    def suggestion(self, record_id: str) -> Suggestion | None:
        r = self._fetch_one(
            f"SELECT {codec.SUGGESTION_COLUMNS} FROM concierge_suggestions WHERE record_id = %s",
            (record_id,),
        )
        return None if r is None else codec.suggestion_from(r)

    def drop_suggestion(self, record_id: str) -> bool:
        return (
            self._rowcount("DELETE FROM concierge_suggestions WHERE record_id = %s", (record_id,))
            == 1
        )

    def drop_member_suggestions(self, member: str) -> list[str]:
        rows = self._conn.execute(
            "DELETE FROM concierge_suggestions WHERE member = %s RETURNING record_id", (member,)
        ).fetchall()
        return sorted(str(r["record_id"]) for r in rows)

    def dismiss_suggestion(self, record_id: str) -> bool:
        return (
            self._rowcount(
                "UPDATE concierge_suggestions SET dismissed = 1 WHERE record_id = %s",
                (record_id,),
            )
            == 1
        )

    def judged(self, record_id: str) -> bool:
        found = self._fetch_one(
            "SELECT 1 FROM concierge_ledger WHERE record_id = %s AND decision = ANY(%s) LIMIT 1",
            (record_id, list(JUDGEMENTS)),
        )
        return found is not None

    def add_ledger(self, entry: LedgerEntry) -> int:
        r = self._fetch_one(f"{_ADD_LEDGER} RETURNING id", codec.ledger_params(entry))
        assert r is not None
        return int(r["id"])

    def add_ledger_entries(self, entries: Sequence[LedgerEntry]) -> None:
        if entries:
            self._conn.executemany(_ADD_LEDGER, [codec.ledger_params(e) for e in entries])

    def add_concierge_answer(self, answer: ConciergeAnswer, *, keep: int = 20) -> int:
        # One writer at a time: ids then commit in order, so "the newest ``keep``" and "the
        # last answer" mean the same to every transaction.
        self._conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended('concierge_answers', %s))",
            (_ANSWERS_LOCK,),
        )
        r = self._fetch_one(
            "INSERT INTO concierge_answers"
            " (at, member, record_id, record_kind, session, text, why, row_id, event_cursor,"
            " undone_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
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
        assert r is not None
        self._conn.execute(
            "DELETE FROM concierge_answers WHERE id NOT IN"
            " (SELECT id FROM concierge_answers ORDER BY id DESC LIMIT %s)",
            (keep,),
        )
        return int(r["id"])

    def last_concierge_answer(self, *, record_id: str | None = None) -> ConciergeAnswer | None:
        r = self._fetch_one(
            f"SELECT {codec.ANSWER_COLUMNS} FROM concierge_answers WHERE undone_at IS NULL"
            " AND (%(record)s::text IS NULL OR record_id = %(record)s) ORDER BY id DESC LIMIT 1",
            {"record": record_id},
        )
        return None if r is None else codec.answer_from(r)

    def mark_answer_undone(self, answer_id: int, now: datetime) -> None:
        self._conn.execute(
            "UPDATE concierge_answers SET undone_at = %s WHERE id = %s",
            (codec.epoch(now), answer_id),
        )


class ConciergeReads:
    """The concierge's Store reads; the host provides ``_read``."""

    async def _read(
        self, sql: str, params: tuple[Any, ...] = (), *, prepare: bool = True
    ) -> list[DictRow]:
        raise NotImplementedError

    async def suggestion(self, record_id: str) -> Suggestion | None:
        rows = await self._read(
            f"SELECT {codec.SUGGESTION_COLUMNS} FROM concierge_suggestions WHERE record_id = %s",
            (record_id,),
        )
        return codec.suggestion_from(rows[0]) if rows else None

    async def ledger(self, *, limit: int = 100) -> list[LedgerEntry]:
        rows = await self._read(
            f"SELECT {codec.LEDGER_COLUMNS} FROM concierge_ledger ORDER BY id DESC LIMIT %s",
            (limit,),
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
        where = ["id > %s"]
        params: list[object] = [after]
        for column, value in (("member", member), ("decision", decision)):
            if value is not None:
                where.append(f"{column} = %s")
                params.append(value)
        if since is not None:
            where.append("at >= %s")
            params.append(codec.epoch(since))
        rows = await self._read(
            f"SELECT {codec.LEDGER_COLUMNS} FROM concierge_ledger"
            f" WHERE {' AND '.join(where)} ORDER BY id LIMIT %s",
            (*params, limit),
        )
        return [codec.ledger_from(r) for r in rows]

    async def concierge_answers(self) -> list[ConciergeAnswer]:
        rows = await self._read(
            f"SELECT {codec.ANSWER_COLUMNS} FROM concierge_answers ORDER BY id DESC"
        )
        return [codec.answer_from(r) for r in rows]

    async def fleet_rows(
        self, terms: Sequence[str], *, excluding: str, limit: int = 5, prefix: bool = False
    ) -> list[Row]:
        asked = [term for term in terms if term.strip()]
        if not asked:
            return []
        query = " || ".join([_PREFIX if prefix else _WORDS] * len(asked))
        rows = await self._read(
            FLEET_QUERY.format(query=query),
            (*asked, *asked, FLEET_WINDOW, excluding, limit),
            prepare=False,
        )
        return [codec.row_from(r) for r in rows]


# A term as the index reads its row's text: accents folded, ASCII punctuation a space, the
# words stemmed, in a row; with a prefix, the last word the beginning of one. A term without
# a word is the empty query, which ``||`` (OR) leaves out.
_WORDS = "phraseto_tsquery('crewline_fleet', crewline_fleet_words(crewline_fleet_fold(%s)))"
_PREFIX = f"coalesce((nullif({_WORDS}::text, '') || ':*')::tsquery, ''::tsquery)"

# The newest FLEET_WINDOW matching rows, ranked, best first, as SQLite's FLEET_QUERY. The
# terms are bound parameters of a statement never prepared (``prepare=False``): each run is
# planned with their values, the tsquery folded to a constant, so the planner estimates how
# common its words are from the column's statistics (kept for the 10,000 commonest
# lexemes, see the migration): for rare words it reads the GIN index's few matches; for
# common ones it walks fleet_text's ids newest first and stops at the window. Either way a
# question reads a bounded number of entries however large the history grows. ts_rank with
# normalisation 1 (divided by 1 + the log of the row's length) stands in for FTS5's bm25:
# rows naming more of the question's words, and shorter rows, come first; ties go to the
# newer row.
FLEET_WINDOW = codec.FLEET_WINDOW
FLEET_QUERY = (
    f"SELECT {codec.qualified('r', codec.ROW_COLUMNS)} FROM"
    " (SELECT id, row_id, ts_rank(doc, {query}, 1) AS rank"
    "  FROM fleet_text WHERE doc @@ ({query})"
    "  ORDER BY id DESC LIMIT %s) AS hit"
    " JOIN rows r ON r.id = hit.row_id"
    " WHERE r.conversation <> %s AND r.rewound_in IS NULL"
    " ORDER BY hit.rank DESC, hit.id DESC LIMIT %s"
)
