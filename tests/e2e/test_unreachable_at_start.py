"""A platform that cannot be reached when crewline starts: one behaviour for all three.

crewline starts anyway, the transport is degraded (``/readyz`` 503 naming it, with why),
the start is tried again with back-off, the log says what happened (no "connected to
workspace None"), and once the platform answers the transport runs and ``/readyz`` is 200.
Over each platform's fake, refusing the call its start depends on (Slack's ``auth.test``,
Telegram's ``getMe``, Discord's login), and as a user meets it: ``crewline serve`` with the
platform's address closed, ``crewline doctor`` saying what the running server says.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from crewline.app.server import Crewline
from crewline.config import Config
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.harness import Harness
from tests.harnesses.discord import DiscordHarness
from tests.harnesses.slack import SlackHarness
from tests.harnesses.telegram import TelegramHarness
from tests.serving import crewline_serve

BACKOFF = (0.05, 0.2)  # seconds: retries come quickly here; the default is 1 s to 60 s


def refuse_start(harness: Harness) -> Callable[[], None]:
    """Make the fake refuse what the transport's start asks first; returns the lift."""
    if isinstance(harness, SlackHarness):
        return harness.fake.refuse("auth.test", status=503, error="service_unavailable")
    if isinstance(harness, TelegramHarness):
        return harness.fake.refuse("getMe", error_code=502)
    assert isinstance(harness, DiscordHarness)
    return harness.fake.refuse("GET", r".*/users/@me")


async def readiness(url: str) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT) as client:
        answer = await client.get("/readyz")
    return answer.status_code, answer.json()


@pytest.mark.sqlite_only("the transports' start, not the store")
@pytest.mark.parametrize("platform", [SlackHarness, TelegramHarness, DiscordHarness])
async def test_a_platform_unreachable_at_start_is_degraded_until_it_answers(
    config: Config, platform: type[Harness], caplog: pytest.LogCaptureFixture
) -> None:
    """Start succeeds with the platform refusing; /readyz names the transport as degraded
    and why; once the platform answers, the retried start connects and /readyz is 200."""
    caplog.set_level(logging.INFO)
    harness = platform()
    async with harness.running():
        name = harness.name
        lift = refuse_start(harness)
        async with Crewline(
            config, transports=[harness.transport()], start_backoff=BACKOFF
        ) as running:
            harness.serving(running.url)
            status, body = await readiness(running.url)
            assert status == 503 and f"transport:{name}" in body["failed"], body
            detail = body["checks"][f"transport:{name}"]["detail"]
            assert detail.startswith("degraded: could not start ("), detail
            assert "trying again with back-off (attempt " in detail
            assert name not in running.outboxes, "an outbox runs for a transport not started"
            lift()
            async with asyncio.timeout(WAIT):
                await running.degraded[name].started.wait()
            assert name in running.outboxes
            status, body = await readiness(running.url)
            assert status == 200, body
            assert body["checks"][f"transport:{name}"]["detail"].startswith("connected"), body
    said = [r.getMessage() for r in caplog.records if r.name.startswith("crewline")]
    assert any(line.startswith(f"{name}: could not start (") for line in said), said
    assert any(line.startswith(f"{name}: started after ") for line in said), said
    assert not any("workspace None" in line for line in said), said


def closed_port() -> int:
    """A loopback port nothing listens on: connecting is refused, as with the network down."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.sqlite_only("the transports' start, not the store")
async def test_serve_with_telegram_unreachable_runs_degraded_and_doctor_says_so(
    tmp_path: Path,
) -> None:
    """`crewline serve` with Telegram's address refusing connections keeps serving (it
    used to exit 2, the bad-configuration status); /readyz is 503 naming
    transport:telegram; `crewline doctor` reports what the running server says."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CREWLINE_", "TELEGRAM_"))},
        "CREWLINE_DATA_DIR": str(tmp_path),
        "TELEGRAM_BOT_TOKEN": "123456:unreachable-at-start",
        "TELEGRAM_API_URL": f"http://127.0.0.1:{closed_port()}/bot",
    }
    async with crewline_serve(env=env) as (process, url):
        status, body = await readiness(url)
        assert status == 503 and "transport:telegram" in body["failed"], body
        assert body["checks"]["transport:telegram"]["detail"].startswith("degraded:")
        assert "transport:local" not in body["failed"], "the inbox runs all the same"
        doctor = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "crewline", "doctor", "--json"],
            capture_output=True, text=True, env=env, check=False, timeout=WAIT,
        )  # fmt: skip
        assert process.returncode is None, "serve exited"
    assert doctor.returncode == 1, doctor.stdout
    checks = {c["check"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["server"]["status"] == "fail"
    assert checks["server:transport:telegram"]["detail"].startswith(
        f"the crewline serving here (PID {process.pid}, {url}): transport:telegram: degraded:"
    )
