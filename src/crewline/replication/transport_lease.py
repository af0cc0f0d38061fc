"""A transport that holds its platform's one connection, run by one replica at a time.

Telegram lets one consumer long-poll a bot (a second gets 409 Conflict) and a Discord bot's
gateway session is one connection. With several replicas, each such transport runs under
the lease ``transport:<name>``: the replica holding it starts the transport and its outbox,
renews the lease every third of its time to live, and stops both the moment it cannot
renew (taken over, or the database unreachable until the lease would have expired as seen
from before the last renewal was sent, which is no later than the database lets anyone
else take it). The others try to take it every third of the time to live, so a holder that
died is replaced within about ``ttl`` + ``ttl / 3`` seconds.

Stopping when the renewal fails is not enough when the holder's event loop stalls: the
lease expires during the stall, another replica takes over, and whichever task of the
holder runs first afterwards — the poller, say — would use the connection before the
renewal's task could notice. So the lease is also a *fence* the transport consults before
each use (:class:`crewline.transports.base.Fence`): ``remaining()`` is what is left of the
lease by this replica's own monotonic clock, and a transport starts nothing it could not
finish ``margin`` seconds before that deadline (Telegram's long poll waits for the next
renewal instead), so after a stall it finds its time gone and asks the platform nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from crewline.errors import ConfigError
from crewline.replication.replicas import Coordination, Lease
from crewline.tasks import cancel_and_wait

__all__ = ["TRANSPORT_LEASE_TTL", "LeaseStatus", "TransportLease"]

log = logging.getLogger(__name__)

TRANSPORT_LEASE_TTL = 10.0  # seconds
MAX_MARGIN = 1.0  # seconds a use of the connection keeps in hand before the lease's deadline


@dataclass(frozen=True, kw_only=True, slots=True)
class LeaseStatus:
    """Whether this replica runs the transport, and since which takeover."""

    held: bool
    epoch: int | None
    takeovers: int  # how many times this replica took the lease
    last_error: str | None


class TransportLease:
    """Runs ``start()`` while this replica holds ``transport:<name>``, and ``stop()`` as
    soon as it may no longer. Use as ``async with``; leaving stops and releases."""

    def __init__(
        self,
        coordination: Coordination,
        name: str,
        *,
        start: Callable[[], Awaitable[None]],
        stop: Callable[[], Awaitable[None]],
        ttl: float = TRANSPORT_LEASE_TTL,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``monotonic``: this replica's clock for the lease's deadline (a test moves it on,
        as a stalled event loop finds it moved on)."""
        self.coordination = coordination
        self.name = name
        self.lease_name = f"transport:{name}"
        self.ttl = ttl
        # Kept in hand for a request's way to the platform and a short stall; a sixth of a
        # short lease, so a poll of a third of it still fits between two renewals.
        self.margin = min(MAX_MARGIN, ttl / 6)
        self._monotonic = monotonic
        self._deadline: float | None = None  # by this clock: when the others may take over
        self._start = start
        self._stop = stop
        self._lease: Lease | None = None
        self._running = False
        self._takeovers = 0
        self._last_error: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()

    async def __aenter__(self) -> TransportLease:
        # The first attempt runs here, so a transport that cannot start at all (a refused
        # token: ConfigError) stops crewline at start, as it does without replicas; any
        # other failure is retried by the loop like a later one.
        held_since: float | None = None
        try:
            held_since = await self._take()
        except ConfigError:
            raise
        except Exception as error:
            self._failed(error)
        self._task = asyncio.create_task(self._run(held_since), name=f"lease-{self.name}")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await cancel_and_wait(self._task)
        await self._give_up(release=True)

    def status(self) -> LeaseStatus:
        return LeaseStatus(
            held=self._running,
            epoch=self._lease.epoch if self._lease else None,
            takeovers=self._takeovers,
            last_error=self._last_error,
        )

    def remaining(self) -> float:
        """Seconds this replica may still use the transport (0: it may not)."""
        if self._deadline is None:
            return 0.0
        return max(0.0, self._deadline - self._monotonic())

    async def runway(self, seconds: float) -> bool:
        """Wait until this replica may use the transport for ``seconds`` more (True), which
        takes until the next renewal when too little of the lease is left; False as soon as
        it holds the lease no longer (its transport is being stopped), or when no renewal
        came within the ttl (the caller may ask again)."""
        with contextlib.suppress(TimeoutError):  # a renewal comes every third of the ttl
            async with asyncio.timeout(self.ttl), self._changed:
                await self._changed.wait_for(  # no renewal comes once it is being given up
                    lambda: self._lease is None or self.remaining() >= seconds
                )
        return self.remaining() >= seconds

    async def wait(self, *, held: bool, timeout: float) -> None:
        """Wait (bounded) until this replica runs the transport (``held``) or does not."""
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(lambda: self._running == held)

    async def _run(self, held_since: float | None) -> None:
        while True:
            try:
                if held_since is None:
                    held_since = await self._take()
                if held_since is not None:
                    await self._hold(held_since)  # returns once the lease is lost
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database or the transport: try again later
                self._failed(error)
            held_since = None
            await asyncio.sleep(self.ttl / 3)

    def _failed(self, error: Exception) -> None:
        self._last_error = f"{type(error).__name__}: {error}"
        log.warning("lease %s: %s", self.lease_name, self._last_error)

    async def _take(self) -> float | None:
        """Take the lease and start the transport: when the request for it was sent, or
        None when another replica holds it."""
        sent = self._monotonic()
        lease = await self.coordination.acquire(self.lease_name, self.ttl)
        if lease is None:
            return None
        self._lease, self._deadline = lease, sent + self.ttl
        self._takeovers += 1
        log.info("lease %s: held here (epoch %d); starting", self.lease_name, lease.epoch)
        try:
            async with asyncio.timeout(max(0.0, sent + self.ttl - self._monotonic())):
                await self._start()
        except BaseException:
            await self._give_up(release=True)
            raise
        self._running = True
        self._last_error = None
        await self._notify()
        return sent

    async def _hold(self, sent: float) -> None:
        """Renew until the lease is lost; then stop at once."""
        assert self._lease is not None
        expires = sent + self.ttl  # as this replica must assume: from before the request
        while True:
            await asyncio.sleep(max(0.0, sent + self.ttl / 3 - self._monotonic()))
            renewed, why = False, "its deadline passed before it could renew (a stall?)"
            # After a stall the deadline may have passed already: no renewal then (the lease
            # may be another replica's by now), and the fence has kept the transport idle.
            while not renewed and self._monotonic() < expires:
                sent = self._monotonic()
                try:
                    async with asyncio.timeout(max(0.01, expires - sent)):
                        renewed = await self.coordination.renew(self._lease, self.ttl)
                    if not renewed:
                        why = "taken over"  # another replica holds it now
                        break
                except TimeoutError:
                    why = "the renewal did not answer before the deadline"
                    break
                except Exception as error:  # unreachable: keep trying until it expires
                    self._last_error = why = f"{type(error).__name__}: {error}"
                    await asyncio.sleep(min(0.5, max(0.0, expires - self._monotonic())))
            if not renewed:
                log.warning("lease %s: lost (%s); stopping", self.lease_name, why)
                await self._give_up(release=False)
                return
            expires = self._deadline = sent + self.ttl
            await self._notify()  # a use waiting for its runway may go on

    async def _give_up(self, *, release: bool) -> None:
        lease, self._lease = self._lease, None
        if not release or self.remaining() < self.margin:
            await self._fence_off()  # lost: the transport is stopped without another call
        if self._running:
            self._running = False
            try:
                await self._stop()  # still held when released: it may confirm what it handled
            except Exception:
                log.exception("lease %s: stopping the transport failed", self.lease_name)
            await self._notify()
        await self._fence_off()
        if release and lease is not None:
            with contextlib.suppress(Exception):  # it expires anyway
                await self.coordination.release(lease)

    async def _fence_off(self) -> None:
        if self._deadline is not None:
            self._deadline = None
            await self._notify()  # a use waiting for its runway gives up

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()
