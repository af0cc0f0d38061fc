"""Drawing stored objects in their current state, for the outboxes (the Renderer port)."""

from __future__ import annotations

from datetime import datetime, timedelta

from crewline.bot import cards
from crewline.bot.last_turn import last_turn
from crewline.bot.written import WrittenCards
from crewline.models import (
    Bell,
    Button,
    Clock,
    Member,
    OutboundMessage,
    RecentAnswer,
    RosterEntry,
    RowRole,
    SystemClock,
)
from crewline.store import Store

__all__ = ["STATUS_FOR", "CoreRenderer", "roster"]

STATUS_FOR = timedelta(minutes=1)  # how long a concierge answer stays on the roster


class CoreRenderer:
    def __init__(
        self, store: Store, clock: Clock | None = None, *, written: WrittenCards | None = None
    ) -> None:
        """``written``: the new cards their changes hand over (``Hub.written``)."""
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.written = written

    async def message(
        self, object_key: str, *, unchanged: bool = False
    ) -> tuple[Member, OutboundMessage] | None:
        kind, _, row_id = object_key.partition(":")
        if unchanged and self.written is not None:
            handed = self.written.take(object_key)
            if handed is not None:  # as its change wrote it, and untouched since: no read
                card = cards.escalation_card(
                    handed.escalation, handed.member.name, suggestion=handed.suggestion
                )
                return handed.member, card
        found = await self.store.card_read(row_id) if kind == "row" else None
        if found is None:
            return None
        row, member = found.row, found.member
        escalation, suggestion = found.escalation, found.suggestion
        if member is None:
            if row.role not in (RowRole.ESCALATION, RowRole.QUESTION):
                return None
            # A removed member's card, settled by its removal: drawn once more, without
            # buttons, under the name it was posted with.
            member = _gone(row.conversation, row.author)
        if row.role is RowRole.ESCALATION:
            named = str(row.meta["escalation_id"])
            if escalation is None or escalation.id != named:  # not read with its row
                escalation = await self.store.escalation(named)
                if escalation is None:
                    return None
                suggestion = await self.store.suggestion(escalation.id)
            return member, cards.escalation_card(escalation, member.name, suggestion=suggestion)
        if row.role is RowRole.QUESTION:
            question = await self.store.question(str(row.meta["question_id"]))
            if question is None:
                return None
            suggestion = await self.store.suggestion(question.id)
            return member, cards.question_card(question, member.name, suggestion=suggestion)
        if row.role is RowRole.SYSTEM and row.meta.get("concierge_answer"):
            kept = {a.row_id: a for a in await self.store.concierge_answers()}
            answer = kept.get(row.id)
            record_id = row.meta.get("escalation_id") or row.meta.get("question_id") or ""
            return member, cards.concierge_answer_line(
                text=str(row.meta["answer"]),
                why=str(row.meta.get("why") or ""),
                record_id=str(record_id),
                undoable=answer is not None,
                undone=answer is not None and answer.undone_at is not None,
            )
        kind_of_row = "notice" if row.role is RowRole.SYSTEM else "row"
        author = "crewline" if row.role is RowRole.SYSTEM else row.author
        buttons: tuple[Button, ...] = ()
        if row.role is RowRole.MEMBER:
            current = await self.store.write(lambda tx: last_turn(tx, row.conversation))
            if current is not None and current.id == row.id:
                buttons = (cards.regenerate_button(row.id),)
        return member, OutboundMessage(
            author=author, text=row.text, kind=kind_of_row, buttons=buttons
        )

    async def bell(self, object_key: str) -> Bell | None:
        # bell:escalation:<member>:<goal> | bell:question:<member>
        _, kind, member_slug, *goal_part = object_key.split(":", 3)
        member = await self.store.member(member_slug) or await self._gone_member(member_slug)
        if member is None:
            return None
        if kind == "question":
            waiting = await self.store.waiting_questions(member_slug)
            return cards.question_bell(member.name, member.slug, waiting)
        goal = goal_part[0] if goal_part else ""
        pending = await self.store.bell_lines(member_slug, goal)
        return cards.escalation_bell(member.name, member.slug, goal or None, pending)

    async def roster(self) -> list[RosterEntry]:
        return await roster(self.store, now=self.clock.now())

    async def _gone_member(self, slug: str) -> Member | None:
        """A removed member, by the name its cards were posted with (its records outlive
        it): its bell is drawn once more, with nothing open. None: it never had a card."""
        for record in await self.store.escalations(slug):
            row = await self.store.row(record.row_id, include_rewound=True)
            if row is not None:
                return _gone(slug, row.author)
        return None


def _gone(slug: str, name: str) -> Member:
    """A stand-in for a member that was removed: enough to draw what it left behind."""
    return Member(slug=slug, name=name, owner=0, transports=())


async def roster(store: Store, *, now: datetime) -> list[RosterEntry]:
    """Every member with its needs-you flag and open count, derived from the index, and the
    concierge's latest answer to it when that came within the last minute (not undone)."""
    pending = await store.pending_counts()
    waiting = await store.waiting_counts()
    recent: dict[str, RecentAnswer] = {}
    for answer in await store.concierge_answers():  # the last 20, newest first
        if answer.undone_at is None and now - STATUS_FOR < answer.at <= now:
            recent.setdefault(answer.member, RecentAnswer(text=answer.text, at=answer.at))
    return [
        RosterEntry(
            slug=member.slug,
            name=member.name,
            needs_you=bool(pending.get(member.slug) or waiting.get(member.slug)),
            pending_escalations=pending.get(member.slug, 0),
            waiting_questions=waiting.get(member.slug, 0),
            concierge_answer=recent.get(member.slug),
        )
        for member in await store.members()
    ]
