"""What the concierge looks at: one pending escalation or waiting question, as one value.

Escalations and question cards differ in how they are answered; to the concierge both are a
question a member's session asked, with its options, its default and its card row.
"""

from __future__ import annotations

from dataclasses import dataclass

from crewline.models import Escalation, Question, QuestionState
from crewline.store import Tx

__all__ = ["Asked", "asked_now", "current_asked"]

ESCALATION = "escalation"
QUESTION = "question"


@dataclass(frozen=True, kw_only=True, slots=True)
class Asked:
    kind: str  # escalation | question
    id: str
    member: str
    session: str
    row_id: str
    text: str
    options: tuple[str, ...] = ()
    default: str | None = None
    dialog: bool = False

    @classmethod
    def of_escalation(cls, e: Escalation) -> Asked:
        return cls(
            kind=ESCALATION,
            id=e.id,
            member=e.member,
            session=e.session,
            row_id=e.row_id,
            text=e.message,
            options=e.options,
            default=e.default_action,
        )

    @classmethod
    def of_question(cls, q: Question) -> Asked | None:
        if q.member is None:
            return None
        return cls(
            kind=QUESTION,
            id=q.id,
            member=q.member,
            session=q.session,
            row_id=q.row_id,
            text=q.question,
            options=q.options,
            dialog=q.dialog,
        )

    def choice_of(self, text: str) -> int | None:
        """The option ``text`` names (ignoring case and surrounding space), if any."""
        wanted = text.strip().casefold()
        for index, option in enumerate(self.options):
            if option.strip().casefold() == wanted:
                return index
        return None


def current_asked(tx: Tx, record_id: str) -> Asked | None:
    """The record as it stands in this transaction, if it still waits for an answer."""
    return asked_now(tx, record_id, tx.escalation(record_id))


def asked_now(tx: Tx, record_id: str, escalation: Escalation | None) -> Asked | None:
    """``current_asked`` given ``escalation``, the record's escalation as this transaction
    reads it (None: the record is not an escalation)."""
    if escalation is not None:
        return Asked.of_escalation(escalation) if escalation.is_pending else None
    question = tx.question(record_id)
    if question is not None and question.state is QuestionState.WAITING:
        return Asked.of_question(question)
    return None
