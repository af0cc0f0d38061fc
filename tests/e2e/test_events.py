"""A session's event stream: ordered, long-polled, resumable across restarts."""

from __future__ import annotations

import asyncio

import pytest

from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


async def _send(crew: Crew, key: str, text: str) -> None:
    response = await crew.call(
        key, "POST", "/api/session-control/send", json={"target": "radar", "message": text}
    )
    assert response.status_code == 200, response.text


async def test_the_stream_resumes_from_its_cursor_after_a_restart(crew: Crew) -> None:
    """Read two, restart crewline, read on from the cursor: nothing lost, nothing repeated."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    for n in range(5):
        await _send(crew, sender, f"m{n}")
    first = (await crew.call(radar, "GET", "/api/session/events", params={"after": 0})).json()
    assert [e["body"]["text"] for e in first["events"]] == [f"m{n}" for n in range(5)]
    cursor = first["events"][1]["cursor"]
    await crew.restart()
    await _send(crew, sender, "m5")
    rest = (await crew.call(radar, "GET", "/api/session/events", params={"after": cursor})).json()
    assert [e["body"]["text"] for e in rest["events"]] == ["m2", "m3", "m4", "m5"]
    assert rest["cursor"] == rest["events"][-1]["cursor"]


async def test_a_long_poll_returns_as_soon_as_an_event_commits(crew: Crew) -> None:
    """A waiting reader is woken by the commit, not by its timeout."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    async with crew.client(radar) as client:
        poll = asyncio.create_task(
            client.get("/api/session/events", params={"after": 0, "wait": 30})
        )
        await asyncio.sleep(0)  # let the poll start waiting first (order, not timing)
        await _send(crew, sender, "wake up")
        async with asyncio.timeout(10):
            response = await poll
    assert [e["body"]["text"] for e in response.json()["events"]] == ["wake up"]


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"after": -1}, "invalid_cursor"),
        ({"wait": 61}, "invalid_wait"),
        ({"after": "abc"}, "invalid_cursor"),
    ],
)
async def test_bad_cursor_or_wait_is_refused(
    crew: Crew, params: dict[str, object], code: str
) -> None:
    """A negative cursor, an overlong wait or a non-number each get their code: a cursor
    that is not even a number is as invalid a cursor as a negative one."""
    radar = await crew.add_member()
    response = await crew.call(radar, "GET", "/api/session/events", params=params)
    assert (response.status_code, response.json()["error"]["code"]) == (400, code)
