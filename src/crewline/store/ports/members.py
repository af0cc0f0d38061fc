"""Members and sessions: the humans who own members (their platform identities and owner
tokens), the members with their transports and threads, and the sessions that speak for
them (keys kept as hashes)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime

from crewline.models import Identity, Member, Session

__all__ = ["MembersReads", "MembersTx"]


class MembersTx(ABC):
    """Humans, members, threads and sessions, read and written in a transaction."""

    @abstractmethod
    def ensure_human(self, identities: Sequence[Identity], now: datetime) -> int:
        """The human owning any of ``identities`` (created if none), with all of them bound."""

    @abstractmethod
    def set_owner_token(self, human: int, token_hash: str) -> None:
        """Replace the human's owner-token hash (the old token stops working)."""

    @abstractmethod
    def add_member(self, member: Member, now: datetime) -> None:
        """Add a member and its transport bindings; raises Conflict if the slug exists."""

    @abstractmethod
    def remove_member(self, slug: str) -> bool:
        """Delete the member (its bindings, threads and sessions go with it) and retract its
        pending records; False when there was no such member."""

    @abstractmethod
    def member(self, slug: str) -> Member | None:
        """The member with its transports (sorted), or None."""

    @abstractmethod
    def members_by_slug(self, slugs: Sequence[str]) -> list[Member]:
        """``member`` for each of ``slugs`` at once: those that exist, in no given order."""

    @abstractmethod
    def member_incarnation(self, slug: str) -> str | None:
        """A token minted when the member was added: a member removed and re-created under
        the same slug has another one (None: no such member)."""

    @abstractmethod
    def add_session(self, session: Session, key_hash: str, now: datetime) -> None:
        """Store a session under its key's hash; the database refuses a reused id or hash."""

    @abstractmethod
    def revoke_member_sessions(self, slug: str, now: datetime) -> int:
        """Revoke the member's own sessions (their keys stop working); returns how many."""

    @abstractmethod
    def member_sessions(self, slug: str) -> list[Session]:
        """The live (unrevoked) sessions of kind ``member`` speaking for ``slug``."""

    @abstractmethod
    def session(self, session_id: str) -> Session | None:
        """The session, revoked or not, or None."""

    @abstractmethod
    def set_turn(self, session_id: str, since: datetime | None) -> None:
        """Record that the session is in the middle of a turn since ``since`` (None: not)."""

    @abstractmethod
    def record_thread(self, member: str, transport: str, thread_ref: str) -> None:
        """The member's thread on ``transport`` is ``thread_ref`` (replacing its earlier one,
        and taking the ref from any other member that held it)."""

    @abstractmethod
    def settle_thread(
        self, member: str, transport: str, thread_ref: str, *, replacing: str | None = None
    ) -> str:
        """The member's thread on ``transport``: ``thread_ref``, just opened, recorded as
        ``record_thread`` does unless a thread other than ``replacing`` (one gone) is
        recorded already, opened meanwhile by another process (a replica's other lane):
        then that one stays, and is returned, so the member keeps one thread everywhere."""

    @abstractmethod
    def session_ended(self, session_id: str) -> bool:
        """True when the session is unknown or was stopped (its key revoked)."""

    @abstractmethod
    def end_session(self, session_id: str, now: datetime) -> bool:
        """Stop a session: its key stops working; False when it was not live."""


class MembersReads(ABC):
    """Humans, members, threads and sessions as committed."""

    @abstractmethod
    async def member(self, slug: str) -> Member | None:
        """The member with its transports (sorted), or None."""

    @abstractmethod
    async def members(self) -> list[Member]:
        """Every member, oldest first."""

    @abstractmethod
    async def session_by_key_hash(self, key_hash: str) -> Session | None:
        """The live (unrevoked) session whose key hashes to ``key_hash``, or None."""

    @abstractmethod
    async def session_and_member(self, key_hash: str) -> tuple[Session, Member | None] | None:
        """``session_by_key_hash``'s session and, in the same read, the member it speaks
        for (None: it speaks for none, or that member is gone); None: no live session."""

    @abstractmethod
    async def live_sessions(self, session_ids: Collection[str]) -> set[str]:
        """Those of ``session_ids`` that name a session whose key still works (neither
        revoked nor removed with its member): what an open event stream is checked by."""

    @abstractmethod
    async def human_by_token_hash(self, token_hash: str) -> int | None:
        """The human whose owner token hashes to ``token_hash``, or None."""

    @abstractmethod
    async def humans(self) -> list[int]:
        """Every human's id, in order of creation."""

    @abstractmethod
    async def human_of(self, platform: str, user_id: str) -> int | None:
        """The human who owns this platform account, if any."""

    @abstractmethod
    async def identities(self, human: int) -> list[Identity]:
        """The human's platform accounts, sorted by platform and user id."""

    @abstractmethod
    async def thread_ref(self, member: str, transport: str) -> str | None:
        """The member's thread on ``transport``, or None before its first post."""

    @abstractmethod
    async def member_for_thread(self, transport: str, thread_ref: str) -> str | None:
        """The member whose thread this is, or None."""
