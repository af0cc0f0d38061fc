"""A platform's global rate limit is per app, not per replica: two replicas sending at
once stay under it together.

Telegram by webhook (so both replicas send: no lease on the connection) with a flood limit
of ``LIMIT`` messages a second over all chats, enforced by the fake with 429s; crewline is
told ``RATE``, which one replica alone keeps under ``LIMIT`` and two replicas each pacing on
their own would exceed. Escalations for several members land on both replicas at once, so
both outboxes send in parallel; the fake must never have answered 429.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.config import Config
from crewline.testing import FakeClock
from tests.e2e.replica_kit import BOUND, replica
from tests.harnesses.telegram import TelegramHarness

LIMIT = 12  # Telegram's messages a second for the bot, as the fake enforces it
RATE = 8.0  # crewline's global_per_second: under LIMIT alone, 2 x RATE over it
MEMBERS = ("radar", "probe", "sonar", "delta")
CARDS = 4  # per member


@pytest.fixture
async def telegram() -> AsyncIterator[TelegramHarness]:
    made = TelegramHarness(webhook=True, global_per_second=LIMIT)
    made.settings_options["global_per_second"] = RATE
    async with made.running() as running:
        yield running


async def _escalate(url: str, key: str, text: str) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=BOUND) as client:
        response = await client.post(
            "/api/session-control/escalate",
            json={"message": text, "options": ["yes", "no"]},
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 200, response.text


async def test_two_replicas_together_stay_under_the_platforms_global_limit(
    tmp_path: Path, postgres_url: str, clock: FakeClock, telegram: TelegramHarness
) -> None:
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    a, b = replica(config, "a", telegram, clock), replica(config, "b", telegram, clock)
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(a)
        await stack.enter_async_context(b)
        assert not a.leases and not b.leases  # by webhook both replicas send
        keys = {}
        for slug in MEMBERS:
            created = await crew_admin.add_member(
                a.store,
                slug=slug,
                name=slug.title(),
                owners=[f"telegram:{telegram.owner}"],
                transports=["telegram"],
            )
            keys[slug] = created.key
        # Half the members' escalations through each replica, all at once: each replica
        # holds its members' lanes and both outboxes send together.
        await asyncio.gather(
            *[
                _escalate((a if i % 2 else b).url, keys[slug], f"{slug} card {n}?")
                for i, slug in enumerate(MEMBERS)
                for n in range(CARDS)
            ]
        )
        await telegram.wait_until(
            lambda: all(len(telegram.cards(slug)) == CARDS for slug in MEMBERS),
            timeout=BOUND * 3,
        )
        sent = (a.outboxes["telegram"].sent, b.outboxes["telegram"].sent)
    assert all(n > 0 for n in sent), sent  # both replicas called the platform
    assert sum(sent) > LIMIT * 2  # long enough that unshared pacing would have exceeded it
    assert telegram.fake.rate_limited_count == 0, (sent, telegram.fake.rate_limited_count)
