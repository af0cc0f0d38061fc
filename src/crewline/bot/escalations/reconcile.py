"""Re-deriving a member's escalation index from its transcript (SPEC §2).

The transcript is the truth; the index is a projection of it. Reconciliation runs on start,
after every generation change (a rewind), and on demand (``crewline doctor --reconcile``):

- a card row with no record (a lost or rebuilt index) gets its pending record back;
- a record whose card row left the transcript is retracted, once it is older than a grace
  (a record younger than that may belong to a card still being written elsewhere);
- the replies, closings and withdrawals the transcript holds are applied in transcript
  order, with the stamps of the row that made them, so a reply that comes back re-answers
  its record with its original stamps;
- an answered (or closed) record whose answering row was rewound away is reopened; one
  that was answered keeps no window that closes by itself (its window is held for the
  human, and the transcript says so: a rebuilt index holds it too).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import timedelta

from crewline.bot.changes import Change
from crewline.bot.domain import EscalationSettled
from crewline.bot.escalations.records import escalation_from_card, hold_window, reopen, retract
from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    Escalation,
    EscalationState,
    Member,
    RowRole,
)

__all__ = ["ReconcileReport", "reconcile_member"]

DEFAULT_GRACE = timedelta(minutes=2)


@dataclass(slots=True)
class ReconcileReport:
    member: str
    rebuilt: list[str] = field(default_factory=list)
    retracted: list[str] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    reopened: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.rebuilt or self.retracted or self.applied or self.reopened)


def reconcile_member(
    ch: Change,
    member: Member,
    *,
    grace: timedelta = DEFAULT_GRACE,
    unheard: frozenset[str] = frozenset(),
) -> ReconcileReport:
    """``unheard``: answering rows whose events were withdrawn before any session read them
    (a boundary does that); a record reopened because such a row left is not announced, as
    its session never heard it answered."""
    report = ReconcileReport(member=member.slug)
    rows = ch.tx.record_rows(member.slug)
    records = {e.id: e for e in ch.tx.escalations(member.slug)}

    # What the transcript says about each record: its card, and its settling row.
    derived: dict[str, Escalation] = {}
    for row in rows:
        meta = row.meta
        if row.role is RowRole.ESCALATION and "escalation_id" in meta:
            card = escalation_from_card(row, member.slug)
            derived[card.id] = card
        elif row.role is RowRole.HUMAN and meta.get("escalation_id") in derived:
            target = derived[meta["escalation_id"]]
            if target.is_pending:
                derived[target.id] = replace(
                    target,
                    state=EscalationState.ANSWERED,
                    answer=row.text,
                    choice=meta.get("choice"),
                    answered_by=AnsweredBy(meta.get("by", AnsweredBy.USER.value)),
                    answered_via=AnsweredVia(meta.get("via", AnsweredVia.TEXT.value)),
                    answer_row_id=row.id,
                    settled_at=row.created_at,
                )
        elif row.role is RowRole.SYSTEM and meta.get("concierge_answer"):
            answered = derived.get(meta.get("escalation_id", ""))
            if answered is not None and answered.is_pending:
                derived[answered.id] = replace(
                    answered,
                    state=EscalationState.ANSWERED,
                    answer=meta["answer"],
                    choice=meta.get("choice"),
                    answered_by=AnsweredBy.CONCIERGE,
                    answered_via=AnsweredVia.CONCIERGE,
                    answer_row_id=row.id,
                    settled_at=row.created_at,
                )
        elif row.role is RowRole.SYSTEM and meta.get("withdrawn_answer"):
            withdrawn = derived.get(meta.get("record", ""))
            if withdrawn is not None and withdrawn.answer_row_id == meta["withdrawn_answer"]:
                derived[withdrawn.id] = escalation_from_card(
                    next(r for r in rows if r.id == withdrawn.row_id), member.slug
                )
        elif row.role is RowRole.SYSTEM and meta.get("window_closed") in derived:
            target = derived[meta["window_closed"]]
            if target.is_pending:
                derived[target.id] = replace(
                    target, state=EscalationState(meta["state"]), settled_at=row.created_at
                )
        elif row.role is RowRole.SYSTEM and meta.get("retracted") in derived:
            target = derived[meta["retracted"]]
            if target.is_pending:
                derived[target.id] = replace(
                    target, state=EscalationState.RETRACTED, settled_at=row.created_at
                )
        elif row.role is RowRole.SYSTEM and meta.get("default_applied") in derived:
            target = derived[meta["default_applied"]]
            derived[target.id] = replace(target, default_applied=True)
        elif row.role is RowRole.SYSTEM and meta.get("window_held") in derived:
            target = derived[meta["window_held"]]
            derived[target.id] = replace(target, window_held=True)

    for escalation_id, truth in derived.items():
        record = records.get(escalation_id)
        if record is None:
            # Rebuilt from its card row: the platforms already show this state (or have its
            # redraw waiting in the outbox), so nothing is redrawn.
            ch.tx.put_escalation(truth)
            ch.arm(truth)
            report.rebuilt.append(escalation_id)
        elif record.state is EscalationState.RETRACTED:
            continue
        elif record.is_pending and not truth.is_pending:
            _apply(ch, member, truth)
            report.applied.append(escalation_id)
        elif not record.is_pending and truth.is_pending:
            reopen(ch, member, record, tell=record.answer_row_id not in unheard)
            report.reopened.append(escalation_id)
        elif truth.answer_row_id != record.answer_row_id:
            ch.tx.put_escalation(truth)  # settled either way; keep the transcript's stamps
        elif record.window_held and not truth.window_held:
            # A rewind took the row that held it away, not the fact: say it again.
            hold_window(ch, member, record)

    for escalation_id, record in records.items():
        if escalation_id in derived or record.state is EscalationState.RETRACTED:
            continue
        if ch.now - record.created_at >= grace:
            retract(ch, member, record)
            report.retracted.append(escalation_id)

    return report


def _apply(ch: Change, member: Member, truth: Escalation) -> None:
    """Make the record say what the transcript says, and tell whoever should hear it."""
    ch.tx.put_escalation(truth)
    ch.show(member, "update", f"row:{truth.row_id}")
    ch.ring(member, truth.goal)
    ch.publish(EscalationSettled(escalation=truth))
    if truth.state is EscalationState.ANSWERED:
        ch.event(
            truth.session,
            "escalation_answered",
            {
                "escalation_id": truth.id,
                "answer": truth.answer,
                "choice": truth.choice,
                "by": truth.answered_by.value if truth.answered_by else AnsweredBy.USER.value,
                "via": truth.answered_via.value if truth.answered_via else AnsweredVia.TEXT.value,
                "row_id": truth.answer_row_id,
                "reconciled": True,
            },
        )
