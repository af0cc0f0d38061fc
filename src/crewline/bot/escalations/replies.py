"""A human's reply to an escalation record (SPEC §2): the one matching rule, what each of its
outcomes writes, and the two ways a reply arrives — a press on a card's option and text
typed in the member's thread.

The rule is pure: the caller loads the record(s) inside the member's actor, so "pending at
this row's position" is exactly the state when this reply arrived. The text the owner types
and the resent text of an edited answer (SPEC §5 rule 5) are the same kind of reply: each
answers the one record it matches, or — matching several — the thread says which are open
and how to pick; a reply that answers no record reaches the member's sessions as a
``human_message``. Only how the reply's row is written differs (a person's platform
message, or a row crewline posts for a boundary), so the caller passes that in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from crewline.bot import cards, last_turn
from crewline.bot.cards import ButtonPress
from crewline.bot.changes import Change
from crewline.bot.domain import ReplyReached
from crewline.bot.escalations.records import answer_escalation
from crewline.bot.ports import (
    MessageHandler,
    Pressed,
    PressHandler,
    Refusal,
    Refused,
)
from crewline.errors import NotFound
from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    Escalation,
    HumanClick,
    HumanEvent,
    HumanMessage,
    Member,
    Receipt,
    ReplyOutcome,
    Row,
    RowRole,
)
from crewline.store import PlatformMessage, Store

__all__ = [
    "ESCALATION_PRESS",
    "Ambiguous",
    "Answer",
    "EscalationPresses",
    "NoMatch",
    "Taken",
    "TypedReplies",
    "WriteRow",
    "answer",
    "choice_of",
    "match_click",
    "match_text",
    "take_reply",
]

ESCALATION_PRESS = "e"  # the payload kind of a card's option buttons (bot/cards.py)
GIST = 60  # characters of a request's message a notice quotes
# How the caller writes the reply's row: (text, meta, the record it answers or None).
WriteRow = Callable[[str, Mapping[str, object], str | None], Row]


# --- the rule ----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class Answer:
    escalation: Escalation
    text: str
    choice: int | None
    via: AnsweredVia


@dataclass(frozen=True, kw_only=True, slots=True)
class Ambiguous:
    pending: tuple[Escalation, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class NoMatch:
    reason: str


def match_click(
    *,
    record: Escalation | None,
    member: str,
    choice: int,
    presser_is_owner: bool,
) -> Answer | Refusal:
    """Rule 1: a press answers its record if pending, pressed by the owner, well-formed."""
    if record is None or record.member != member:
        return Refusal(
            code="unknown_escalation",
            notice="This button does not belong to a request of this member.",
            security=True,
        )
    if not presser_is_owner:
        return Refusal(
            code="not_owner",
            notice="Only this member's owner can answer its requests.",
            security=True,
        )
    if not record.is_pending:
        return Refusal(
            code="already_settled",
            notice=f"This request is already settled ({record.state.value}).",
        )
    if not 0 <= choice < len(record.options):
        return Refusal(
            code="invalid_choice",
            notice="This button names a choice the request does not offer.",
            security=True,
        )
    return Answer(
        escalation=record, text=record.options[choice], choice=choice, via=AnsweredVia.CHIP
    )


def match_text(
    *,
    text: str,
    pending: Sequence[Escalation],
    author_is_owner: bool,
    named: Escalation | None = None,
    via: AnsweredVia = AnsweredVia.TEXT,
) -> Answer | Ambiguous | NoMatch:
    """Rules 2 and 4: typed text answers the one pending record, or — with several
    pending — the one record it names by an option (case and spacing ignored).

    ``named`` is the one record a client explicitly named (rule 5 is enforced where the body
    is parsed: a body can carry at most one id). Replays (rule 3) never reach this: a
    redelivered event is recognised by its id, and reconciliation re-applies the record a
    row names instead of matching it again. ``via``: how the text came (``edit`` for the
    resent text of an edited answer, SPEC §5 rule 5).
    """
    if not author_is_owner:
        return NoMatch(reason="not_owner")
    if named is not None:
        if not named.is_pending:
            return NoMatch(reason="already_settled")
        return Answer(escalation=named, text=text, choice=choice_of(named, text), via=via)
    if not pending:
        return NoMatch(reason="no_open_request")
    if len(pending) == 1:
        only = pending[0]
        return Answer(escalation=only, text=text, choice=choice_of(only, text), via=via)
    # Several are open: text that is an option of exactly one of them names it as surely
    # as its button would; anything else answers none (the safe side).
    naming = [
        (record, choice) for record in pending if (choice := choice_of(record, text)) is not None
    ]
    if len(naming) == 1:
        record, choice = naming[0]
        return Answer(escalation=record, text=text, choice=choice, via=via)
    return Ambiguous(pending=tuple(pending))


def choice_of(record: Escalation, text: str) -> int | None:
    """The option a typed answer names, if any: case and spacing are ignored."""
    wanted = _folded(text)
    for index, option in enumerate(record.options):
        if _folded(option) == wanted:
            return index
    return None


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


# --- what a reply writes -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class Taken:
    decision: Answer | Ambiguous | NoMatch
    row: Row  # the reply's own row


def take_reply(
    ch: Change,
    member: Member,
    *,
    text: str,
    pending: Sequence[Escalation],
    write_row: WriteRow,
    told: Mapping[str, object],
    named: Escalation | None = None,
    via: AnsweredVia = AnsweredVia.TEXT,
) -> Taken:
    """Match the owner's ``text`` against the records ``pending`` at its position and write
    the outcome. ``told``: what a ``human_message`` event says beside the row and the text.
    """
    decision = match_text(text=text, pending=pending, author_is_owner=True, named=named, via=via)
    if isinstance(decision, Answer):
        row, _ = answer(ch, member, decision, write_row)
        return Taken(decision=decision, row=row)
    row = write_row(text, {}, None)
    if isinstance(decision, Ambiguous):
        notice = ch.system_row(
            member.slug,
            cards.ambiguity_notice(decision.pending),
            meta={"ambiguous": [e.id for e in decision.pending]},
        )
        ch.show(member, "post", f"row:{notice.id}")
    ch.tell_member(member.slug, "human_message", {"row_id": row.id, "text": text, **told})
    ch.publish(ReplyReached(member=member.slug, row_id=row.id))
    return Taken(decision=decision, row=row)


def answer(
    ch: Change, member: Member, decision: Answer, write_row: WriteRow
) -> tuple[Row, Escalation]:
    """The answering reply is a transcript row (the truth) naming its one record; returns
    the row and the record as answered."""
    record = decision.escalation
    row = write_row(
        decision.text,
        {
            "escalation_id": record.id,
            "choice": decision.choice,
            "via": decision.via.value,
            "by": AnsweredBy.USER.value,
        },
        record.id,
    )
    answered = answer_escalation(
        ch,
        member,
        record,
        text=decision.text,
        choice=decision.choice,
        by=AnsweredBy.USER,
        via=decision.via,
        answer_row=row,
    )
    return row, answered


def human_row(
    ch: Change,
    member: Member,
    event: HumanEvent,
    *,
    text: str,
    meta: Mapping[str, object],
    record: str | None = None,
) -> Row:
    """The person's own message, as it enters the transcript (with the platform message it
    is, so a later edit of it is found)."""
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


def row_writer(ch: Change, member: Member, event: HumanEvent) -> WriteRow:
    """How a reply typed on a platform enters the transcript: as the person's own message."""

    def write(text: str, meta: Mapping[str, object], record: str | None) -> Row:
        return human_row(ch, member, event, text=text, meta=meta, record=record)

    return write


# --- the two ways a reply arrives --------------------------------------------------------------


STRANGER = "Only this member's owner can answer its requests."  # what anyone else is told


class EscalationPresses(PressHandler):
    """A press on a card's option (``e:<record>:<option>``) answers that record (rule 1)."""

    kind = ESCALATION_PRESS

    def __init__(self, store: Store) -> None:
        self.store = store

    async def check(
        self, event: HumanClick, press: ButtonPress, in_thread: Member | None
    ) -> Pressed:
        if in_thread is not None:
            # Pressed in a member's thread: the answering change reads the record anyway and
            # refuses one of another member, or none, as this check would (match_click), so
            # it is not read here too.
            return Pressed(member=in_thread, stranger=STRANGER)
        record = await self._record(press, in_thread)
        member = await self.store.member(record.member)
        if member is None:
            raise NotFound(f"no member named {record.member!r}", code="unknown_member")
        return Pressed(member=member, stranger=STRANGER)

    async def confirm(self, event: HumanClick, press: ButtonPress, pressed: Pressed) -> None:
        await self._record(press, pressed.member)

    async def _record(self, press: ButtonPress, in_thread: Member | None) -> Escalation:
        """The pressed record, refused as unknown when it is none of ``in_thread``'s."""
        record = await self.store.escalation(press.record_id)
        if record is None or (in_thread is not None and in_thread.slug != record.member):
            raise Refused(
                Refusal(
                    code="unknown_escalation",
                    notice="This button does not belong to a request of this member.",
                    security=True,
                ),
                member=in_thread.slug if in_thread else None,
            )
        return record

    def write(self, ch: Change, event: HumanClick, press: ButtonPress, pressed: Pressed) -> Receipt:
        member = pressed.member
        # Judged against the record as this transaction reads it: another replica may have
        # settled it since any read outside (the member's lock orders us).
        decision = match_click(
            record=ch.tx.escalation(press.record_id),
            member=member.slug,
            choice=press.choice,
            presser_is_owner=True,  # the core let only the owner's press through
        )
        if isinstance(decision, Refusal):
            raise Refused(decision)
        _, answered = answer(ch, member, decision, row_writer(ch, member, event))
        return Receipt(
            accepted=True,
            notice=f"Answered: {decision.text}",
            outcome=ReplyOutcome.ANSWERED,
            escalation_id=decision.escalation.id,
            # For platforms that settle the card in the click's own response (Discord): the
            # card as this change leaves it, with no read after the commit. The outbox's
            # redraw of the same state follows and changes nothing. Drawn for nobody else.
            redraw=(
                cards.escalation_card(answered, member.name) if event.card_in_response else None
            ),
        )


class TypedReplies(MessageHandler):
    """Text the owner types in a member's thread: the answer to the one record it matches,
    or a message to the member (rules 2, 4, 5)."""

    def take(self, ch: Change, event: HumanMessage, member: Member) -> Receipt:
        named = None
        if event.escalation_id is not None:
            named = ch.tx.escalation(event.escalation_id)
            if named is None or named.member != member.slug:
                raise Refused(
                    Refusal(
                        code="not_your_record",
                        notice=f"{event.escalation_id} is not a request of {member.name}.",
                        security=True,
                    )
                )
        decision = take_reply(
            ch,
            member,
            text=event.text,
            pending=ch.tx.escalations(member.slug, pending_only=True),
            named=named,
            write_row=row_writer(ch, member, event),
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
