"""PostgresCoordination: leases and cross-replica wake-ups on the crewline database.

Leases are rows of ``crewline_leases`` (migration ``004_replicas``), taken and renewed by
single conditional statements judged by the database's clock, so replicas' clocks need not
agree; shared rate budgets are rows of ``crewline_pacing``, a turn reserved likewise.
Wake-ups are PostgreSQL notifications: a trigger on ``events`` notifies
``crewline_events`` with the committing connection's ``application_name`` and the session,
delivered only once the transaction commits; each replica LISTENs on a connection of its
own and skips what it sent itself. A session's answer to a context boundary is notified on
the same channel (``boundary:<id>`` in place of the session, by ``PostgresTx``), so the
replica waiting for it goes on at once. When that connection drops, the listener reconnects
with back-off and then wakes every reader, since notifications sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Set
from typing import Any
from urllib.parse import quote

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from crewline.replicas import Coordination, Lease, LeaseView

__all__ = [
    "BOUNDARY_KEY",
    "CHANNEL",
    "PostgresCoordination",
    "lease_views",
    "with_application_name",
]

log = logging.getLogger(__name__)

CHANNEL = "crewline_events"
BOUNDARY_KEY = "boundary:"  # a notification about a boundary's answers, not a session's events
RECONNECT_MAX = 5.0  # seconds between attempts to listen again

_ACQUIRE = """
INSERT INTO crewline_leases AS l (name, holder, epoch, expires_at, previous)
VALUES (%(name)s, %(holder)s, 1, clock_timestamp() + make_interval(secs => %(ttl)s), NULL)
ON CONFLICT (name) DO UPDATE SET
    holder = excluded.holder,
    epoch = CASE WHEN l.holder = excluded.holder THEN l.epoch ELSE l.epoch + 1 END,
    expires_at = excluded.expires_at,
    previous = CASE WHEN l.holder = excluded.holder THEN l.previous ELSE l.holder END
WHERE l.holder IS NULL OR l.holder = excluded.holder OR l.expires_at < clock_timestamp()
RETURNING epoch, previous
"""
_RENEW = (
    "UPDATE crewline_leases SET expires_at = clock_timestamp() + make_interval(secs => %s)"
    " WHERE name = %s AND holder = %s AND epoch = %s"
)
_RELEASE = (
    "UPDATE crewline_leases SET holder = NULL, previous = NULL, expires_at = clock_timestamp()"
    " WHERE name = %s AND holder = %s AND epoch = %s"
)
# The turn reserved is the later of now and the budget's next free turn; next_at moves one
# interval past it. The wait is that turn, as seen by the database's clock.
_PACE = """
INSERT INTO crewline_pacing AS p (name, next_at)
VALUES (%(name)s, clock_timestamp() + make_interval(secs => %(interval)s))
ON CONFLICT (name) DO UPDATE SET
    next_at = greatest(p.next_at, clock_timestamp()) + make_interval(secs => %(interval)s)
RETURNING extract(epoch FROM next_at - clock_timestamp())::float8 - %(interval)s AS wait
"""
_VIEW = (
    "SELECT name, holder, epoch,"
    " extract(epoch FROM expires_at - clock_timestamp())::float8 AS expires_in"
    " FROM crewline_leases WHERE starts_with(name, %s) ORDER BY name"
)


async def lease_views(url: str, prefix: str) -> list[LeaseView]:
    """The leases whose names start with ``prefix``, read on a connection of its own
    (``crewline doctor``, which runs beside the replicas rather than as one)."""
    async with await psycopg.AsyncConnection.connect(
        url, autocommit=True, row_factory=dict_row
    ) as conn:
        cursor = await conn.execute(_VIEW, (prefix,))
        return [_view(r) for r in await cursor.fetchall()]


def _view(row: dict[str, Any]) -> LeaseView:
    return LeaseView(
        name=row["name"],
        holder=row["holder"],
        epoch=int(row["epoch"]),
        expires_in=float(row["expires_in"]),
    )


def with_application_name(url: str, name: str) -> str:
    """``url`` whose connections name themselves ``name`` (in ``pg_stat_activity``, and in
    the event notifications, so a replica can tell its own)."""
    return f"{url}{'&' if '?' in url else '?'}application_name={quote(name, safe='')}"


class PostgresCoordination(Coordination):
    """``url``: the database; ``holder``: this run's holder tag, which is also the
    ``application_name`` of this replica's store connections (see ``with_application_name``)."""

    def __init__(self, url: str, holder: str, *, pool_size: int = 4) -> None:
        self.url = url
        self.holder = holder
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._pool_size = pool_size
        self._wakers: list[Callable[[Set[str] | None], None]] = []
        self._boundary_wakers: list[Callable[[Set[str] | None], None]] = []
        self._listener: asyncio.Task[None] | None = None
        self._listening = False
        self._first_listen = asyncio.Event()

    async def __aenter__(self) -> PostgresCoordination:
        pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
            self.url,
            min_size=1,
            max_size=self._pool_size,
            kwargs={"autocommit": True, "row_factory": dict_row},
            open=False,
        )
        await pool.open(wait=True, timeout=30.0)
        self._pool = pool
        self._listener = asyncio.create_task(self._listen(), name="replica-notifications")
        # Start serving only once other replicas' commits can reach us (bounded: the
        # readers' own timeouts cover a listener that cannot connect).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10.0):
                await self._first_listen.wait()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        if self._pool is not None:
            await self._pool.close()
        self._pool = self._listener = None

    # leases ---------------------------------------------------------------------------------
    async def _execute(self, sql: str, params: Any) -> list[dict[str, Any]]:
        if self._pool is None:
            raise RuntimeError("the coordination is not open")
        async with self._pool.connection() as conn:
            cursor = await conn.execute(sql, params)
            return await cursor.fetchall() if cursor.description else [{"n": cursor.rowcount}]

    async def acquire(self, name: str, ttl: float) -> Lease | None:
        rows = await self._execute(_ACQUIRE, {"name": name, "holder": self.holder, "ttl": ttl})
        if not rows:
            return None
        previous = rows[0]["previous"]
        return Lease(
            name=name,
            epoch=int(rows[0]["epoch"]),
            taken_over=previous is not None and previous != self.holder,
        )

    async def renew(self, lease: Lease, ttl: float) -> bool:
        rows = await self._execute(_RENEW, (ttl, lease.name, self.holder, lease.epoch))
        return bool(rows[0]["n"])

    async def release(self, lease: Lease) -> None:
        await self._execute(_RELEASE, (lease.name, self.holder, lease.epoch))

    async def pace(self, name: str, interval: float) -> float:
        rows = await self._execute(_PACE, {"name": name, "interval": interval})
        return max(0.0, float(rows[0]["wait"]))

    async def leases(self, prefix: str) -> list[LeaseView]:
        return [_view(r) for r in await self._execute(_VIEW, (prefix,))]

    # wake-ups -------------------------------------------------------------------------------
    def on_events(self, wake: Callable[[Set[str] | None], None]) -> None:
        self._wakers.append(wake)

    def on_boundary_answers(self, wake: Callable[[Set[str] | None], None]) -> None:
        self._boundary_wakers.append(wake)

    @property
    def listening(self) -> bool:
        return self._listening

    def _wake(self, sessions: Set[str] | None) -> None:
        for wake in self._wakers:
            wake(sessions)
        if sessions is None:
            for wake in self._boundary_wakers:
                wake(None)

    def _notified(self, key: str) -> None:
        if key.startswith(BOUNDARY_KEY):
            for wake in self._boundary_wakers:
                wake({key.removeprefix(BOUNDARY_KEY)})
        else:
            self._wake({key})

    async def _listen(self) -> None:
        delay = 0.1
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening = True
                    self._first_listen.set()
                    delay = 0.1
                    self._wake(None)  # what committed while nobody listened
                    async for note in conn.notifies():
                        origin, _, key = note.payload.partition("\n")
                        if origin != self.holder:
                            self._notified(key)
            except psycopg.Error as error:
                log.warning("listening for other replicas' events failed: %s", error)
            finally:
                self._listening = False
            await asyncio.sleep(delay)
            delay = min(RECONNECT_MAX, delay * 2)
