"""The veto-window timers, on APScheduler 3's in-memory job store.

The store holds every deadline; APScheduler holds timers only for the windows due within
the horizon. At start every window already past is closed, then the horizon is armed, and
an interval job re-arms the next horizon. Memory is bounded by the windows due within one
horizon, not by the number of open windows, and a restart loses nothing.

Two clocks meet here: a window is due by crewline's clock (the hub's, injected), while
APScheduler waits by the wall clock. A timer is armed for the time left by crewline's clock,
and a timer that fires before its window is due by that clock is armed again for the time
still left, so a window never waits for the next horizon because the clocks disagree.

The same scheduler runs the sweep that forgets platform events' dedupe marks (and the
receipts kept beside them) once they are older than ``bot.receipts.KEEP_FOR``: at start
and every ``forget_every``, off every event's transaction (bot/receipts.py).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from crewline.bot import receipts
from crewline.ops.metrics import Metrics

if TYPE_CHECKING:
    from crewline.bot.hub import Hub

__all__ = ["WindowScheduler", "Windows"]

log = logging.getLogger(__name__)

# The shortest wait of a timer armed again after firing early: a clock that stands still
# just short of a deadline (a test's) must not turn the timer into a busy loop.
EARLY_RETRY = timedelta(milliseconds=50)


class Windows(Protocol):
    """What closes veto windows (the escalations feature)."""

    async def close_window(self, escalation_id: str) -> None:
        """Close the record's window if it is due (idempotent)."""
        ...

    async def close_due_windows(self) -> int:
        """Close every window already past; returns how many."""
        ...


class WindowScheduler:
    """Use as ``async with WindowScheduler(hub, windows)``; the hub tells it about new
    windows after their commit, and ``windows`` closes them."""

    def __init__(
        self,
        hub: Hub,
        windows: Windows,
        *,
        horizon: timedelta = timedelta(minutes=10),
        forget_every: timedelta = timedelta(hours=1),
        metrics: Metrics | None = None,
    ) -> None:
        """``metrics``, when given, is told how late each window closed (by the hub's
        clock)."""
        self.hub = hub
        self.windows = windows
        self.horizon = horizon
        self.forget_every = forget_every
        self.metrics = metrics
        self._scheduler = AsyncIOScheduler(timezone="UTC")
        self._armed_until: datetime | None = None

    async def __aenter__(self) -> WindowScheduler:
        self.hub.on_deadline(self.arm)
        self._scheduler.start()
        closed = await self._sweep()
        if closed:
            log.info("closed %d veto windows that passed while crewline was down", closed)
        await self.rearm()
        self._scheduler.add_job(
            self.rearm,
            "interval",
            seconds=self.horizon.total_seconds() / 2,
            id="rearm-horizon",
            coalesce=True,
            max_instances=1,
        )
        await self.forget_seen()  # a process restarted often must not put it off for ever
        self._scheduler.add_job(
            self.forget_seen,
            "interval",
            seconds=self.forget_every.total_seconds(),
            id="forget-seen-events",
            coalesce=True,
            max_instances=1,
        )
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._scheduler.shutdown(wait=False)

    @property
    def armed(self) -> int:
        """How many window timers are held in memory now."""
        return len([j for j in self._scheduler.get_jobs() if j.id.startswith("window:")])

    def arm(self, escalation_id: str, deadline: datetime) -> None:
        """Hold a timer for a window if it falls within the armed horizon."""
        if self._armed_until is None or deadline <= self._armed_until:
            self._hold(escalation_id, deadline)

    def _hold(
        self, escalation_id: str, deadline: datetime, *, at_least: timedelta = timedelta(0)
    ) -> None:
        # The wait is measured by crewline's clock; APScheduler counts it on its own.
        left = max(deadline - self.hub.clock.now(), at_least)
        self._scheduler.add_job(
            self._close,
            "date",
            run_date=datetime.now(UTC) + left,
            args=[escalation_id, deadline],
            id=f"window:{escalation_id}",
            replace_existing=True,
            misfire_grace_time=None,
        )

    async def rearm(self) -> None:
        """Close what is due and arm the windows due before the next horizon."""
        now = self.hub.clock.now()
        until = now + self.horizon
        await self._sweep()
        self._armed_until = until
        for escalation_id, _, deadline in await self.hub.store.due_windows(until):
            self.arm(escalation_id, deadline)

    async def forget_seen(self) -> int:
        """Forget the dedupe marks and receipts past their keeping; returns how many."""
        try:
            forgotten = await receipts.forget_expired(self.hub.store, self.hub.clock.now())
        except Exception:
            log.exception("forgetting old platform event marks failed (retried next sweep)")
            return 0
        if forgotten:
            log.info("forgot %d platform event marks older than %s", forgotten, receipts.KEEP_FOR)
        return forgotten

    async def _sweep(self) -> int:
        """Close every window already past; returns how many."""
        due = await self.hub.store.due_windows(self.hub.clock.now()) if self.metrics else []
        closed = await self.windows.close_due_windows()
        self._observe([deadline for _, _, deadline in due])
        return closed

    async def _close(self, escalation_id: str, deadline: datetime) -> None:
        if deadline > self.hub.clock.now():
            # Early by crewline's clock (it runs behind the wall clock): not due yet.
            if self.metrics is not None:
                self.metrics.window_timers_early.inc()
            self._hold(escalation_id, deadline, at_least=EARLY_RETRY)
            return
        try:
            await self.windows.close_window(escalation_id)
        except Exception:
            # The sweep at the next re-arm retries it; a window is never lost.
            log.exception("closing veto window %s failed", escalation_id)
        else:
            self._observe([deadline])

    def _observe(self, deadlines: list[datetime]) -> None:
        if self.metrics is not None:
            now = self.hub.clock.now()
            for deadline in deadlines:
                lateness = (now - deadline).total_seconds()
                self.metrics.window_lateness.observe(max(0.0, lateness))
