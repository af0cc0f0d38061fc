"""The outbox: platform calls waiting to be made, per transport and lane, and which platform
message shows which object.

Lanes are ordered: within a lane, ids become visible in commit order, so its head is its
oldest entry and none can appear ahead of one already sent (except ``ordered=False``
redraws, whose place does not matter). Redraw collapsing depends on no id order: a redraw
settles exactly the entries it read before rendering (``outbox_object_ids``, then
``settle_outbox_entries``); one committed later stays."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = [
    "OutboxBacklog",
    "OutboxEntry",
    "OutboxReads",
    "OutboxTx",
    "PlatformMessage",
    "PostContext",
    "RedrawContext",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class OutboxEntry:
    """A platform call waiting to be made; ``lane`` entries are delivered in ``id`` order."""

    id: int
    transport: str
    lane: str
    op: str
    object_key: str
    body: Mapping[str, Any]
    attempts: int
    not_before: float
    # When it was queued, by the queuing process's clock: no attempt to send it came earlier.
    created_at: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class OutboxBacklog:
    """One transport's outbox at a glance: what waits, since when, and what was given up."""

    transport: str
    pending: int
    oldest: datetime | None  # when the oldest waiting entry was queued
    oldest_error: str | None  # why its last attempt failed, if one did
    dead: int  # entries moved to the dead letters (a permanent failure)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlatformMessage:
    transport: str
    object_key: str
    thread_ref: str
    message_ref: str


@dataclass(frozen=True, kw_only=True, slots=True)
class PostContext:
    """What a post of an object reads before it draws it (``OutboxReads.post_context``)."""

    redraws: tuple[int, ...]  # the object's redraws queued in the lane, oldest first
    shown: PlatformMessage | None  # the message recorded as showing it
    thread_ref: str | None  # the lane's member's thread on the transport


@dataclass(frozen=True, kw_only=True, slots=True)
class RedrawContext:
    """What a redraw of an object (an update, a ring) reads before it draws it
    (``OutboxReads.redraw_context``)."""

    covered: tuple[int, ...]  # the object's entries of this op queued in the lane, oldest first
    shown: PlatformMessage | None  # the message recorded as showing it


class OutboxTx(ABC):
    """Queuing, settling and retrying platform calls in a transaction."""

    @abstractmethod
    def enqueue(
        self,
        *,
        transport: str,
        lane: str,
        op: str,
        object_key: str,
        now: datetime,
        body: Mapping[str, Any] | None = None,
        ordered: bool = True,
    ) -> int:
        """Queue a platform call at the end of ``lane``; returns its id. Within a lane, ids
        become visible in the order they were returned (see the module docstring).

        ``ordered=False``: the entry redraws an object's current state, so where it falls
        among its lane's entries does not matter; the store need not make concurrent
        writers of the lane wait for each other to keep their order."""

    @abstractmethod
    def queue_call(
        self,
        *,
        transport: str,
        lane: str,
        op: str,
        object_key: str,
        now: datetime,
        body: Mapping[str, Any] | None = None,
        ordered: bool = True,
    ) -> None:
        """``enqueue`` for a caller that does not need the id: the same entry, in the same
        place in its lane, with the same ordering guarantees. A store may then send the
        write along with the transaction's next statement instead of waiting for the id
        (PostgresStore: no round trip of its own, and a transaction's queued entries go out
        together as one statement, before its next statement or at its end)."""

    @abstractmethod
    def settle_outbox(self, entry_id: int) -> None:
        """The call was made (or is no longer needed): drop the entry."""

    @abstractmethod
    def settle_outbox_entries(self, entry_ids: Sequence[int]) -> None:
        """Drop these entries (those a redraw covered; ids already gone are ignored)."""

    @abstractmethod
    def posts_not_begun(
        self, transport: str, posts: Sequence[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        """Of ``posts`` (lane, object key), those whose post entry on ``transport`` waits in
        its lane behind an earlier entry. A lane is sent one entry at a time, its head
        first, so no dispatcher has begun drawing such a post; and none begins before this
        transaction commits, so the post draws the object as this transaction leaves it.

        A store that cannot keep the second promise against concurrent writers answers
        fewer (an empty set is always correct): the caller then queues a redraw."""

    @abstractmethod
    def retry_outbox(self, entry_id: int, *, not_before: float, error: str) -> None:
        """Count a failed attempt; the entry waits until ``not_before`` (epoch seconds)."""

    @abstractmethod
    def bury_outbox(self, entry_id: int, *, error: str, now: datetime) -> None:
        """Move an entry that can never succeed to the dead-letter table."""

    @abstractmethod
    def record_platform_message(self, message: PlatformMessage) -> None:
        """Which platform message shows the object (replacing an earlier one)."""


class OutboxReads(ABC):
    """The outbox as committed: what the dispatchers send next."""

    @abstractmethod
    async def outbox_heads(self, transport: str) -> list[OutboxEntry]:
        """The first entry of every lane of ``transport`` (the only ones sendable now)."""

    @abstractmethod
    async def outbox_head(self, transport: str, lane: str) -> OutboxEntry | None:
        """The lane's oldest committed entry, or None when the lane is empty."""

    @abstractmethod
    async def outbox_last_id(self) -> int:
        """The largest committed outbox id (0 when none was ever queued); entries this
        store queues from now on get larger ids."""

    @abstractmethod
    async def outbox_object_ids(
        self, transport: str, lane: str, op: str, object_key: str
    ) -> list[int]:
        """The committed entries of ``lane`` that would ``op`` ``object_key`` (a redraw
        reads them before it renders: those are the ones its render covers)."""

    @abstractmethod
    async def post_context(self, transport: str, lane: str, object_key: str) -> PostContext:
        """In one read, what posting ``object_key`` in a member's ``lane`` looks up before
        it draws the object: ``outbox_object_ids(transport, lane, "update", object_key)``,
        ``platform_message(transport, object_key)`` and ``thread_ref(lane, transport)``."""

    @abstractmethod
    async def redraw_context(
        self, transport: str, lane: str, op: str, object_key: str
    ) -> RedrawContext:
        """In one read, what redrawing ``object_key`` (``op``: an update or a ring) in
        ``lane`` looks up before it draws the object: ``outbox_object_ids(transport, lane,
        op, object_key)`` and ``platform_message(transport, object_key)``."""

    @abstractmethod
    async def outbox_size(self, transport: str | None = None) -> int:
        """Entries waiting, of one transport or of all."""

    @abstractmethod
    async def outbox_backlog(self) -> list[OutboxBacklog]:
        """Per transport with waiting or dead entries, by name: the pending count, the
        oldest waiting entry (queued when, last error) and the dead-letter count."""

    @abstractmethod
    async def platform_message(self, transport: str, object_key: str) -> PlatformMessage | None:
        """The platform message showing the object, or None."""

    @abstractmethod
    async def object_for_message(self, transport: str, message_ref: str) -> str | None:
        """The object a platform message shows, or None."""
