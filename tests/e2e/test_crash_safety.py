"""Crash safety: SIGKILL during a burst of escalations loses no card and posts none twice.

crewline runs as a separate process (as in production) with the Slack transport pointed at
the loopback Slack fake in this process, so what was posted outlives every kill. After at
least 20 kills at random moments, every escalation that was acknowledged with 200 must have
exactly one card in its thread, and no escalation may have two. The narrowest window — a
post that reached Slack just before the kill, unrecorded — is also pinned on its own, on each
store (``cli_store``: the killed process on SQLite, then on PostgreSQL); the 20 kills run on
SQLite only, for CI time.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.bounds import HTTP_TIMEOUT
from tests.fakes.slack import FakeSlack
from tests.serving import CREWLINE, crewline_serve, escalation_burst

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("cli_store")]

KILLS = 20
# Posts are paced per channel (Slack's one a second by default). The fake does not enforce
# it here, and at the default pace the backlog of twenty rounds takes minutes to drain.
POST_INTERVAL = 0.02
PAYLOAD = re.compile(r"e:([0-9a-f]{16}):\d+")


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with FakeSlack() as fake:
        yield fake


def _env(slack: FakeSlack, data_dir: Path) -> dict[str, str]:
    (data_dir / "crewline.toml").write_text(f"[slack]\npost_interval = {POST_INTERVAL}\n")
    return {
        **os.environ,
        "CREWLINE_DATA_DIR": str(data_dir),
        "CREWLINE_TRANSPORTS": "slack",
        "SLACK_BOT_TOKEN": slack.bot_token,
        "SLACK_SIGNING_SECRET": slack.signing_secret,
        "SLACK_API_URL": slack.api_url,
        "CREWLINE_LOG_LEVEL": "WARNING",
    }


def _cards_by_escalation(slack: FakeSlack) -> Counter[str]:
    """How many messages in the owner's DM carry each escalation's buttons."""
    counts: Counter[str] = Counter()
    for message in slack.messages(slack.dm_channel(slack.owner_user_id)):
        counts.update(set(PAYLOAD.findall(str(message.get("blocks", "")))))
    return counts


def _add_member(env: dict[str, str], slack: FakeSlack, slug: str) -> str:
    added = subprocess.run(
        [
            *CREWLINE,
            "member",
            "add",
            slug,
            "--name",
            slug.title(),
            "--owner",
            f"slack:{slack.owner_user_id}",
            "--transport",
            "slack",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return added.stdout.splitlines()[-1]


# Its time is crewline's own start-up, KILLS + 1 serves and 4 `member add`s (36 s idle, over
# 120 s at load 15 on two cores): sized like tests/reliability's kill loops, a minute for
# each process started; every step keeps its own bound.
@pytest.mark.timeout(60 * (KILLS + 5))
@pytest.mark.sqlite_only("20 restarts; the store's part of a restart is pinned on both below")
async def test_no_acknowledged_escalation_is_lost_or_duplicated_across_kills(
    slack: FakeSlack, tmp_path: Path
) -> None:
    """20 SIGKILLs at random moments: each acknowledged escalation has exactly one card."""
    env = _env(slack, tmp_path)
    # A few members, taken in turn, keep every one under its backlog ceiling of 50.
    keys = [_add_member(env, slack, f"member-{n}") for n in range(4)]
    acknowledged: list[str] = []
    rng = random.Random(20261130)
    for round_ in range(KILLS):
        async with crewline_serve(env=env) as (process, url):
            acks: asyncio.Queue[str] = asyncio.Queue()
            burst = asyncio.create_task(escalation_burst(url, keys[round_ % len(keys)], acks))
            async with asyncio.timeout(30):
                for _ in range(rng.randint(1, 3)):  # kill after a random number of acks
                    acknowledged.append(await acks.get())
            process.send_signal(signal.SIGKILL)
            await burst
            while not acks.empty():
                acknowledged.append(acks.get_nowait())
    async with crewline_serve(env=env):
        await slack.wait_until(
            lambda: all(_cards_by_escalation(slack)[e] >= 1 for e in acknowledged),
            timeout=60,
            what="a card for every acknowledged escalation",
        )
    cards = _cards_by_escalation(slack)
    assert len(acknowledged) >= KILLS
    assert {e: cards[e] for e in acknowledged if cards[e] != 1} == {}
    assert max(cards.values()) == 1


async def test_a_card_that_reached_slack_just_before_a_kill_is_not_posted_again(
    slack: FakeSlack, tmp_path: Path
) -> None:
    """The post landed, the kill came before its record: the restarted server finds it."""
    env = _env(slack, tmp_path)
    key = _add_member(env, slack, "member-0")
    headers = {"Authorization": f"Bearer {key}"}
    body = {"message": "decide", "options": ["ok"]}

    async def escalate(url: str) -> str:
        async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT, headers=headers) as client:
            response = await client.post("/api/session-control/escalate", json=body)
        assert response.status_code == 200, response.text
        return str(response.json()["escalation_id"])

    async with crewline_serve(env=env) as (process, url):
        first = await escalate(url)  # opens the member's thread
        await slack.wait_until(
            lambda: _cards_by_escalation(slack)[first] == 1, timeout=60, what="card 1"
        )
        slack.hold_next("chat.postMessage", where=lambda params: "thread_ts" in params)
        landed = await escalate(url)
        await slack.wait_until(
            lambda: _cards_by_escalation(slack)[landed] == 1, timeout=60, what="card 2"
        )
        process.send_signal(signal.SIGKILL)
    async with crewline_serve(env=env) as (_, url):
        # The member's lane delivers in order: once a later card is up, the held one has
        # been delivered again (or found) by the restarted server.
        later = await escalate(url)
        await slack.wait_until(
            lambda: _cards_by_escalation(slack)[later] == 1, timeout=60, what="card 3"
        )
    assert _cards_by_escalation(slack)[landed] == 1
