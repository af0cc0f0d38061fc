"""An escalation record's life after it was recorded (SPEC §1, §2): answered, its window
closed or held, its default confirmed, retracted or withdrawn, reopened.

Each function takes a :class:`Change` and runs inside one transaction on the member's
actor; a record leaving or coming back to ``pending`` redraws its card and its bell and is
published as :class:`EscalationSettled` (what the concierge's suggestion for it becomes is
the concierge's reaction to that event).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from crewline.bot.changes import Change
from crewline.bot.domain import EscalationSettled
from crewline.errors import Conflict
from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    Escalation,
    EscalationState,
    Member,
    Row,
    Session,
)

__all__ = [
    "answer_escalation",
    "close_window",
    "confirm_default",
    "escalation_from_card",
    "hold_window",
    "reopen",
    "retract",
    "withdraw",
]


def escalation_from_card(row: Row, member: str) -> Escalation:
    """The pending record a card row describes (for rebuilding a lost index)."""
    meta = row.meta
    deadline = meta.get("deadline")
    return Escalation(
        id=str(meta["escalation_id"]),
        member=member,
        row_id=row.id,
        session=str(meta.get("session") or ""),
        message=row.text,
        deadline=None if deadline is None else datetime.fromtimestamp(deadline, UTC),
        default_action=meta.get("default_action"),
        options=tuple(meta.get("options") or ()),
        goal=meta.get("goal"),
        created_at=row.created_at,
    )


def answer_escalation(
    ch: Change,
    member: Member,
    record: Escalation,
    *,
    text: str,
    choice: int | None,
    by: AnsweredBy,
    via: AnsweredVia,
    answer_row: Row,
) -> Escalation:
    """Settle a pending record as answered, redraw it everywhere, tell the session."""
    answered = replace(
        record,
        state=EscalationState.ANSWERED,
        answer=text,
        choice=choice,
        answered_by=by,
        answered_via=via,
        answer_row_id=answer_row.id,
        settled_at=answer_row.created_at,
    )
    ch.tx.put_escalation(answered)
    _announce_settled(ch, member, answered)
    ch.event(
        record.session,
        "escalation_answered",
        {
            "escalation_id": record.id,
            "answer": text,
            "choice": choice,
            "by": by.value,
            "via": via.value,
            "row_id": answer_row.id,
        },
    )
    return answered


def close_window(ch: Change, member: Member, escalation_id: str) -> Escalation | None:
    """Close a due veto window: defaulted (a default was declared) or expired, never failed.

    Returns None when there is nothing to close (already settled, or not yet due).
    """
    record = ch.tx.escalation(escalation_id)
    if record is None or not record.window_open or record.deadline is None:
        return None  # settled, without a window, or held for the human (reopen)
    if record.deadline > ch.now:
        return None
    state = EscalationState.DEFAULTED if record.default_action else EscalationState.EXPIRED
    closed = replace(record, state=state, settled_at=ch.now)
    ch.tx.put_escalation(closed)
    # The closing is part of the transcript (silent: the card redraw shows it), so a
    # rebuilt index knows the window closed and the agent is not told twice.
    _mark(
        ch,
        member,
        record,
        f"window closed: {state.value}",
        meta={"window_closed": record.id, "state": state.value},
    )
    _announce_settled(ch, member, closed)
    ch.event(
        record.session,
        "window_closed",
        {
            "escalation_id": record.id,
            "state": state.value,
            "default_action": record.default_action,
        },
    )
    return closed


def confirm_default(ch: Change, member: Member, record: Escalation, caller: Session) -> Escalation:
    """The member says the default ran; only now does the card say it did."""
    if record.state is not EscalationState.DEFAULTED:
        raise Conflict(
            f"escalation {record.id} is {record.state.value}, not defaulted", code="not_defaulted"
        )
    if record.default_applied:
        return record
    confirmed = replace(record, default_applied=True)
    ch.tx.put_escalation(confirmed)
    _mark(
        ch, member, record, "default applied", meta={"default_applied": record.id, "by": caller.id}
    )
    ch.show(member, "update", f"row:{record.row_id}")
    return confirmed


def retract(
    ch: Change, member: Member, record: Escalation, *, reason: str = "card_removed"
) -> Escalation:
    """Settle a record as retracted, redraw it everywhere, tell the session why."""
    retracted = replace(record, state=EscalationState.RETRACTED, settled_at=ch.now)
    ch.tx.put_escalation(retracted)
    _announce_settled(ch, member, retracted)
    ch.event(record.session, "escalation_retracted", {"escalation_id": record.id, "reason": reason})
    return retracted


def withdraw(ch: Change, member: Member, record: Escalation, caller: Session) -> Escalation:
    """The session withdraws its own open request; a settled one stays as it is."""
    if not record.is_pending:
        raise Conflict(
            f"escalation {record.id} is already {record.state.value}",
            code="already_settled",
            state=record.state.value,
        )
    # The withdrawal is part of the transcript (silent: the card redraw shows it), so an
    # index rebuilt from the transcript keeps the record retracted.
    _mark(ch, member, record, "request withdrawn", meta={"retracted": record.id, "by": caller.id})
    return retract(ch, member, record, reason="withdrawn")


def reopen(ch: Change, member: Member, record: Escalation, *, tell: bool = True) -> Escalation:
    """Back to pending, with its buttons; ``tell=False`` when the session never saw the
    answer (it was withdrawn before delivery), so there is nothing to tell it.

    A record whose answer is taken back (an edit, a rewind, an undo) had its window met by
    that answer: it keeps no window that could close by itself, so a default never runs
    against what the human said and then took back — it waits for the human (SPEC §5
    rule 5). A record reopened from a closed window (its closing rewound away) keeps its
    window, which closes again when due.
    """
    held = record.window_held or (
        record.state is EscalationState.ANSWERED and record.deadline is not None
    )
    reopened = replace(
        record,
        state=EscalationState.PENDING,
        answer=None,
        choice=None,
        answered_by=None,
        answered_via=None,
        answer_row_id=None,
        settled_at=None,
        window_held=held,
    )
    if held:
        hold_window(ch, member, reopened)
    ch.tx.put_escalation(reopened)
    _announce_settled(ch, member, reopened)
    ch.arm(reopened)
    if tell:
        ch.event(
            record.session,
            "escalation_reopened",
            {"escalation_id": record.id, "window_held": reopened.window_held},
        )
    return reopened


def hold_window(ch: Change, member: Member, record: Escalation) -> None:
    """Say in the transcript that the record's window is held for the human (silent: the
    card shows it), so an index rebuilt from the transcript holds it too."""
    _mark(
        ch,
        member,
        record,
        "window held: the answer was taken back",
        meta={"window_held": record.id},
    )


def _mark(
    ch: Change, member: Member, record: Escalation, text: str, *, meta: dict[str, object]
) -> None:
    """A silent system row about ``record`` in the member's transcript (the card's redraw
    is what the human sees), so an index rebuilt from the transcript knows what happened."""
    ch.system_row(
        member.slug,
        text,
        meta={"silent": True, **meta},
        record=record.id,
    )


def _announce_settled(ch: Change, member: Member, record: Escalation) -> None:
    ch.announce(member, "update", record)
    ch.publish(EscalationSettled(escalation=record))
