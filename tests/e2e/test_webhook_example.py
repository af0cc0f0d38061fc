"""examples/webhook_receiver.py, run as a user would, against a real crewline server."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from crewline.config import Config
from crewline.push.webhooks import sign
from tests.bounds import HTTP_TIMEOUT
from tests.driver import Crew
from tests.fakes.receiver import LOOPBACK

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

EXAMPLE = Path(__file__).parents[2] / "examples" / "webhook_receiver.py"
SECRET = "example-secret-0123456789abcdef"


@pytest.fixture
def config(config: Config) -> Config:
    """The receivers run on loopback: this crewline's operator allows it."""
    return replace(config, webhook_networks=LOOPBACK)


@pytest.fixture
async def example(
    crew: Crew, tmp_path: Path
) -> AsyncIterator[tuple[asyncio.subprocess.Process, str, str]]:
    """The example receiver, registered as radar's webhook; (process, its URL, radar's key)."""
    radar = await crew.add_member()
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(EXAMPLE), "--port", "0", "--state", str(tmp_path / "cursor"),
        env={
            **os.environ,
            "CREWLINE_URL": crew.url,
            "CREWLINE_SESSION_KEY": radar,
            "CREWLINE_WEBHOOK_SECRET": SECRET,
        },
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        async with asyncio.timeout(30):
            listening = (await process.stderr.readline()).decode()
            registered = (await process.stderr.readline()).decode()
        found = re.search(r"http://127\.0\.0\.1:\d+/", listening)
        assert found is not None, listening
        assert registered.strip() == f"registered {found.group(0)}"
        yield process, found.group(0), radar
    finally:
        process.kill()
        await process.wait()


async def test_the_example_receiver_prints_each_event_once_in_order(
    crew: Crew, example: tuple[asyncio.subprocess.Process, str, str]
) -> None:
    """Three sends to radar: the example prints three verified events, in cursor order."""
    process, _, radar = example
    sender = await crew.add_session("plain")
    for text in ("one", "two", "three"):
        response = await crew.call(
            sender, "POST", "/api/session-control/send", json={"target": "radar", "message": text}
        )
        assert response.status_code == 200, response.text
    assert process.stdout is not None
    async with asyncio.timeout(30):
        printed = [json.loads(await process.stdout.readline()) for _ in range(3)]
    assert [e["body"]["text"] for e in printed] == ["one", "two", "three"]
    assert [e["cursor"] for e in printed] == [e["cursor"] for e in await crew.events(radar)]


async def test_the_example_receiver_refuses_an_unsigned_post_and_drops_repeats(
    crew: Crew, example: tuple[asyncio.subprocess.Process, str, str]
) -> None:
    """A forged request gets 401; a signed repeat of a seen cursor is not printed again."""
    process, url, _ = example

    def event(cursor: int) -> bytes:
        return json.dumps(
            {"session": "s", "cursor": cursor, "kind": "message", "body": {}}
        ).encode()

    def signed(body: bytes) -> dict[str, str]:
        return {"X-Crewline-Signature": sign(SECRET, int(time.time()), body)}

    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        forged = await client.post(
            url, content=event(1), headers={"X-Crewline-Signature": "t=1,v1=0"}
        )
        statuses = [
            (await client.post(url, content=event(n), headers=signed(event(n)))).status_code
            for n in (1, 1, 2)
        ]
    assert (forged.status_code, statuses) == (401, [204, 204, 204])
    assert process.stdout is not None
    async with asyncio.timeout(10):
        printed = [json.loads(await process.stdout.readline())["cursor"] for _ in range(2)]
    assert printed == [1, 2]  # the repeat of 1 was answered but not printed
