"""Change: one transaction's writes plus the effects to run once it has committed.

Everything the core changes goes through a Change inside ``Hub.change``: the rows and
records (via ``tx``), and, in the same transaction, the outbox entries for every platform
message the change needs and the events for every session it concerns. After the commit
the Hub wakes the outboxes, the event readers and the deadline timers the change named,
and publishes the domain events the change named (``bot/domain.py``) to their subscribers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from crewline.bot.domain import DomainEvent
from crewline.bot.feed import Taker
from crewline.bot.written import Written, WrittenCards
from crewline.models import Escalation, Event, Member, Question, Row, RowRole, Suggestion
from crewline.store import Tx

__all__ = ["Change", "Effects", "escalation_bell", "question_bell"]


def escalation_bell(slug: str, goal: str | None) -> str:
    """The object key of the bell of one goal group of a member's escalations."""
    return f"bell:escalation:{slug}:{goal or ''}"


def question_bell(slug: str) -> str:
    """The object key of the bell of a member's waiting question cards."""
    return f"bell:question:{slug}"


@dataclass(slots=True)
class Effects:
    """What to do after the commit."""

    sessions: set[str] = field(default_factory=set)
    lanes: dict[str, set[str]] = field(default_factory=dict)  # transport -> outbox lanes
    deadlines: list[tuple[str, datetime]] = field(default_factory=list)
    reconcile: set[str] = field(default_factory=set)
    domain: list[DomainEvent] = field(default_factory=list)
    # session -> (its parked long poll, the events the change took for it)
    taken: dict[str, tuple[Taker, list[Event]]] = field(default_factory=dict)
    # new escalation cards handed to their posts: (card key, tick, card)
    written: list[tuple[str, int, Written]] = field(default_factory=list)


@dataclass(slots=True, eq=False)
class Change:
    """One transaction's handle: ``tx`` to write through, ``now`` (the change's time), and
    what to do once it has committed (``effects``). ``reactions``: what the features
    registered to run, inside this change, as it publishes a domain event (``Hub.react``).
    ``written``: where a new escalation's card is handed to its post, and where a redraw
    that may leave its entry out says the hand-over is stale (``bot/written.py``).
    """

    tx: Tx
    now: datetime
    transports: tuple[str, ...]  # the transports running here
    reactions: Sequence[Callable[[Change, DomainEvent], None]] = ()
    written: WrittenCards | None = None
    effects: Effects = field(default_factory=Effects)
    last_cursor: int | None = None  # the cursor of the last event appended

    def event(self, session: str, kind: str, body: Mapping[str, Any]) -> None:
        """Append to one session's event stream (its cursor is then ``last_cursor``)."""
        self.last_cursor = self.tx.add_event(session, kind, body, self.now)
        self.effects.sessions.add(session)

    def tell_member(self, slug: str, kind: str, body: Mapping[str, Any]) -> None:
        """Append to the event stream of every live session of the member itself."""
        for session in self.tx.member_sessions(slug):
            self.event(session.id, kind, body)

    def show(self, member: Member, op: str, object_key: str) -> None:
        """Post (``op='post'``) or redraw (``'update'``) an object in the member's thread on
        every transport the member is bound to."""
        for transport in self._bound(member):
            self._enqueue(transport, member.slug, op, object_key)

    def redraw(
        self,
        objects: Sequence[tuple[Member, str]],
        *,
        suggestions: Mapping[str, Suggestion] | None = None,
    ) -> None:
        """Redraw objects in their members' threads, as ``show(member, "update", key)``
        does, except on a transport where an object's post still waits behind another
        entry of its lane: that post draws it as this change leaves it
        (``Tx.posts_not_begun``), so a redraw would be settled unsent. The lane is woken
        either way. ``suggestions``: by card key, where a new suggestion is all this change
        changed of the card."""
        asked: dict[str, list[tuple[str, str]]] = {}
        for member, object_key in objects:
            self._touch(object_key, suggestions.get(object_key) if suggestions else None)
            for transport in self._bound(member):
                asked.setdefault(transport, []).append((member.slug, object_key))
        for transport, posts in asked.items():
            not_begun = self.tx.posts_not_begun(transport, posts)
            for lane, object_key in posts:
                if (lane, object_key) in not_begun:
                    self.effects.lanes.setdefault(transport, set()).add(lane)
                else:
                    self._enqueue(transport, lane, "update", object_key)

    def announce(self, member: Member, op: str, record: Escalation | Question) -> None:
        """A record that changes what the member needs of the human: post or redraw its
        card (``op``) in the member's thread on every bound transport, restack the bell it
        belongs to and republish the roster, whose counts it changed."""
        key = f"row:{record.row_id}"
        self.show(member, op, key)
        if op == "post" and isinstance(record, Escalation) and self.written is not None:
            # Its post draws it from what this change wrote, unless touched since.
            self.effects.written.append((key, self.written.tick(), Written(member, record)))
        if isinstance(record, Escalation):
            self._ring(member, escalation_bell(member.slug, record.goal))
        else:
            self._ring(member, question_bell(member.slug))
        self.roster()

    def ring(self, member: Member, goal: str | None) -> None:
        """Show (or restack) the bell of one goal group of the member."""
        self._ring(member, escalation_bell(member.slug, goal))

    def _ring(self, member: Member, bell: str) -> None:
        for transport in self._bound(member):
            self._enqueue(transport, f"bell:{member.slug}", "ring", bell)

    def roster(self) -> None:
        """Republish the roster on every running transport (a redraw: where it falls in its
        lane does not matter, so concurrent writers need not queue it in order)."""
        for transport in self.transports:
            self._enqueue(transport, "roster", "roster", "roster", ordered=False)

    def mark_rewound(self, member: Member, object_keys: Sequence[str]) -> None:
        for transport in self._bound(member):
            self._enqueue(
                transport,
                member.slug,
                "rewound",
                f"rewound:{self.now.timestamp()}",
                body={"keys": list(object_keys)},
            )

    def _enqueue(
        self,
        transport: str,
        lane: str,
        op: str,
        object_key: str,
        *,
        body: Mapping[str, Any] | None = None,
        ordered: bool = True,
    ) -> None:
        self.tx.queue_call(
            transport=transport,
            lane=lane,
            op=op,
            object_key=object_key,
            now=self.now,
            body=body,
            ordered=ordered,
        )
        self.effects.lanes.setdefault(transport, set()).add(lane)

    def publish(self, event: DomainEvent) -> None:
        """Name a domain event: the reactions registered for it run now, in this change;
        subscribers get it after the commit, never if it rolls back."""
        for react in self.reactions:
            react(self, event)
        self.effects.domain.append(event)

    def arm(self, escalation: Escalation) -> None:
        """Have the scheduler close the record's window when due (if it has one open)."""
        if escalation.window_open and escalation.deadline is not None:
            self.effects.deadlines.append((escalation.id, escalation.deadline))

    def audit(
        self,
        action: str,
        outcome: str,
        *,
        actor: str | None = None,
        member: str | None = None,
        **details: Any,
    ) -> None:
        self.tx.audit(action, outcome, self.now, actor=actor, member=member, details=details)

    def system_row(
        self,
        conversation: str,
        text: str,
        *,
        meta: Mapping[str, Any],
        author: str = "crewline",
        record: str | None = None,
    ) -> Row:
        """A row that crewline (or ``author``, the concierge) writes in a conversation."""
        return self.tx.append_row(
            conversation=conversation,
            role=RowRole.SYSTEM,
            author=author,
            text=text,
            now=self.now,
            record=record,
            meta=meta,
        )

    def _touch(self, object_key: str, suggestion: Suggestion | None = None) -> None:
        if self.written is None:
            return
        tick, handed = self.written.touch(object_key)
        if handed is not None and suggestion is not None:
            handed = replace(handed, suggestion=suggestion)
            self.effects.written.append((object_key, tick, handed))

    def _bound(self, member: Member) -> tuple[str, ...]:
        # A binding to a transport that is not running waits in the outbox until it is.
        return member.transports
