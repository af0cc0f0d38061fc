"""The Hub: the one entry point of the core, for agents' operations and human events.

Every change to a member's conversation runs on that member's actor (one at a time, in
arrival order) and is written by :meth:`Hub.change` in one transaction together with its
outbox entries and session events; after the commit the Hub wakes whoever must act.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol, TypeVar

from crewline.bot import escalations, last_turn, questions
from crewline.bot.actors import MemberActors, current_key
from crewline.bot.boundaries import DEFAULT_WAIT, Boundaries
from crewline.bot.changes import Change, Effects
from crewline.bot.concierge import Concierge, ConciergeSettings
from crewline.bot.concierge_verbs import ConciergeVerbs
from crewline.bot.domain import DomainEvents, ReplyReached, Subscriber
from crewline.bot.escalations import Delivery, EscalationRequest, Routing
from crewline.bot.feed import EventFeed, until_final
from crewline.bot.idempotency import KeyedWrite, guarded
from crewline.bot.inbound import INGRESS, HumanEvents
from crewline.bot.reconcile import ReconcileReport, reconcile_member
from crewline.errors import Forbidden, InvalidInput, NotFound, Unauthenticated, Unavailable
from crewline.models import (
    AnsweredBy,
    CallerKind,
    Clock,
    Escalation,
    Event,
    HumanEvent,
    Member,
    Question,
    Receipt,
    Row,
    RowRole,
    Session,
    SystemClock,
)
from crewline.policy import Verb, authorize
from crewline.store import Store, Tx

__all__ = ["EscalationReceipt", "Hub"]

log = logging.getLogger(__name__)
T = TypeVar("T")
MAX_TEXT = 4000
WINDOW_BATCH = 500  # windows closed per transaction
RECONCILE_AT_ONCE = 64  # members reconciled concurrently at start
# How long an escalation's reply waits for the platforms to accept its card before saying
# "queued" instead of "delivered": short, so a slow platform never holds up an agent.
DELIVERY_WAIT = 0.25


class PostedCheck(Protocol):
    """Whether the platform accepted the post of ``object_key`` (queued in ``lane``),
    waiting at most ``timeout`` seconds; ``waiting()`` is called once the check has decided
    to wait, before it does (never when it answers at once). The outbox, or the store with
    replicas, knows; crewline wires it."""

    def __call__(
        self,
        transport: str,
        lane: str,
        object_key: str,
        timeout: float,
        *,
        waiting: Callable[[], None],
    ) -> Awaitable[bool]: ...


@dataclass(frozen=True, kw_only=True, slots=True)
class EscalationReceipt:
    escalation: Escalation
    routing: Routing
    transports: tuple[str, ...]
    delivery: dict[str, Delivery]  # per bound transport, as of the reply
    note: str


class Hub:
    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        transports: Sequence[str] = (),
        boundary_wait: float = DEFAULT_WAIT,
        refuse_mid_turn: bool = False,
        delivery_wait: float = DELIVERY_WAIT,
        concierge: ConciergeSettings | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.transports = tuple(transports)
        self.delivery_wait = delivery_wait
        self._posted: PostedCheck | None = None
        self.actors = MemberActors()
        self.feed = EventFeed()
        self.human = HumanEvents(self)
        self.domain = DomainEvents()
        self.concierge = Concierge(self, concierge)
        self.hub_verbs = ConciergeVerbs(self)
        self.boundaries = Boundaries(self, wait=boundary_wait, refuse_mid_turn=refuse_mid_turn)
        self._wakers: list[Callable[[str, set[str]], None]] = []
        self._armers: list[Callable[[str, datetime], None]] = []
        self._index_repair: asyncio.Task[list[ReconcileReport]] | None = None
        self._closing: dict[str, list[str]] = {}
        self._closing_flush: dict[str, asyncio.Future[int]] = {}

    async def __aenter__(self) -> Hub:
        await self.reconcile_all()
        await self.concierge.resume_status()
        await self.concierge.resume_judging()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.concierge.aclose()
        await self.boundaries.aclose()
        await self.actors.aclose()
        await self.domain.aclose()

    # plumbing -------------------------------------------------------------------------------
    def on_outbox(self, wake: Callable[[str, set[str]], None]) -> None:
        """``wake(transport, lanes)`` is called after a commit that queued platform calls."""
        self._wakers.append(wake)

    def wake_lanes(self, lanes: set[str]) -> None:
        """Wake ``lanes`` of every transport's outbox (entries a commit left unwoken)."""
        for transport in self.transports:
            for wake in self._wakers:
                wake(transport, lanes)

    def on_posted(self, posted: PostedCheck) -> None:
        """How an escalation's reply learns whether a platform accepted its card."""
        self._posted = posted

    def on_deadline(self, arm: Callable[[str, datetime], None]) -> None:
        """``arm(escalation_id, deadline)`` is called after a commit that opened a window."""
        self._armers.append(arm)

    def subscribe(self, subscriber: Subscriber) -> None:
        """``await subscriber(event)`` after each commit that published a domain event; it
        runs on the domain-event task, never in the transaction nor on a member's actor."""
        self.domain.subscribe(subscriber)

    async def change(self, transaction: Callable[[Change], T], *, heavy: bool = False) -> T:
        """Run ``transaction`` in one store transaction, then its after-commit effects.

        ``heavy``: a reconciliation, which reads a member's whole record history.
        """
        now = self.clock.now()
        holder: list[Effects] = []
        # On a member's actor, the change is that member's: the store keeps other replicas'
        # changes to the member out until it commits (the ingress actor only admits events).
        key = current_key()
        serial = key if key is not None and key != INGRESS else None

        def run(tx: Tx) -> T:
            if serial is not None:
                tx.serialize(serial)
            change = Change(tx, now, self.transports)
            result = transaction(change)
            holder.append(change.effects)
            return result

        try:
            result = await self.store.write(run, heavy=heavy)
        except Unavailable:
            self._repair_index()
            raise
        self._after_commit(holder[-1])  # a store may run the transaction again
        return result

    def _after_commit(self, effects: Effects) -> None:
        self.feed.notify(effects.sessions)
        # A new card the concierge judges at once is drawn once, with its suggestion: its
        # lane is woken when the judgement is written (Concierge.hold).
        held = self.concierge.hold(effects.domain) if effects.domain else frozenset()
        for transport, lanes in effects.lanes.items():
            woken = lanes - held if held else lanes
            if woken:
                for wake in self._wakers:
                    wake(transport, woken)
        for escalation_id, deadline in effects.deadlines:
            for arm in self._armers:
                arm(escalation_id, deadline)
        self.domain.publish(effects.domain)

    async def on_member(self, slug: str, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job`` on the member's actor, after everything that arrived before it."""
        return await self.actors.run(slug, job)

    async def member(self, slug: str) -> Member:
        member = await self.store.member(slug)
        if member is None:
            raise NotFound(f"no member named {slug!r}", code="unknown_member")
        return member

    # agents' operations ---------------------------------------------------------------------
    async def escalate(
        self, caller: Session, request: EscalationRequest, *, once: KeyedWrite | None = None
    ) -> EscalationReceipt:
        """``once``: the call's Idempotency-Key (a retry raises :class:`Replayed`)."""
        await self._gate(caller, Verb.SESSION_ESCALATE, action="escalate")
        valid = escalations.validate(request, self.clock.now())
        routing = escalations.route(caller)
        member = await self.member(routing.member) if routing.member else None

        def record(ch: Change) -> EscalationReceipt:
            escalation, _ = escalations.record_escalation(
                ch, caller=caller, member=member, routing=routing, valid=valid
            )
            # As of the commit (what an Idempotency-Key keeps): nothing is posted yet.
            delivery = self._undelivered(member)
            return EscalationReceipt(
                escalation=escalation,
                routing=routing,
                transports=member.transports if member else (),
                delivery=delivery,
                note=escalations.agent_note(escalation, routing, delivery),
            )

        receipt = await self.on_member(
            routing.conversation, lambda: self.change(guarded(once, record))
        )
        if member is None:
            return receipt
        if not request.wait_for_delivery:
            # The caller's choice: the reply at once, each configured card ``queued``.
            note = escalations.agent_note(
                receipt.escalation, routing, receipt.delivery, waited=False
            )
            return replace(receipt, note=note)
        # Waited for off the member's actor: its next change need not wait for a platform.
        delivery = await self._delivery(member, receipt.escalation)
        return replace(
            receipt,
            delivery=delivery,
            note=escalations.agent_note(receipt.escalation, routing, delivery),
        )

    def _undelivered(self, member: Member | None) -> dict[str, Delivery]:
        if member is None:
            return {}
        return {
            t: Delivery.QUEUED if t in self.transports else Delivery.NOT_CONFIGURED
            for t in member.transports
        }

    async def _delivery(self, member: Member, escalation: Escalation) -> dict[str, Delivery]:
        """Each bound transport's card as of now: accepted by the platform (waiting at most
        ``delivery_wait``), still in the outbox, or on a transport that is not running."""
        key = f"row:{escalation.row_id}"
        posted = self._posted

        def waiting() -> None:
            # Nor does the reply wait for the concierge: a card it holds for its suggestion
            # is posted at once when the reply waits for it (and only then: a reply told
            # ``queued`` at once leaves the card to be drawn once, with its suggestion).
            if self.delivery_wait > 0:
                self.concierge.unhold(escalation.id)

        async def one(transport: str) -> Delivery:
            if transport not in self.transports:
                return Delivery.NOT_CONFIGURED
            if posted is not None and await posted(
                transport, member.slug, key, self.delivery_wait, waiting=waiting
            ):
                return Delivery.DELIVERED
            return Delivery.QUEUED

        if len(member.transports) == 1:  # the usual case: no task to wait for one wait
            only = member.transports[0]
            return {only: await one(only)}
        found = await asyncio.gather(*[one(t) for t in member.transports])
        return dict(zip(member.transports, found, strict=True))

    async def send(
        self, caller: Session, target: str, message: str, *, once: KeyedWrite | None = None
    ) -> Row:
        """session_send: a row in the target member's thread and an event for its session."""
        await self._gate(caller, Verb.SESSION_SEND, action="send")
        _check_text(message, "message")
        member = await self.member(target)

        def write(ch: Change) -> Row:
            row = ch.tx.append_row(
                conversation=member.slug,
                role=RowRole.AGENT,
                author=caller.member or caller.id,
                text=message,
                now=ch.now,
                meta={"from_session": caller.id},
            )
            ch.show(member, "post", f"row:{row.id}")
            ch.tell_member(
                member.slug,
                "message",
                {"row_id": row.id, "text": message, "from_session": caller.id},
            )
            ch.publish(ReplyReached(member=member.slug, row_id=row.id))
            return row

        return await self.on_member(member.slug, lambda: self.change(guarded(once, write)))

    async def post(self, caller: Session, text: str, *, once: KeyedWrite | None = None) -> Row:
        """A session writes into its own member's thread (or its own transcript)."""
        await self._gate(caller, Verb.SESSION_POST, action="post")
        _check_text(text, "text")
        member = await self.member(caller.member) if caller.member else None
        conversation = member.slug if member else f"~{caller.id}"

        def write(ch: Change) -> Row:
            if member is not None:
                last_turn.redraw(ch, member)  # the previous last turn loses its button
            row = ch.tx.append_row(
                conversation=conversation,
                role=RowRole.MEMBER,
                author=member.name if member else caller.id,
                text=text,
                now=ch.now,
                meta={"session": caller.id},
            )
            if member is not None:
                ch.show(member, "post", f"row:{row.id}")
            return row

        return await self.on_member(conversation, lambda: self.change(guarded(once, write)))

    async def ask(
        self,
        caller: Session,
        question: str,
        options: Sequence[str] | None,
        *,
        dialog: bool = False,
        once: KeyedWrite | None = None,
    ) -> Question:
        await self._gate(caller, Verb.ASK_QUESTION, action="ask")
        chosen = questions.validate_question(question, options)
        member = await self.member(caller.member) if caller.member else None
        key = member.slug if member else f"~{caller.id}"

        def write(ch: Change) -> Question:
            return questions.ask(
                ch, caller=caller, member=member, question=question, options=chosen, dialog=dialog
            )

        return await self.on_member(key, lambda: self.change(guarded(once, write)))

    async def confirm_default(self, caller: Session, escalation_id: str) -> Escalation:
        await self._gate(caller, Verb.CONFIRM_DEFAULT, action="confirm_default")
        record = await self.store.escalation(escalation_id)
        if record is None or not _may_touch(caller, record):
            raise NotFound(f"no escalation {escalation_id!r} of yours", code="unknown_escalation")
        member = await self.member(record.member)

        def write(ch: Change) -> Escalation:
            current = ch.tx.escalation(escalation_id)
            assert current is not None
            return escalations.confirm_default(ch, member, current, caller)

        return await self.on_member(member.slug, lambda: self.change(write))

    async def escalation(self, caller: Session, escalation_id: str) -> Escalation:
        """A record the caller may touch; any other id is unknown to it (ids do not leak)."""
        record = await self.store.escalation(escalation_id)
        if record is None or not _may_touch(caller, record):
            raise NotFound(f"no escalation {escalation_id!r} of yours", code="unknown_escalation")
        return record

    async def retract(self, caller: Session, escalation_id: str) -> Escalation:
        """The session withdraws its open request: the card settles as withdrawn everywhere."""
        await self._gate(caller, Verb.RETRACT_ESCALATION, action="retract")
        record = await self.escalation(caller, escalation_id)
        member = await self.member(record.member)

        def write(ch: Change) -> Escalation:
            current = ch.tx.escalation(escalation_id)
            assert current is not None
            return escalations.withdraw(ch, member, current, caller)

        return await self.on_member(member.slug, lambda: self.change(write))

    async def answer_question(self, member: Member, question_id: str, answer: str) -> Question:
        """The owner answers a question card through the API."""
        _check_text(answer, "answer")

        def write(ch: Change) -> Question:
            record = ch.tx.question(question_id)
            if record is None:
                raise NotFound(f"no question {question_id!r}", code="unknown_question")
            return questions.answer_question(ch, member, record, answer=answer, by=AnsweredBy.USER)

        return await self.on_member(member.slug, lambda: self.change(write))

    async def events(self, caller: Session, *, after: int, wait: float) -> list[Event]:
        """The session's events after ``after``; waits up to ``wait`` s when there are none,
        and answers before then only with events (or the refusals below).

        Nothing after an event that ends the session's key (``key_revoked``, ``stop``) is
        returned. A wait ends at once when crewline stops (Unavailable ``shutting_down``)
        or the key stops working with nothing left to read (Unauthenticated
        ``key_revoked``)."""
        feed = self.feed
        with feed.reading(caller.id):
            _not_closing(feed)
            signal = feed.register(caller.id)
            found = await self.store.events_after(caller.id, after)
            if found:
                return until_final(await self.take_events(caller.id, after))
            if wait <= 0:
                return found
            deadline = asyncio.get_running_loop().time() + wait
            while True:
                try:
                    async with asyncio.timeout_at(deadline):
                        await signal.wait()
                except TimeoutError:
                    return []
                _not_closing(feed)
                # Registered before reading: an event committed after the read wakes it.
                signal = feed.register(caller.id)
                found = until_final(await self.take_events(caller.id, after))
                if found:
                    return found
                if feed.ended(caller.id):
                    raise _revoked()
                # Woken with nothing new (a look after another process's write): wait on.

    async def take_events(self, session: str, after: int, *, limit: int = 100) -> list[Event]:
        """The session's events after ``after``, remembered as delivered: every reader that
        delivers events (the long poll, the event stream, webhooks) reads through here."""
        # Read and remembered as delivered in one transaction: a boundary's commit sees an
        # event either as undelivered (and may move it) or as read (and never appends it
        # again), never both; a concierge undo likewise withdraws it or tells the session.
        return await self.store.write(lambda tx: tx.take_events(session, after, limit=limit))

    async def close_window(self, escalation_id: str) -> None:
        """Close a due veto window (the scheduler's timer fires this; idempotent)."""
        record = await self.store.escalation(escalation_id)
        if record is not None and record.is_pending:
            await self._close_windows(record.member, [escalation_id])

    async def close_due_windows(self) -> int:
        """Close every window already past (at start, and as a sweep); returns how many."""
        due: dict[str, list[str]] = {}
        for escalation_id, member, _ in await self.store.due_windows(self.clock.now()):
            due.setdefault(member, []).append(escalation_id)
        closed = await asyncio.gather(*[self._close_windows(m, ids) for m, ids in due.items()])
        return sum(closed)

    def _close_windows(self, slug: str, escalation_ids: Sequence[str]) -> asyncio.Future[int]:
        """Queue windows to close on the member's actor; windows that fall due together
        (a burst of timers, a sweep after downtime) close in a few batched transactions."""
        waiting = self._closing.setdefault(slug, [])
        waiting.extend(escalation_ids)
        if slug not in self._closing_flush:
            self._closing_flush[slug] = self.actors.submit(slug, lambda: self._flush(slug))
        return self._closing_flush[slug]

    async def _flush(self, slug: str) -> int:
        # Taking the queue and the flush marker together: windows queued from now on start
        # the next flush, never wait on this one after it has read its list.
        del self._closing_flush[slug]
        escalation_ids = self._closing.pop(slug, [])
        member = await self.member(slug)

        def close(chunk: Sequence[str]) -> Callable[[Change], int]:
            return lambda ch: sum(
                escalations.close_window(ch, member, i) is not None for i in chunk
            )

        chunks = [
            escalation_ids[i : i + WINDOW_BATCH]
            for i in range(0, len(escalation_ids), WINDOW_BATCH)
        ]
        # Independent transactions, committed together by the store's group commit.
        return sum(await asyncio.gather(*[self.change(close(c)) for c in chunks]))

    # human events ---------------------------------------------------------------------------
    async def receive(self, event: HumanEvent) -> Receipt:
        """One human event from a transport; the receipt says what to tell the person."""
        return await self.human.receive(event)

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

    # the transcript and the index -----------------------------------------------------------
    async def truncate(self, slug: str, *, keep_through: str) -> ReconcileReport:
        """Rewind primitive: rows after ``keep_through`` leave the transcript (a new
        generation), and the index follows the transcript."""
        member = await self.member(slug)

        async def rewind() -> ReconcileReport:
            def write(ch: Change) -> ReconcileReport:
                ch.tx.truncate_conversation(slug, keep_through=keep_through)
                return reconcile_member(ch, member)

            return await self.change(write, heavy=True)

        return await self.on_member(slug, rewind)

    async def reconcile(self, slug: str) -> ReconcileReport:
        member = await self.member(slug)
        return await self.on_member(
            slug, lambda: self.change(lambda ch: reconcile_member(ch, member), heavy=True)
        )

    async def reconcile_all(self) -> list[ReconcileReport]:
        """Re-derive every member's index; rebuild it first if it cannot be read."""
        try:
            await self.store.check_index()
        except Unavailable:
            log.error("the escalation index cannot be read; rebuilding it from the transcript")
            await self.store.rebuild_index_table()
        # Members reconcile on their own actors, RECONCILE_AT_ONCE at a time: enough for the
        # store to commit them in full batches, few enough that a crew of thousands does not
        # hold every transcript (and a task per member) in memory at once.
        slugs = [m.slug for m in await self.store.members()]
        done: dict[str, ReconcileReport] = {}
        queue = iter(slugs)

        async def worker() -> None:
            for slug in queue:  # shared: each member is taken by one worker
                done[slug] = await self.reconcile(slug)

        await asyncio.gather(*[worker() for _ in range(min(RECONCILE_AT_ONCE, len(slugs)))])
        reports = [done[slug] for slug in slugs]
        for report in reports:
            if report.changed:
                log.info("reconciled %s: %s", report.member, report)
        return reports

    def _repair_index(self) -> None:
        if self._index_repair is None or self._index_repair.done():
            self._index_repair = asyncio.create_task(self.reconcile_all(), name="index-repair")

    async def index_repaired(self) -> None:
        """Wait for the index repair a change that found the index torn started (if any).

        A repair that fails is logged by its own caller's retry, not raised here: the work
        that waits for it tries once more and meets the same ``Unavailable`` if it failed.
        """
        repair = self._index_repair
        if repair is not None:
            await asyncio.gather(asyncio.shield(repair), return_exceptions=True)

    # gates ----------------------------------------------------------------------------------
    async def _gate(self, caller: Session, verb: Verb, *, action: str) -> None:
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


def _check_text(text: str, field: str) -> None:
    if not text.strip() or len(text) > MAX_TEXT:
        raise InvalidInput(
            f"{field} must be 1..{MAX_TEXT} characters", code=f"invalid_{field}", field=field
        )


def _may_touch(caller: Session, record: Escalation) -> bool:
    if record.session == caller.id:
        return True
    return caller.kind is CallerKind.MEMBER and caller.member == record.member


def _revoked() -> Unauthenticated:
    return Unauthenticated(
        "this key was revoked or replaced while you waited: ask your operator for the new one",
        code="key_revoked",
    )


def _not_closing(feed: EventFeed) -> None:
    """Refuse a read once crewline is stopping: its answer would be cut off."""
    if feed.closed:
        raise Unavailable(
            "crewline is shutting down: retry in a moment, from the same cursor",
            code="shutting_down",
        )
