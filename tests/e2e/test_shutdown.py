"""Stopping crewline answers every open long poll at once (503 ``shutting_down``, in the
error shape), ends every event stream cleanly, and logs no traceback."""

from __future__ import annotations

import asyncio
import logging
import time

import httpx
import pytest

from crewline.keys import hash_key
from tests.bounds import WAIT
from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

POLLS = 100


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
