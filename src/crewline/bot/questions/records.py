"""Blocking question cards and dialogs (SPEC §3).

A question is resolved through its own path (its buttons, or the owner's answer call),
writes no transcript reply row, and never answers an escalation (nor the other way round).
A dialog is a question only the human may answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from crewline.bot.changes import Change
from crewline.bot.domain import QuestionRaised, QuestionSettled
from crewline.errors import Conflict, Forbidden, InvalidInput
from crewline.models import AnsweredBy, Member, Question, QuestionState, RowRole, Session, new_id

__all__ = ["answer_question", "ask", "reopen", "validate_question"]

MAX_QUESTION = 4000


def validate_question(question: str, options: Sequence[str] | None) -> tuple[str, ...]:
    if not question.strip() or len(question) > MAX_QUESTION:
        raise InvalidInput(
            "question must be 1..4000 characters", code="invalid_question", field="question"
        )
    chosen = tuple(options or ())
    if len(chosen) > 10 or any(not o.strip() or len(o) > 80 for o in chosen):
        raise InvalidInput(
            "options: at most 10, each 1..80 characters", code="invalid_options", field="options"
        )
    if len({o.strip().casefold() for o in chosen}) != len(chosen):
        raise InvalidInput("options must be distinct", code="duplicate_options", field="options")
    return chosen


def ask(
    ch: Change,
    *,
    caller: Session,
    member: Member | None,
    question: str,
    options: tuple[str, ...],
    dialog: bool,
) -> Question:
    """Write the question card row and its record; the caller then waits on its events."""
    question_id, row_id = new_id(), new_id()
    conversation = member.slug if member else f"~{caller.id}"
    ch.tx.append_row(
        conversation=conversation,
        role=RowRole.QUESTION,
        author=member.name if member else caller.id,
        text=question,
        now=ch.now,
        row_id=row_id,
        meta={"question_id": question_id, "options": list(options), "dialog": dialog},
    )
    record = Question(
        id=question_id,
        member=member.slug if member else None,
        session=caller.id,
        row_id=row_id,
        question=question,
        options=options,
        dialog=dialog,
        created_at=ch.now,
    )
    ch.tx.put_question(record)
    if member is not None:
        ch.announce(member, "post", record)
        ch.publish(QuestionRaised(question=record))
    return record


def answer_question(
    ch: Change, member: Member, record: Question, *, answer: str, by: AnsweredBy
) -> Question:
    if record.state is not QuestionState.WAITING:
        raise Conflict(
            f"question {record.id} is already {record.state.value}", code="already_settled"
        )
    if record.dialog and by is not AnsweredBy.USER:
        raise Forbidden("a dialog is answered by the human only", code="dialog_human_only")
    answered = replace(
        record, state=QuestionState.ANSWERED, answer=answer, answered_by=by, settled_at=ch.now
    )
    ch.tx.put_question(answered)
    ch.announce(member, "update", answered)
    ch.publish(QuestionSettled(question=answered))
    ch.event(
        record.session,
        "question_answered",
        {"question_id": record.id, "answer": answer, "by": by.value},
    )
    return answered


def reopen(ch: Change, member: Member, record: Question) -> Question:
    """An answer was withdrawn (concierge undo): the question waits for the human again."""
    waiting = replace(
        record, state=QuestionState.WAITING, answer=None, answered_by=None, settled_at=None
    )
    ch.tx.put_question(waiting)
    ch.show(member, "update", f"row:{record.row_id}")
    ch.roster()
    ch.publish(QuestionSettled(question=waiting))
    return waiting
