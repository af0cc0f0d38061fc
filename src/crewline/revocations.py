"""Ending the event streams and long polls of a key that stopped working, on every replica.

A key is replaced by another process as often as by this one (``crewline member key``
writes the store directly) and, on PostgreSQL, on another replica. Two paths reach an open
reader:

- the revocation's own last event (``key_revoked``; the concierge's ``stop``) wakes it like
  any event: at once in this process, and through PostgreSQL's notification of the event's
  commit on every other replica. The reader sends it and ends.
- this watch: while any reader is open, it asks the store every ``interval`` seconds which
  of their sessions are still live, and ends the readers of the others. It catches what
  notifies nobody: a revocation made by another process on SQLite, a member removed (its
  sessions go with it, with no event).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from crewline.bot.feed import EventFeed
from crewline.store import Store

__all__ = ["RevocationWatch"]

log = logging.getLogger(__name__)

INTERVAL = 0.5  # seconds between checks while a reader is open


class RevocationWatch:
    """``async with RevocationWatch(feed, store)``: checks the open readers' keys."""

    def __init__(self, feed: EventFeed, store: Store, *, interval: float = INTERVAL) -> None:
        self.feed = feed
        self.store = store
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> RevocationWatch:
        self._task = asyncio.create_task(self._watch(), name="revocations")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def check(self) -> frozenset[str]:
        """End the readers of every open session whose key no longer works; returns them."""
        open_now = self.feed.readers()
        if not open_now:
            return frozenset()
        gone = open_now - await self.store.live_sessions(open_now)
        if gone:
            log.info("ending %d open event reader(s) whose key was revoked", len(gone))
            self.feed.end(gone)
        return gone

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.check()
            except Exception as error:  # the store failing: the next check tries again
                log.warning("checking the open readers' keys failed: %s", error)
