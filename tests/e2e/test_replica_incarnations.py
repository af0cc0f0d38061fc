"""Lanes need not wait out a gone replica's lease: a replica started again under its name
takes the lanes its earlier run holds at once; that earlier run, if alive after all (two
processes under one name), stops sending there the moment it hears so, can never take them
back, and says so (log, ``/readyz``, ``crewline doctor``); and a replica killed with SIGKILL
leaves its lanes to another replica as soon as PostgreSQL has closed its connections, long
before the lane's lease would expire."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path

import httpx
import psycopg
import pytest

from crewline.app.server import Crewline
from crewline.config import Config
from crewline.ops.doctor import examine
from crewline.replication.replicas import LANE_TTL, Claim, LaneClaims, holder_tag
from crewline.store.postgres import PostgresStore
from crewline.store.postgres_coordination import PostgresCoordination
from crewline.testing import FakeClock
from tests.bounds import HTTP_TIMEOUT
from tests.e2e.replica_kit import WAIT, until
from tests.pg_cluster import end_listening

log = logging.getLogger(__name__)


async def _migrated(url: str) -> None:
    async with PostgresStore(url):
        pass


def _connected(url: str, holder: str) -> int:
    """How many backends the run ``holder`` has in the database now."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (holder,)
        ).fetchone()
    assert row is not None
    return int(row[0])


async def _now(value: bool) -> bool:
    return value


def _seconds_since(url: str, lease: str) -> float:
    """Seconds since ``lease`` was last taken, by the database's clock."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT extract(epoch FROM clock_timestamp() - expires_at)::float8 + %s"
            " FROM crewline_leases WHERE name = %s",
            (LANE_TTL, lease),
        ).fetchone()
    assert row is not None
    return float(row[0])


async def test_a_replica_started_again_takes_its_lanes_at_once_and_fences_the_old_run(
    postgres_url: str,
) -> None:
    await _migrated(postgres_url)
    async with PostgresCoordination(postgres_url, holder_tag("a")) as first:
        lanes = LaneClaims(first, "outbox:slack:")
        assert await lanes.hold("radar") is Claim.HELD
        async with PostgresCoordination(postgres_url, holder_tag("b")) as other:
            # Precondition: a live holder's lane is not taken by another name.
            assert await LaneClaims(other, "outbox:slack:").hold("radar") is Claim.ELSEWHERE
        lost = asyncio.Event()
        first.on_lease_lost(lambda lease, epoch, holder: lost.set())

        async with PostgresCoordination(postgres_url, holder_tag("a")) as second:
            # At once, with the lease ~30 s from expiring and its first run still connected.
            assert _connected(postgres_url, first.holder) > 0
            assert await LaneClaims(second, "outbox:slack:").hold("radar") is Claim.TAKEN_OVER
            async with asyncio.timeout(WAIT):
                await lost.wait()
            # Fenced: it asks the database again (its renewal was not due for 10 s) and the
            # lane is elsewhere; it knows a later run of its name runs.
            assert await lanes.hold("radar") is Claim.ELSEWHERE
            assert first.superseded_by == second.holder
            # It can never take the lane back, even as "gone"-taking.
            assert await first.acquire("outbox:slack:radar", LANE_TTL, from_gone=True) is None
            [view] = await second.leases("outbox:slack:radar")
            assert view.holder == second.holder and view.epoch == 2


async def test_two_processes_under_one_name_are_reported_by_readyz_and_doctor(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    config = Config(
        data_dir=tmp_path, port=0, transports=(), database_url=postgres_url, replica_id="a"
    )

    def run(directory: str) -> Crewline:
        return Crewline(
            replace(config, data_dir=tmp_path / directory), clock=clock, concierge=False
        )

    async with run("one") as one:
        assert (await _readyz(one))[0] == 200  # precondition: alone, ready
        found = {f.check: f for f in await examine(replace(config, data_dir=tmp_path / "one"))}
        assert "replica:a" not in found, found
        async with run("two") as two:
            assert two.coordination is not None and one.coordination is not None
            later = two.coordination.holder
            coordination = one.coordination
            await until(lambda: _now(coordination.superseded_by is not None))  # its listener
            status, checks = await _readyz(one)
            assert status == 503 and not checks["replica"]["ok"]
            assert later in str(checks["replica"]["detail"]), checks
            assert (await _readyz(two))[0] == 200  # the later run is the one in charge
            found = {f.check: f for f in await examine(replace(config, data_dir=tmp_path / "two"))}
            twice = found["replica:a"]
            assert twice.status == "fail" and later in twice.detail, twice
            assert one.coordination.holder in twice.detail, twice


async def _readyz(replica: Crewline) -> tuple[int, dict[str, dict[str, object]]]:
    async with httpx.AsyncClient(base_url=replica.url, timeout=HTTP_TIMEOUT) as client:
        response = await client.get("/readyz")
    checks: dict[str, dict[str, object]] = response.json()["checks"]
    return response.status_code, checks


_HOLDER = """
import asyncio, sys
from crewline.replication.replicas import LaneClaims, holder_tag
from crewline.store.postgres_coordination import PostgresCoordination

async def main():
    async with PostgresCoordination(sys.argv[1], holder_tag("doomed")) as run:
        claim = await LaneClaims(run, "webhook:").hold("s1")
        print(run.holder, claim.value, flush=True)
        await asyncio.Event().wait()

asyncio.run(main())
"""


async def test_a_replica_killed_with_sigkill_leaves_its_lanes_at_once(postgres_url: str) -> None:
    await _migrated(postgres_url)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _HOLDER, postgres_url, stdout=asyncio.subprocess.PIPE
    )
    try:
        assert process.stdout is not None
        async with asyncio.timeout(WAIT):
            line = (await process.stdout.readline()).decode().split()
        assert line[1:] == ["held"], line
        doomed = line[0]
        async with PostgresCoordination(postgres_url, holder_tag("b")) as live:
            lanes = LaneClaims(live, "webhook:")
            assert await lanes.hold("s1") is Claim.ELSEWHERE  # precondition: alive, kept
            [left] = await live.leases("webhook:s1")
            process.send_signal(signal.SIGKILL)
            await process.wait()
            killed = time.monotonic()
            claims: list[Claim] = []

            async def taken() -> bool:
                claims.append(await lanes.hold("s1"))
                return claims[-1] is not Claim.ELSEWHERE

            await until(taken)
            claim = claims[-1]
            log.info(
                "a SIGKILLed replica's lane taken %.3f s after the kill", time.monotonic() - killed
            )
            assert claim is Claim.TAKEN_OVER  # a call may have been made unrecorded
            assert _connected(postgres_url, doomed) == 0
            # Inside the lease it left behind, as the database's clock counts.
            [now] = await live.leases("webhook:s1")
            assert now.epoch == left.epoch + 1
            assert _seconds_since(postgres_url, "webhook:s1") < left.expires_in
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.parametrize("prefix", ["outbox:telegram:", "webhook:"])
async def test_a_live_replica_of_another_name_keeps_its_lane(
    postgres_url: str, prefix: str
) -> None:
    """Only a gone holder loses a lane early: connected and of another name, it keeps it."""
    await _migrated(postgres_url)
    async with (
        PostgresCoordination(postgres_url, holder_tag("a")) as a,
        PostgresCoordination(postgres_url, holder_tag("b")) as b,
    ):
        assert await LaneClaims(a, prefix).hold("x") is Claim.HELD
        assert await LaneClaims(b, prefix).hold("x") is Claim.ELSEWHERE
        assert await b.acquire(prefix + "x", LANE_TTL, from_gone=True) is None


async def test_a_replica_that_could_not_be_heard_asks_again_before_its_next_call(
    postgres_url: str,
) -> None:
    """While its listening connection was down it could have looked gone and had a lane
    taken unheard: its next hold asks the database rather than trusting its renewal."""
    await _migrated(postgres_url)
    async with (
        PostgresCoordination(postgres_url, holder_tag("b")) as b,
        PostgresCoordination(postgres_url, holder_tag("c")) as c,
    ):
        lanes = LaneClaims(b, "outbox:slack:")
        assert await lanes.hold("radar") is Claim.HELD
        before = b.presence
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            end_listening(conn, b.holder)
            await until(lambda: _now(b.presence != before))
            # A takeover it could not hear (as if made while it looked gone).
            conn.execute(
                "UPDATE crewline_leases SET holder = %s, epoch = epoch + 1"
                " WHERE name = 'outbox:slack:radar'",
                (c.holder,),
            )
        assert await lanes.hold("radar") is Claim.ELSEWHERE  # its renewal was not due for 10 s
