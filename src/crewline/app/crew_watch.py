"""A running server follows the crew writes another process made (the command line).

``crewline member add``, ``member remove``, ``member key``, ``session add``, ``token`` and
``crewline concierge …`` write the store directly, from a process of their own, and mark
the crew changed in the same transaction (``crew.mark_changed``: a new value of the
``crew.version`` setting). When that one value moved, the server compares the members with
those it last saw and hands the difference to ``follow``: the server then drops what its
transports remember of members removed or bound anew, redraws the roster, and wakes its
outboxes and event readers for what the write queued.

How it learns that the value may have moved costs an idle process as little as each engine
allows:

- **Told** (PostgreSQL, every replica): the write announces the setting
  (``set_setting(announce=True)``: a notification sent on commit), and the server's
  ``Coordination`` hears it on the connection it listens on anyway. The watch reads the
  value when told, and after that connection was lost and made again (what was announced
  meanwhile is lost): nothing while the crew does not change.
- **Looking** (SQLite, one process): every ``interval`` seconds it reads the store's
  ``data_version`` (SQLite's pragma: moves on any other connection's commit, read from
  shared memory without touching a table), and reads the value only when that moved. An
  idle server commits nothing, so it reads no table; a busy one reads the value after its
  own commits too, one point read a look.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from crewline.crew import CREW_VERSION
from crewline.models import Member
from crewline.replication.replicas import Coordination
from crewline.store import Store
from crewline.tasks import cancel_and_wait

__all__ = ["WATCH_INTERVAL", "CrewChange", "CrewWatch"]

log = logging.getLogger(__name__)

WATCH_INTERVAL = 0.25  # seconds between looks: a CLI write shows well within a second


@dataclass(frozen=True, kw_only=True, slots=True)
class CrewChange:
    """What moved since the last look: members that are new, and members removed or bound
    anew (another name, owner or transports), by slug."""

    added: frozenset[str]
    gone: frozenset[str]


class CrewWatch:
    """``async with CrewWatch(store, follow)``: ``await follow(change)`` after each crew
    write this process did not see (and after its own, which cost one look more).

    ``coordination``: told of crew writes by it (see the module); else it looks every
    ``interval`` seconds. After a look that failed, it looks again ``interval`` later."""

    def __init__(
        self,
        store: Store,
        follow: Callable[[CrewChange], Awaitable[None]],
        *,
        interval: float = WATCH_INTERVAL,
        coordination: Coordination | None = None,
    ) -> None:
        self.store = store
        self.follow = follow
        self.interval = interval
        self.coordination = coordination
        self._told = asyncio.Event()
        self._version: str | None = None
        self._data_version: int | None = None
        self._members: dict[str, Member] = {}
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> CrewWatch:
        if self.coordination is not None:  # before the first read: no write falls between
            self.coordination.on_setting_changed(self._heard)
        self._data_version = await self.store.data_version()
        self._version = await self.store.setting(CREW_VERSION)
        self._members = {m.slug: m for m in await self.store.members()}
        self._task = asyncio.create_task(self._run(), name="crew-watch")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await cancel_and_wait(self._task)

    def _heard(self, key: str | None) -> None:
        if key is None or key == CREW_VERSION:
            self._told.set()

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

    async def _moved(self) -> int | None:
        """Return once the crew may have moved since the last look that succeeded; with
        the store's ``data_version`` then, when looking (the next look's reference)."""
        if self.coordination is not None:
            await self._told.wait()
            self._told.clear()  # before the look: a write told during it makes one more
            return None
        while True:
            await asyncio.sleep(self.interval)
            data_version = await self.store.data_version()
            if data_version is None or data_version != self._data_version:
                return data_version

    async def _run(self) -> None:
        while True:
            try:
                data_version = await self._moved()
                await self.look()
            except Exception:  # the store failing under us: look again a moment later
                log.exception("following the crew's changes failed")
                self._told.set()
                await asyncio.sleep(self.interval)
            else:
                self._data_version = data_version
