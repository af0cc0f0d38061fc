"""PostgresCoordination: leases and cross-replica wake-ups on the crewline database.

Leases are rows of ``crewline_leases`` (migration ``004_replicas``), taken and renewed by
single conditional statements judged by the database's clock, so replicas' clocks need not
agree; shared rate budgets are rows of ``crewline_pacing``, a turn reserved likewise.
Wake-ups are PostgreSQL notifications: a trigger on ``events`` notifies
``crewline_events`` with the committing connection's ``application_name`` and the session,
delivered only once the transaction commits; each replica LISTENs on a connection of its
own and skips what it sent itself. A session's answer to a context boundary is notified on
the same channel (``boundary:<id>`` in place of the session, by ``PostgresTx``), so the
replica waiting for it goes on at once; so is a setting written with ``announce``
(``setting:<key>``), to every replica, the one that wrote it too. When that connection
drops, the listener reconnects with back-off and then wakes every reader (and every
setting's watcher), since notifications sent meanwhile are lost.

A lane's lease may be taken at once from a holder that is gone (``acquire(from_gone=True)``):
an earlier run of this replica's name, as registered in ``crewline_incarnations`` when a
run starts (migration ``010_incarnations``), or a holder with no backend in
``pg_stat_activity`` under its ``application_name`` (its process died: PostgreSQL ends a
backend whose client closed the socket at once). The taker notifies ``crewline_leases``;
the holder it was taken from hears it on its listening connection and drops the lane.
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

from crewline.replication.replicas import Coordination, Lease, LeaseView, replica_of
from crewline.store.sql.settings import SETTING_KEY
from crewline.tasks import cancel_and_wait

__all__ = [
    "BOUNDARY_KEY",
    "CHANNEL",
    "PostgresCoordination",
    "lease_views",
    "names_run_twice",
    "with_application_name",
]

log = logging.getLogger(__name__)

CHANNEL = "crewline_events"
LEASES_CHANNEL = "crewline_leases"  # a lease taken from a gone holder; a name started again
BOUNDARY_KEY = "boundary:"  # a notification about a boundary's answers, not a session's events
RECONNECT_MAX = 5.0  # seconds between attempts to listen again

# Whether the lease may be taken: free, ours, expired, or (``from_gone``) held by a run that
# is gone. Judged twice: before the insert (a lease held elsewhere is refused by a plain
# read, writing nothing) and again on the conflicting row under its lock (the same test,
# now atomic). A refusal by the upsert alone would lock the row, so each refused attempt
# (a replica looking at a lane another one sends) cost a transaction id and a WAL flush.
_TAKEABLE = """(l.holder IS NULL OR l.holder = {holder} OR l.expires_at < clock_timestamp()
    OR (%(from_gone)s AND (
        EXISTS (SELECT 1 FROM crewline_incarnations i
                WHERE i.holder = {holder} AND i.name = split_part(l.holder, '/', 1))
        OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = l.holder))))"""
_ACQUIRE = f"""
INSERT INTO crewline_leases AS l (name, holder, epoch, expires_at, previous)
SELECT %(name)s, %(holder)s, 1, clock_timestamp() + make_interval(secs => %(ttl)s), NULL
WHERE NOT EXISTS (SELECT 1 FROM crewline_leases l
                  WHERE l.name = %(name)s AND NOT {_TAKEABLE.format(holder="%(holder)s")})
ON CONFLICT (name) DO UPDATE SET
    holder = excluded.holder,
    epoch = CASE WHEN l.holder = excluded.holder THEN l.epoch ELSE l.epoch + 1 END,
    expires_at = excluded.expires_at,
    previous = CASE WHEN l.holder = excluded.holder THEN l.previous ELSE l.holder END
WHERE {_TAKEABLE.format(holder="excluded.holder")}
RETURNING epoch, previous
"""
# The leases another run holds now, which _ACQUIRE (from_gone) would refuse: the same test.
_HELD_ELSEWHERE = f"""
SELECT l.name FROM crewline_leases l
WHERE starts_with(l.name, %(prefix)s) AND NOT {_TAKEABLE.format(holder="%(holder)s")}
"""
# The previous run of this replica's name (NULL: the first), as the name is registered.
_INCARNATE = """
WITH prior AS (SELECT holder FROM crewline_incarnations WHERE name = %(name)s FOR UPDATE),
up AS (
    INSERT INTO crewline_incarnations (name, holder, started_at)
    VALUES (%(name)s, %(holder)s, clock_timestamp())
    ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, started_at = excluded.started_at
)
SELECT (SELECT holder FROM prior) AS prior
"""
_TOLD = "SELECT pg_notify(%s, %s)"
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
# Every connection of a serving crewline names itself by its run's holder tag, NAME/8 hex
# digits (replicas.holder_tag); a killed run's connections end with it.
_OTHERS = (
    "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE datname = current_database()"
    " AND application_name ~ '/[0-9a-f]{8}$' AND application_name <> %s) AS others"
)
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


_TWICE = """
SELECT i.name, i.holder AS current,
       array_agg(DISTINCT a.application_name ORDER BY a.application_name) AS runs
FROM crewline_incarnations i
JOIN pg_stat_activity a
  ON a.datname = current_database() AND starts_with(a.application_name, i.name || '/')
GROUP BY i.name, i.holder
HAVING count(DISTINCT a.application_name) > 1
ORDER BY i.name
"""


async def names_run_twice(url: str) -> dict[str, tuple[str, list[str]]]:
    """Replica names under which more than one run is connected now: name -> (its current
    run, every connected run). Two processes started under one name by mistake; the
    earlier run has lost its lanes to the later one (``crewline doctor``)."""
    async with await psycopg.AsyncConnection.connect(
        url, autocommit=True, row_factory=dict_row
    ) as conn:
        cursor = await conn.execute(_TWICE)
        return {r["name"]: (r["current"], list(r["runs"])) for r in await cursor.fetchall()}


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
        self._lease_losers: list[Callable[[str, int, str], None]] = []
        self._presence = 0
        self._superseded_by: str | None = None
        self._boundary_wakers: list[Callable[[Set[str] | None], None]] = []
        self._setting_wakers: list[Callable[[str | None], None]] = []
        self._listener: asyncio.Task[None] | None = None
        self._listening = False
        self._first_listen = asyncio.Event()

    async def __aenter__(self) -> PostgresCoordination:
        pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
            self.url,
            min_size=1,
            max_size=self._pool_size,
            # Named by the holder tag whatever the URL says: how the others see it alive.
            kwargs={"autocommit": True, "row_factory": dict_row, "application_name": self.holder},
            open=False,
        )
        await pool.open(wait=True, timeout=30.0)
        self._pool = pool
        await self._incarnate()
        self._listener = asyncio.create_task(self._listen(), name="replica-notifications")
        # Start serving only once other replicas' commits can reach us (bounded: the
        # readers' own timeouts cover a listener that cannot connect).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10.0):
                await self._first_listen.wait()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await cancel_and_wait(self._listener)
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

    async def _incarnate(self) -> None:
        """Register this run as its name's current one; tell an earlier run, if any."""
        name = replica_of(self.holder)
        rows = await self._execute(_INCARNATE, {"name": name, "holder": self.holder})
        prior = rows[0]["prior"]
        if prior is not None and prior != self.holder:
            await self._execute(_TOLD, (LEASES_CHANNEL, f"{prior}\n\n{self.holder}\n0"))

    async def acquire(self, name: str, ttl: float, *, from_gone: bool = False) -> Lease | None:
        rows = await self._execute(
            _ACQUIRE, {"name": name, "holder": self.holder, "ttl": ttl, "from_gone": from_gone}
        )
        if not rows:
            return None
        previous, epoch = rows[0]["previous"], int(rows[0]["epoch"])
        taken_over = previous is not None and previous != self.holder
        if taken_over and from_gone:
            # Tell the holder it was taken from, should it be alive after all.
            note = f"{previous}\n{name}\n{self.holder}\n{epoch}"
            await self._execute(_TOLD, (LEASES_CHANNEL, note))
        return Lease(name=name, epoch=epoch, taken_over=taken_over)

    async def renew(self, lease: Lease, ttl: float) -> bool:
        rows = await self._execute(_RENEW, (ttl, lease.name, self.holder, lease.epoch))
        return bool(rows[0]["n"])

    async def release(self, lease: Lease) -> None:
        await self._execute(_RELEASE, (lease.name, self.holder, lease.epoch))

    async def pace(self, name: str, interval: float) -> float:
        rows = await self._execute(_PACE, {"name": name, "interval": interval})
        return max(0.0, float(rows[0]["wait"]))

    async def held_elsewhere(self, prefix: str) -> set[str]:
        params = {"prefix": prefix, "holder": self.holder, "from_gone": True}
        return {r["name"] for r in await self._execute(_HELD_ELSEWHERE, params)}

    async def leases(self, prefix: str) -> list[LeaseView]:
        return [_view(r) for r in await self._execute(_VIEW, (prefix,))]

    async def others_running(self) -> bool:
        return bool((await self._execute(_OTHERS, (self.holder,)))[0]["others"])

    # wake-ups -------------------------------------------------------------------------------
    def on_events(self, wake: Callable[[Set[str] | None], None]) -> None:
        self._wakers.append(wake)

    def on_boundary_answers(self, wake: Callable[[Set[str] | None], None]) -> None:
        self._boundary_wakers.append(wake)

    def on_setting_changed(self, wake: Callable[[str | None], None]) -> None:
        self._setting_wakers.append(wake)

    def on_lease_lost(self, lost: Callable[[str, int, str], None]) -> None:
        self._lease_losers.append(lost)

    @property
    def listening(self) -> bool:
        return self._listening

    @property
    def presence(self) -> int:
        return self._presence

    @property
    def superseded_by(self) -> str | None:
        return self._superseded_by

    def _told(self, payload: str) -> None:
        """A note on ``crewline_leases``: a lease taken from a holder, or a name started
        again (no lease)."""
        parts = payload.split("\n")
        if len(parts) != 4 or parts[0] != self.holder:
            return
        _, lease, holder, epoch = parts
        if lease:
            for lost in self._lease_losers:
                lost(lease, int(epoch), holder)
        elif self._superseded_by != holder:
            self._superseded_by = holder
            log.error(
                "another process started as replica %s (%s) while this one (%s) runs: it"
                " takes this one's lanes; two processes must not run under one name",
                replica_of(self.holder),
                holder,
                self.holder,
            )

    def _wake(self, sessions: Set[str] | None) -> None:
        for wake in self._wakers:
            wake(sessions)
        if sessions is None:
            for wake in self._boundary_wakers:
                wake(None)
            for told in self._setting_wakers:
                told(None)

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
                async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, application_name=self.holder
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await conn.execute(f"LISTEN {LEASES_CHANNEL}")
                    self._listening = True
                    self._first_listen.set()
                    delay = 0.1
                    self._wake(None)  # what committed while nobody listened
                    async for note in conn.notifies():
                        if note.channel == LEASES_CHANNEL:
                            self._told(note.payload)
                            continue
                        origin, _, key = note.payload.partition("\n")
                        if key.startswith(SETTING_KEY):  # whoever wrote it: no reader skips it
                            for told in self._setting_wakers:
                                told(key.removeprefix(SETTING_KEY))
                        elif origin != self.holder:
                            self._notified(key)
            except psycopg.Error as error:
                log.warning("listening for other replicas' events failed: %s", error)
            finally:
                if self._listening:
                    self._presence += 1  # seen as gone meanwhile? the lanes ask again
                self._listening = False
            await asyncio.sleep(delay)
            delay = min(RECONNECT_MAX, delay * 2)
