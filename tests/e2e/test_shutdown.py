"""Stopping crewline answers every open long poll at once (503 ``shutting_down``, in the
error shape), ends every event stream cleanly, and logs no traceback."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import httpx
import pytest

from crewline.keys import hash_key
from tests.bounds import WAIT
from tests.driver import Crew
from tests.sse import sse_frames

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

POLLS = 100
STREAM = "/api/session/events/stream"


@pytest.mark.sqlite_only("the readers and the HTTP server's stop are the same on both stores")
async def test_stopping_answers_a_hundred_open_long_polls_at_once(
    crew: Crew, caplog: pytest.LogCaptureFixture
) -> None:
    """100 agents long-poll with wait=30; crewline stops: each gets 503 shutting_down as
    JSON, the stop finishes well within the polls' own wait, and nothing is logged as an
    error (it was 4.4 s, a plain-text 500 and a traceback per poll)."""
    caplog.set_level(logging.WARNING)
    radar = await crew.add_member()
    feed = crew.crewline.hub.feed
    session = await crew.crewline.store.session_by_key_hash(hash_key(radar))
    assert session is not None
    limits = httpx.Limits(max_connections=POLLS, max_keepalive_connections=POLLS)
    headers = {"Authorization": f"Bearer {radar}"}
    async with httpx.AsyncClient(
        base_url=crew.url, headers=headers, timeout=WAIT, limits=limits
    ) as client:
        polls = [
            asyncio.create_task(client.get("/api/session/events", params={"wait": 30}))
            for _ in range(POLLS)
        ]
        async with asyncio.timeout(WAIT):
            while feed.open_readers(session.id) < POLLS:  # noqa: ASYNC110 - no signal for it
                await asyncio.sleep(0.01)
        started = time.perf_counter()
        await crew.stop()
        stopped = time.perf_counter() - started
        answers = await asyncio.gather(*polls)
    print(f"stop with {POLLS} long polls open: {stopped:.2f} s")  # the run's figure
    assert {(a.status_code, a.json()["error"]["code"]) for a in answers} == {(503, "shutting_down")}
    assert stopped < 25  # each poll would otherwise have waited its 30 s
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert errors == [], [r.getMessage() for r in errors]


@pytest.mark.sqlite_only("the readers and the HTTP server's stop are the same on both stores")
async def test_stopping_ends_an_open_event_stream_with_a_complete_response(
    crew: Crew, caplog: pytest.LogCaptureFixture
) -> None:
    """A stream that has delivered events and waits for the next one; crewline stops: the
    stream ends with a complete response (its chunked body closed, so the client reads to
    the end without a protocol error) and no frame after the ones already sent, as
    docs/api.md says, and nothing is logged as an error."""
    caplog.set_level(logging.WARNING)
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    for text in ("one", "two"):
        sent = await crew.call(
            sender, "POST", "/api/session-control/send", json={"target": "radar", "message": text}
        )
        assert sent.status_code == 200, sent.text
    served = crew.crewline
    served.streams.keepalive = 3600  # the end must come from the stop, not a timer
    session = await served.store.session_by_key_hash(hash_key(radar))
    assert session is not None
    async with crew.client(radar) as client, client.stream("GET", STREAM) as response:
        assert response.status_code == 200
        frames = sse_frames(response)
        seen: list[dict[str, str]] = []
        async with asyncio.timeout(WAIT):
            while len([f for f in seen if "event" in f]) < 2:
                seen.append(await anext(frames))
            # The precondition: the stream has read the log and waits for what comes next.
            while not served.hub.feed.waiting(session.id):  # noqa: ASYNC110 - no signal for it
                await asyncio.sleep(0.01)
        assert served.streams.open == 1
        started = time.perf_counter()
        stopping = asyncio.create_task(crew.stop())
        async with asyncio.timeout(WAIT):
            rest = [frame async for frame in frames]  # to the end of the response
            await stopping
        stopped = time.perf_counter() - started
    print(f"stop with an event stream open: {stopped:.2f} s")  # the run's figure
    assert seen[0] == {"retry": "2000"}
    assert [json.loads(f["data"])["body"]["text"] for f in seen if "event" in f] == ["one", "two"]
    assert rest == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert errors == [], [r.getMessage() for r in errors]
