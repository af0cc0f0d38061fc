"""A context boundary across two replicas on one PostgreSQL database: the session's answer
lands on the other replica, and the replica waiting for it goes on at once.

The wait is set far longer than the test's own bound, so a waiter that saw the answer only
at its timeout fails the test; nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Set
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.keys import hash_key, new_session_key
from crewline.models import CallerKind, Session, new_id
from crewline.testing import FakeClock
from crewline.transports.memory import MemoryTransport

WAIT = 3_600.0  # the boundary's configured wait: far beyond BOUND
BOUND = 60.0  # what this test waits for anything, at most


@dataclass
class Pair:
    a: Crewline
    b: Crewline
    memory: MemoryTransport
    key: str  # radar's session key
    token: str  # the owner's token
    clock: FakeClock


async def _call(replica: Crewline, key: str, method: str, path: str, **kw: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=replica.url, timeout=BOUND) as client:
        return await client.request(method, path, headers={"Authorization": f"Bearer {key}"}, **kw)


def _replica(config: Config, name: str, clock: FakeClock, memory: MemoryTransport) -> Crewline:
    return Crewline(
        replace(config, data_dir=config.data_dir / name, replica_id=name, boundary_wait=WAIT),
        transports=[memory],
        clock=clock,
        outbox_poll_interval=0.2,
        delivery_wait=0.0,
        concierge=False,
    )


@pytest.fixture
async def pair(tmp_path: Path, postgres_url: str, clock: FakeClock) -> AsyncIterator[Pair]:
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    memory = MemoryTransport("memory")
    async with _replica(config, "a", clock, memory) as a, _replica(config, "b", clock, memory) as b:
        created = await crew_admin.add_member(
            a.store, slug="radar", name="Radar", owners=["memory:alice"], transports=["memory"]
        )
        token = await crew_admin.issue_owner_token(a.store, owner="memory:alice")
        assert a.coordination is not None and a.coordination.listening
        assert b.coordination is not None and b.coordination.listening
        yield Pair(a=a, b=b, memory=memory, key=created.key, token=token, clock=clock)


async def _scene(pair: Pair) -> None:
    """m1 h1 m2: a rewind continues from the owner's h1 and rewinds m2."""
    for text in ("m1", "h1", "m2"):
        if text.startswith("m"):
            sent = await _call(
                pair.a, pair.key, "POST", "/api/session/messages", json={"text": text}
            )
            assert sent.status_code == 200, sent.text
            await pair.a.outboxes["memory"].wait_idle(timeout=BOUND)
            continue
        receipt = await pair.memory.say("alice", "radar", text)
        assert receipt.accepted, receipt


async def _boundary_asked(pair: Pair) -> str:
    """The context_boundary event, read on replica b (long poll, woken across replicas)."""
    after = 0
    async with asyncio.timeout(BOUND):
        while True:
            read = await _call(
                pair.b, pair.key, "GET", "/api/session/events", params={"after": after, "wait": 5}
            )
            assert read.status_code == 200, read.text
            events = read.json()["events"]
            for event in events:
                if event["kind"] == "context_boundary":
                    return str(event["body"]["boundary_id"])
            after = read.json()["cursor"]


async def test_an_ack_on_the_other_replica_ends_the_wait_at_once(pair: Pair) -> None:
    """The owner rewinds on replica a; the session reads the boundary and acknowledges it on
    replica b; a's wait (an hour) ends on the cross-replica signal and the rewind commits."""
    await _scene(pair)
    rewind = asyncio.create_task(
        _call(pair.a, pair.token, "POST", "/api/members/radar/boundaries", json={"kind": "rewind"})
    )
    try:
        boundary_id = await _boundary_asked(pair)
        record = await pair.a.store.write(lambda tx: tx.boundary(boundary_id))
        assert record is not None and record.state == "asking" and not record.answers
        acked = await _call(pair.b, pair.key, "POST", f"/api/session/boundaries/{boundary_id}/ack")
        assert acked.status_code == 200, acked.text
        async with asyncio.timeout(BOUND):
            response = await rewind
    finally:
        rewind.cancel()
    assert response.status_code == 200, response.text
    assert response.json()["committed"] is True, response.json()
    settled = await pair.b.store.write(lambda tx: tx.boundary(boundary_id))
    assert settled is not None and settled.state == "committed"
    live = [r.text for r in await pair.b.store.live_rows("radar")]
    assert live[:2] == ["m1", "h1"] and "m2" not in live, live


async def test_one_of_two_answers_on_the_other_replica_does_not_end_the_wait(
    pair: Pair,
) -> None:
    """Radar has two sessions. The first ack's notification reaches replica a (observed)
    while the second session is still silent: a looks and waits on; the second ack then
    ends the wait and the rewind commits (not ``ack_timeout_after_discard``)."""
    second = new_session_key()
    session = Session(id=new_id(), kind=CallerKind.MEMBER, member="radar")
    now = pair.clock.now()
    await pair.a.store.write(lambda tx: tx.add_session(session, hash_key(second), now))
    await _scene(pair)
    heard: dict[str, asyncio.Event] = {}

    def hear(boundary_ids: Set[str] | None) -> None:
        for boundary_id in list(heard if boundary_ids is None else boundary_ids):
            heard.setdefault(boundary_id, asyncio.Event()).set()

    assert pair.a.coordination is not None
    pair.a.coordination.on_boundary_answers(hear)
    rewind = asyncio.create_task(
        _call(pair.a, pair.token, "POST", "/api/members/radar/boundaries", json={"kind": "rewind"})
    )
    try:
        boundary_id = await _boundary_asked(pair)
        first = await _call(pair.b, pair.key, "POST", f"/api/session/boundaries/{boundary_id}/ack")
        assert first.status_code == 200, first.text
        async with asyncio.timeout(BOUND):
            await heard.setdefault(boundary_id, asyncio.Event()).wait()
        assert not rewind.done()
        record = await pair.a.store.write(lambda tx: tx.boundary(boundary_id))
        assert record is not None and record.state == "asking" and len(record.answers) == 1
        acked = await _call(pair.b, second, "POST", f"/api/session/boundaries/{boundary_id}/ack")
        assert acked.status_code == 200, acked.text
        async with asyncio.timeout(BOUND):
            response = await rewind
    finally:
        rewind.cancel()
    assert response.status_code == 200, response.text
    assert response.json()["committed"] is True, response.json()
