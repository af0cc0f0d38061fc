"""Records in SQL: the escalation index and the questions.

``{ord}`` is the engine's insertion order (SQLite's rowid, PostgreSQL's ``ord`` column), the
tie-breaker between records created at the same moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from crewline.models import (
    JUDGEMENTS,
    BellLine,
    Escalation,
    EscalationState,
    Question,
    RowRole,
)
from crewline.store.ports.records import CardRead, RecordsReads, RecordsTx
from crewline.store.sql.concierge import SUGGESTION, suggestion_of
from crewline.store.sql.dialect import BACKLOG_LOCKS, upsert
from crewline.store.sql.members import ONE_MEMBER, members_of
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, encoder, epoch, moment
from crewline.store.sql.transcript import ROW, row_of

__all__ = ["INDEX_PROBE", "SqlRecordsReads", "SqlRecordsTx"]

ESCALATION = (
    "id", "member", "row_id", "session", "message", "deadline", "default_action", "options",
    "goal", "state", "answer", "choice", "answered_by", "answered_via", "answer_row_id",
    "default_applied", "created_at", "settled_at", "window_held",
)  # fmt: skip
QUESTION = (
    "id", "member", "session", "row_id", "question", "options", "dialog", "state", "answer",
    "answered_by", "created_at", "settled_at",
)  # fmt: skip
ESCALATIONS = f"SELECT {', '.join(ESCALATION)} FROM escalations"
QUESTIONS = f"SELECT {', '.join(QUESTION)} FROM questions"
_escalation = decoder(Escalation, ESCALATION)
_escalation_values = encoder(Escalation, ESCALATION)
_question = decoder(Question, QUESTION)
_question_values = encoder(Question, QUESTION)
_PUT_ESCALATION = upsert("escalations", ESCALATION, ("id",))
_PUT_QUESTION = upsert("questions", QUESTION, ("id",))
_ESCALATION_BY_ID = f"{ESCALATIONS} WHERE id = ?"
_QUESTION_BY_ID = f"{QUESTIONS} WHERE id = ?"
# Reads every column a record's decoder needs: it fails on a missing or damaged index.
INDEX_PROBE = "SELECT id, state, deadline FROM escalations LIMIT 1"
_PENDING = "SELECT count(*) FROM escalations WHERE member = ? AND state = 'pending'"
BELL_LINE = ("message", "deadline", "default_action", "options", "window_held")
_bell_line = decoder(BellLine, BELL_LINE)
_BELL_LINES = (
    f"SELECT {', '.join(BELL_LINE)} FROM escalations WHERE member = ? AND state = 'pending'"
    " AND coalesce(goal, '') = ? ORDER BY created_at, {ord}"
)


# A card's row, its member, its record and the record's suggestion: four lookups in one.
# The member's transports as ONE_MEMBER aggregates them, for the one member.
_CARD_READ = (
    f"SELECT {', '.join(f'r.{c}' for c in ROW)}, m.slug, m.name, m.owner,"
    " (SELECT {string_agg}(t.transport, ',') FROM member_transports t WHERE t.member = m.slug),"
    f" {', '.join(f'e.{c}' for c in ESCALATION)}, {', '.join(f's.{c}' for c in SUGGESTION)}"
    " FROM rows r LEFT JOIN members m ON m.slug = r.conversation"
    " LEFT JOIN escalations e ON r.role = ? AND e.id = r.record"
    " LEFT JOIN concierge_suggestions s ON s.record_id = e.id WHERE r.id = ?"
)
_ROW_ALONE = f"SELECT {', '.join(ROW)} FROM rows WHERE id = ?"
_MEMBER_AT = len(ROW)
_ESCALATION_AT = _MEMBER_AT + 4
_SUGGESTION_AT = _ESCALATION_AT + len(ESCALATION)

# Open records without a judgement of the concierge's own, a page of ids at a time (the
# primary key's index, so each read examines at most a page of records, whatever the
# store holds): a start reads only these, not every open record.
_PAGE_END = "SELECT max(id) FROM (SELECT id FROM {table} WHERE id > ? ORDER BY id LIMIT ?) page"
_NOT_JUDGED = (
    "id > ? AND id <= ? AND NOT EXISTS (SELECT 1 FROM concierge_ledger l"
    " WHERE l.record_id = {table}.id AND"
    f" l.decision IN ({', '.join(repr(d) for d in sorted(JUDGEMENTS))})) ORDER BY id"
)
_UNJUDGED_ESCALATIONS = (
    f"{ESCALATIONS} WHERE state = 'pending' AND {_NOT_JUDGED.format(table='escalations')}"
)
_UNJUDGED_QUESTIONS = (
    f"{QUESTIONS} WHERE state = 'waiting' AND member IS NOT NULL"
    f" AND {_NOT_JUDGED.format(table='questions')}"
)

_OF_MEMBER = {  # pending_only: the statement
    pending_only: f"{ESCALATIONS} WHERE member = ?{where} ORDER BY created_at, {{ord}}"
    for pending_only, where in ((False, ""), (True, " AND state = 'pending'"))
}


class SqlRecordsTx(TxPart, RecordsTx):
    def put_escalation(self, escalation: Escalation) -> None:
        # Not read back (no round trip of its own where statements are pipelined): a missing
        # or damaged index surfacing later in the transaction is still reported as the
        # index's (``index_written``).
        self.index_written = True
        self._index(_PUT_ESCALATION, _escalation_values(escalation), settle=False)

    def escalation(self, escalation_id: str) -> Escalation | None:
        r = self._index(_ESCALATION_BY_ID, (escalation_id,)).fetchone()
        return None if r is None else _escalation(r)

    def escalation_states(self, escalation_ids: Sequence[str]) -> dict[str, EscalationState]:
        wanted = self._d.array(list(dict.fromkeys(escalation_ids)))
        return {
            r[0]: EscalationState(r[1])
            for r in self._index(
                "SELECT id, state FROM escalations WHERE id {in_array}", (wanted,)
            ).fetchall()
        }

    def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        return [_escalation(r) for r in self._index(_OF_MEMBER[pending_only], (member,)).fetchall()]

    def count_pending(self, member: str) -> int:
        # The count decides whether one more record fits under the backlog ceiling: hold the
        # member's lock to the commit, so a concurrent writer counts after this one's insert.
        self._s.lock(member, BACKLOG_LOCKS)
        r = self._index(_PENDING, (member,)).fetchone()
        return int(r[0]) if r else 0

    def put_question(self, question: Question) -> None:
        self._s.execute(_PUT_QUESTION, _question_values(question))

    def question(self, question_id: str) -> Question | None:
        r = self._one(_QUESTION_BY_ID, (question_id,))
        return None if r is None else _question(r)

    def waiting_questions(self, member: str) -> list[Question]:
        return [
            _question(r)
            for r in self._all(
                f"{QUESTIONS} WHERE member = ? AND state = 'waiting' ORDER BY created_at, {{ord}}",
                (member,),
            )
        ]


class SqlRecordsReads(ReadPart, RecordsReads):
    async def escalation(self, escalation_id: str) -> Escalation | None:
        rows = await self._fetch_index(_ESCALATION_BY_ID, (escalation_id,), lookup=True)
        return _escalation(rows[0]) if rows else None

    async def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        # Pending ones are at most a backlog's worth (50): a lookup. All of them: a scan.
        rows = await self._fetch_index(_OF_MEMBER[pending_only], (member,), lookup=pending_only)
        return [_escalation(r) for r in rows]

    async def card_read(self, row_id: str) -> CardRead | None:
        try:
            found = await self._fetch(_CARD_READ, (RowRole.ESCALATION.value, row_id), lookup=True)
        except Exception as error:
            if not self.dialect.index_damage(error, reading=True):
                raise
            # The record: read on its own later. The rest as ever, one by one.
            alone = await self._fetch(_ROW_ALONE, (row_id,), lookup=True)
            if not alone:
                return None
            row = row_of(alone[0])
            member = members_of(await self._fetch(ONE_MEMBER, (row.conversation,), lookup=True))
            return CardRead(
                row=row, member=member[0] if member else None, escalation=None, suggestion=None
            )
        if not found:
            return None
        r = found[0]
        member = members_of([r[_MEMBER_AT:_ESCALATION_AT]]) if r[_MEMBER_AT] is not None else []
        escalation = suggestion = None
        if r[_ESCALATION_AT] is not None:
            escalation = _escalation(r[_ESCALATION_AT:_SUGGESTION_AT])
            if r[_SUGGESTION_AT] is not None:
                suggestion = suggestion_of(r[_SUGGESTION_AT:])
        return CardRead(
            row=row_of(r[:_MEMBER_AT]),
            member=member[0] if member else None,
            escalation=escalation,
            suggestion=suggestion,
        )

    async def bell_lines(self, member: str, goal: str) -> list[BellLine]:
        rows = await self._fetch_index(_BELL_LINES, (member, goal), lookup=True)
        return [_bell_line(r) for r in rows]

    async def pending_counts(self) -> dict[str, int]:
        rows = await self._fetch_index(
            "SELECT member, count(*) FROM escalations WHERE state = 'pending' GROUP BY member"
        )
        return {r[0]: int(r[1]) for r in rows}

    async def due_windows(self, before: datetime) -> list[tuple[str, str, datetime]]:
        rows = await self._fetch_index(
            "SELECT id, member, deadline FROM escalations"
            " WHERE state = 'pending' AND deadline IS NOT NULL AND deadline < ?"
            " AND window_held = 0 ORDER BY deadline",
            (epoch(before),),
        )
        return [(r[0], r[1], moment(r[2])) for r in rows]

    async def unjudged_escalations(
        self, *, after: str = "", limit: int
    ) -> tuple[list[Escalation], str]:
        end = await self._fetch_index(_PAGE_END.format(table="escalations"), (after, limit))
        if not end or end[0][0] is None:
            return [], ""
        rows = await self._fetch_index(_UNJUDGED_ESCALATIONS, (after, end[0][0]))
        return [_escalation(r) for r in rows], str(end[0][0])

    async def unjudged_questions(
        self, *, after: str = "", limit: int
    ) -> tuple[list[Question], str]:
        end = await self._fetch(_PAGE_END.format(table="questions"), (after, limit))
        if not end or end[0][0] is None:
            return [], ""
        rows = await self._fetch(_UNJUDGED_QUESTIONS, (after, end[0][0]))
        return [_question(r) for r in rows], str(end[0][0])

    async def escalation_counts(self) -> dict[str, int]:
        rows = await self._fetch_index("SELECT state, count(*) FROM escalations GROUP BY state")
        return {r[0]: int(r[1]) for r in rows}

    async def check_index(self) -> None:
        await self._fetch_index(INDEX_PROBE)

    async def question(self, question_id: str) -> Question | None:
        rows = await self._fetch(_QUESTION_BY_ID, (question_id,), lookup=True)
        return _question(rows[0]) if rows else None

    async def waiting_counts(self) -> dict[str, int]:
        rows = await self._fetch(
            "SELECT member, count(*) FROM questions"
            " WHERE state = 'waiting' AND member IS NOT NULL GROUP BY member"
        )
        return {r[0]: int(r[1]) for r in rows}

    async def waiting_questions(self, member: str) -> list[Question]:
        rows = await self._fetch(
            f"{QUESTIONS} WHERE member = ? AND state = 'waiting' ORDER BY created_at, id",
            (member,),
        )
        return [_question(r) for r in rows]
