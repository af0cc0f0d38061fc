"""The core's ports and its extension points, declared in one place.

The core (the Hub) hands each feature narrow ports and keeps no reference to any feature:

- :class:`Changes` runs a change (one transaction, then its effects), :class:`Actors` runs
  work on a member's actor, :class:`Bus` is the domain-event bus, :class:`Lanes` wakes
  outbox lanes, :class:`Events` reads the sessions' event streams; :class:`Core` is those
  together with the clock and the store's reads;
- :class:`Inbound` is what a handler may ask of the core about a human event (who owns
  what, a refusal said and audited, whether an event was taken).

A feature registers what it handles through :class:`Registry`, and the Hub looks handlers
up; it never names a feature:

- a :class:`PressHandler` per payload kind its buttons carry (the payload names its
  handler: one lookup), which *checks* what a press is on apart from *handling* it;
- a :class:`CommandHandler` per chat command name;
- message handlers (:class:`MessageHandler`) for typed text in a member's thread and an
  :class:`EditHandler` for an edited message;
- domain-event subscribers (after the commit), reactions (:data:`Reaction`: inside the
  change that publishes the event) and a :class:`DeliveryHold` (a lane whose commit should
  not wake it);
- a repair for a torn index (:data:`Repair`).

:class:`Host` is all of it, as a feature is built with it. The values a handler's contract
uses (:class:`Pressed`, :class:`Refusal`, :class:`Refused`, :data:`DUPLICATE`) are here
too.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from crewline.bot.cards import ButtonPress
from crewline.bot.changes import Change
from crewline.bot.domain import DomainEvent, Subscriber
from crewline.bot.feed import EventFeed
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
    Session,
)
from crewline.policy import Verb
from crewline.store import Store

__all__ = [
    "DUPLICATE",
    "Actors",
    "Bus",
    "Changes",
    "CommandHandler",
    "Core",
    "DeliveryHold",
    "EditHandler",
    "Events",
    "Host",
    "Inbound",
    "Lanes",
    "MessageHandler",
    "PressHandler",
    "Pressed",
    "Reaction",
    "Refusal",
    "Refused",
    "Registry",
    "Repair",
]

T = TypeVar("T")

# A later delivery of an event that was taken (SPEC §2 rule 3) gets its first delivery's
# receipt (bot/receipts.py); this, when none was kept: the first is still being answered,
# or was cut short by a crash. It says only that the event was taken before.
DUPLICATE = Receipt(accepted=False, code="duplicate_event", repeat=True)

# In the change that publishes ``event``: what a feature must write in that same
# transaction (the concierge drops the suggestions a settled record or a reply made stale).
Reaction = Callable[[Change, DomainEvent], None]
# Rebuild what a change found torn (the index, from the transcript).
Repair = Callable[[], Awaitable[object]]


# --- values of the handlers' contract --------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class Refusal:
    """Told privately to the person who acted; nothing changes."""

    code: str
    notice: str
    security: bool = False  # worth a SEL record


class Refused(Exception):
    """Raised by a handler (in its check, or inside its change, which then writes nothing):
    the core tells the person ``refusal`` and audits it when it is a security event;
    ``member`` is the member the audit record names."""

    def __init__(self, refusal: Refusal, *, member: str | None = None) -> None:
        super().__init__(refusal.code)
        self.refusal = refusal
        self.member = member


@dataclass(frozen=True, kw_only=True, slots=True)
class Pressed:
    """What a press is on, as its handler's check found it.

    ``member``: whose actor judges it, and whose owner alone may press; ``stranger``: what
    anyone else is told. ``in_change``: the press is one change on the member's actor
    (:meth:`PressHandler.write`); else the handler runs its own course
    (:meth:`PressHandler.handle`).
    """

    member: Member
    stranger: str
    in_change: bool = True


# --- the ports the core hands a feature ------------------------------------------------------


class Changes(Protocol):
    async def change(
        self, transaction: Callable[[Change], T], *, heavy: bool = False, lazy: bool = False
    ) -> T:
        """Run ``transaction`` in one store transaction (serialised with the changes of the
        member whose actor it runs on), then its after-commit effects: the outbox lanes it
        queued into, the session readers it wrote for, the deadlines it armed, the domain
        events it published. A transaction is a synchronous function: it never awaits.

        Raises what the transaction raised (nothing is written), and ``Unavailable`` when
        the store found the index torn (the registered repairs have started).
        ``heavy``: it may take seconds (a reconciliation), so the store runs it apart.
        ``lazy``: bookkeeping nobody waits for, which may wait a moment to share the
        commit of the next change (``Store.write``).
        """
        ...

    async def rebuild_index(self, refill: Callable[[Change], T]) -> T | None:
        """Replace a torn index by one ``refill`` fills, as one heavy change: readers see
        the torn index until it commits, then the whole new one. One rebuild at a time, on
        every replica; None, with nothing done, when the index could be read by its turn
        (another rebuilt it meanwhile)."""
        ...


class Actors(Protocol):
    async def on_member(
        self, slug: str, job: Callable[[], Awaitable[T]], *, linger: bool = False
    ) -> T:
        """Run ``job`` on the member's actor after everything that arrived before it; it
        runs to its end even if the caller stops waiting. ``linger``: an agent's call (its
        next one likely soon): the actor waits a moment for it after."""
        ...

    def submit(self, key: str, job: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        """Queue ``job`` on the actor of ``key`` now; the future holds its result."""
        ...


class Bus(Protocol):
    def subscribe(self, subscriber: Subscriber) -> None:
        """``await subscriber(event)`` after each commit that published a domain event, in
        commit order, on the domain-event task: never in the transaction nor on an actor.
        One that raises is logged; the next still runs."""
        ...

    def react(self, reaction: Reaction) -> None:
        """Call ``reaction(change, event)`` as a change publishes ``event``, inside that
        change's transaction (so it must not await or do I/O): for what must be written
        together with the event, or not at all."""
        ...

    async def drain(self) -> None:
        """Wait until every event published so far has been handed to every subscriber."""
        ...

    def hold_delivery(self, hold: DeliveryHold) -> None:
        """Ask ``hold`` after each commit that published domain events which members'
        thread lanes not to wake for it, and at a lane's head whether a post is held back
        (its release, or ``unhold``, wakes the lane)."""
        ...

    def unhold(self, record_id: str) -> None:
        """A reply is about to wait for the card of ``record_id``: every hold lets its lane
        go now (a reply never waits for what holds a card back)."""
        ...


class Lanes(Protocol):
    def wake_lanes(self, lanes: set[str]) -> None:
        """Wake ``lanes`` of every running transport's outbox."""
        ...


class Events(Protocol):
    """The sessions' event streams (written by changes: ``Change.event``)."""

    @property
    def feed(self) -> EventFeed:
        """Where readers wait for a session's next event."""
        ...

    async def take_events(self, session: str, after: int, *, limit: int = 100) -> list[Event]:
        """The session's events after ``after``, remembered as delivered."""
        ...


class Core(Changes, Actors, Bus, Lanes, Events, Protocol):
    """Everything the core offers a feature; the Hub implements it."""

    @property
    def store(self) -> Store:
        """The store, for reads outside a change (writes go through ``change``)."""
        ...

    @property
    def clock(self) -> Clock: ...

    @property
    def transports(self) -> tuple[str, ...]:
        """The transports running here."""
        ...

    async def member(self, slug: str) -> Member:
        """The member named ``slug``; NotFound(unknown_member) when there is none."""
        ...

    async def gate(self, caller: Session, verb: Verb, *, action: str) -> None:
        """Let ``caller`` use ``verb``, or audit ``<action>:<code>`` and raise Forbidden."""
        ...

    async def index_repaired(self) -> None:
        """Wait for the repair a torn index started (if any)."""
        ...


class Inbound(Protocol):
    """What a handler may ask of the core about a human event."""

    async def thread_member(self, event: HumanEvent) -> Member | None:
        """The member whose thread the event happened in (None: not a member's thread)."""
        ...

    async def is_owner(self, event: HumanEvent, member: Member) -> bool:
        """Whether the person who acted owns ``member``."""
        ...

    async def refuse(
        self, event: HumanEvent, refusal: Refusal, *, member: str | None = None
    ) -> Receipt:
        """The receipt of a refusal (a SEL record first when it is a security event);
        ``DUPLICATE`` when an earlier delivery of the event was taken."""
        ...

    async def was_taken(self, event: HumanEvent) -> bool:
        """Whether an earlier delivery of this event was taken (its id is remembered)."""
        ...


# --- what a feature registers ----------------------------------------------------------------


class PressHandler(ABC):
    """What the buttons of one payload kind do (``kind``: the letter their payloads carry).

    The core parses a press's payload and looks its handler up by kind; it then asks the
    handler's :meth:`check` what the press is on, refuses a presser who does not own that
    member, and — in arrival order, on the member's actor — has the press handled: in one
    change (:meth:`write`), with the event marked and its receipt kept in that same change,
    or by :meth:`handle`.
    """

    kind: str
    # Whether handle marks its event in a change of its own and answers after it (a
    # boundary): the core keeps the receipt once it is answered.
    keeps_receipt_after: bool = False

    @abstractmethod
    async def check(
        self, event: HumanClick, press: ButtonPress, in_thread: Member | None
    ) -> Pressed:
        """What the press is on (reads only, on the ingress actor). ``in_thread``: the
        member whose thread it was pressed in, if any. Raises Refused (unknown record)."""

    async def confirm(self, event: HumanClick, press: ButtonPress, pressed: Pressed) -> None:
        """What :meth:`check` left to the press's change, checked now (reads only): asked
        for a press refused anyway (a stranger's), which is then refused for what it is on
        first, as a check that read everything would have. Raises Refused. Nothing, for a
        handler whose check reads everything."""
        return

    def write(self, ch: Change, event: HumanClick, press: ButtonPress, pressed: Pressed) -> Receipt:
        """The press's change (``pressed.in_change``), after the core marked its event: the
        effect and the receipt. Raises Refused to write nothing."""
        raise NotImplementedError(f"press {self.kind!r} is not handled in one change")

    async def committed(self, receipt: Receipt, press: ButtonPress, pressed: Pressed) -> Receipt:
        """After the press's change (on the member's actor): the receipt the transport
        gets, by default the one written."""
        return receipt

    async def handle(self, event: HumanClick, press: ButtonPress, pressed: Pressed) -> Receipt:
        """The press's own course (not ``pressed.in_change``), off the member's actor: it
        runs its changes and marks its event itself."""
        raise NotImplementedError(f"press {self.kind!r} is handled in one change")


class CommandHandler(ABC):
    """What one or more chat commands do; matched by name."""

    names: tuple[str, ...]
    help: str = ""  # its lines in /help
    # Whether its own change marks the event (a boundary); else the core marks it first.
    marks_own_event: bool = False
    # False: a stranger's command reaches handle too, which refuses it itself.
    owner_only: bool = True

    @abstractmethod
    async def handle(self, event: HumanCommand) -> Receipt:
        """Answer the command (the core keeps the receipt after)."""


class MessageHandler(ABC):
    """Typed text in a member's thread, from its owner."""

    @abstractmethod
    def take(self, ch: Change, event: HumanMessage, member: Member) -> Receipt | None:
        """Inside the message's change (its event already marked): write what the message
        does and return its receipt, or None when it is another handler's (the next one
        registered is asked). Raises Refused to write nothing."""


class EditHandler(ABC):
    """The owner edited one of their messages in a member's thread."""

    @abstractmethod
    async def handle(self, event: HumanEdit, member: Member) -> Receipt:
        """Answer the edit; it marks its event itself (the core keeps the receipt after)."""


class DeliveryHold(Protocol):
    def hold(self, events: Sequence[DomainEvent]) -> frozenset[str]:
        """Members whose thread lanes this commit (which published ``events``) should not
        wake: the holder wakes them once it has written what the card should first show."""
        ...

    def holds(self, object_key: str) -> bool:
        """Whether the post of ``object_key`` is still held back: an outbox that finds it at
        its lane's head leaves the lane there (whatever woke it) until the holder wakes it."""
        ...

    def unhold(self, record_id: str) -> None:
        """Release the card held for ``record_id`` and wake its lane now."""
        ...


class Registry(Protocol):
    """Where a feature registers what it handles."""

    def press(self, handler: PressHandler) -> None: ...

    def command(self, handler: CommandHandler) -> None: ...

    def message(self, handler: MessageHandler) -> None: ...

    def edit(self, handler: EditHandler) -> None: ...

    def on_index_torn(self, repair: Repair) -> None:
        """Run ``repair`` (one at a time) when a change finds the index unreadable."""
        ...


class Host(Core, Inbound, Registry, Protocol):
    """The whole core as a feature sees it: its ports, the inbound helpers, the registry
    (the Hub implements it; a feature is built with it and registers itself)."""
