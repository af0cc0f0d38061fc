"""What a human event does: messages, clicks, edits and commands from any transport.

Each event is judged on its member's actor, so replies are matched strictly in arrival
order (SPEC §2 rule 6). An event is remembered by its platform id, with the receipt it got,
in the same transaction as its effect: a redelivery finds it, changes nothing and gets that
receipt again (rule 3; bot/receipts.py). A refusal writes nothing but, where it is a
security event, a SEL record.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from crewline.bot import (
    cards,
    last_turn,
    questions,
    receipts,
    rewind_commands,
    typed_reply,
)
from crewline.bot.changes import Change
from crewline.bot.concierge_inbound import USAGE, concierge_command, concierge_press
from crewline.bot.render import roster
from crewline.bot.replies import (
    DUPLICATE,
    Ambiguous,
    Answer,
    NoMatch,
    Refusal,
    match_click,
)
from crewline.errors import CallerError
from crewline.models import (
    AnsweredBy,
    Escalation,
    HumanClick,
    HumanCommand,
    HumanEdit,
    HumanEvent,
    HumanMessage,
    Member,
    QuestionState,
    Receipt,
    ReplyOutcome,
    RosterEntry,
    Row,
    RowRole,
)
from crewline.moments import in_words
from crewline.store import PlatformMessage

if TYPE_CHECKING:
    from crewline.bot.hub import Hub

__all__ = ["API_TRANSPORT", "HELP_TEXT", "HumanEvents", "answer_escalation_as_human"]

# The owner replying through the HTTP API: authenticated by their token before the event is
# made, so its user id is the human's own id and its thread is the member's slug.
API_TRANSPORT = "api"
INGRESS = "~ingress"  # the actor that admits human events in arrival order
GIST = 60  # characters of a request's message a notice quotes

log = logging.getLogger(__name__)

HELP_TEXT = (
    "crewline commands:\n"
    "/roster: every member, whether it needs you, and its open requests\n"
    f"{USAGE}\n"
    "/help: this text\n"
    "In a member's thread, tap a card's button or type your answer as a reply.\n"
    + rewind_commands.HELP_LINES
)


class _Duplicate(Exception):
    """A redelivered event: roll back and answer nothing."""


class _Unseen(Exception):
    """A probe found the event new: roll its mark back."""


# Commands whose boundary remembers their event in its own transaction (bot/boundary_tx.py).
_MARKED_BY_THEIR_BOUNDARY = frozenset({"rewind", "regenerate", "reset", "fork"})


class HumanEvents:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = hub.store

    async def receive(self, event: HumanEvent) -> Receipt:
        """Admit the event in arrival order, then judge it on its member's actor.

        Finding the member takes a store read; doing that on one ingress actor keeps the
        order in which events reached crewline as the order their members' actors see them.
        """
        judged = await self.hub.actors.run(INGRESS, lambda: self._admit(event))
        receipt = await judged
        if receipt == DUPLICATE:
            # A redelivery: what its first delivery was told (the mark is in the shared
            # store, so this holds across a restart and across replicas).
            repeat: Receipt = await self.hub.change(lambda ch: receipts.repeat_of(ch, event))
            return repeat
        if _kept_after(event) and receipt.code != "not_owner":  # a stranger's marks nothing
            await self.hub.change(lambda ch: receipts.keep(ch, event, receipt))
        return receipt

    async def _admit(self, event: HumanEvent) -> asyncio.Future[Receipt]:
        try:
            match event:
                case HumanClick():
                    return await self._click(event)
                case HumanMessage():
                    return await self._message(event)
                case HumanEdit():
                    return await self._edit(event)
                case HumanCommand():
                    return _done(await self._command(event))
        except CallerError as error:
            return _done(Receipt(accepted=False, code=error.code, notice=error.message))
        raise TypeError(f"not a human event: {event!r}")

    def _judge(self, member: str, job: Callable[[], Awaitable[Receipt]]) -> asyncio.Future[Receipt]:
        return self.hub.actors.submit(member, job)

    # who is who -----------------------------------------------------------------------------
    async def _is_owner(self, event: HumanEvent, member: Member) -> bool:
        if event.transport == API_TRANSPORT:
            return event.user_id == str(member.owner)
        return await self.store.human_of(event.transport, event.user_id) == member.owner

    async def _thread_member(self, event: HumanEvent) -> Member | None:
        if event.thread is None:
            return None
        if event.transport == API_TRANSPORT:
            return await self.store.member(event.thread)
        slug = await self.store.member_for_thread(event.transport, event.thread)
        return None if slug is None else await self.store.member(slug)

    async def _refuse(
        self, event: HumanEvent, refusal: Refusal, *, member: str | None = None
    ) -> Receipt:
        if await self._was_taken(event):
            # A redelivery of an event that was taken: judged afresh it would meet its own
            # effect (a settled card) and tell the human, or audit, what never happened.
            return DUPLICATE
        if refusal.security:
            await self.hub.change(
                lambda ch: ch.audit(
                    f"{type(event).__name__.removeprefix('Human').lower()}:{refusal.code}",
                    "denied",
                    actor=f"{event.transport}:{event.user_id}",
                    member=member,
                    event_id=event.event_id,
                )
            )
        return Receipt(accepted=False, code=refusal.code, notice=refusal.notice)

    async def _first(self, event: HumanEvent) -> bool:
        """Remember a command's event before it runs; False: an earlier delivery ran it.

        A command's effect (a reply, a policy, an undo) has no transaction of the member's
        to carry the mark, so the mark comes first: a crash between the two loses the
        command (the owner sends it again), never runs it twice.
        """
        first: bool = await self.hub.change(
            lambda ch: ch.tx.mark_seen(event.transport, event.event_id, ch.now)
        )
        return first

    async def _was_taken(self, event: HumanEvent) -> bool:
        """Whether an earlier delivery of this event was accepted (its id is remembered)."""

        def probe(ch: Change) -> None:
            if ch.tx.mark_seen(event.transport, event.event_id, ch.now):
                raise _Unseen  # roll back: a refusal remembers nothing

        try:
            await self.hub.change(probe)
        except _Unseen:
            return False
        return True

    # clicks ---------------------------------------------------------------------------------
    async def _click(self, event: HumanClick) -> asyncio.Future[Receipt]:
        press = cards.parse_payload(event.payload)
        if press is None:
            return _done(
                await self._refuse(
                    event,
                    Refusal(
                        code="malformed_payload",
                        notice="This button is not one of crewline's.",
                        security=True,
                    ),
                )
            )
        if press.kind == "q":
            return await self._question_click(event, press.record_id, press.choice)
        if press.kind == "c":
            return await concierge_press(self, event, press)
        if press.kind == "r":
            return _done(await rewind_commands.regenerate_press(self, event, press.record_id))
        record = await self.store.escalation(press.record_id)
        thread_member = await self._thread_member(event)
        if record is None or (thread_member and thread_member.slug != record.member):
            return _done(
                await self._refuse(
                    event,
                    Refusal(
                        code="unknown_escalation",
                        notice="This button does not belong to a request of this member.",
                        security=True,
                    ),
                    member=thread_member.slug if thread_member else None,
                )
            )
        member = await self.hub.member(record.member)

        async def judge() -> Receipt:
            owner = await self._is_owner(event, member)

            def write(ch: Change) -> Receipt:
                # Judged against the record as this transaction reads it: another replica
                # may have settled it since any read outside (the member's lock orders us).
                decision = match_click(
                    record=ch.tx.escalation(press.record_id),
                    member=member.slug,
                    choice=press.choice,
                    presser_is_owner=owner,
                )
                if isinstance(decision, Refusal):
                    raise _Refused(decision)
                if not ch.tx.mark_seen(event.transport, event.event_id, ch.now):
                    raise _Duplicate
                _answer(ch, member, event, decision)
                return Receipt(
                    accepted=True,
                    notice=f"Answered: {decision.text}",
                    outcome=ReplyOutcome.ANSWERED,
                    escalation_id=decision.escalation.id,
                )

            try:
                receipt = await self._accept(event, write)
            except _Refused as refused:
                return await self._refuse(event, refused.refusal, member=member.slug)
            settled = await self.store.escalation(press.record_id)
            if receipt.accepted and settled is not None:
                # For platforms that settle the card in the click's own response (Discord);
                # the outbox's redraw of the same state follows and changes nothing.
                receipt = replace(receipt, redraw=cards.escalation_card(settled, member.name))
            return receipt

        return self._judge(member.slug, judge)

    async def _question_click(
        self, event: HumanClick, question_id: str, choice: int
    ) -> asyncio.Future[Receipt]:
        record = await self.store.question(question_id)
        member = await self.store.member(record.member) if record and record.member else None
        if record is None or member is None or not 0 <= choice < len(record.options):
            return _done(
                await self._refuse(
                    event,
                    Refusal(
                        code="unknown_question",
                        notice="This button does not belong to a question.",
                        security=True,
                    ),
                )
            )
        if not await self._is_owner(event, member):
            return _done(
                await self._refuse(
                    event,
                    Refusal(
                        code="not_owner",
                        notice="Only this member's owner can answer its questions.",
                        security=True,
                    ),
                    member=member.slug,
                )
            )

        def write(ch: Change) -> Receipt:
            if not ch.tx.mark_seen(event.transport, event.event_id, ch.now):
                raise _Duplicate
            current = ch.tx.question(question_id)
            assert current is not None
            questions.answer_question(
                ch, member, current, answer=record.options[choice], by=AnsweredBy.USER
            )
            return Receipt(accepted=True, notice=f"Answered: {record.options[choice]}")

        return self._judge(member.slug, lambda: self._accept(event, write))

    # typed messages -------------------------------------------------------------------------
    async def _message(self, event: HumanMessage) -> asyncio.Future[Receipt]:
        member = await self._thread_member(event)
        if member is None:
            return _done(
                Receipt(
                    accepted=False,
                    code="unknown_thread",
                    notice="This conversation is not a member's thread.",
                )
            )
        if not await self._is_owner(event, member):
            return _done(
                await self._refuse(
                    event,
                    Refusal(
                        code="not_owner",
                        notice="Only this member's owner can talk to it here.",
                        security=True,
                    ),
                    member=member.slug,
                )
            )

        async def judge() -> Receipt:
            def write(ch: Change) -> Receipt:
                if not ch.tx.mark_seen(event.transport, event.event_id, ch.now):
                    raise _Duplicate
                named = None
                if event.escalation_id is not None:
                    named = ch.tx.escalation(event.escalation_id)
                    question = None if named else ch.tx.question(event.escalation_id)
                    if (
                        question is not None
                        and question.member == member.slug
                        and question.state is QuestionState.WAITING
                    ):
                        # A reply naming a question card (the concierge's Edit) answers it.
                        questions.answer_question(
                            ch, member, question, answer=event.text, by=AnsweredBy.USER
                        )
                        return Receipt(accepted=True, notice=f"Answered: {event.text}")
                    if named is None or named.member != member.slug:
                        raise _NotYours(event.escalation_id)
                decision = typed_reply.take_reply(
                    ch,
                    member,
                    text=event.text,
                    pending=ch.tx.escalations(member.slug, pending_only=True),
                    named=named,
                    write_row=_row_writer(ch, member, event),
                    told={"transport": event.transport},
                ).decision
                if isinstance(decision, Answer):
                    return Receipt(
                        accepted=True,
                        notice=f"Answered: {decision.text} — to “{_gist(decision.escalation)}”",
                        outcome=ReplyOutcome.ANSWERED,
                        escalation_id=decision.escalation.id,
                    )
                return _unanswered(member, decision, named)

            try:
                return await self._accept(event, write)
            except _NotYours as error:
                return await self._refuse(
                    event,
                    Refusal(
                        code="not_your_record",
                        notice=f"{error.args[0]} is not a request of {member.name}.",
                        security=True,
                    ),
                    member=member.slug,
                )

        return self._judge(member.slug, judge)

    # edits ----------------------------------------------------------------------------------
    async def _edit(self, event: HumanEdit) -> asyncio.Future[Receipt]:
        """An edit never re-runs a command: when the owner changed the text of their
        message, it is an edit-resend boundary (whose resent text is matched as a reply
        when the edited message had answered a record: bot/boundary_tx.py)."""
        member = await self._thread_member(event)
        if member is None:
            return _done(Receipt(accepted=False, code="unknown_thread"))
        if not await self._is_owner(event, member):
            return _done(
                await self._refuse(
                    event,
                    Refusal(
                        code="not_owner",
                        notice=f"Only {member.name}'s owner can edit its conversation.",
                        security=True,
                    ),
                    member=member.slug,
                )
            )
        return _done(await rewind_commands.edit_resend(self, event, member))

    # commands -------------------------------------------------------------------------------
    async def _command(self, event: HumanCommand) -> Receipt:
        owner = await self.store.human_of(event.transport, event.user_id) is not None
        if owner and event.name not in _MARKED_BY_THEIR_BOUNDARY and not await self._first(event):
            return DUPLICATE
        if event.name == "concierge":
            return await concierge_command(self, event)
        if not owner:
            return Receipt(
                accepted=False,
                code="not_owner",
                notice="crewline answers commands from its owner only.",
            )
        match event.name:
            case "help":
                return Receipt(accepted=True, notice=HELP_TEXT)
            case "rewind" | "regenerate" | "reset":
                return await rewind_commands.boundary_command(self, event)
            case "fork":
                return await rewind_commands.fork_command(self, event)
            case "roster":
                entries = await roster(self.store, now=self.hub.clock.now())
                lines = [
                    f"{e.name} ({e.slug}): "
                    + (f"needs you, {e.open_count} open" if e.needs_you else "all clear")
                    + (f"\n  {status}" if (status := _status_line(e)) else "")
                    for e in entries
                ]
                return Receipt(accepted=True, notice="\n".join(lines) or "No members yet.")
        return Receipt(
            accepted=False,
            code="unknown_command",
            notice=f"Unknown command /{event.name}. Try /help.",
        )

    # the concierge's commands and buttons use the same checks (bot/concierge_inbound.py)
    is_owner = _is_owner
    thread_member = _thread_member
    refuse = _refuse
    judge = _judge
    was_taken = _was_taken

    async def _accept(self, event: HumanEvent, write: Callable[[Change], Receipt]) -> Receipt:
        """Run ``write`` (which marks the event) and keep its receipt in its transaction."""
        try:
            receipt: Receipt = await self.hub.change(lambda ch: receipts.keep(ch, event, write(ch)))
        except _Duplicate:
            return DUPLICATE
        return receipt


def _kept_after(event: HumanEvent) -> bool:
    """Whether the event's receipt is kept after it is answered, not in its effect's
    transaction: a command or an edit marks its event first (or in a boundary's own
    transaction) and answers after; a Regenerate press is a boundary too."""
    if isinstance(event, HumanCommand | HumanEdit):
        return True
    if isinstance(event, HumanClick):
        press = cards.parse_payload(event.payload)
        return press is not None and press.kind == "r"
    return False


def _gist(record: Escalation) -> str:
    """The request a notice names: its message's first line, cut to a glance."""
    line = record.message.strip().splitlines()[0] if record.message.strip() else record.id
    return line if len(line) <= GIST else line[: GIST - 1].rstrip() + "…"


def _unanswered(member: Member, decision: Ambiguous | NoMatch, named: Escalation | None) -> Receipt:
    """The receipt of a reply that answered no record: why, in a code and in words."""
    if isinstance(decision, Ambiguous):
        # The thread itself says which are open and how to pick (cards.ambiguity_notice).
        return Receipt(accepted=True, outcome=ReplyOutcome.AMBIGUOUS, open=decision.pending)
    if decision.reason == "already_settled" and named is not None:
        return Receipt(
            accepted=True,
            outcome=ReplyOutcome.ALREADY_SETTLED,
            escalation_id=named.id,
            notice=(
                f"“{_gist(named)}” was already settled ({named.state.value}), so this answered"
                f" nothing; {member.name} got it as a message."
            ),
        )
    # Nothing open: an ordinary message to the member, which needs no notice.
    return Receipt(accepted=True, outcome=ReplyOutcome.NO_OPEN_REQUEST)


def _done(receipt: Receipt) -> asyncio.Future[Receipt]:
    future: asyncio.Future[Receipt] = asyncio.get_running_loop().create_future()
    future.set_result(receipt)
    return future


class _NotYours(Exception):
    """A reply named a record of another member."""


class _Refused(Exception):
    """A press the transaction refused (nothing written): the refusal says why."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.code)
        self.refusal = refusal


def _human_row(
    ch: Change,
    member: Member,
    event: HumanEvent,
    *,
    text: str,
    meta: dict[str, object],
    record: str | None = None,
) -> Row:
    last_turn.redraw(ch, member)  # the member's turn before this message is over
    row = ch.tx.append_row(
        conversation=member.slug,
        role=RowRole.HUMAN,
        author=f"{event.transport}:{event.user_id}",
        text=text,
        now=ch.now,
        meta={**meta, "transport": event.transport},
        record=record,
    )
    message_ref = getattr(event, "message_ref", None)
    if message_ref and event.thread:
        ch.tx.record_platform_message(
            PlatformMessage(
                transport=event.transport,
                object_key=f"row:{row.id}",
                thread_ref=event.thread,
                message_ref=message_ref,
            )
        )
    return row


def _row_writer(ch: Change, member: Member, event: HumanEvent) -> typed_reply.WriteRow:
    """How a reply typed on a platform enters the transcript: as the person's own message."""

    def write(text: str, meta: Mapping[str, object], record: str | None) -> Row:
        return _human_row(ch, member, event, text=text, meta=dict(meta), record=record)

    return write


def _answer(ch: Change, member: Member, event: HumanEvent, decision: Answer) -> None:
    """The answering reply (a press, a sent suggestion) is a row naming its one record."""
    typed_reply.answer(ch, member, decision, _row_writer(ch, member, event))


# The concierge's Send suggestion answers as the human does (bot/concierge_inbound.py).
answer_escalation_as_human = _answer


def _status_line(entry: RosterEntry) -> str | None:
    answer = entry.concierge_answer
    return None if answer is None else entry.concierge_status(in_words(answer.at))
