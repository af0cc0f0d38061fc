"""The concierge's part of the store in SQL: suggestions, kept answers, the ledger, and fleet
retrieval (its statement is the engine's: ``Dialect.fleet_search``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from crewline.errors import Conflict
from crewline.models import JUDGEMENTS, ConciergeAnswer, LedgerEntry, Row, Suggestion
from crewline.store.ports.concierge import ConciergeReads, ConciergeTx
from crewline.store.sql.dialect import MEMBER_LOCKS
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, encoder, epoch
from crewline.store.sql.transcript import row_of

__all__ = ["SUGGESTION", "SqlConciergeReads", "SqlConciergeTx", "suggestion_of"]

SUGGESTION = ("record_id", "member", "text", "why", "brain", "at", "dismissed")
ANSWER = (
    "id", "at", "member", "record_id", "record_kind", "session", "text", "why", "row_id",
    "event_cursor", "undone_at",
)  # fmt: skip
LEDGER = (
    "id", "at", "member", "record_id", "decision", "verdict", "policy", "brain", "rationale",
    "evidence", "actor",
)  # fmt: skip
suggestion_of = decoder(Suggestion, SUGGESTION)
_answer = decoder(ConciergeAnswer, ANSWER)
_answer_values = encoder(ConciergeAnswer, ANSWER[1:])
_ledger = decoder(LedgerEntry, LEDGER)
_ledger_values = encoder(LedgerEntry, LEDGER[1:])
_SUGGESTION = f"SELECT {', '.join(SUGGESTION)} FROM concierge_suggestions WHERE record_id = ?"
_ADD_LEDGER = (
    f"INSERT INTO concierge_ledger ({', '.join(LEDGER[1:])})"
    f" VALUES ({', '.join('?' * (len(LEDGER) - 1))})"
)
# Inserted only beside its member, so an unknown member is refused without a foreign key
# error (which would leave a PostgreSQL transaction unusable).
_PUT_SUGGESTION = (
    f"INSERT INTO concierge_suggestions ({', '.join(SUGGESTION)})"
    " SELECT ?, slug, ?, ?, ?, ?, 0 FROM members WHERE slug = ?"
    " ON CONFLICT (record_id) DO UPDATE SET member = excluded.member, text = excluded.text,"
    " why = excluded.why, brain = excluded.brain, at = excluded.at, dismissed = 0"
    " RETURNING record_id"
)
# A batch's: its members read once (so none is missing), then every upsert in one call.
_KNOWN_MEMBERS = "SELECT slug FROM members WHERE slug {in_array}"
_PUT_SUGGESTIONS = (
    f"INSERT INTO concierge_suggestions ({', '.join(SUGGESTION)}) VALUES (?, ?, ?, ?, ?, ?, 0)"
    " ON CONFLICT (record_id) DO UPDATE SET member = excluded.member, text = excluded.text,"
    " why = excluded.why, brain = excluded.brain, at = excluded.at, dismissed = 0"
)
_LAST_ANSWER = f"SELECT {', '.join(ANSWER)} FROM concierge_answers WHERE undone_at IS NULL"
_ANSWERS_LOCK = "concierge_answers"
_JUDGED = (
    "SELECT 1 FROM concierge_ledger WHERE record_id = ? AND decision IN"
    f" ({', '.join(repr(d) for d in sorted(JUDGEMENTS))}) LIMIT 1"
)


class SqlConciergeTx(TxPart, ConciergeTx):
    def put_suggestion(self, suggestion: Suggestion) -> None:
        s = suggestion
        put = self._one(
            _PUT_SUGGESTION, (s.record_id, s.text, s.why, s.brain, epoch(s.at), s.member)
        )
        if put is None:
            raise Conflict(f"no member named {s.member!r}", code="unknown_member")

    def put_suggestions(self, suggestions: Sequence[Suggestion]) -> None:
        # The concierge's batch: its members read in one statement, then one upsert each, in
        # order (a later suggestion for the same record replaces an earlier), all in one
        # call. About a third of one statement each with its row returned, per suggestion.
        if not suggestions:
            return
        named = list(dict.fromkeys(s.member for s in suggestions))
        known = {str(r[0]) for r in self._all(_KNOWN_MEMBERS, (self._d.array(named),))}
        for slug in named:
            if slug not in known:  # refused before anything is written, as one by one
                raise Conflict(f"no member named {slug!r}", code="unknown_member")
        self._s.executemany(
            _PUT_SUGGESTIONS,
            [(s.record_id, s.member, s.text, s.why, s.brain, epoch(s.at)) for s in suggestions],
        )

    def suggestion(self, record_id: str) -> Suggestion | None:
        r = self._one(_SUGGESTION, (record_id,))
        return None if r is None else suggestion_of(r)

    def drop_suggestion(self, record_id: str) -> bool:
        return (
            self._s.count("DELETE FROM concierge_suggestions WHERE record_id = ?", (record_id,))
            == 1
        )

    def drop_member_suggestions(self, member: str) -> list[str]:
        rows = self._all(
            "DELETE FROM concierge_suggestions WHERE member = ? RETURNING record_id", (member,)
        )
        return sorted(str(r[0]) for r in rows)

    def dismiss_suggestion(self, record_id: str) -> bool:
        return (
            self._s.count(
                "UPDATE concierge_suggestions SET dismissed = 1 WHERE record_id = ?", (record_id,)
            )
            == 1
        )

    def judged(self, record_id: str) -> bool:
        return self._one(_JUDGED, (record_id,)) is not None

    def add_ledger(self, entry: LedgerEntry) -> int:
        return int(self._one(f"{_ADD_LEDGER} RETURNING id", _ledger_values(entry))[0])

    def add_ledger_entries(self, entries: Sequence[LedgerEntry]) -> None:
        if entries:
            self._s.executemany(_ADD_LEDGER, [_ledger_values(e) for e in entries])

    def add_concierge_answer(self, answer: ConciergeAnswer, *, keep: int = 20) -> int:
        # One writer at a time: ids then commit in order, so "the newest ``keep``" and "the
        # last answer" mean the same to every transaction.
        self._s.lock(_ANSWERS_LOCK, MEMBER_LOCKS)
        added = self._one(
            f"INSERT INTO concierge_answers ({', '.join(ANSWER[1:])})"
            f" VALUES ({', '.join('?' * (len(ANSWER) - 1))}) RETURNING id",
            _answer_values(answer),
        )
        self._s.execute(
            "DELETE FROM concierge_answers WHERE id NOT IN"
            " (SELECT id FROM concierge_answers ORDER BY id DESC LIMIT ?)",
            (keep,),
        )
        return int(added[0])

    def last_concierge_answer(self, *, record_id: str | None = None) -> ConciergeAnswer | None:
        if record_id is None:
            r = self._one(f"{_LAST_ANSWER} ORDER BY id DESC LIMIT 1")
        else:
            r = self._one(
                f"{_LAST_ANSWER} AND record_id = ? ORDER BY id DESC LIMIT 1", (record_id,)
            )
        return None if r is None else _answer(r)

    def mark_answer_undone(self, answer_id: int, now: datetime) -> None:
        self._s.execute(
            "UPDATE concierge_answers SET undone_at = ? WHERE id = ?", (epoch(now), answer_id)
        )


class SqlConciergeReads(ReadPart, ConciergeReads):
    async def suggestion(self, record_id: str) -> Suggestion | None:
        rows = await self._fetch(_SUGGESTION, (record_id,), lookup=True)
        return suggestion_of(rows[0]) if rows else None

    async def ledger(self, *, limit: int = 100) -> list[LedgerEntry]:
        rows = await self._fetch(
            f"SELECT {', '.join(LEDGER)} FROM concierge_ledger ORDER BY id DESC LIMIT ?", (limit,)
        )
        return [_ledger(r) for r in rows]

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
            params.append(epoch(since))
        rows = await self._fetch(
            f"SELECT {', '.join(LEDGER)} FROM concierge_ledger WHERE {' AND '.join(where)}"
            " ORDER BY id LIMIT ?",
            (*params, limit),
        )
        return [_ledger(r) for r in rows]

    async def concierge_answers(self) -> list[ConciergeAnswer]:
        rows = await self._fetch(
            f"SELECT {', '.join(ANSWER)} FROM concierge_answers ORDER BY id DESC"
        )
        return [_answer(r) for r in rows]

    async def fleet_rows(
        self, terms: Sequence[str], *, excluding: str, limit: int = 5, prefix: bool = False
    ) -> list[Row]:
        wanted = [term for term in dict.fromkeys(terms) if term.strip()]
        if not wanted:
            return []
        sql, params = self.dialect.fleet_search(
            wanted, excluding=excluding, limit=limit, prefix=prefix
        )
        return [row_of(r) for r in await self._fetch(sql, params, prepare=False)]
