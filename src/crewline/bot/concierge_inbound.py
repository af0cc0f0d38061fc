"""What the human does to the concierge: ``/concierge …`` commands and the card buttons
(Send suggestion, Edit, Dismiss, Undo), from any transport.

Only the owner may: anyone else is refused privately, and the refusal is a SEL record.
A button press changes a member's records, so it is judged on the member's actor, like
every other press, and remembered by its platform event id (a redelivery does nothing).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING

from crewline.bot import concierge_tx as ctx
from crewline.bot import questions, receipts
from crewline.bot.asked import ESCALATION, current_asked
from crewline.bot.cards import CONCIERGE_ACTIONS, ButtonPress
from crewline.bot.changes import Change
from crewline.bot.replies import DUPLICATE, Answer, Refusal
from crewline.errors import CallerError, Conflict
from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    HumanClick,
    HumanCommand,
    Member,
    Receipt,
)

if TYPE_CHECKING:
    from crewline.bot.inbound import HumanEvents

__all__ = ["USAGE", "concierge_command", "concierge_press"]

USAGE = (
    "/concierge: the concierge's policy and its last answer\n"
    "/concierge answer never|routine|always: may it answer routine questions by itself\n"
    "/concierge act on|off: may it stop, restart and dispatch sessions when you ask\n"
    "/concierge undo: withdraw the last answer it gave"
)


async def concierge_command(events: HumanEvents, event: HumanCommand) -> Receipt:
    """``/concierge [status | answer P | act on|off | undo]``, the owner's only."""
    hub = events.hub
    actor = f"{event.transport}:{event.user_id}"
    if await events.store.human_of(event.transport, event.user_id) is None:
        return await events.refuse(
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
                return Receipt(accepted=True, notice=await status_text(events))
            case "answer", [value]:
                policy = await hub.concierge.set_policy(actor=actor, answer=value)
                return Receipt(accepted=True, notice=f"concierge: {policy.describe()}")
            case "act", [value]:
                policy = await hub.concierge.set_policy(actor=actor, act=value)
                return Receipt(accepted=True, notice=f"concierge: {policy.describe()}")
            case "undo", []:
                undone = await hub.concierge.undo(actor=actor)
                return Receipt(
                    accepted=True, notice=undo_notice(undone.answer.text, undone.outcome)
                )
    except CallerError as error:
        return Receipt(accepted=False, code=error.code, notice=error.message)
    return Receipt(accepted=False, code="invalid_command", notice=USAGE)


async def status_text(events: HumanEvents) -> str:
    hub = events.hub
    policy = await hub.concierge.policy()
    line = f"concierge: {policy.describe()}"
    kept = [a for a in await events.store.concierge_answers() if a.undone_at is None]
    if kept:
        last = kept[0]
        line += (
            f"\nlast answer: {last.member}: {last.text} ({_ago(hub.clock.now(), last.at)})"
            " · /concierge undo"
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


async def concierge_press(
    events: HumanEvents, event: HumanClick, press: ButtonPress
) -> asyncio.Future[Receipt]:
    """A press on one of the concierge's buttons (``c:<record>:<action>``)."""
    store = events.store
    action = CONCIERGE_ACTIONS[press.choice] if press.choice < len(CONCIERGE_ACTIONS) else None
    escalation = await store.escalation(press.record_id)
    question = None if escalation is not None else await store.question(press.record_id)
    slug = escalation.member if escalation else (question.member if question else None)
    member = await store.member(slug) if slug else None
    thread_member = await events.thread_member(event)
    if (
        action is None
        or member is None
        or (thread_member is not None and thread_member.slug != member.slug)
    ):
        refusal = Refusal(
            code="unknown_record",
            notice="This button does not belong to a request of this member.",
            security=True,
        )
        return _done(await events.refuse(event, refusal))
    if not await events.is_owner(event, member):
        refusal = Refusal(
            code="not_owner",
            notice="Only this member's owner can use the concierge's buttons.",
            security=True,
        )
        return _done(await events.refuse(event, refusal, member=member.slug))
    actor = f"{event.transport}:{event.user_id}"
    if action == "undo":
        try:
            undone = await events.hub.concierge.undo(actor=actor, record_id=press.record_id)
        except CallerError as error:
            return _done(Receipt(accepted=False, code=error.code, notice=error.message))
        return _done(Receipt(accepted=True, notice=undo_notice(undone.answer.text, undone.outcome)))
    if action == "edit":
        return _done(await _open_edit(events, event, press))
    return events.judge(member.slug, lambda: _change(events, event, member, press, action))


async def _open_edit(events: HumanEvents, event: HumanClick, press: ButtonPress) -> Receipt:
    """The Edit press changes nothing, but its event is remembered with its receipt, so a
    redelivery is told the same as a repeat and opens no second reply box."""

    def opened(ch: Change) -> Receipt:
        if not ch.tx.mark_seen(event.transport, event.event_id, ch.now):
            raise _Duplicate
        suggestion = ch.tx.suggestion(press.record_id)
        if suggestion is None or suggestion.dismissed:
            raise Conflict("there is no suggestion to edit here", code="no_suggestion")
        told = Receipt(
            accepted=True,
            notice="Edit the concierge's suggestion, then send it as your reply.",
            prefill=suggestion.text,
            reply_to=press.record_id,
        )
        return receipts.keep(ch, event, told)

    try:
        receipt: Receipt = await events.hub.change(opened)
    except _Duplicate:
        return DUPLICATE
    except Conflict:
        return _no_suggestion()
    return receipt


async def _change(
    events: HumanEvents, event: HumanClick, member: Member, press: ButtonPress, action: str
) -> Receipt:
    from crewline.bot.inbound import answer_escalation_as_human

    def write(ch: Change) -> Receipt:
        return receipts.keep(ch, event, Receipt(accepted=True, notice=use(ch)))

    def use(ch: Change) -> str:
        if not ch.tx.mark_seen(event.transport, event.event_id, ch.now):
            raise _Duplicate
        asked = current_asked(ch.tx, press.record_id)
        suggestion = ch.tx.suggestion(press.record_id)
        if asked is None or suggestion is None or suggestion.dismissed:
            raise Conflict("there is no suggestion to use here", code="no_suggestion")
        if action == "dismiss":
            ch.tx.dismiss_suggestion(asked.id)
            ctx.redraw_card(ch, member, asked)
            return "Dismissed; a new suggestion will show again."
        if asked.kind == ESCALATION:
            record = ch.tx.escalation(asked.id)
            assert record is not None
            decision = Answer(
                escalation=record,
                text=suggestion.text,
                choice=asked.choice_of(suggestion.text),
                via=AnsweredVia.SUGGESTION,
            )
            answer_escalation_as_human(ch, member, event, decision)
        else:
            record_q = ch.tx.question(asked.id)
            assert record_q is not None
            questions.answer_question(
                ch, member, record_q, answer=suggestion.text, by=AnsweredBy.USER
            )
        return f"Answered: {suggestion.text}"

    try:
        receipt: Receipt = await events.hub.change(write)
    except _Duplicate:
        return DUPLICATE
    except Conflict as error:
        return _no_suggestion() if error.code == "no_suggestion" else _refused(error)
    return receipt


class _Duplicate(Exception):
    """A redelivered press: roll back and do nothing."""


def _no_suggestion() -> Receipt:
    return Receipt(
        accepted=False,
        code="no_suggestion",
        notice="There is no suggestion to use here any more.",
    )


def _refused(error: CallerError) -> Receipt:
    return Receipt(accepted=False, code=error.code, notice=error.message)


def _done(receipt: Receipt) -> asyncio.Future[Receipt]:
    future: asyncio.Future[Receipt] = asyncio.get_running_loop().create_future()
    future.set_result(receipt)
    return future
