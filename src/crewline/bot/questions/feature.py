"""The questions feature (SPEC §3): ``ask_question`` and the owner's answer, a question
card's buttons (``q``), and a reply that names a question card.

Built with the Hub's ports, it registers its press handler and a message handler for the
one typed reply a question takes: a reply naming the card (the concierge's Edit), which
answers it. Register it before the escalations feature, whose typed replies take every
other message.
"""

from __future__ import annotations

from collections.abc import Sequence

from crewline.bot.cards import ButtonPress
from crewline.bot.changes import Change
from crewline.bot.idempotency import KeyedWrite, guarded
from crewline.bot.messages import check_text
from crewline.bot.ports import Host, MessageHandler, Pressed, PressHandler, Refusal, Refused
from crewline.bot.questions.records import answer_question, ask, validate_question
from crewline.errors import NotFound
from crewline.models import (
    AnsweredBy,
    HumanClick,
    HumanMessage,
    Member,
    Question,
    QuestionState,
    Receipt,
    Session,
)
from crewline.policy import Verb
from crewline.store import Store

__all__ = ["QUESTION_PRESS", "NamedQuestionReplies", "QuestionPresses", "Questions"]

QUESTION_PRESS = "q"  # the payload kind of a question card's buttons (bot/cards.py)


class Questions:
    """The feature, registered with the Hub."""

    def __init__(self, host: Host) -> None:
        self.core = host
        host.press(QuestionPresses(host.store))
        host.message(NamedQuestionReplies())

    async def ask(
        self,
        caller: Session,
        question: str,
        options: Sequence[str] | None,
        *,
        dialog: bool = False,
        once: KeyedWrite | None = None,
    ) -> Question:
        """ask_question: a card the session waits on; its answer arrives as an event."""
        core = self.core
        await core.gate(caller, Verb.ASK_QUESTION, action="ask")
        chosen = validate_question(question, options)
        member = await core.member(caller.member) if caller.member else None
        key = member.slug if member else f"~{caller.id}"

        def write(ch: Change) -> Question:
            return ask(
                ch, caller=caller, member=member, question=question, options=chosen, dialog=dialog
            )

        return await core.on_member(key, lambda: core.change(guarded(once, write)), linger=True)

    async def answer(self, member: Member, question_id: str, answer: str) -> Question:
        """The owner answers a question card through the API."""
        check_text(answer, "answer")
        core = self.core

        def write(ch: Change) -> Question:
            record = ch.tx.question(question_id)
            if record is None:
                raise NotFound(f"no question {question_id!r}", code="unknown_question")
            return answer_question(ch, member, record, answer=answer, by=AnsweredBy.USER)

        return await core.on_member(member.slug, lambda: core.change(write))


class QuestionPresses(PressHandler):
    """A press on a question card's option (``q:<question>:<option>``) answers it."""

    kind = QUESTION_PRESS

    def __init__(self, store: Store) -> None:
        self.store = store

    async def check(
        self, event: HumanClick, press: ButtonPress, in_thread: Member | None
    ) -> Pressed:
        record = await self.store.question(press.record_id)
        member = await self.store.member(record.member) if record and record.member else None
        if record is None or member is None or not 0 <= press.choice < len(record.options):
            raise Refused(
                Refusal(
                    code="unknown_question",
                    notice="This button does not belong to a question.",
                    security=True,
                )
            )
        return Pressed(member=member, stranger="Only this member's owner can answer its questions.")

    def write(self, ch: Change, event: HumanClick, press: ButtonPress, pressed: Pressed) -> Receipt:
        current = ch.tx.question(press.record_id)
        assert current is not None
        chosen = current.options[press.choice]
        answer_question(ch, pressed.member, current, answer=chosen, by=AnsweredBy.USER)
        return Receipt(accepted=True, notice=f"Answered: {chosen}")


class NamedQuestionReplies(MessageHandler):
    """A reply naming a question card of the member that still waits answers it."""

    def take(self, ch: Change, event: HumanMessage, member: Member) -> Receipt | None:
        if event.escalation_id is None:
            return None
        question = ch.tx.question(event.escalation_id)
        if (
            question is None
            or question.member != member.slug
            or question.state is not QuestionState.WAITING
        ):
            return None
        answer_question(ch, member, question, answer=event.text, by=AnsweredBy.USER)
        return Receipt(accepted=True, notice=f"Answered: {event.text}")
