"""A replaced or removed key ends its open event streams and long polls at once, with a
last frame (or status) saying why, on the replica that holds them whichever process or
replica made the change; nothing committed after the revocation reaches them."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.app.crew_watch import WATCH_INTERVAL
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.keys import hash_key
from crewline.store.open import open_store
from crewline.testing import FakeClock
from crewline.transports.memory import MemoryTransport
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.driver import Crew
from tests.sse import sse_frames

MEMORY = pytest.mark.parametrize("harness", ["memory"], indirect=True)

STREAM = "/api/session/events/stream"
EVENTS = "/api/session/events"


async def _stream_until_end(
    client: httpx.AsyncClient, opened: asyncio.Event
) -> list[dict[str, str]]:
    """Every frame of one stream, from its opening to its end (bounded)."""
    frames: list[dict[str, str]] = []
    async with client.stream("GET", STREAM) as response:
        assert response.status_code == 200, await response.aread()
        opened.set()
        async with asyncio.timeout(WAIT):
            frames = [frame async for frame in sse_frames(response)]
    return frames


@MEMORY
async def test_a_new_key_ends_the_old_keys_stream_and_long_poll_at_once(crew: Crew) -> None:
    """``crewline member key`` in another process (here: another store on the same
    database): the open stream's last frame is key_revoked, the long poll answers it, and
    an answer committed after the revocation reaches neither; the old key is then 401."""
    radar = await crew.add_member()
    served = crew.crewline
    served.streams.keepalive = 3600  # the end must come from the revocation, not a timer
    record = (await crew.escalate(radar, message="Deploy?", options=["yes", "no"]))["escalation_id"]
    assert await crew.events(radar) == []  # the precondition: the poll below waits
    cursor = 0
    session = await served.store.session_by_key_hash(hash_key(radar))
    assert session is not None
    async with crew.client(radar) as streaming, crew.client(radar) as polling:
        opened = asyncio.Event()
        stream = asyncio.create_task(_stream_until_end(streaming, opened))
        poll = asyncio.create_task(polling.get(EVENTS, params={"after": cursor, "wait": 60}))
        await opened.wait()
        async with asyncio.timeout(WAIT):
            # both readers are open (either alone sets the session's signal waiting); each
            # registered before its read, so a revocation from here on reaches both
            while served.hub.feed.reading_count(session.id) < 2:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        async with open_store(served.config.database_url, served.config.data_dir) as cli:
            fresh = await crew_admin.issue_member_key(cli, "radar")
        frames = await stream
        polled = await poll
    events = [f for f in frames if "event" in f]
    assert events[-1]["event"] == "key_revoked", frames
    assert json.loads(events[-1]["data"])["body"]["reason"].startswith("a new key was issued")
    assert [f for f in frames if f.get("comment") == "keep-alive"] == []
    assert polled.status_code == 200, polled.text
    assert [e["kind"] for e in polled.json()["events"]] == ["key_revoked"]
    # An answer committed after the revocation goes to the record's session; none reads it.
    token = await crew.owner_token()
    answered = await crew.call(
        token, "POST", "/api/members/radar/reply", json={"text": "yes", "escalation_id": record}
    )
    assert answered.json()["outcome"] == "answered", answered.text
    stale = await crew.call(radar, "GET", EVENTS, params={"after": cursor})
    assert (stale.status_code, stale.json()["error"]["code"]) == (401, "invalid_key")
    assert (await crew.call(fresh.key, "GET", "/api/session")).status_code == 200


@MEMORY
async def test_a_removed_member_ends_its_stream_with_a_final_frame(crew: Crew) -> None:
    """No event is left to say so (the session went with its member): the stream still ends
    at once, with a key_revoked frame that carries no cursor, and a long poll gets 401."""
    radar = await crew.add_member()
    served = crew.crewline
    served.streams.keepalive = 3600
    session = await served.store.session_by_key_hash(hash_key(radar))
    assert session is not None
    async with crew.client(radar) as streaming, crew.client(radar) as polling:
        opened = asyncio.Event()
        stream = asyncio.create_task(_stream_until_end(streaming, opened))
        poll = asyncio.create_task(polling.get(EVENTS, params={"wait": 60}))
        await opened.wait()
        async with asyncio.timeout(WAIT):
            # both readers are open (either alone sets the session's signal waiting); each
            # registered before its read, so a revocation from here on reaches both
            while served.hub.feed.reading_count(session.id) < 2:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        await crew_admin.remove_member(served.store, "radar")
        frames = await stream
        polled = await poll
    assert frames[-1]["event"] == "key_revoked" and "id" not in frames[-1], frames
    assert (polled.status_code, polled.json()["error"]["code"]) == (401, "key_revoked")


def _replica(
    config: Config, name: str, memory: MemoryTransport, clock: FakeClock, *, watch: bool
) -> Crewline:
    """crewline as replica ``name`` on ``config``'s database; ``watch``: whether it runs a
    crew watch (told of crew writes made elsewhere)."""
    return Crewline(
        replace(config, data_dir=config.data_dir / name, replica_id=name),
        transports=[memory],
        clock=clock,
        delivery_wait=0.0,
        concierge=False,
        crew_watch_interval=WATCH_INTERVAL if watch else None,
    )


async def test_a_key_replaced_on_one_replica_ends_the_stream_open_on_the_other(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    """Two replicas on one PostgreSQL; the stream is open on B, the key replaced through A.
    B runs no crew watch: only the notification of the revocation's
    event can end the stream, and it does at once."""
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    memory = MemoryTransport("memory")
    async with (
        _replica(config, "a", memory, clock, watch=True) as a,
        _replica(config, "b", memory, clock, watch=False) as b,
    ):
        b.streams.keepalive = 3600
        created = await crew_admin.add_member(
            a.store, slug="radar", name="Radar", owners=["memory:alice"], transports=["memory"]
        )
        headers = {"Authorization": f"Bearer {created.key}"}
        async with httpx.AsyncClient(base_url=b.url, headers=headers, timeout=HTTP_TIMEOUT) as on_b:
            opened = asyncio.Event()
            stream = asyncio.create_task(_stream_until_end(on_b, opened))
            await opened.wait()
            async with asyncio.timeout(WAIT):
                while not b.hub.feed.waiting(created.session.id):  # noqa: ASYNC110
                    await asyncio.sleep(0.01)
            await crew_admin.issue_member_key(a.store, "radar")
            async with asyncio.timeout(20):
                frames = await stream
    assert [f["event"] for f in frames if "event" in f] == ["key_revoked"]


@pytest.mark.parametrize("how", ["replaced_through_a", "removed_by_the_cli"])
async def test_a_long_poll_on_one_replica_is_answered_when_the_key_goes_elsewhere(
    tmp_path: Path, postgres_url: str, clock: FakeClock, how: str
) -> None:
    """Two replicas on one PostgreSQL; an agent long-polls B with wait=60. Its key is
    replaced through A (B runs no crew watch: only the notification of the ``key_revoked``
    event reaches B), or its member removed by the CLI on the shared database (no event:
    B's crew watch, told of the crew write, is what notices). Either way B answers the waiting
    poll with what docs/api.md promises — ``[key_revoked]``, or 401 ``key_revoked`` — not
    with the empty list its wait would have ended in; the old key is then 401 on B."""
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    memory = MemoryTransport("memory")
    replaced = how == "replaced_through_a"
    async with (
        _replica(config, "a", memory, clock, watch=True) as a,
        _replica(config, "b", memory, clock, watch=not replaced) as b,
    ):
        created = await crew_admin.add_member(
            a.store, slug="radar", name="Radar", owners=["memory:alice"], transports=["memory"]
        )
        headers = {"Authorization": f"Bearer {created.key}"}
        async with httpx.AsyncClient(base_url=b.url, headers=headers, timeout=HTTP_TIMEOUT) as on_b:
            poll = asyncio.create_task(on_b.get(EVENTS, params={"after": 0, "wait": 60}))
            async with asyncio.timeout(WAIT):  # the precondition: B holds the poll, waiting
                while not b.hub.feed.waiting(created.session.id):  # noqa: ASYNC110
                    await asyncio.sleep(0.01)
            if replaced:
                await crew_admin.issue_member_key(a.store, "radar")
            else:
                async with open_store(postgres_url, tmp_path / "cli") as cli:
                    await crew_admin.remove_member(cli, "radar")
            polled = await poll
            after = await on_b.get(EVENTS, params={"after": 0})
    if replaced:
        assert polled.status_code == 200, polled.text
        assert [e["kind"] for e in polled.json()["events"]] == ["key_revoked"]
    else:
        assert (polled.status_code, polled.json()["error"]["code"]) == (401, "key_revoked")
    assert (after.status_code, after.json()["error"]["code"]) == (401, "invalid_key")
