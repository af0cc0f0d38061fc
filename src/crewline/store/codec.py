"""Mapping between stored records and crewline's values, shared by every store's reads and
transactions (SQLite's rows and PostgreSQL's dict rows are both read by column name)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypeAlias

from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    CallerKind,
    ConciergeAnswer,
    Escalation,
    EscalationState,
    Event,
    LedgerEntry,
    Member,
    Question,
    QuestionState,
    Row,
    RowRole,
    Session,
    Suggestion,
)
from crewline.store.base import (
    IdempotencyRecord,
    OutboxEntry,
    PlatformMessage,
    SeenEvent,
    SelRecord,
    Webhook,
)

ESCALATION_COLUMNS = (
    "id, member, row_id, session, message, deadline, default_action, options, goal, state,"
    " answer, choice, answered_by, answered_via, answer_row_id, default_applied, created_at,"
    " settled_at, window_held"
)
ROW_COLUMNS = "id, conversation, generation, seq, role, author, text, meta, created_at"
QUESTION_COLUMNS = (
    "id, member, session, row_id, question, options, dialog, state, answer, answered_by,"
    " created_at, settled_at"
)
SESSION_COLUMNS = "id, kind, member, parent, stateless, turn_since"
OUTBOX_COLUMNS = "id, transport, lane, op, object_key, body, attempts, not_before, created_at"
IDEMPOTENCY_COLUMNS = "session, key, fingerprint, status, response, created_at"
WEBHOOK_COLUMNS = (
    "session, url, secret, delivered_through, attempts, not_before, last_error, created_at"
)
SUGGESTION_COLUMNS = "record_id, member, text, why, brain, at, dismissed"
ANSWER_COLUMNS = (
    "id, at, member, record_id, record_kind, session, text, why, row_id, event_cursor, undone_at"
)
LEDGER_COLUMNS = (
    "id, at, member, record_id, decision, verdict, policy, brain, rationale, evidence, actor"
)

# How many of the newest matching rows fleet retrieval ranks (Store.fleet_rows): every store
# reads at most this window, so a question's cost stays bounded as the history grows.
FLEET_WINDOW = 500


def qualified(alias: str, columns: str) -> str:
    """``columns`` (a list like ROW_COLUMNS) each prefixed with ``alias.``, for a join."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


Record: TypeAlias = Any  # a row of either store: sqlite3.Row or a psycopg dict row


def epoch(moment: datetime) -> float:
    return moment.timestamp()


def moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def maybe_epoch(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def maybe_moment(value: float | None) -> datetime | None:
    return None if value is None else moment(value)


# What json.dumps(value, separators=(",", ":"), ensure_ascii=False) builds on every call.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def dumps(value: Mapping[str, Any] | list[Any] | tuple[Any, ...]) -> str:
    return _ENCODER.encode(value)


def loads_list(text: str) -> list[Any]:
    value = json.loads(text)
    assert isinstance(value, list)
    return value


def members_from(rows: list[Record]) -> list[Member]:
    """Members from rows with their transports aggregated, comma-separated (``transports``)."""
    return [
        Member(
            slug=r["slug"],
            name=r["name"],
            owner=r["owner"],
            transports=tuple(sorted(r["transports"].split(","))) if r["transports"] else (),
        )
        for r in rows
    ]


def escalation_params(e: Escalation) -> tuple[Any, ...]:
    return (
        e.id,
        e.member,
        e.row_id,
        e.session,
        e.message,
        maybe_epoch(e.deadline),
        e.default_action,
        dumps(list(e.options)),
        e.goal,
        e.state.value,
        e.answer,
        e.choice,
        e.answered_by.value if e.answered_by else None,
        e.answered_via.value if e.answered_via else None,
        e.answer_row_id,
        int(e.default_applied),
        epoch(e.created_at),
        maybe_epoch(e.settled_at),
        int(e.window_held),
    )


def escalation_from(r: Record) -> Escalation:
    return Escalation(
        id=r["id"],
        member=r["member"],
        row_id=r["row_id"],
        session=r["session"],
        message=r["message"],
        deadline=maybe_moment(r["deadline"]),
        default_action=r["default_action"],
        options=tuple(json.loads(r["options"])),
        goal=r["goal"],
        state=EscalationState(r["state"]),
        answer=r["answer"],
        choice=r["choice"],
        answered_by=AnsweredBy(r["answered_by"]) if r["answered_by"] else None,
        answered_via=AnsweredVia(r["answered_via"]) if r["answered_via"] else None,
        answer_row_id=r["answer_row_id"],
        default_applied=bool(r["default_applied"]),
        created_at=moment(r["created_at"]),
        settled_at=maybe_moment(r["settled_at"]),
        window_held=bool(r["window_held"]),
    )


def row_from(r: Record) -> Row:
    return Row(
        id=r["id"],
        conversation=r["conversation"],
        generation=r["generation"],
        seq=r["seq"],
        role=RowRole(r["role"]),
        author=r["author"],
        text=r["text"],
        meta=json.loads(r["meta"]),
        created_at=moment(r["created_at"]),
    )


def question_params(q: Question) -> tuple[Any, ...]:
    return (
        q.id,
        q.member,
        q.session,
        q.row_id,
        q.question,
        dumps(list(q.options)),
        int(q.dialog),
        q.state.value,
        q.answer,
        q.answered_by.value if q.answered_by else None,
        epoch(q.created_at),
        maybe_epoch(q.settled_at),
    )


def question_from(r: Record) -> Question:
    return Question(
        id=r["id"],
        member=r["member"],
        session=r["session"],
        row_id=r["row_id"],
        question=r["question"],
        options=tuple(json.loads(r["options"])),
        dialog=bool(r["dialog"]),
        state=QuestionState(r["state"]),
        answer=r["answer"],
        answered_by=AnsweredBy(r["answered_by"]) if r["answered_by"] else None,
        created_at=moment(r["created_at"]),
        settled_at=maybe_moment(r["settled_at"]),
    )


def session_from(r: Record) -> Session:
    return Session(
        id=r["id"],
        kind=CallerKind(r["kind"]),
        member=r["member"],
        parent=r["parent"],
        stateless=bool(r["stateless"]),
        turn_since=None if r["turn_since"] is None else moment(r["turn_since"]),
    )


def event_from(r: Record) -> Event:
    return Event(
        cursor=r["cursor"],
        session=r["session"],
        kind=r["kind"],
        body=json.loads(r["body"]),
        created_at=moment(r["created_at"]),
    )


def outbox_from(r: Record) -> OutboxEntry:
    return OutboxEntry(
        id=r["id"],
        transport=r["transport"],
        lane=r["lane"],
        op=r["op"],
        object_key=r["object_key"],
        body=json.loads(r["body"]),
        attempts=r["attempts"],
        not_before=r["not_before"],
        created_at=moment(r["created_at"]),
    )


def platform_message_from(r: Record) -> PlatformMessage:
    return PlatformMessage(
        transport=r["transport"],
        object_key=r["object_key"],
        thread_ref=r["thread_ref"],
        message_ref=r["message_ref"],
    )


def sel_from(r: Record) -> SelRecord:
    return SelRecord(
        id=r["id"],
        at=moment(r["at"]),
        action=r["action"],
        outcome=r["outcome"],
        actor=r["actor"],
        member=r["member"],
        details=json.loads(r["details"]),
    )


def idempotency_from(r: Record) -> IdempotencyRecord:
    return IdempotencyRecord(
        session=r["session"],
        key=r["key"],
        fingerprint=r["fingerprint"],
        status=r["status"],
        response=json.loads(r["response"]),
        created_at=moment(r["created_at"]),
    )


def seen_from(r: Record) -> SeenEvent:
    kept = r["receipt"]
    return SeenEvent(
        seen_at=moment(r["seen_at"]), receipt=None if kept is None else json.loads(kept)
    )


def webhook_from(r: Record) -> Webhook:
    return Webhook(
        session=r["session"],
        url=r["url"],
        secret=r["secret"],
        delivered_through=r["delivered_through"],
        attempts=r["attempts"],
        not_before=r["not_before"],
        last_error=r["last_error"],
        created_at=moment(r["created_at"]),
    )


def suggestion_from(r: Record) -> Suggestion:
    return Suggestion(
        record_id=r["record_id"],
        member=r["member"],
        text=r["text"],
        why=r["why"],
        brain=r["brain"],
        at=moment(r["at"]),
        dismissed=bool(r["dismissed"]),
    )


def answer_from(r: Record) -> ConciergeAnswer:
    return ConciergeAnswer(
        id=r["id"],
        at=moment(r["at"]),
        member=r["member"],
        record_id=r["record_id"],
        record_kind=r["record_kind"],
        session=r["session"],
        text=r["text"],
        why=r["why"],
        row_id=r["row_id"],
        event_cursor=r["event_cursor"],
        undone_at=maybe_moment(r["undone_at"]),
    )


def ledger_params(entry: LedgerEntry) -> tuple[Any, ...]:
    """An entry's values for an ``INSERT`` naming the columns at … actor, in that order."""
    return (
        epoch(entry.at),
        entry.member,
        entry.record_id,
        entry.decision,
        entry.verdict,
        entry.policy,
        entry.brain,
        entry.rationale,
        dumps(list(entry.evidence)),
        entry.actor,
    )


def ledger_from(r: Record) -> LedgerEntry:
    return LedgerEntry(
        id=r["id"],
        at=moment(r["at"]),
        member=r["member"],
        record_id=r["record_id"],
        decision=r["decision"],
        verdict=r["verdict"],
        policy=r["policy"],
        brain=r["brain"],
        rationale=r["rationale"],
        evidence=tuple(loads_list(r["evidence"])),
        actor=r["actor"],
    )
