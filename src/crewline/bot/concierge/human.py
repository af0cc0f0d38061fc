"""What the human does to the concierge: ``/concierge …`` commands and the card buttons
(Send suggestion, Edit, Dismiss, Undo), from any transport.

Only the owner may: anyone else is refused privately, and the refusal is a SEL record.
A button press changes a member's records, so Send and Dismiss are judged on the member's
actor, like every other press, and remembered by its platform event id (a redelivery does
nothing). The concierge registers both handlers with the Hub.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from crewline.bot import questions, receipts
from crewline.bot.cards import CONCIERGE_ACTIONS, ButtonPress
from crewline.bot.changes import Change
from crewline.bot.concierge import transactions as ctx
from crewline.bot.concierge.asked import ESCALATION, current_asked
from crewline.bot.escalations.replies import Answer, answer, row_writer
from crewline.bot.ports import (
    DUPLICATE,
    CommandHandler,
    Host,
    Pressed,
    PressHandler,
    Refusal,
    Refused,
)
from crewline.errors import CallerError, Conflict
from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    ConciergeAnswer,
    ConciergePolicy,
    HumanClick,
    HumanCommand,
    Member,
    Receipt,
)

__all__ = [
    "CONCIERGE_PRESS",
    "USAGE",
    "ConciergeCommand",
    "ConciergePresses",
    "Owners",
    "undo_notice",
]

CONCIERGE_PRESS = "c"  # the payload kind of the concierge's buttons (bot/cards.py)
USAGE = (
    "/concierge: the concierge's policy and its last answer\n"
    "/concierge answer never|routine|always: may it answer routine questions by itself\n"
    "/concierge act on|off: may it stop, restart and dispatch sessions when you ask\n"
    "/concierge undo: withdraw the last answer it gave"
)
NO_SUGGESTION = Refusal(code="no_suggestion", notice="There is no suggestion to use here any more.")


class Withdrawn(Protocol):
    """An answer undone, and how its session learnt of it (``Undone``)."""

    @property
    def answer(self) -> ConciergeAnswer: ...

    @property
    def outcome(self) -> str: ...


class Owners(Protocol):
    """What the owner's commands and buttons ask of the concierge (``Concierge``)."""

    async def policy(self) -> ConciergePolicy: ...

    async def set_policy(
        self, *, actor: str, answer: str | None = None, act: str | None = None
    ) -> ConciergePolicy: ...

    async def undo(self, *, actor: str, record_id: str | None = None) -> Withdrawn: ...


class ConciergeCommand(CommandHandler):
    """``/concierge [status | answer P | act on|off | undo]``, the owner's only."""

    names = ("concierge",)
    help = USAGE
    owner_only = False  # a stranger's is refused here, with a SEL record

    def __init__(self, host: Host, concierge: Owners) -> None:
        self.host = host
        self.concierge = concierge

    async def handle(self, event: HumanCommand) -> Receipt:
        actor = f"{event.transport}:{event.user_id}"
        if await self.host.store.human_of(event.transport, event.user_id) is None:
            return await self.host.refuse(
                event,
                Refusal(
                    code="not_owner",
                    notice="Only the owner sets the concierge's policy.",
                    security=True,
                ),
            )
        words = [w for arg in event.args for w in arg.split()]
        verb = words[0].lower() if words else "status"
        try:
            match verb, words[1:]:
                case "status", []:
                    return Receipt(accepted=True, notice=await self.status_text())
                case "answer", [value]:
                    policy = await self.concierge.set_policy(actor=actor, answer=value)
                    return Receipt(accepted=True, notice=f"concierge: {policy.describe()}")
                case "act", [value]:
                    policy = await self.concierge.set_policy(actor=actor, act=value)
                    return Receipt(accepted=True, notice=f"concierge: {policy.describe()}")
                case "undo", []:
                    undone = await self.concierge.undo(actor=actor)
                    return Receipt(
                        accepted=True, notice=undo_notice(undone.answer.text, undone.outcome)
                    )
        except CallerError as error:
            return Receipt(accepted=False, code=error.code, notice=error.message)
        return Receipt(accepted=False, code="invalid_command", notice=USAGE)

    async def status_text(self) -> str:
        policy = await self.concierge.policy()
        line = f"concierge: {policy.describe()}"
        kept = [a for a in await self.host.store.concierge_answers() if a.undone_at is None]
        if kept:
            last = kept[0]
            line += (
                f"\nlast answer: {last.member}: {last.text}"
                f" ({_ago(self.host.clock.now(), last.at)}) · /concierge undo"
            )
        return line


def undo_notice(text: str, outcome: str) -> str:
    return {
        "withdrawn_before_delivery": (
            f"Withdrawn: {text!r} never reached the session; the request is open again."
        ),
        "told": f"Withdrawn: {text!r}; the session was told to disregard it and ask again.",
        "marked": f"Withdrawn: {text!r} (marked only: the session has ended).",
        "rewound": f"Nothing withdrawn: {text!r} had already left the conversation in a rewind.",
    }[outcome]


def _ago(now: datetime, then: datetime) -> str:
    seconds = max(0, int((now - then).total_seconds()))
    return f"{seconds}s ago" if seconds < 120 else f"{seconds // 60}m ago"


class ConciergePresses(PressHandler):
    """A press on one of the concierge's buttons (``c:<record>:<action>``): Send and
    Dismiss in one change on the member's actor; Edit and Undo on their own course."""

    kind = CONCIERGE_PRESS

    def __init__(self, host: Host, concierge: Owners) -> None:
        self.host = host
        self.concierge = concierge

    async def check(
        self, event: HumanClick, press: ButtonPress, in_thread: Member | None
    ) -> Pressed:
        store = self.host.store
        action = _action(press)
        escalation = await store.escalation(press.record_id)
        question = None if escalation is not None else await store.question(press.record_id)
        slug = escalation.member if escalation else (question.member if question else None)
        member = await store.member(slug) if slug else None
        if (
            action is None
            or member is None
            or (in_thread is not None and in_thread.slug != member.slug)
        ):
            raise Refused(
                Refusal(
                    code="unknown_record",
                    notice="This button does not belong to a request of this member.",
                    security=True,
                )
            )
        return Pressed(
            member=member,
            stranger="Only this member's owner can use the concierge's buttons.",
            in_change=action in ("send", "dismiss"),
        )

    async def handle(self, event: HumanClick, press: ButtonPress, pressed: Pressed) -> Receipt:
        if _action(press) == "undo":
            actor = f"{event.transport}:{event.user_id}"
            try:
                undone = await self.concierge.undo(actor=actor, record_id=press.record_id)
            except CallerError as error:
                return Receipt(accepted=False, code=error.code, notice=error.message)
            return Receipt(accepted=True, notice=undo_notice(undone.answer.text, undone.outcome))
        return await self._open_edit(event, press)

    async def _open_edit(self, event: HumanClick, press: ButtonPress) -> Receipt:
        """The Edit press changes nothing, but its event is remembered with its receipt, so
        a redelivery is told the same as a repeat and opens no second reply box."""

        def opened(ch: Change) -> Receipt:
            if not ch.tx.mark_seen(event.transport, event.event_id, ch.now):
                raise _Duplicate
            suggestion = ch.tx.suggestion(press.record_id)
            if suggestion is None or suggestion.dismissed or not suggestion.text:
                raise Conflict("there is no suggestion to edit here", code="no_suggestion")
            told = Receipt(
                accepted=True,
                notice="Edit the concierge's suggestion, then send it as your reply.",
                prefill=suggestion.text,
                reply_to=press.record_id,
            )
            return receipts.keep(ch, event, told)

        try:
            receipt: Receipt = await self.host.change(opened)
        except _Duplicate:
            return DUPLICATE
        except Conflict:
            return Receipt(accepted=False, code=NO_SUGGESTION.code, notice=NO_SUGGESTION.notice)
        return receipt

    def write(self, ch: Change, event: HumanClick, press: ButtonPress, pressed: Pressed) -> Receipt:
        try:
            return Receipt(accepted=True, notice=self._use(ch, event, press, pressed.member))
        except Conflict as error:
            raise Refused(
                NO_SUGGESTION
                if error.code == NO_SUGGESTION.code
                else Refusal(code=error.code, notice=error.message)
            ) from None

    @staticmethod
    def _use(ch: Change, event: HumanClick, press: ButtonPress, member: Member) -> str:
        asked = current_asked(ch.tx, press.record_id)
        suggestion = ch.tx.suggestion(press.record_id)
        if asked is None or suggestion is None or suggestion.dismissed:
            raise Conflict("there is no suggestion to use here", code="no_suggestion")
        if _action(press) == "dismiss":
            ch.tx.dismiss_suggestion(asked.id)
            ctx.redraw_card(ch, member, asked)
            return "Dismissed; a new suggestion will show again."
        if not suggestion.text:  # only why it needs you: there is nothing to send
            raise Conflict("there is no suggestion to use here", code="no_suggestion")
        if asked.kind == ESCALATION:
            record = ch.tx.escalation(asked.id)
            assert record is not None
            decision = Answer(
                escalation=record,
                text=suggestion.text,
                choice=asked.choice_of(suggestion.text),
                via=AnsweredVia.SUGGESTION,
            )
            # Sent as the human's own reply, as a press on the option would have been.
            answer(ch, member, decision, row_writer(ch, member, event))
        else:
            record_q = ch.tx.question(asked.id)
            assert record_q is not None
            questions.answer_question(
                ch, member, record_q, answer=suggestion.text, by=AnsweredBy.USER
            )
        return f"Answered: {suggestion.text}"


def _action(press: ButtonPress) -> str | None:
    return CONCIERGE_ACTIONS[press.choice] if press.choice < len(CONCIERGE_ACTIONS) else None


class _Duplicate(Exception):
    """A redelivered press: roll back and do nothing."""
