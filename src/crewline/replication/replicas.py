"""Replicas: what several crewline processes on one PostgreSQL coordinate beyond the Store.

The Store already keeps one member's changes in order across replicas (``Tx.serialize``)
and dedupes platform event ids. What is left is work that must be done by one replica at a
time and never twice: an outbox lane's calls, a webhook lane's deliveries, a transport's
single connection (Telegram's long polling, Discord's gateway). Each is held under a
*lease*: a named row in the database with a holder, an expiry judged by the database's
clock, and an epoch that grows with every new holder (a holder whose lease was taken can
no longer renew it). A holder counts its lease lost at the time it would expire as seen
from before its last renewal was sent, so it stops before anyone else can take over.

Lanes need not wait out a dead holder's lease: each run of a replica (an *incarnation*, its
holder tag: the name plus a nonce drawn at start) registers itself as its name's current
run, and its connections carry its holder tag as their ``application_name``. A lane's lease
may then be taken at once from a holder that is *gone*: an earlier run of this replica's own
name (a restart), or a run with no connection to the database (its process died, and
PostgreSQL closed its connections). The holder a lease was taken from hears so at once
(``Coordination.on_lease_lost``) and stops sending there; an earlier run that is in fact
alive (two processes started under one name) says so loudly (``superseded_by``: the log,
``/readyz``, ``crewline doctor``), and can never take the lanes back.

A platform's global rate limit (calls per second for the whole app) is shared the same
way: each call reserves the next turn of a named budget in the database
(``Coordination.pace``), so several replicas together call no faster than one would.

And what replicas need to hear: that a session's event committed elsewhere
(``Coordination.on_events``), so a long poll, a stream or a webhook lane on this replica
wakes up; that a session answered a context boundary elsewhere, so the replica
waiting for the answer goes on (PostgreSQL's LISTEN/NOTIFY; a reader's own timeouts are the
fallback); and that the crew changed (``on_setting_changed``), so that no replica reads
the database to find out.

A crewline on SQLite is one process: it has no Coordination and holds no leases.
"""

from __future__ import annotations

import enum
import logging
import os
import re
import secrets
import socket
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Set
from dataclasses import dataclass

from crewline.errors import InvalidInput

log = logging.getLogger(__name__)

__all__ = [
    "LANE_TTL",
    "Claim",
    "Coordination",
    "LaneClaims",
    "Lease",
    "LeaseView",
    "default_replica_name",
    "holder_tag",
    "replica_of",
    "valid_replica_name",
]

LANE_TTL = 30.0  # seconds a lane stays with a replica that went silent yet kept its connections
# At most 54 characters: with its nonce it must fit PostgreSQL's 63-byte application_name.
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,53}$")


def default_replica_name() -> str:
    """A name unique enough when the operator gave none: the host and the process id."""
    return f"{socket.gethostname()}-{os.getpid()}"


def valid_replica_name(name: str) -> str:
    """``name`` if it is a usable replica name; InvalidInput(invalid_replica_id) if not."""
    if not _NAME.match(name):
        raise InvalidInput(
            f"replica id {name!r} must be 1-54 letters, digits, '.', '_' or '-'",
            code="invalid_replica_id",
            field="replica_id",
        )
    return name


def replica_of(holder: str) -> str:
    """The replica name of holder tag ``holder``."""
    return holder.rpartition("/")[0] or holder


def holder_tag(name: str) -> str:
    """The holder this run of replica ``name`` writes on its leases: the name plus a nonce,
    so a replica restarted under the same name knows its old leases are not its own (what
    the dead run may have sent unrecorded must be looked for)."""
    return f"{name}/{secrets.token_hex(4)}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Lease:
    """A lease as this replica holds it."""

    name: str
    epoch: int
    taken_over: bool  # taken from a holder that never released it (it may have died mid-call)


@dataclass(frozen=True, kw_only=True, slots=True)
class LeaseView:
    """A lease as any replica sees it (``/readyz``, ``crewline doctor``)."""

    name: str
    holder: str | None  # None: released, free for the taking
    epoch: int
    expires_in: float  # seconds; negative: expired, free for the taking


class Coordination(ABC):
    """What replicas share beyond the Store. Use as ``async with``."""

    holder: str  # this run's holder tag

    @abstractmethod
    async def __aenter__(self) -> Coordination: ...

    @abstractmethod
    async def __aexit__(self, *exc_info: object) -> None: ...

    @abstractmethod
    async def acquire(self, name: str, ttl: float, *, from_gone: bool = False) -> Lease | None:
        """Take (or keep) the lease ``name`` for ``ttl`` seconds; None while another
        replica holds it and it has not expired. ``from_gone``: take it also from a holder
        that is gone (an earlier run of this replica's name, or a run with no connection
        to the database), telling that holder (``on_lease_lost``). Raises on a database
        failure."""

    @abstractmethod
    async def renew(self, lease: Lease, ttl: float) -> bool:
        """Extend a held lease by ``ttl`` seconds from now; False if it was taken over."""

    @abstractmethod
    async def release(self, lease: Lease) -> None:
        """Give the lease up at once (another replica may take it now, knowing nothing was
        left half-done); nothing if it was taken over meanwhile."""

    @abstractmethod
    async def pace(self, name: str, interval: float) -> float:
        """Reserve the next turn of the budget ``name``, whose turns are ``interval``
        seconds apart across every replica (a platform's rate limit is per app, not per
        replica): the seconds to wait before making the call (0: now). Raises on a
        database failure (no call without its turn)."""

    @abstractmethod
    async def held_elsewhere(self, prefix: str) -> set[str]:
        """The leases whose names start with ``prefix`` that ``acquire(name,
        from_gone=True)`` would refuse now: held by another run that is not gone, and not
        expired. One read, writing nothing. Raises on a database failure."""

    @abstractmethod
    async def leases(self, prefix: str) -> list[LeaseView]:
        """Every lease whose name starts with ``prefix``, by name."""

    @abstractmethod
    async def others_running(self) -> bool:
        """Whether another run of crewline (another replica) is connected to the shared
        database now. A run that is alone may close every boundary still asking at its
        start: none can be another's. Raises on a database failure."""

    @abstractmethod
    def on_events(self, wake: Callable[[Set[str] | None], None]) -> None:
        """``wake(sessions)`` when another replica committed events for ``sessions``;
        ``wake(None)`` when notifications may have been missed (after a reconnect), so
        every reader should look again. Called on the event loop; must only schedule."""

    @abstractmethod
    def on_boundary_answers(self, wake: Callable[[Set[str] | None], None]) -> None:
        """``wake(boundary_ids)`` when another replica committed a session's answer (ack or
        nack) to those boundaries, so the replica waiting for it looks now rather than at its
        timeout; ``wake(None)`` after a reconnect, as for ``on_events``."""

    @abstractmethod
    def on_setting_changed(self, wake: Callable[[str | None], None]) -> None:
        """``wake(key)`` when any process (this one too) committed the setting ``key``
        announced (``set_setting(announce=True)``); ``wake(None)`` after a reconnect, as for
        ``on_events``. Called on the event loop; must only schedule."""

    @abstractmethod
    def on_lease_lost(self, lost: Callable[[str, int, str], None]) -> None:
        """``lost(lease, epoch, holder)`` when another replica took the lease ``lease`` from
        this one (now held by ``holder`` at ``epoch``). Called on the event loop."""

    @property
    @abstractmethod
    def listening(self) -> bool:
        """Whether notifications from other replicas arrive now."""

    @property
    @abstractmethod
    def presence(self) -> int:
        """Grows whenever this run's connection to the other replicas may have lapsed (the
        listening connection dropped): a lease held across a change may have been taken
        from it as from a dead replica, so its holder asks the database again."""

    @property
    @abstractmethod
    def superseded_by(self) -> str | None:
        """The holder tag of a later run of this replica's name, if one started while this
        run is alive (two processes under one name): it takes this run's lanes."""


class Claim(enum.Enum):
    """What ``LaneClaims.hold`` found."""

    ELSEWHERE = "elsewhere"  # another replica holds the lane: leave it to that one
    HELD = "held"  # this replica holds it (already did, or took it from a clean release)
    TAKEN_OVER = "taken_over"  # taken from a replica that went silent mid-lane


class LaneClaims:
    """One replica's leases on the lanes of one kind of work (``prefix``: an outbox's
    ``outbox:<transport>:``, or ``webhook:``). A lane's drainer holds its lane while it
    sends, renewing it before a third of the lease is left, and releases it when the lane
    is empty. A replica that dies leaves its lanes to the others at once (it is gone: its
    connections closed, or its name started again), or after ``ttl`` when its connections
    outlive it; a lane taken from this replica is dropped the moment it hears so."""

    def __init__(self, coordination: Coordination, prefix: str, *, ttl: float = LANE_TTL):
        self.coordination = coordination
        self.prefix = prefix
        self.ttl = ttl
        self._held: dict[str, tuple[Lease, float]] = {}  # lane -> (lease, renew after)
        self._presence = coordination.presence
        self._taken: dict[str, int] = {}  # lane -> the latest epoch another replica took
        coordination.on_lease_lost(self._lost)

    def _lost(self, name: str, epoch: int, holder: str) -> None:
        if not name.startswith(self.prefix):
            return
        lane = name.removeprefix(self.prefix)
        self._taken[lane] = max(epoch, self._taken.get(lane, 0))
        held = self._held.get(lane)
        if held is None or held[0].epoch >= epoch:
            return
        del self._held[lane]
        ours = replica_of(self.coordination.holder)
        if replica_of(holder) == ours:
            log.error(
                "lane %s was taken by %s, a later process started as replica %s while this"
                " one (%s) runs: two processes run under one name; this one stops sending"
                " there",
                name,
                holder,
                ours,
                self.coordination.holder,
            )
        else:
            log.warning("lane %s was taken by %s; this replica stops sending there", name, holder)

    def _keep(self, lane: str, lease: Lease, renew_after: float) -> bool:
        """Note ``lease`` as held, unless a takeover of it was told meanwhile (the note
        can overtake the answer to our own statement: they come on two connections)."""
        if self._taken.get(lane, 0) > lease.epoch:
            self._held.pop(lane, None)
            return False
        self._held[lane] = (lease, renew_after)
        return True

    async def hold(self, lane: str) -> Claim:
        """Make sure this replica holds ``lane`` for at least two thirds of its lease."""
        now = time.monotonic()
        presence = self.coordination.presence
        if presence != self._presence or not self.coordination.listening:
            # Our leases may have been taken while we could not be seen: ask the database.
            self._presence = presence
            self._held = {name: (lease, 0.0) for name, (lease, _) in self._held.items()}
        held = self._held.get(lane)
        if held is not None:
            lease, renew_after = held
            if now < renew_after:
                return Claim.HELD
            if await self.coordination.renew(lease, self.ttl):
                if self._keep(lane, lease, now + self.ttl / 3):
                    return Claim.HELD
                return Claim.ELSEWHERE
            self._held.pop(lane, None)
        taken = await self.coordination.acquire(self.prefix + lane, self.ttl, from_gone=True)
        if taken is None or not self._keep(lane, taken, now + self.ttl / 3):
            return Claim.ELSEWHERE
        return Claim.TAKEN_OVER if taken.taken_over else Claim.HELD

    async def held_elsewhere(self) -> set[str]:
        """The lanes another replica holds now (``hold`` would find them ELSEWHERE): one
        read for all of them, where asking for each lease would be a statement each."""
        held = await self.coordination.held_elsewhere(self.prefix)
        return {name.removeprefix(self.prefix) for name in held}

    async def release(self, lane: str) -> bool:
        """Give the lane up; True if this replica held it."""
        held = self._held.pop(lane, None)
        if held is None:
            return False
        await self.coordination.release(held[0])
        return True

    async def release_all(self) -> None:
        for lane in list(self._held):
            try:
                await self.release(lane)
            except Exception:  # best effort on the way out: the leases expire anyway
                self._held.clear()
                return
