"""The Transport port: how the core reaches a chat surface, and how people reach the core.

Outbound, a transport is only ever called by its outbox dispatcher (never by the core
inline). Inbound, it turns platform payloads into typed human events and hands each one to
the sink it was started with; the sink's :class:`~crewline.models.Receipt` says what to
tell the person privately (an ephemeral message, a callback alert).
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from crewline.errors import NotFound, PermanentTransportError
from crewline.models import (
    Bell,
    Clock,
    HumanEvent,
    Member,
    OutboundMessage,
    Receipt,
    RosterEntry,
)

__all__ = [
    "Connection",
    "DeliveryLimits",
    "Fence",
    "HumanEventSink",
    "Transport",
    "TransportContext",
]

log = logging.getLogger(__name__)

HumanEventSink = Callable[[HumanEvent], Awaitable[Receipt]]


class TransportContext(Protocol):
    """What the core offers a transport besides the event sink (the Hub implements it).

    A platform needs the owner's user id to reach them (a DM, an App Home, a mention), and a
    request refused before it became a human event (a forged signature, an unknown
    workspace) still deserves a SEL record.
    """

    clock: Clock  # crewline's time: a transport's own windows (refusals' records) follow it

    async def owner_ids(self, transport: str, *, member: str | None = None) -> list[str]:
        """User ids on ``transport`` of ``member``'s owner (of every member's owner if None)."""
        ...

    async def members_of(self, transport: str, user_id: str) -> frozenset[str]:
        """The slugs of the members owned by the human known as ``transport:user_id``: a
        surface that is one human's own (the local inbox) shows only their crew."""
        ...

    async def audit_refusal(
        self, transport: str, code: str, *, actor: str | None = None, **details: Any
    ) -> None:
        """Write a SEL record ``request:<code>`` for a request the transport refused."""
        ...

    async def thread_ref(self, transport: str, member: str) -> str | None:
        """The member's thread on ``transport`` as recorded (None before it was opened): a
        bell links to it, also after a restart."""
        ...

    async def settle_thread(
        self, transport: str, member: str, thread_ref: str, *, replacing: str | None = None
    ) -> str:
        """Record ``thread_ref``, just opened, as the member's thread on ``transport``,
        unless another process recorded one meanwhile (other than ``replacing``, a thread
        gone): the member's thread as recorded, which the transport then uses. A platform
        with no way to find a thread it opened (Telegram's topics) keeps one per member so
        across replicas: a bell rung on one opens it, a card posted on another finds it."""
        ...

    async def member(self, slug: str) -> Member:
        """The member named ``slug`` (NotFound when there is none): a transport whose bell
        is rung before the member's thread was opened opens it to link to it."""
        ...


class Fence(Protocol):
    """The lease a single-connection transport runs under
    (``crewline.replication.transport_lease``): how long this replica may still use the
    platform's connection before another replica may take it over, by this replica's own
    clock."""

    ttl: float  # seconds the lease lasts after each renewal
    margin: float  # seconds a use keeps in hand before the deadline (the way, a short stall)

    def remaining(self) -> float:
        """Seconds left (0: stop using the connection; another replica may hold it)."""
        ...

    async def runway(self, seconds: float) -> bool:
        """Wait until ``seconds`` are left (True; after the next renewal if need be); False
        as soon as this replica no longer holds the lease."""
        ...


@dataclass(frozen=True, kw_only=True, slots=True)
class DeliveryLimits:
    """How fast the outbox may call this platform.

    ``per_thread_interval``: seconds between two calls into one thread (lane);
    ``global_per_second``: calls per second over all threads; ``concurrency``: lanes sent
    at once; ``roster_interval``: seconds between two redraws of the roster, a status line
    that a burst of changes would otherwise redraw once per change on a platform that
    counts calls (a surface that is a local push sets 0).
    """

    per_thread_interval: float = 0.0
    global_per_second: float = 0.0  # 0: unlimited
    concurrency: int = 8
    roster_interval: float = 1.0


@dataclass(frozen=True, kw_only=True, slots=True)
class Connection:
    """Whether a transport can reach its platform now, as far as it knows; ``reason`` says
    why not in words an operator acts on (``/readyz`` shows it)."""

    connected: bool
    reason: str | None = None


class Transport(ABC):
    """One chat surface. Identities on it are written ``<name>:<user id>``."""

    name: str
    limits: DeliveryLimits = DeliveryLimits()
    context: TransportContext | None = None
    # Whether ``mark_rewound`` needs crewline's messages as drawn (``drawn``): a platform
    # that cannot read a message back does; the outbox renders them only then.
    marks_need_drawing: bool = False

    def attach(self, context: TransportContext) -> None:
        """Called by crewline before ``start``: how to look up owners and audit refusals."""
        self.context = context

    def now(self) -> datetime:
        """crewline's time: its clock once attached, the wall clock before."""
        return self.context.clock.now() if self.context is not None else datetime.now(UTC)

    def share_pacing(self, pace: Callable[[str, float], Awaitable[float]]) -> None:
        """Called by crewline on a shared PostgreSQL (several replicas): ``await
        pace(name, interval)`` reserves a turn of a budget every replica shares (seconds
        to wait). A transport that paces calls per channel itself uses it, since a
        platform counts a channel's calls per app; the default paces nothing more."""
        return None

    def fence(self, fence: Fence) -> None:
        """Called by crewline before ``start`` when the transport runs under a lease (it is
        ``exclusive`` and replicas share the database): a transport whose uses of the
        connection last (a long poll) starts none it could not finish before the lease's
        deadline. The default consults nothing: the lease stops the transport when lost."""
        return None

    @abstractmethod
    async def start(self, sink: HumanEventSink) -> None:
        """Connect and begin delivering human events to ``sink``."""

    @abstractmethod
    async def stop(self) -> None:
        """Disconnect. Idempotent. Events still arriving after it are dropped."""

    @abstractmethod
    async def open_thread(self, member: Member) -> str:
        """Create (or find) the member's thread; returns its thread ref.

        Must be idempotent: calling it again for the same member returns the same ref,
        unless ``post`` raised ThreadGone for that ref (then it opens a new thread).
        """

    async def bell_thread(self, slug: str, *, known: str | None = None) -> str | None:
        """The thread a member's bell links to: ``known`` to the transport, else as the
        outbox recorded it, else opened now.

        The bell's lane does not wait for the thread's, so a member's first bell may be
        rung before its first card: it opens the thread itself, through ``open_thread``,
        which opens one member's thread one call at a time, so one thread is made whichever
        lane comes first. A failed open fails the ring, which the outbox retries. None only
        when the thread cannot be opened at all (the member gone, a permanent refusal): the
        bell is then shown without a link rather than not at all.
        """
        if known is not None or self.context is None:
            return known
        recorded = await self.context.thread_ref(self.name, slug)
        if recorded is not None:
            return recorded
        try:
            return await self.open_thread(await self.context.member(slug))
        except (NotFound, PermanentTransportError) as error:
            log.warning(
                "%s: %s's bell goes without a link to its thread: %s", self.name, slug, error
            )
            return None

    @abstractmethod
    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        """Post ``message`` in ``thread``; returns the platform message ref.

        ``key`` names the crewline object the message shows. A transport never creates two
        messages for one key: when ``retry`` is true (an earlier attempt may have landed
        without being recorded) it looks for a message with this key before posting, using
        the platform's idempotency where it has one. ``since``, given with ``retry``, is
        when the entry was queued by crewline's clock: no earlier attempt came before it,
        so a transport that reads the platform's history for that message reads back only
        to ``since`` (less a margin for the platform's clock differing from ours).

        Raises RateLimited, TransientTransportError (ThreadGone when the thread no longer
        exists: the outbox reopens it) or PermanentTransportError.
        """

    @abstractmethod
    async def update(self, thread: str, message_ref: str, message: OutboundMessage) -> None:
        """Redraw a message in place. "Not modified" is success. Raises like ``post``."""

    @abstractmethod
    async def ring(self, bell: Bell, *, message_ref: str | None) -> str:
        """Show the bell: post it, or update ``message_ref`` when it was shown before.

        Returns the ref of the notification message.
        """

    @abstractmethod
    async def show_roster(self, roster: Sequence[RosterEntry]) -> None:
        """Publish the roster (members, needs-you, open counts) where this surface shows it."""

    async def mark_rewound(
        self,
        thread: str,
        message_refs: Sequence[str],
        *,
        drawn: Mapping[str, OutboundMessage] | None = None,
    ) -> None:
        """Mark messages whose rows a rewind removed (strike through, label). Optional.

        When ``marks_need_drawing``, ``drawn`` holds crewline's own messages among them (by
        ref) as crewline draws them now; a ref without an entry is then a person's own
        message, which a bot cannot edit.
        """
        return None

    def forget_member(self, slug: str) -> None:
        """The member was removed, or bound anew (another owner, name or transports), by a
        write this process did not make (``crewline member remove`` while serving): drop
        whatever the transport remembers of it — its thread, its owner, its place on the
        roster — so nothing is drawn for it from memory. Must not block or call the
        platform; the default remembers nothing."""
        return None

    def connection(self) -> Connection:
        """Whether the platform is reachable now: connected between a successful ``start``
        and ``stop``, and, for a transport that holds a connection (a gateway, a socket),
        while that connection is up. Must not block or call the platform.

        The default suits a transport with nothing to lose (in-process surfaces): always
        connected.
        """
        return Connection(connected=True)

    @property
    def exclusive(self) -> bool:
        """Whether the transport holds the platform's one connection for this bot (Telegram's
        long polling, Discord's gateway): of several replicas only the one holding its lease
        runs it (``crewline.replication.transport_lease``). Receiving by HTTP, it is not."""
        return False

    def http_mount(self) -> tuple[str, Any] | None:
        """An ASGI app to mount in crewline's HTTP server (webhooks, the local inbox)."""
        return None
