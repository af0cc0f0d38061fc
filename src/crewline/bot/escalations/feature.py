"""The escalations feature (SPEC §1, §2): ``session_escalate`` and the verbs on a record, the
veto windows, and the per-member index kept from the transcript.

Built with the Hub's ports (``bot/ports.py``), it registers what it handles: presses on a
card's options (``e``), text the owner types in a member's thread (a reply, matched by the
one rule), and the repair of a torn index. Entering it reconciles every member's index with
its transcript.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from crewline.bot.changes import Change
from crewline.bot.escalations import records
from crewline.bot.escalations.reconcile import ReconcileReport, reconcile_member
from crewline.bot.escalations.replies import EscalationPresses, TypedReplies
from crewline.bot.escalations.requests import (
    Delivery,
    EscalationRequest,
    Routing,
    agent_note,
    record_escalation,
    route,
    validate,
)
from crewline.bot.idempotency import KeyedWrite, guarded
from crewline.bot.ports import Host
from crewline.errors import NotFound, Unavailable
from crewline.models import CallerKind, Escalation, Member, Session
from crewline.policy import Verb

__all__ = ["DELIVERY_WAIT", "EscalationReceipt", "Escalations", "PostedCheck"]

log = logging.getLogger(__name__)
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


class Escalations:
    """``async with Escalations(hub)``: the feature, registered with the Hub; entering it
    re-derives every member's index from its transcript."""

    def __init__(self, host: Host, *, delivery_wait: float = DELIVERY_WAIT) -> None:
        self.core = host
        self.delivery_wait = delivery_wait
        self._posted: PostedCheck | None = None
        self._closing: dict[str, list[str]] = {}
        self._closing_flush: dict[str, asyncio.Future[int]] = {}
        host.press(EscalationPresses(host.store))
        host.message(TypedReplies())
        host.on_index_torn(self.reconcile_all)

    async def __aenter__(self) -> Escalations:
        await self.reconcile_all()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        return None

    def on_posted(self, posted: PostedCheck) -> None:
        """How an escalation's reply learns whether a platform accepted its card."""
        self._posted = posted

    # the verbs ------------------------------------------------------------------------------
    async def escalate(
        self,
        caller: Session,
        request: EscalationRequest,
        *,
        once: KeyedWrite | None = None,
        member: Member | None = None,
    ) -> EscalationReceipt:
        """``once``: the call's Idempotency-Key (a retry raises :class:`Replayed`);
        ``member``: the caller's member as read with its key, this call (else it is read)."""
        core = self.core
        await core.gate(caller, Verb.SESSION_ESCALATE, action="escalate")
        valid = validate(request, core.clock.now())
        routing = route(caller)
        if routing.member is None:
            member = None
        elif member is None or member.slug != routing.member:
            member = await core.member(routing.member)

        def record(ch: Change) -> EscalationReceipt:
            escalation, _ = record_escalation(
                ch, caller=caller, member=member, routing=routing, valid=valid
            )
            # As of the commit (what an Idempotency-Key keeps): nothing is posted yet.
            delivery = self._undelivered(member)
            return EscalationReceipt(
                escalation=escalation,
                routing=routing,
                transports=member.transports if member else (),
                delivery=delivery,
                note=agent_note(escalation, routing, delivery),
            )

        receipt = await core.on_member(
            routing.conversation, lambda: core.change(guarded(once, record)), linger=True
        )
        if member is None:
            return receipt
        if not request.wait_for_delivery:
            # The caller's choice: the reply at once, each configured card ``queued``.
            note = agent_note(receipt.escalation, routing, receipt.delivery, waited=False)
            return replace(receipt, note=note)
        # Waited for off the member's actor: its next change need not wait for a platform.
        delivery = await self._delivery(member, receipt.escalation)
        return replace(
            receipt, delivery=delivery, note=agent_note(receipt.escalation, routing, delivery)
        )

    def _undelivered(self, member: Member | None) -> dict[str, Delivery]:
        if member is None:
            return {}
        running = self.core.transports
        return {
            t: Delivery.QUEUED if t in running else Delivery.NOT_CONFIGURED
            for t in member.transports
        }

    async def _delivery(self, member: Member, escalation: Escalation) -> dict[str, Delivery]:
        """Each bound transport's card as of now: accepted by the platform (waiting at most
        ``delivery_wait``), still in the outbox, or on a transport that is not running."""
        key = f"row:{escalation.row_id}"
        posted = self._posted

        def waiting() -> None:
            # Nor does the reply wait for whatever holds a new card back (the concierge,
            # for its suggestion): the card is posted at once when the reply waits for it
            # (and only then: a reply told ``queued`` at once leaves it held).
            if self.delivery_wait > 0:
                self.core.unhold(escalation.id)

        async def one(transport: str) -> Delivery:
            if transport not in self.core.transports:
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

    async def confirm_default(self, caller: Session, escalation_id: str) -> Escalation:
        """The session says its default ran: the card then says so."""
        return await self._act_on_own(
            caller,
            escalation_id,
            Verb.CONFIRM_DEFAULT,
            action="confirm_default",
            transition=records.confirm_default,
        )

    async def escalation(self, caller: Session, escalation_id: str) -> Escalation:
        """A record the caller may touch; any other id is unknown to it (ids do not leak)."""
        record = await self.core.store.escalation(escalation_id)
        if record is None or not _may_touch(caller, record):
            raise NotFound(f"no escalation {escalation_id!r} of yours", code="unknown_escalation")
        return record

    async def retract(self, caller: Session, escalation_id: str) -> Escalation:
        """The session withdraws its open request: the card settles as withdrawn everywhere."""
        return await self._act_on_own(
            caller,
            escalation_id,
            Verb.RETRACT_ESCALATION,
            action="retract",
            transition=records.withdraw,
        )

    async def _act_on_own(
        self,
        caller: Session,
        escalation_id: str,
        verb: Verb,
        *,
        action: str,
        transition: Callable[[Change, Member, Escalation, Session], Escalation],
    ) -> Escalation:
        """A session's verb on one of its own records: gated by ``verb``, then
        ``transition`` runs in one change on the member's actor, on the record as that
        change reads it."""
        core = self.core
        await core.gate(caller, verb, action=action)
        record = await self.escalation(caller, escalation_id)
        member = await core.member(record.member)

        def write(ch: Change) -> Escalation:
            current = ch.tx.escalation(escalation_id)
            assert current is not None
            return transition(ch, member, current, caller)

        return await core.on_member(member.slug, lambda: core.change(write))

    # veto windows ---------------------------------------------------------------------------
    async def close_window(self, escalation_id: str) -> None:
        """Close a due veto window (the scheduler's timer fires this; idempotent)."""
        record = await self.core.store.escalation(escalation_id)
        if record is not None and record.is_pending:
            await self._close_windows(record.member, [escalation_id])

    async def close_due_windows(self) -> int:
        """Close every window already past (at start, and as a sweep); returns how many."""
        due: dict[str, list[str]] = {}
        for escalation_id, member, _ in await self.core.store.due_windows(self.core.clock.now()):
            due.setdefault(member, []).append(escalation_id)
        closed = await asyncio.gather(*[self._close_windows(m, ids) for m, ids in due.items()])
        return sum(closed)

    def _close_windows(self, slug: str, escalation_ids: Sequence[str]) -> asyncio.Future[int]:
        """Queue windows to close on the member's actor; windows that fall due together
        (a burst of timers, a sweep after downtime) close in a few batched transactions."""
        waiting = self._closing.setdefault(slug, [])
        waiting.extend(escalation_ids)
        if slug not in self._closing_flush:
            self._closing_flush[slug] = self.core.submit(slug, lambda: self._flush(slug))
        return self._closing_flush[slug]

    async def _flush(self, slug: str) -> int:
        # Taking the queue and the flush marker together: windows queued from now on start
        # the next flush, never wait on this one after it has read its list.
        del self._closing_flush[slug]
        escalation_ids = self._closing.pop(slug, [])
        member = await self.core.member(slug)

        def close(chunk: Sequence[str]) -> Callable[[Change], int]:
            return lambda ch: sum(records.close_window(ch, member, i) is not None for i in chunk)

        chunks = [
            escalation_ids[i : i + WINDOW_BATCH]
            for i in range(0, len(escalation_ids), WINDOW_BATCH)
        ]
        # Independent transactions, committed together by the store's group commit.
        return sum(await asyncio.gather(*[self.core.change(close(c)) for c in chunks]))

    # the transcript and the index -----------------------------------------------------------
    async def truncate(self, slug: str, *, keep_through: str) -> ReconcileReport:
        """Rewind primitive: rows after ``keep_through`` leave the transcript (a new
        generation), and the index follows the transcript."""
        core = self.core
        member = await core.member(slug)

        async def rewind() -> ReconcileReport:
            def write(ch: Change) -> ReconcileReport:
                ch.tx.truncate_conversation(slug, keep_through=keep_through)
                return reconcile_member(ch, member)

            return await core.change(write, heavy=True)

        return await core.on_member(slug, rewind)

    async def reconcile(self, slug: str) -> ReconcileReport:
        core = self.core
        member = await core.member(slug)
        return await core.on_member(
            slug, lambda: core.change(lambda ch: reconcile_member(ch, member), heavy=True)
        )

    async def reconcile_all(self) -> list[ReconcileReport]:
        """Re-derive every member's index; rebuild it first if it cannot be read."""
        store = self.core.store
        members = await store.members()
        try:
            await store.check_index()
        except Unavailable:
            log.error("the escalation index cannot be read; rebuilding it from the transcript")
            # Every member's records in the rebuild's one transaction: refilled member by
            # member after it, the index would read as empty (a card pressed then: unknown)
            # until each member's turn.
            rebuilt = await self.core.rebuild_index(
                lambda ch: [reconcile_member(ch, member) for member in members]
            )
            if rebuilt is not None:
                return self._logged(rebuilt)
            # Another process rebuilt it meanwhile, whole: reconciled against as ever.
        # Members reconcile on their own actors, RECONCILE_AT_ONCE at a time: enough for the
        # store to commit them in full batches, few enough that a crew of thousands does not
        # hold every transcript (and a task per member) in memory at once.
        slugs = [m.slug for m in members]
        done: dict[str, ReconcileReport] = {}
        queue = iter(slugs)

        async def worker() -> None:
            for slug in queue:  # shared: each member is taken by one worker
                done[slug] = await self.reconcile(slug)

        await asyncio.gather(*[worker() for _ in range(min(RECONCILE_AT_ONCE, len(slugs)))])
        return self._logged([done[slug] for slug in slugs])

    @staticmethod
    def _logged(reports: list[ReconcileReport]) -> list[ReconcileReport]:
        for report in reports:
            if report.changed:
                log.info("reconciled %s: %s", report.member, report)
        return reports


def _may_touch(caller: Session, record: Escalation) -> bool:
    if record.session == caller.id:
        return True
    return caller.kind is CallerKind.MEMBER and caller.member == record.member
