"""Slack's posting limit: about one message per second per channel, enforced by the fake.

Every member thread of an owner is in one channel (their DM with the app), so twenty threads
share one limit. Time is scaled: the fake's "one second" is ``INTERVAL`` here, and the
transport is configured with the same interval (``[slack] post_interval``); a 429 still
costs its full ``Retry-After`` (whole seconds), so each one shows in the run time.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.bounds import WAIT
from tests.driver import Crew
from tests.fakes.slack import FakeSlack
from tests.harnesses.slack import SlackHarness

INTERVAL = 0.01  # Slack's 1 s, scaled down 100 times
MEMBERS = 20
CARDS_PER_MEMBER = 10
MAX_429 = 3

# 200 escalations over HTTP and 200 posts: about 100 s at load 15 on two cores, near the
# suite's 120-s default; the bound only decides how long a real hang takes to report.
pytestmark = pytest.mark.timeout(600)


@pytest.fixture
async def harness() -> AsyncIterator[SlackHarness]:
    paced = functools.partial(FakeSlack, post_interval_per_channel=INTERVAL)
    async with SlackHarness(post_interval=INTERVAL, fake=paced).running() as running:
        assert isinstance(running, SlackHarness)
        yield running


async def test_200_cards_into_20_threads_are_all_posted_in_order_with_few_429s(
    crew: Crew, harness: SlackHarness
) -> None:
    """200 cards into 20 threads of one DM: each posted once, in order per thread, few 429s."""
    slugs = [f"m{n:02d}" for n in range(MEMBERS)]
    keys = [await crew.add_member(slug, f"Member {slug}") for slug in slugs]
    await crew.delivered()
    started = time.monotonic()

    async def escalate_all(slug: str, key: str) -> None:
        for n in range(CARDS_PER_MEMBER):
            await crew.escalate(key, message=f"{slug} card {n}", options=["ok"])

    await asyncio.gather(*[escalate_all(slug, key) for slug, key in zip(slugs, keys, strict=True)])

    def posted() -> int:
        return sum(len(harness.cards(slug)) for slug in slugs)

    await harness.wait_until(lambda: posted() == MEMBERS * CARDS_PER_MEMBER, timeout=WAIT * 2)
    elapsed = time.monotonic() - started
    await crew.delivered()
    for slug in slugs:
        texts = [card.text.split("\n")[0] for card in harness.cards(slug)]
        assert texts == [f"{slug} card {n}" for n in range(CARDS_PER_MEMBER)]
    posts = harness.fake.calls_to("chat.postMessage")
    accepted = [c for c in posts if c.ok]
    assert len(accepted) == MEMBERS * (1 + CARDS_PER_MEMBER + 1)  # root, cards, bell
    limited = harness.fake.rate_limited_count
    print(f"\nslack rate limit: {len(accepted)} posts, {limited} x 429, {elapsed:.1f}s")
    assert limited <= MAX_429


@pytest.fixture
async def unpaced() -> AsyncIterator[SlackHarness]:
    """A transport that does not pace (post_interval 0) against a fake that limits at 0.3 s."""
    limited = functools.partial(FakeSlack, post_interval_per_channel=0.3)
    async with SlackHarness(post_interval=0.0, fake=limited).running() as running:
        assert isinstance(running, SlackHarness)
        yield running


async def test_a_429_is_waited_out_for_its_retry_after_and_posted_once(
    config: Config, clock: FakeClock, unpaced: SlackHarness
) -> None:
    """Posts Slack refuses with 429 are retried after Retry-After (1 s) and land exactly once."""
    crew = Crew(config, clock, [unpaced])
    await crew.start()
    try:
        key = await crew.add_member()
        started = time.monotonic()
        await crew.escalate(key, message="Throttled?", options=["ok"])
        await unpaced.wait_until(lambda: len(unpaced.cards("radar")) == 1 and bool(unpaced.bells()))
        elapsed = time.monotonic() - started
        await crew.delivered()
    finally:
        await crew.stop()
    posts = unpaced.fake.calls_to("chat.postMessage")
    assert unpaced.fake.rate_limited_count >= 1
    assert elapsed >= 1.0
    assert [c.status for c in posts].count(200) == 3  # root, card, bell: each once
    assert len(unpaced.cards("radar")) == 1
