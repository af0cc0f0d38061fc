"""The Hub: the core. It runs changes, one actor per member; delivers what a change means
after its commit; and routes human events to the handlers the features registered. It
names no feature: a feature is built with the Hub as its ports (``bot/ports.py``) and
registers its press handlers, commands, message and edit handlers, domain-event
subscribers, in-change reactions and before-delivery holds; the Hub looks them up.

Every change to a member's conversation runs on that member's actor (one at a time, in
arrival order) and is written by :meth:`Hub.change` in one transaction together with its
outbox entries and session events; after the commit the Hub wakes whoever must act.

A human event is admitted by one ingress actor, which finds the member it concerns and
queues it on that member's actor before admitting the next: so replies are matched strictly
in arrival order (SPEC §2 rule 6). It is remembered by its platform id, with the receipt it
got, in the same transaction as its effect: a redelivery finds it, changes nothing and gets
that receipt again (rule 3; ``bot/receipts.py``). A refusal writes nothing but, where it is
a security event, a SEL record.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from crewline.bot import receipts
from crewline.bot.actors import SERVING, MemberActors
from crewline.bot.cards import ButtonPress, parse_payload
from crewline.bot.changes import Change, Effects
from crewline.bot.domain import DomainEvent, DomainEvents, Subscriber
from crewline.bot.feed import EventFeed
from crewline.bot.ports import (
    DUPLICATE,
    CommandHandler,
    DeliveryHold,
    EditHandler,
    MessageHandler,
    Pressed,
    PressHandler,
    Reaction,
    Refusal,
    Refused,
    Repair,
)
from crewline.bot.render import roster
from crewline.bot.written import WrittenCards
from crewline.errors import CallerError, Forbidden, NotFound, Unavailable
from crewline.models import (
    Clock,
    Event,
    HumanClick,
    HumanCommand,
    HumanEdit,
    HumanEvent,
    HumanMessage,
    Member,
    Receipt,
    RosterEntry,
    Session,
    SystemClock,
)
from crewline.moments import in_words
from crewline.policy import Verb, authorize
from crewline.store import Store, Tx

__all__ = ["API_TRANSPORT", "INGRESS", "Hub"]

log = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")

# The owner replying through the HTTP API: authenticated by their token before the event is
# made, so its user id is the human's own id and its thread is the member's slug.
API_TRANSPORT = "api"
INGRESS = "~ingress"  # the actor that admits human events in arrival order
MALFORMED = Refusal(
    code="malformed_payload", notice="This button is not one of crewline's.", security=True
)
HELP_HEAD = (
    "crewline commands:\n"
    "/roster: every member, whether it needs you, and its open requests\n"
    "/help: this text\n"
    "In a member's thread, tap a card's button or type your answer as a reply."
)


class _Unseen(Exception):
    """A probe found the event new: roll its mark back."""


class _Seen(Exception):
    """The event was taken by an earlier delivery: roll back and answer nothing."""


class Hub:
    """The core (``bot/ports.py``'s ``Host``): changes, actors, the domain-event bus, and
    the human events routed to what the features registered."""

    def __init__(
        self, store: Store, *, clock: Clock | None = None, transports: Sequence[str] = ()
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.transports = tuple(transports)
        self.actors = MemberActors()
        self.submit = self.actors.submit
        self.feed = EventFeed()
        self.domain = DomainEvents()
        self.written = WrittenCards()  # new cards handed to their posts (the renderer's)
        self._wakers: list[Callable[[str, set[str]], None]] = []
        self._armers: list[Callable[[str, datetime], None]] = []
        self._reactions: list[Reaction] = []
        self._holds: list[DeliveryHold] = []
        self._repairs: list[Repair] = []
        self._repair: asyncio.Task[None] | None = None
        self._presses: dict[str, PressHandler] = {}
        self._commands: dict[str, CommandHandler] = {}
        self._messages: list[MessageHandler] = []
        self._edits: EditHandler | None = None
        self._help: list[str] = []

    async def __aenter__(self) -> Hub:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.actors.aclose()
        await self.domain.aclose()

    # what features register -----------------------------------------------------------------
    def press(self, handler: PressHandler) -> None:
        """Presses whose payload names ``handler.kind`` go to ``handler``."""
        if handler.kind in self._presses:
            raise ValueError(f"presses of kind {handler.kind!r} already have a handler")
        self._presses[handler.kind] = handler

    def command(self, handler: CommandHandler) -> None:
        """``/name`` for each of ``handler.names`` goes to ``handler``."""
        for name in handler.names:
            if name in self._commands or name in ("help", "roster"):
                raise ValueError(f"/{name} already has a handler")
            self._commands[name] = handler
        if handler.help:
            self._help.append(handler.help)

    def message(self, handler: MessageHandler) -> None:
        """Typed text in a member's thread is offered to the message handlers in the order
        they were registered; the first that takes it handles it."""
        self._messages.append(handler)

    def edit(self, handler: EditHandler) -> None:
        """An edited message in a member's thread goes to ``handler``."""
        if self._edits is not None:
            raise ValueError("edited messages already have a handler")
        self._edits = handler

    def subscribe(self, subscriber: Subscriber) -> None:
        """``await subscriber(event)`` after each commit that published a domain event; it
        runs on the domain-event task, never in the transaction nor on a member's actor."""
        self.domain.subscribe(subscriber)

    async def drain(self) -> None:
        """Wait until every domain event published so far has reached every subscriber."""
        await self.domain.drain()

    def react(self, reaction: Reaction) -> None:
        """``reaction(change, event)`` runs as a change publishes ``event``, inside it."""
        self._reactions.append(reaction)

    def hold_delivery(self, hold: DeliveryHold) -> None:
        """``hold.hold(events)`` names, after a commit, the members whose thread lanes that
        commit should not wake (``Bus.hold_delivery``)."""
        self._holds.append(hold)

    def unhold(self, record_id: str) -> None:
        """A reply is about to wait for the card of ``record_id``: no hold keeps it back."""
        for hold in self._holds:
            hold.unhold(record_id)

    def holds(self, object_key: str) -> bool:
        """Whether a hold keeps the post of ``object_key`` back for now: the outboxes ask
        at a lane's head, and leave the lane there until its holder wakes it."""
        return any(hold.holds(object_key) for hold in self._holds)

    def on_index_torn(self, repair: Repair) -> None:
        """``repair()`` runs (one at a time) after a change found the index unreadable."""
        self._repairs.append(repair)

    # what the composition root wires --------------------------------------------------------
    def on_outbox(self, wake: Callable[[str, set[str]], None]) -> None:
        """``wake(transport, lanes)`` is called after a commit that queued platform calls."""
        self._wakers.append(wake)

    def wake_lanes(self, lanes: set[str]) -> None:
        """Wake ``lanes`` of every transport's outbox (entries a commit left unwoken)."""
        for transport in self.transports:
            for wake in self._wakers:
                wake(transport, lanes)

    def on_deadline(self, arm: Callable[[str, datetime], None]) -> None:
        """``arm(escalation_id, deadline)`` is called after a commit that opened a window."""
        self._armers.append(arm)

    # changes --------------------------------------------------------------------------------
    async def change(
        self, transaction: Callable[[Change], T], *, heavy: bool = False, lazy: bool = False
    ) -> T:
        """Run ``transaction`` in one store transaction, then its after-commit effects.

        ``heavy``: a reconciliation, which reads a member's whole record history.
        ``lazy``: bookkeeping nobody waits for (``Store.write``).
        """
        return await self._change(
            transaction, lambda run: self.store.write(run, heavy=heavy, lazy=lazy)
        )

    async def rebuild_index(self, refill: Callable[[Change], T]) -> T | None:
        """Replace a torn index by one ``refill`` fills, in one transaction, then its
        after-commit effects; None, with nothing done, when the index could be read by then
        (``Store.rebuild_index``)."""
        return await self._change(refill, self.store.rebuild_index)

    async def _change(
        self,
        transaction: Callable[[Change], T],
        runner: Callable[[Callable[[Tx], T]], Awaitable[R]],
    ) -> R:
        now = self.clock.now()
        holder: list[Effects] = []
        # On a member's actor, the change is that member's: the store keeps other replicas'
        # changes to the member out until it commits (the ingress actor only admits events).
        key = SERVING.get()
        serial = key if key is not None and key != INGRESS else None

        def run(tx: Tx) -> T:
            if serial is not None:
                tx.serialize(serial)
            change = Change(tx, now, self.transports, self._reactions, self.written)
            result = transaction(change)
            if change.effects.sessions:
                self._take_for_parked(tx, change.effects)
            holder.append(change.effects)
            return result

        try:
            result = await runner(run)
        except Unavailable:
            self._repair_index()
            raise
        if holder:  # (a rebuild that found the index readable ran nothing)
            self._after_commit(holder[-1])  # a store may run the transaction again
        return result

    def _take_for_parked(self, tx: Tx, effects: Effects) -> None:
        """Take the new events of each session a long poll waits for alone, read and
        remembered as delivered in this change's transaction: its commit makes them the
        poll's answer, with no transaction (and no commit to wait for) of the poll's own."""
        for session in effects.sessions:
            taker = self.feed.taker(session)
            if taker is not None:
                events = tx.take_events(session, taker.after)
                if events:
                    effects.taken[session] = (taker, events)

    def _after_commit(self, effects: Effects) -> None:
        for object_key, tick, card in effects.written:  # before any lane is woken
            self.written.keep(object_key, tick, card)
        if effects.taken:
            self.feed.hand(effects.taken)
        self.feed.notify(effects.sessions)
        held = self._held(effects.domain) if effects.domain and self._holds else frozenset()
        for transport, lanes in effects.lanes.items():
            woken = lanes - held if held else lanes
            if woken:
                for wake in self._wakers:
                    wake(transport, woken)
        for escalation_id, deadline in effects.deadlines:
            for arm in self._armers:
                arm(escalation_id, deadline)
        self.domain.publish(effects.domain)

    def _held(self, events: Sequence[DomainEvent]) -> frozenset[str]:
        held: frozenset[str] = frozenset()
        for hold in self._holds:
            held |= hold.hold(events)
        return held

    async def on_member(
        self, slug: str, job: Callable[[], Awaitable[T]], *, linger: bool = False
    ) -> T:
        """Run ``job`` on the member's actor, after everything that arrived before it."""
        return await self.actors.run(slug, job, linger=linger)

    async def member(self, slug: str) -> Member:
        member = await self.store.member(slug)
        if member is None:
            raise NotFound(f"no member named {slug!r}", code="unknown_member")
        return member

    async def gate(self, caller: Session, verb: Verb, *, action: str) -> None:
        """Let ``caller`` use ``verb``, or write ``<action>:<code>`` to SEL and refuse."""
        decision = authorize(caller, verb)
        if decision.allowed:
            return
        code = decision.code or "forbidden"

        def audit(ch: Change) -> None:
            ch.audit(
                f"{action}:{code}",
                "denied",
                actor=caller.id,
                member=caller.member,
                kind=caller.kind.value,
            )

        await self.change(audit)
        raise Forbidden(decision.reason or f"{verb.value} is not allowed", code=code)

    def _repair_index(self) -> None:
        if self._repairs and (self._repair is None or self._repair.done()):
            self._repair = asyncio.create_task(self._run_repairs(), name="index-repair")

    async def _run_repairs(self) -> None:
        for repair in self._repairs:
            await repair()

    async def index_repaired(self) -> None:
        """Wait for the index repair a change that found the index torn started (if any).

        A repair that fails is logged by its own caller's retry, not raised here: the work
        that waits for it tries once more and meets the same ``Unavailable`` if it failed.
        """
        repair = self._repair
        if repair is not None:
            await asyncio.gather(asyncio.shield(repair), return_exceptions=True)

    # the event streams ----------------------------------------------------------------------
    async def take_events(self, session: str, after: int, *, limit: int = 100) -> list[Event]:
        """The session's events after ``after``, remembered as delivered: every reader that
        delivers events (the long poll, the event stream, webhooks) reads through here, or
        is handed what a change took for it the same way (``_take_for_parked``)."""
        # Read and remembered as delivered in one transaction: a boundary's commit sees an
        # event either as undelivered (and may move it) or as read (and never appends it
        # again), never both; a concierge undo likewise withdraws it or tells the session.
        return await self.store.write(lambda tx: tx.take_events(session, after, limit=limit))

    # what transports ask (transports/base.py's TransportContext) ----------------------------
    async def owner_ids(self, transport: str, *, member: str | None = None) -> list[str]:
        """User ids on ``transport`` of ``member``'s owner (of every member's owner if None)."""
        if member is None:
            humans = {m.owner for m in await self.store.members()}
        else:
            found = await self.store.member(member)
            humans = {found.owner} if found is not None else set()
        return [
            identity.user_id
            for human in sorted(humans)
            for identity in await self.store.identities(human)
            if identity.platform == transport
        ]

    async def members_of(self, transport: str, user_id: str) -> frozenset[str]:
        """Slugs of the members owned by the human known as ``transport:user_id``."""
        human = await self.store.human_of(transport, user_id)
        if human is None:
            return frozenset()
        return frozenset(m.slug for m in await self.store.members() if m.owner == human)

    async def audit_refusal(
        self, transport: str, code: str, *, actor: str | None = None, **details: Any
    ) -> None:
        """A SEL record for a request a transport refused before it became a human event."""
        await self.change(
            lambda ch: ch.audit(
                f"request:{code}", "denied", actor=actor, transport=transport, **details
            )
        )

    async def thread_ref(self, transport: str, member: str) -> str | None:
        """The member's thread on ``transport``, as the outbox recorded it."""
        return await self.store.thread_ref(member, transport)

    async def settle_thread(
        self, transport: str, member: str, thread_ref: str, *, replacing: str | None = None
    ) -> str:
        """The member's thread on ``transport`` once ``thread_ref`` was opened: the first
        recorded (``Tx.settle_thread``)."""
        return await self.store.write(
            lambda tx: tx.settle_thread(member, transport, thread_ref, replacing=replacing)
        )

    # human events ---------------------------------------------------------------------------
    async def receive(self, event: HumanEvent) -> Receipt:
        """One human event from a transport; the receipt says what to tell the person.

        Admitted in arrival order by the ingress actor, then judged on its member's actor.
        """
        judged, kept_after = await self.actors.run(INGRESS, partial(self._admit, event))
        receipt = await judged
        if receipt == DUPLICATE:
            # A redelivery: what its first delivery was told (the mark is in the shared
            # store, so this holds across a restart and across replicas).
            repeat: Receipt = await self.change(lambda ch: receipts.repeat_of(ch, event))
            return repeat
        if kept_after and receipt.code != "not_owner":  # a stranger's marks nothing
            await self.change(lambda ch: receipts.keep(ch, event, receipt))
        return receipt

    async def _admit(self, event: HumanEvent) -> tuple[asyncio.Future[Receipt], bool]:
        """The event's judgement (queued on its member's actor, or done), and whether its
        receipt is kept after it is answered rather than in its effect's change."""
        try:
            match event:
                case HumanClick():
                    return await self._click(event)
                case HumanMessage():
                    return await self._message(event), False
                case HumanEdit():
                    return _done(await self._edit(event)), True
                case HumanCommand():
                    return _done(await self._command(event)), True
        except CallerError as error:
            return _done(Receipt(accepted=False, code=error.code, notice=error.message)), False
        raise TypeError(f"not a human event: {event!r}")

    # who is who (bot/ports.py's Inbound) ----------------------------------------------------
    async def is_owner(self, event: HumanEvent, member: Member) -> bool:
        if event.transport == API_TRANSPORT:
            return event.user_id == str(member.owner)
        return await self.store.human_of(event.transport, event.user_id) == member.owner

    async def thread_member(self, event: HumanEvent) -> Member | None:
        if event.thread is None:
            return None
        if event.transport == API_TRANSPORT:
            return await self.store.member(event.thread)
        slug = await self.store.member_for_thread(event.transport, event.thread)
        return None if slug is None else await self.store.member(slug)

    async def refuse(
        self, event: HumanEvent, refusal: Refusal, *, member: str | None = None
    ) -> Receipt:
        if await self.was_taken(event):
            # A redelivery of an event that was taken: judged afresh it would meet its own
            # effect (a settled card) and tell the human, or audit, what never happened.
            return DUPLICATE
        return await self._refused(event, refusal, member=member)

    async def _refused(self, event: HumanEvent, refusal: Refusal, *, member: str | None) -> Receipt:
        """The refusal's receipt and, for a security event, its SEL record."""
        if refusal.security:
            await self.change(
                lambda ch: ch.audit(
                    f"{type(event).__name__.removeprefix('Human').lower()}:{refusal.code}",
                    "denied",
                    actor=f"{event.transport}:{event.user_id}",
                    member=member,
                    event_id=event.event_id,
                )
            )
        return Receipt(accepted=False, code=refusal.code, notice=refusal.notice)

    async def was_taken(self, event: HumanEvent) -> bool:
        """Whether an earlier delivery of this event was accepted (its id is remembered)."""

        def probe(ch: Change) -> None:
            if ch.tx.mark_seen(event.transport, event.event_id, ch.now):
                raise _Unseen  # roll back: a refusal remembers nothing

        try:
            await self.change(probe)
        except _Unseen:
            return False
        return True

    async def _first(self, event: HumanEvent) -> bool:
        """Remember a command's event before it runs; False: an earlier delivery ran it.

        A command's effect (a reply, a policy, an undo) has no transaction of the member's
        to carry the mark, so the mark comes first: a crash between the two loses the
        command (the owner sends it again), never runs it twice.
        """
        first: bool = await self.change(
            lambda ch: ch.tx.mark_seen(event.transport, event.event_id, ch.now)
        )
        return first

    async def _judged(
        self, event: HumanEvent, member: Member, write: Callable[[Change], Receipt]
    ) -> Receipt:
        """One change on the member's actor: the event marked (a redelivery writes nothing
        and answers ``DUPLICATE``), ``write``'s effect, its receipt kept beside the mark."""

        def judged(ch: Change) -> Receipt:
            if not ch.tx.mark_seen(event.transport, event.event_id, ch.now):
                raise _Seen
            receipt = write(ch)
            ch.tx.keep_receipt(event.transport, event.event_id, receipts.kept(receipt))
            return receipt

        try:
            return await self.change(judged)
        except _Seen:
            return DUPLICATE
        except Refused as refused:
            # Refused after the mark: this delivery is the first (nothing to probe for).
            return await self._refused(event, refused.refusal, member=refused.member or member.slug)

    # presses --------------------------------------------------------------------------------
    async def _click(self, event: HumanClick) -> tuple[asyncio.Future[Receipt], bool]:
        # The payload names its handler: one lookup, by the kind of press it carries.
        press = parse_payload(event.payload)
        handler = self._presses.get(press.kind) if press is not None else None
        if press is None or handler is None:
            return _done(await self.refuse(event, MALFORMED)), False
        kept_after = handler.keeps_receipt_after
        try:
            pressed = await handler.check(event, press, await self.thread_member(event))
        except Refused as refused:
            receipt = await self.refuse(event, refused.refusal, member=refused.member)
            return _done(receipt), kept_after
        member = pressed.member
        if not await self.is_owner(event, member):
            try:  # refused first for what it is on, as a check that read everything would
                await handler.confirm(event, press, pressed)
            except Refused as refused:
                receipt = await self.refuse(event, refused.refusal, member=refused.member)
                return _done(receipt), kept_after
            refusal = Refusal(code="not_owner", notice=pressed.stranger, security=True)
            return _done(await self.refuse(event, refusal, member=member.slug)), kept_after
        if not pressed.in_change:
            return _done(await handler.handle(event, press, pressed)), kept_after
        return self.submit(member.slug, partial(self._press, handler, event, press, pressed)), False

    async def _press(
        self, handler: PressHandler, event: HumanClick, press: ButtonPress, pressed: Pressed
    ) -> Receipt:
        receipt = await self._judged(
            event, pressed.member, lambda ch: handler.write(ch, event, press, pressed)
        )
        return await handler.committed(receipt, press, pressed)

    # typed messages -------------------------------------------------------------------------
    async def _message(self, event: HumanMessage) -> asyncio.Future[Receipt]:
        member = await self.thread_member(event)
        if member is None:
            return _done(
                Receipt(
                    accepted=False,
                    code="unknown_thread",
                    notice="This conversation is not a member's thread.",
                )
            )
        if not await self.is_owner(event, member):
            refusal = Refusal(
                code="not_owner",
                notice="Only this member's owner can talk to it here.",
                security=True,
            )
            return _done(await self.refuse(event, refusal, member=member.slug))

        def take(ch: Change) -> Receipt:
            for handler in self._messages:
                receipt = handler.take(ch, event, member)
                if receipt is not None:
                    return receipt
            raise Refused(Refusal(code="unknown_thread", notice="Nothing here takes messages."))

        return self.submit(member.slug, partial(self._judged, event, member, take))

    # edits ----------------------------------------------------------------------------------
    async def _edit(self, event: HumanEdit) -> Receipt:
        """An edit never re-runs a command: what it does is its handler's (an edit-resend
        boundary when the owner changed the text of their message)."""
        member = await self.thread_member(event)
        if member is None:
            return Receipt(accepted=False, code="unknown_thread")
        if self._edits is None:
            return Receipt(
                accepted=False, code="edit_not_handled", notice="Edits change nothing here."
            )
        if not await self.is_owner(event, member):
            refusal = Refusal(
                code="not_owner",
                notice=f"Only {member.name}'s owner can edit its conversation.",
                security=True,
            )
            return await self.refuse(event, refusal, member=member.slug)
        return await self._edits.handle(event, member)

    # commands -------------------------------------------------------------------------------
    async def _command(self, event: HumanCommand) -> Receipt:
        handler = self._commands.get(event.name)
        owner = await self.store.human_of(event.transport, event.user_id) is not None
        marked_by_handler = handler is not None and handler.marks_own_event
        if owner and not marked_by_handler and not await self._first(event):
            return DUPLICATE
        if handler is not None and not handler.owner_only:
            return await handler.handle(event)
        if not owner:
            return Receipt(
                accepted=False,
                code="not_owner",
                notice="crewline answers commands from its owner only.",
            )
        if handler is not None:
            return await handler.handle(event)
        if event.name == "help":
            return Receipt(accepted=True, notice="\n".join([HELP_HEAD, *self._help]))
        if event.name == "roster":
            entries = await roster(self.store, now=self.clock.now())
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


def _done(receipt: Receipt) -> asyncio.Future[Receipt]:
    future: asyncio.Future[Receipt] = asyncio.get_running_loop().create_future()
    future.set_result(receipt)
    return future


def _status_line(entry: RosterEntry) -> str | None:
    answer = entry.concierge_answer
    return None if answer is None else entry.concierge_status(in_words(answer.at))
