"""Webhook delivery across SIGKILLs: every event reaches the receiver, in cursor order, at
least once, and the cursor in each body lets the receiver drop the repeats.

crewline runs as a separate process (``crewline serve``), the receiver in this one. In each
round the receiver holds its requests open, so when the process is killed one delivery is in
flight and the rest of the round's events are still pending.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.bounds import HTTP_TIMEOUT
from tests.fakes.receiver import Receiver
from tests.serving import CREWLINE, crewline_serve

pytestmark = pytest.mark.slow

ROUNDS = 3
EVENTS_PER_ROUND = 5
SECRET = "crash-test-secret-0123456789"


def _env(data_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "CREWLINE_DATA_DIR": str(data_dir),
        "CREWLINE_TRANSPORTS": "memory",
        "CREWLINE_LOG_LEVEL": "ERROR",
        "CREWLINE_WEBHOOK_ALLOW_NETWORKS": "127.0.0.0/8,::1",  # the receiver is on loopback
    }


def _key(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [*CREWLINE, *args], env=env, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.splitlines()[-1]


async def test_events_pending_at_a_kill_are_delivered_in_order_after_the_restart(
    tmp_path: Path,
) -> None:
    """Three kills with a delivery in flight and events pending: all arrive, in order."""
    env = _env(tmp_path)
    radar = _key(
        env, "member", "add", "radar", "--name", "Radar", "--owner", "memory:alice",
        "--transport", "memory",
    )  # fmt: skip
    sender = _key(env, "session", "add", "--kind", "plain")
    async with Receiver(SECRET) as receiver:
        for round_ in range(ROUNDS):
            async with crewline_serve(env=env) as (process, url):
                async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT) as client:
                    if round_ == 0:
                        registered = await client.put(
                            "/api/session/webhook",
                            json={"url": receiver.url, "secret": SECRET},
                            headers={"Authorization": f"Bearer {radar}"},
                        )
                        assert registered.status_code == 200, registered.text
                    receiver.hold.clear()
                    for n in range(EVENTS_PER_ROUND):
                        sent = await client.post(
                            "/api/session-control/send",
                            json={"target": "radar", "message": f"r{round_}-{n}"},
                            headers={"Authorization": f"Bearer {sender}"},
                        )
                        assert sent.status_code == 200, sent.text
                await receiver.wait_until(lambda: receiver.inflight == 1)
                process.send_signal(signal.SIGKILL)
                await process.wait()
            receiver.hold.set()  # the held request now answers a dead connection
        async with (
            crewline_serve(env=env) as (_, url),
            httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT) as client,
        ):
            pulled = await client.get(
                "/api/session/events",
                params={"after": 0},
                headers={"Authorization": f"Bearer {radar}"},
            )
            cursors = [e["cursor"] for e in pulled.json()["events"]]
            assert len(cursors) == ROUNDS * EVENTS_PER_ROUND
            await receiver.wait_until(lambda: receiver.accepted == cursors, timeout=60)
    arrived = [d.cursor for d in receiver.deliveries]
    assert arrived == sorted(arrived)  # in cursor order, repeats only of the last one
    assert len(arrived) > len(cursors)  # the precondition: some were delivered twice
    assert all(d.verified for d in receiver.deliveries)
    texts = [d.body["body"]["text"] for d in receiver.deliveries]
    assert list(dict.fromkeys(texts)) == [
        f"r{r}-{n}" for r in range(ROUNDS) for n in range(EVENTS_PER_ROUND)
    ]
