"""A boundary cut off by a SIGKILL is closed by the restarted crewline, not left "already
being rewound" for ever.

crewline runs as a separate process. A rewind is asked while the member's session (which
holds context) has not yet let go of it, and the process is killed during that wait: the
boundary's record was left ``asking`` with no exit recorded, so every later rewind of that
member was refused ``boundary_in_flight`` and the SEL never heard of the exit (SPEC §5.6).
Found while building the kill harness (``tests/reliability/test_kill_points.py``), which
kills during rewinds and edits on every transport. On each store (``cli_store``): on
PostgreSQL a serving crewline is a replica, which left a boundary asking for its grace
(another replica might still run it) even when it was alone on the database; found by the
kill harness run on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from crewline.store.open import open_store
from tests.serving import CREWLINE, crewline_serve

# Four starts of crewline (two commands, two servers): minutes on a loaded machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), pytest.mark.usefixtures("cli_store")]


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [*CREWLINE, *args], env=env, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.splitlines()[-1]


async def _call(url: str, key: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        return await client.request(
            method, path, headers={"Authorization": f"Bearer {key}"}, **kwargs
        )


async def _asked(url: str, key: str, *, seen: int) -> str:
    """The id of the next boundary the member's session is asked about (long-polled)."""
    cursor = 0
    async with asyncio.timeout(30):
        while True:
            response = await _call(
                url, key, "GET", "/api/session/events", params={"after": cursor, "wait": 5}
            )
            for event in response.json()["events"]:
                cursor = event["cursor"]
                if event["kind"] == "context_boundary":
                    seen -= 1
                    if seen < 0:
                        return str(event["body"]["boundary_id"])


async def test_a_boundary_killed_while_it_waits_is_closed_after_the_restart(
    tmp_path: Path, cli_store: str | None
) -> None:
    env = {
        **os.environ,
        "CREWLINE_DATA_DIR": str(tmp_path),
        "CREWLINE_TRANSPORTS": "memory",
        "CREWLINE_LOG_LEVEL": "ERROR",
    }
    key = _run(
        env, "member", "add", "radar", "--name", "Radar", "--owner", "memory:alice",
        "--transport", "memory",
    )  # fmt: skip
    token = _run(env, "token")
    rewind = {"kind": "rewind", "steps": 1}
    async with crewline_serve(env=env) as (process, url):
        for text in ("m1", "m2"):
            posted = await _call(url, key, "POST", "/api/session/messages", json={"text": text})
            assert posted.status_code == 200, posted.text
            if text == "m1":
                said = await _call(url, token, "POST", "/api/members/radar/reply",
                                   json={"text": "h1"})  # fmt: skip
                assert said.status_code == 200, said.text
        asking = asyncio.create_task(
            _call(url, token, "POST", "/api/members/radar/boundaries", json=rewind)
        )
        killed = await _asked(url, key, seen=0)  # the session was told; it has not let go
        process.send_signal(signal.SIGKILL)
        with pytest.raises(httpx.HTTPError):
            await asking
    async with crewline_serve(env=env) as (_, url):
        again = asyncio.create_task(
            _call(url, token, "POST", "/api/members/radar/boundaries", json=rewind)
        )
        asked = asyncio.create_task(_asked(url, key, seen=1))
        await asyncio.wait({again, asked}, return_when=asyncio.FIRST_COMPLETED)
        if again.done():  # refused before its session was asked: show why
            asked.cancel()
            assert again.result().status_code == 200, again.result().text
        second = await asked
        acked = await _call(url, key, "POST", f"/api/session/boundaries/{second}/ack")
        assert acked.status_code == 200, acked.text
        done = await again
        assert done.status_code == 200, done.text
        assert done.json()["committed"] is True
        events = (await _call(url, key, "GET", "/api/session/events",
                              params={"after": 0})).json()["events"]  # fmt: skip
    aborted = [e["body"] for e in events if e["kind"] == "context_boundary_aborted"]
    assert aborted == [{"boundary_id": killed, "reason": "interrupted"}]
    async with open_store(cli_store, tmp_path) as store:
        records = await store.sel(action_prefix="boundary:")
        assert (await store.write(lambda tx: tx.boundary(killed))).state == "failed"
        live = [r.text for r in await store.live_rows("radar")]
    exits = [(r.details.get("boundary"), r.details.get("reason"), r.details.get("native_cleared"))
             for r in records if r.outcome == "error"]  # fmt: skip
    assert exits == [(killed, "interrupted", "unknown")]
    assert live[:2] == ["m1", "h1"] and "m2" not in live


@pytest.mark.sqlite_only("asks for its PostgreSQL database itself")
async def test_a_replica_is_alone_unless_another_run_of_crewline_is_connected(
    postgres_url: str,
) -> None:
    """What the start asks before closing young boundaries: another replica's connections
    count, an admin command's (no holder tag) do not, and a stopped replica's end with it."""
    import psycopg

    from crewline.replication.replicas import holder_tag
    from crewline.store.postgres_coordination import PostgresCoordination, with_application_name

    def replica(name: str) -> PostgresCoordination:
        tag = holder_tag(name)
        return PostgresCoordination(with_application_name(postgres_url, tag), tag)

    async with replica("a") as first:
        with psycopg.connect(postgres_url):  # as `crewline member add` connects
            assert not await first.others_running()
        async with replica("b") as second:
            assert await first.others_running() and await second.others_running()
        async with asyncio.timeout(30):  # its server processes end just after it closes
            while True:  # the database has no event for a connection ending
                if not await first.others_running():
                    break
                await asyncio.sleep(0.05)
