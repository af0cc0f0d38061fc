"""Flood limits: many cards into several chats against a fake that enforces Telegram's
per-chat and global limits with 429 ``retry_after``, scaled down twentyfold in time."""

from __future__ import annotations

import asyncio
import time

from crewline import crew as crew_admin
from crewline.config import Config
from crewline.testing import FakeClock
from crewline.transports.telegram.refs import TopicThread
from tests.harnesses.telegram import telegram_crew

OWNERS = 3  # each owner's private chat is one flood-limited chat
MEMBERS_PER_OWNER = 2
CARDS_PER_MEMBER = 15
CHAT_INTERVAL = 0.05  # Telegram: about 1 s per chat, scaled by 1/20
GLOBAL_PER_SECOND = 100  # Telegram: about 30/s; scaled, the chats bind before the total


async def test_many_cards_into_several_chats_arrive_in_order_with_few_429s(
    config: Config, clock: FakeClock
) -> None:
    """All cards are delivered, in order per thread; the pacing keeps 429s to a handful."""
    settings = {"per_chat_interval": CHAT_INTERVAL * 1.1, "global_per_second": 80.0}
    async with telegram_crew(
        config,
        clock,
        settings=settings,
        per_chat_interval=CHAT_INTERVAL,
        global_per_second=GLOBAL_PER_SECOND,
    ) as (harness, crew):
        fake = harness.fake
        owners = [fake.owner.id] + [
            fake.add_user(f"Owner {n}", user_id=3000 + n).id for n in range(1, OWNERS)
        ]
        keys: dict[str, str] = {}
        for owner in owners:
            for n in range(MEMBERS_PER_OWNER):
                slug = f"m{owner}-{n}"
                created = await crew_admin.add_member(
                    crew.crewline.store,
                    slug=slug,
                    name=f"Member {owner}/{n}",
                    owners=[f"telegram:{owner}"],
                    transports=["telegram"],
                )
                keys[slug] = created.key

        async def escalate_all(key: str) -> None:
            for n in range(CARDS_PER_MEMBER):
                await crew.escalate(key, message=f"card {n}", options=["ok"])

        started = time.monotonic()
        await asyncio.gather(*(escalate_all(key) for key in keys.values()))
        total = len(keys) * CARDS_PER_MEMBER
        await harness.wait_until(
            lambda: sum(len(harness.cards(slug)) for slug in keys) == total, timeout=60
        )
        elapsed = time.monotonic() - started

        for slug in keys:
            thread = harness.thread(slug)
            assert isinstance(thread, TopicThread)
            texts = [m.text.split("\n")[0] for m in harness.cards(slug)]
            assert texts == [f"card {n}" for n in range(CARDS_PER_MEMBER)]
        chats = {t.chat_id for slug in keys if isinstance(t := harness.thread(slug), TopicThread)}
        assert chats == set(owners)
        limited = fake.rate_limited_count
        print(
            f"\ntelegram flood: {total} cards into {len(chats)} chats in {elapsed:.1f}s, "
            f"{len(fake.calls_to('sendMessage'))} sendMessage, "
            f"{len(fake.calls_to('editMessageText'))} editMessageText, {limited} x 429"
        )
        assert limited <= 5


async def test_a_429_holds_the_chat_for_retry_after_and_nothing_is_lost(
    config: Config, clock: FakeClock
) -> None:
    """RetryAfter becomes crewline's RateLimited: the chat waits, then the card lands once."""
    settings = {"per_chat_interval": 0.01}  # calls into a chat take turns (1.0 in production)
    async with telegram_crew(config, clock, settings=settings) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member()
        await crew.call(key, "POST", "/api/session/messages", json={"text": "warm up"})
        await harness.wait_until(lambda: len(harness.messages("radar")) == 1)
        fake.fail_next("sendMessage", 429, retry_after=1)
        await crew.escalate(key, message="After the flood?", options=["yes"])
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        await crew.delivered()
        sends = [
            c for c in fake.calls_to("sendMessage") if c.params.get("chat_id") == fake.owner.id
        ]
        limited = next(i for i, c in enumerate(sends) if c.status == 429)
        assert sends[limited + 1].at - sends[limited].at >= 0.95
        assert crew.crewline.outboxes["telegram"].rate_limited == 1
        assert len(harness.cards("radar")) == 1
