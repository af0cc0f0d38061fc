"""A running server follows the crew writes another process made (the command line).

``crewline member add``, ``member remove``, ``member key``, ``session add``, ``token`` and
``crewline concierge …`` write the store directly, from a process of their own, and mark
the crew changed in the same transaction (``crew.mark_changed``: a new value of the
``crew.version`` setting). A server reads that one value every ``interval`` seconds — a
point read, the same on SQLite and on PostgreSQL, where every replica reads it — and when
it moved, it compares the members with those it last saw and hands the difference to
``follow``: the server then drops what its transports remember of members removed or bound
anew, redraws the roster, and wakes its outboxes and event readers for what the write
queued.

SQLite's ``PRAGMA data_version`` was the alternative: it moves on any other connection's
commit, and the server's own writer is another connection to its readers, so it would move
on every commit the server makes itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from crewline.crew import CREW_VERSION
from crewline.models import Member
from crewline.store import Store
from crewline.tasks import cancel_and_wait

__all__ = ["WATCH_INTERVAL", "CrewChange", "CrewWatch"]

log = logging.getLogger(__name__)

WATCH_INTERVAL = 0.25  # seconds: a CLI write shows well within a second


@dataclass(frozen=True, kw_only=True, slots=True)
class CrewChange:
    """What moved since the last look: members that are new, and members removed or bound
    anew (another name, owner or transports), by slug."""

    added: frozenset[str]
    gone: frozenset[str]


class CrewWatch:
    """``async with CrewWatch(store, follow)``: ``await follow(change)`` after each crew
    write this process did not see (and after its own, which cost one look more)."""

    def __init__(
        self,
        store: Store,
        follow: Callable[[CrewChange], Awaitable[None]],
        *,
        interval: float = WATCH_INTERVAL,
    ) -> None:
        self.store = store
        self.follow = follow
        self.interval = interval
        self._version: str | None = None
        self._members: dict[str, Member] = {}
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> CrewWatch:
        self._version = await self.store.setting(CREW_VERSION)
        self._members = {m.slug: m for m in await self.store.members()}
        self._task = asyncio.create_task(self._run(), name="crew-watch")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await cancel_and_wait(self._task)

    async def look(self) -> CrewChange | None:
        """Look once: the change followed, or None when the crew did not move."""
        version = await self.store.setting(CREW_VERSION)
        if version == self._version:
            return None
        members = {m.slug: m for m in await self.store.members()}
        before, self._members, self._version = self._members, members, version
        change = CrewChange(
            added=frozenset(members.keys() - before.keys()),
            gone=frozenset(slug for slug, was in before.items() if members.get(slug) != was),
        )
        await self.follow(change)
        return change

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.look()
            except Exception:  # the store failing under us: the next look tries again
                log.exception("following the crew's changes failed")
