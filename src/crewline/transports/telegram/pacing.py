"""Pacing per chat: Telegram's flood limit counts messages into a chat, not into a thread.

The outbox paces each lane (a member's thread, its bell, the roster), but on Telegram
several lanes share one chat: every member's topic lives in the owner's private chat, next
to the bells and the status message. The pacer makes the calls into one chat take turns,
one at a time and ``interval`` apart from the end of the previous one (a call that is slow to
arrive must not squeeze the next one against it), and a 429 ``retry_after`` holds back the
whole chat, not only the lane that hit it.

With several replicas each paces its own calls; ``shared`` (set by crewline on a shared
PostgreSQL) also reserves each call's turn of the chat in the database, so the replicas'
calls into one chat together keep ``interval`` apart (a chat's limit is the bot's, not a
replica's). A 429's ``retry_after`` is the bot's too: the replica that got it reserves a
turn that long, so every replica's next call into the chat waits it out.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

__all__ = ["ChatPacer"]

log = logging.getLogger(__name__)


class ChatPacer:
    """Spaces calls into one chat ``interval`` seconds apart, in the order they asked."""

    def __init__(self, interval: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock
        self._next: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        # ``shared(name, interval)``: the seconds until this call's turn of ``name`` across
        # every replica (crewline.replication.replicas.Coordination.pace); None with one process.
        self.shared: Callable[[str, float], Awaitable[float]] | None = None

    @asynccontextmanager
    async def turn(self, chat_id: int) -> AsyncIterator[None]:
        """Make one call into ``chat_id`` inside this block, when its turn has come."""
        if self.interval <= 0 and self._next.get(chat_id, 0.0) <= self.clock():
            yield
            return
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        async with lock:  # FIFO: callers get their turns in the order they asked
            wait = self._next.get(chat_id, 0.0) - self.clock()
            while wait > 0:  # a hold that came meanwhile moves the turn on
                await asyncio.sleep(wait)
                wait = self._next.get(chat_id, 0.0) - self.clock()
            if self.shared is not None and self.interval > 0:
                shared_wait = await self.shared(f"telegram:chat:{chat_id}", self.interval)
                if shared_wait > 0:
                    await asyncio.sleep(shared_wait)
            try:
                yield
            finally:
                ready = self.clock() + self.interval
                self._next[chat_id] = max(self._next.get(chat_id, 0.0), ready)

    def hold(self, chat_id: int, seconds: float) -> None:
        """Telegram said to wait: no call into this chat for ``seconds``."""
        self._next[chat_id] = max(self._next.get(chat_id, 0.0), self.clock() + seconds)

    async def hold_everywhere(self, chat_id: int, seconds: float) -> None:
        """``hold``, and on a shared database also for every replica: a turn ``seconds``
        long is reserved in the chat's budget (best effort: each replica would otherwise
        learn it from its own 429)."""
        self.hold(chat_id, seconds)
        if self.shared is None or self.interval <= 0:
            return  # without a chat interval the replicas do not consult the budget
        try:
            await self.shared(f"telegram:chat:{chat_id}", seconds)
        except Exception as error:
            log.warning("telegram: sharing the hold on chat %s failed: %s", chat_id, error)
