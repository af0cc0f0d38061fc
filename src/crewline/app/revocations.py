"""Ending the event streams and long polls of a key that stopped working, on every replica.

A key is replaced by another process as often as by this one (``crewline member key``
writes the store directly) and, on PostgreSQL, on another replica. Two paths reach an open
reader:

- the revocation's own last event (``key_revoked``; the concierge's ``stop``) wakes it like
  any event: at once in this process, and through PostgreSQL's notification of the event's
  commit on every other replica. The reader sends it and ends.
- :func:`end_revoked_readers`, which the server runs whenever it notices a crew write made
  by another process (``crewline.app.crew_watch``: a key issued, a member removed — whose
  sessions go with it, with no event), before it wakes the readers: so a reader whose key
  stopped working ends with ``key_revoked`` instead of reading on.
"""

from __future__ import annotations

import logging

from crewline.bot.feed import EventFeed
from crewline.store import Store

__all__ = ["end_revoked_readers"]

log = logging.getLogger(__name__)


async def end_revoked_readers(feed: EventFeed, store: Store) -> frozenset[str]:
    """End the readers of every open session whose key no longer works; returns them."""
    open_now = feed.readers()
    if not open_now:
        return frozenset()
    gone = open_now - await store.live_sessions(open_now)
    if gone:
        log.info("ending %d open event reader(s) whose key was revoked", len(gone))
        feed.end(gone)
    return gone
