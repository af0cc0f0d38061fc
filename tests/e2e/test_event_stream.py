"""Server-sent events on /api/session/events/stream: in order, resumable, kept alive, and
ended cleanly when crewline stops."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.bounds import WAIT
from tests.driver import Crew
from tests.sse import sse_frames

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

STREAM = "/api/session/events/stream"


async def _send(crew: Crew, key: str, text: str) -> None:
    response = await crew.call(
        key, "POST", "/api/session-control/send", json={"target": "radar", "message": text}
    )
    assert response.status_code == 200, response.text


async def _events(frames: AsyncIterator[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The next ``count`` event frames (bounded)."""
    found: list[dict[str, Any]] = []
    async with asyncio.timeout(WAIT):
        async for frame in frames:
            if "event" in frame:
                found.append(frame)
                if len(found) == count:
                    return found
    raise AssertionError(f"the stream ended after {len(found)} of {count} events")


async def test_events_stream_in_order_then_live(crew: Crew) -> None:
    """Past events first, then one committed while connected; id is the cursor, data the
    pull API's JSON."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    await _send(crew, sender, "one")
    await _send(crew, sender, "two")
    pulled = await crew.events(radar)
    async with crew.client(radar) as client, client.stream("GET", STREAM) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        frames = sse_frames(response)
        past = await _events(frames, 2)
        await _send(crew, sender, "three")
        live = await _events(frames, 1)
    got = past + live
    assert [json.loads(f["data"])["body"]["text"] for f in got] == ["one", "two", "three"]
    assert [json.loads(f["data"]) for f in past] == pulled
    assert [f["event"] for f in got] == ["message"] * 3
    assert [int(f["id"]) for f in got] == [json.loads(f["data"])["cursor"] for f in got]


@pytest.mark.parametrize("how", ["header", "query"])
async def test_a_stream_resumes_after_the_last_event_id(crew: Crew, how: str) -> None:
    """Last-Event-ID (or ?after=) resumes after that cursor: nothing repeated."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    for text in ("a", "b", "c"):
        await _send(crew, sender, text)
    cursors = [e["cursor"] for e in await crew.events(radar)]
    options: dict[str, Any] = (
        {"headers": {"Last-Event-ID": str(cursors[0])}}
        if how == "header"
        else {"params": {"after": cursors[0]}}
    )
    async with crew.client(radar) as client, client.stream("GET", STREAM, **options) as response:
        got = await _events(sse_frames(response), 2)
    assert [int(f["id"]) for f in got] == cursors[1:]


async def test_an_idle_stream_sends_keep_alive_comments(crew: Crew) -> None:
    """With nothing to say, the stream sends a comment line, not silence."""
    radar = await crew.add_member()
    crew.crewline.streams.keepalive = 0.05
    seen: list[dict[str, Any]] = []
    async with crew.client(radar) as client, client.stream("GET", STREAM) as response:
        async with asyncio.timeout(WAIT):
            async for frame in sse_frames(response):
                seen.append(frame)
                if frame.get("comment") == "keep-alive":
                    break
    assert seen[-1] == {"comment": "keep-alive"}
    assert [f for f in seen if "event" in f] == []


async def test_stopping_crewline_ends_the_stream_cleanly(crew: Crew) -> None:
    """An open stream ends with a complete response when crewline stops: no error."""
    radar = await crew.add_member()
    async with crew.client(radar) as client, client.stream("GET", STREAM) as response:
        frames = sse_frames(response)
        first = await anext(frames)
        assert "retry" in first  # the precondition: the stream is open
        assert crew.crewline.streams.open == 1
        stopping = asyncio.create_task(crew.stop())
        async with asyncio.timeout(WAIT):
            rest = [f async for f in frames]
        await stopping
    assert [f for f in rest if "event" in f] == []


@pytest.mark.parametrize(
    ("options", "status", "code"),
    [
        ({"headers": {"Last-Event-ID": "abc"}}, 400, "invalid_cursor"),
        ({"params": {"after": -1}}, 400, "invalid_cursor"),
        ({"headers": {"Authorization": "Bearer nope"}}, 401, "invalid_key"),
    ],
)
async def test_a_bad_cursor_or_key_is_refused_before_streaming(
    crew: Crew, options: dict[str, Any], status: int, code: str
) -> None:
    """A malformed cursor or an unknown key: a JSON error, no stream."""
    radar = await crew.add_member()
    response = await crew.call(radar, "GET", STREAM, **options)
    assert (response.status_code, response.json()["error"]["code"]) == (status, code)
