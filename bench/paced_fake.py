"""A fake platform that enforces a per-thread rate limit the way Slack and Telegram do.

Each thread accepts one message call (post or update) per ``interval`` seconds; a call that
comes sooner is refused with ``RateLimited(retry_after=<the rest of the interval>)`` — a
429 with ``Retry-After`` — and changes nothing. Bells and the roster are not limited here
(they are not what this benchmark measures). It keeps what a benchmark checks: every card
by key, duplicates, and the 429 count.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Sequence
from datetime import datetime

from crewline.errors import RateLimited
from crewline.models import Bell, Member, OutboundMessage, RosterEntry
from crewline.transports.base import DeliveryLimits, HumanEventSink, Transport

__all__ = ["PacedFakeTransport"]


class PacedFakeTransport(Transport):
    """``advertise``: whether ``limits`` tells the outbox the interval (as the platform
    transports do), or the outbox must learn it from the 429s. ``latency``: seconds each
    call takes, as a platform's API round trip would."""

    def __init__(
        self,
        name: str = "paced",
        *,
        interval: float,
        advertise: bool = True,
        latency: float = 0.0,
    ) -> None:
        self.name = name
        self.interval = interval
        self.latency = latency
        self.limits = DeliveryLimits(per_thread_interval=interval if advertise else 0.0)
        self.cards: dict[str, float] = {}  # key -> when the platform accepted it
        self.duplicates = 0
        self.rate_limited = 0
        self.calls = 0
        self._last: dict[str, float] = {}
        self._refs: dict[str, str] = {}
        self._ids = itertools.count(1)

    async def start(self, sink: HumanEventSink) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def open_thread(self, member: Member) -> str:
        return f"thread-{member.slug}"

    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        await self._call(thread)
        if key in self._refs:
            if retry:
                return self._refs[key]  # the look-before-posting a retry must do
            self.duplicates += 1
        ref = f"msg-{next(self._ids)}"
        self._refs[key] = ref
        if message.kind == "card":
            self.cards.setdefault(key, time.monotonic())
        return ref

    async def update(self, thread: str, message_ref: str, message: OutboundMessage) -> None:
        await self._call(thread)

    async def ring(self, bell: Bell, *, message_ref: str | None) -> str:
        return message_ref or f"bell-{next(self._ids)}"

    async def show_roster(self, roster: Sequence[RosterEntry]) -> None:
        return None

    async def _call(self, thread: str) -> None:
        """One API call into ``thread``: admitted by the per-thread limit, or a 429."""
        self.calls += 1
        if self.latency:
            await asyncio.sleep(self.latency)
        now = time.monotonic()
        last = self._last.get(thread)
        if last is not None and now - last < self.interval:
            self.rate_limited += 1
            retry_after = self.interval - (now - last)
            raise RateLimited(
                f"rate limited in {thread}; retry after {retry_after:.3f}s",
                retry_after=retry_after,
            )
        self._last[thread] = now
