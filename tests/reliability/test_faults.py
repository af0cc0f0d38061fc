"""Platform faults: 20 % of the platform calls fail, seeded, during steady load.

Each fake draws a fault for one call in five (``tests/fakes/chaos.py``) among the failures
its platform really shows: Slack 500/503, 429 with ``Retry-After``, a connection reset before
the call and one after it was carried out; Telegram 500, 429 with ``retry_after``, 409 on
``getUpdates`` and a connection reset; Discord 5xx, 429 with ``retry_after``, resets before
and after the call, and (between escalations) gateway drops and invalidated sessions.
Slack's and Telegram's fakes also refuse a call that breaks the posting pace (scaled down).
Every card must arrive exactly once, in order in its thread, and no call may be refused for
breaking the pace. The seed is logged (``CREWLINE_RELIABILITY_SEED`` fixes it).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import random
from collections.abc import AsyncIterator

import pytest

from crewline.transports.slack.blocks import THREAD_EVENT
from tests.driver import Crew
from tests.fakes.chaos import FaultPlan
from tests.fakes.slack import FakeSlack
from tests.harness import Harness
from tests.harnesses.discord import DiscordHarness
from tests.harnesses.slack import SlackHarness
from tests.harnesses.telegram import TelegramHarness

FULL = os.environ.get("CREWLINE_RELIABILITY") == "full"
DRAIN = 540 if FULL else 90  # seconds for the outbox to drain, below the test's timeout
pytestmark = [pytest.mark.slow, pytest.mark.timeout(DRAIN + 60)]
SEED = int(os.environ.get("CREWLINE_RELIABILITY_SEED") or random.SystemRandom().randrange(2**32))
RATE = 0.2
INTERVAL = 0.02  # the platforms' per-chat pace (one a second), scaled down 50 times
MEMBERS = 8 if FULL else 4
CARDS_PER_MEMBER = 16 if FULL else 6
log = logging.getLogger(__name__)


@pytest.fixture(params=["slack", "telegram", "discord"])
async def harness(request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    made: SlackHarness | TelegramHarness | DiscordHarness
    if request.param == "discord":
        made = DiscordHarness()
    elif request.param == "slack":
        paced = functools.partial(FakeSlack, post_interval_per_channel=INTERVAL)
        made = SlackHarness(post_interval=INTERVAL, fake=paced)
    else:
        made = TelegramHarness(per_chat_interval=INTERVAL)
        made.settings_options["per_chat_interval"] = INTERVAL * 1.5
    async with made.running() as running:
        yield running


def _plan(harness: Harness) -> FaultPlan:
    if isinstance(harness, SlackHarness):
        plan = FaultPlan(
            rate=RATE,
            seed=SEED,
            kinds=("500", "503", "429", "reset", "landed-reset"),
            methods=("chat.postMessage", "chat.update"),
        )
        harness.fake.faults = plan
        return plan
    if isinstance(harness, DiscordHarness):
        plan = FaultPlan(
            rate=RATE,
            seed=SEED,
            kinds=("500", "502", "429", "reset", "landed-reset"),
            methods=("POST messages", "PATCH messages"),
        )
        harness.fake.faults = plan
        return plan
    assert isinstance(harness, TelegramHarness)
    plan = FaultPlan(
        rate=RATE,
        seed=SEED,
        kinds=("500", "429", "409", "reset"),
        methods=("sendMessage", "editMessageText", "getUpdates"),
    )
    harness.fake.faults = plan
    return plan


def _pace_refusals(harness: Harness, plan: FaultPlan) -> int:
    """Calls the fake refused for breaking the platform's pace (not the injected 429s)."""
    if isinstance(harness, SlackHarness):
        return harness.fake.rate_limited_count
    if isinstance(harness, DiscordHarness):
        return harness.fake.rate_limit_hits
    assert isinstance(harness, TelegramHarness)
    return sum(c.status == 429 for c in harness.fake.calls) - plan.injected["429"]


async def _gateway_fault(harness: DiscordHarness, rng: random.Random, plan: FaultPlan) -> None:
    """Discord's gateway faults: a dropped connection, or a session it invalidates."""
    fault = rng.choice(("drop", "invalid", "invalid-resumable"))
    plan.injected[f"gateway-{fault}"] += 1
    if fault == "drop":
        await harness.fake.drop_connection()
    else:
        await harness.fake.invalidate_session(resumable=fault == "invalid-resumable")


async def test_every_card_arrives_once_in_order_through_20_percent_faults(
    crew: Crew, harness: Harness
) -> None:
    """Steady escalations into four threads while one call in five fails."""
    log.warning("faults on %s: seed %d (CREWLINE_RELIABILITY_SEED)", harness.name, SEED)
    slugs = [f"m{n}" for n in range(MEMBERS)]
    keys = [await crew.add_member(slug, f"Member {slug}") for slug in slugs]
    await crew.delivered()
    plan = _plan(harness)

    rng = random.Random(SEED)

    async def escalate_all(slug: str, key: str) -> None:
        for n in range(CARDS_PER_MEMBER):
            await crew.escalate(key, message=f"{slug} card {n}", options=["ok"])
            if isinstance(harness, DiscordHarness) and rng.random() < RATE / MEMBERS:
                await _gateway_fault(harness, rng, plan)

    await asyncio.gather(*[escalate_all(s, k) for s, k in zip(slugs, keys, strict=True)])

    def cards(slug: str) -> list[str]:
        return [m.text for m in harness.messages(slug) if m.payloads]

    # Bounded below the per-test timeout, so a stall fails on what is missing, not on time.
    await crew.crewline.outboxes[harness.name].wait_idle(timeout=DRAIN)
    assert sum(plan.injected.values()) > 0, "precondition: faults were injected"
    if isinstance(harness, SlackHarness):
        # A root posted twice (landed, answer lost) splits a member's cards over two threads.
        tops = [
            m["metadata"]["event_payload"]["member"]
            for m in harness.fake.messages(harness.dm)
            if (m.get("metadata") or {}).get("event_type") == THREAD_EVENT
        ]
        assert sorted(tops) == slugs, f"seed {SEED}: thread roots {tops}"
    for slug in slugs:
        firsts = cards(slug)
        wanted = [f"{slug} card {n}" for n in range(CARDS_PER_MEMBER)]
        assert [w for w in wanted if any(w in f for f in firsts)] == wanted, f"{SEED}: {firsts}"
        assert len(firsts) == CARDS_PER_MEMBER, f"seed {SEED}: {firsts}"
        order = [next(i for i, w in enumerate(wanted) if w in f) for f in firsts]
        assert order == sorted(order), f"seed {SEED}: {firsts}"
    assert _pace_refusals(harness, plan) == 0, f"seed {SEED}"
    log.warning("%s: injected %s", harness.name, dict(plan.injected))
