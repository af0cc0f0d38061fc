"""A platform's rate limits are per app, not per replica: two replicas sending at once stay
under them together, the global one and a chat's.

Telegram by webhook (so both replicas send: no lease on the connection). crewline is told
``RATE`` messages a second, which one replica alone keeps under Telegram's ``LIMIT`` and two
replicas each pacing on their own would exceed. Escalations for several members land on
both replicas at once, so both outboxes send in parallel.

The judgement is on the times the fake received the messages, counted over ``WINDOW``
seconds rather than one: every message waits for its turn, so a replica whose loop (or
PostgreSQL) stalls sends its turns late, bunched with the next ones. Counted per second, a
half-second stall on a loaded machine read as a burst over the limit (a 429 at load 22);
over three seconds a stall shorter than half of that cannot, while two replicas pacing apart
(twice ``RATE``, for as long as the test's cards last) still exceed it by a third.

The cards are waited for by their progress, not by a deadline: every card takes its turn,
so the last lands after all the others' turns and all the work each send costs, which on a
loaded machine is seconds a card (54 s did not cover 20 cards at a load of 15-20). A wait
fails when no card lands for ``WAIT`` seconds: a stuck outbox still fails, a slow one is
waited for as long as it keeps delivering.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.replication.replicas import holder_tag
from crewline.store.postgres import PostgresStore
from crewline.store.postgres_coordination import PostgresCoordination
from crewline.testing import FakeClock
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.e2e.replica_kit import BOUND, replica
from tests.harnesses.telegram import TelegramHarness

LIMIT = 12  # Telegram's messages a second for the bot
RATE = 8.0  # crewline's global_per_second: under LIMIT alone, 2 x RATE over it
WINDOW = 3.0  # seconds the messages are counted over (above)
MEMBERS = ("radar", "probe", "sonar", "delta")
CARDS = 12  # per member: 48 cards, so two replicas pacing apart send for the whole WINDOW
FLOOD = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})
# The suite's per-test timeout is a backstop for a hang; these tests' waits end on a stall
# (``_all_cards``), and while cards keep landing on a loaded machine they may take longer.
PATIENCE = 600


@pytest.fixture
async def telegram() -> AsyncIterator[TelegramHarness]:
    made = TelegramHarness(webhook=True)
    made.settings_options["global_per_second"] = RATE
    async with made.running() as running:
        yield running


def _most_within(times: list[float], window: float) -> int:
    """The most of ``times`` that fall within any span shorter than ``window``."""
    ordered, first, most = sorted(times), 0, 0
    for last, at in enumerate(ordered):
        while at - ordered[first] >= window:
            first += 1
        most = max(most, last - first + 1)
    return most


def _sent(telegram: TelegramHarness) -> dict[str, list[float]]:
    """When the fake received each flood-counted message, by chat."""
    sent: dict[str, list[float]] = {}
    for call in telegram.fake.calls:
        if call.method in FLOOD:
            sent.setdefault(str(call.params.get("chat_id")), []).append(call.at)
    return sent


async def _all_cards(telegram: TelegramHarness, slugs: tuple[str, ...], cards: int) -> None:
    """Until every member shows ``cards`` cards, as long as they keep landing: fails once
    ``WAIT`` seconds pass without one more card (the pace's turns and each send's work
    make the whole take longer the busier the machine is; a card every ``WAIT`` does not)."""

    def drawn() -> int:
        return sum(min(cards, len(telegram.cards(slug))) for slug in slugs)

    while (done := drawn()) < cards * len(slugs):
        try:
            await telegram.wait_until(lambda done=done: drawn() > done, timeout=WAIT)
        except TimeoutError as error:
            raise AssertionError(
                f"no card landed for {WAIT:.0f} s with {done} of {cards * len(slugs)} drawn"
            ) from error


async def _members(
    replica: Crewline, telegram: TelegramHarness, slugs: tuple[str, ...]
) -> dict[str, str]:
    keys = {}
    for slug in slugs:
        created = await crew_admin.add_member(
            replica.store,
            slug=slug,
            name=slug.title(),
            owners=[f"telegram:{telegram.owner}"],
            transports=["telegram"],
        )
        keys[slug] = created.key
    return keys


async def _on_both(a: Crewline, b: Crewline, keys: dict[str, str], cards: int) -> None:
    """Half the members' escalations through each replica, all at once: each replica holds
    its members' lanes and both outboxes send together."""
    await asyncio.gather(
        *[
            _escalate((a if i % 2 else b).url, key, f"{slug} card {n}?")
            for i, (slug, key) in enumerate(keys.items())
            for n in range(cards)
        ]
    )


async def _escalate(url: str, key: str, text: str) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT) as client:
        response = await client.post(
            "/api/session-control/escalate",
            json={"message": text, "options": ["yes", "no"]},
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 200, response.text


@pytest.mark.timeout(PATIENCE)
async def test_two_replicas_together_stay_under_the_platforms_global_limit(
    tmp_path: Path, postgres_url: str, clock: FakeClock, telegram: TelegramHarness
) -> None:
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    a, b = replica(config, "a", telegram, clock), replica(config, "b", telegram, clock)
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(a)
        await stack.enter_async_context(b)
        assert not a.leases and not b.leases  # by webhook both replicas send
        await _on_both(a, b, await _members(a, telegram, MEMBERS), CARDS)
        await _all_cards(telegram, MEMBERS, CARDS)
        sent = (a.outboxes["telegram"].sent, b.outboxes["telegram"].sent)
        cards = {slug: len(telegram.cards(slug)) for slug in MEMBERS}
    assert cards == dict.fromkeys(MEMBERS, CARDS), cards  # waited for at least: none twice
    assert all(n > 0 for n in sent), sent  # both replicas called the platform
    # More than WINDOW's worth: two replicas pacing apart would send all of it that fast.
    assert sum(sent) >= 2 * RATE * WINDOW, sent
    most = _most_within([at for chat in _sent(telegram).values() for at in chat], WINDOW)
    assert most <= LIMIT * WINDOW, (sent, most)


CHAT_INTERVAL = 0.3  # crewline's per_chat_interval
CHAT_CARDS = 10  # per member: two replicas pacing apart send for the whole WINDOW


@pytest.mark.timeout(PATIENCE)
async def test_two_replicas_together_keep_a_chats_interval(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    """Every member's topic is in one forum chat: lanes of different members (held by
    different replicas) still take turns in the chat, across the replicas. Counted over
    ``WINDOW``: turns an interval apart put at most WINDOW / CHAT_INTERVAL + 1 (11)
    messages in it, two replicas taking turns apart about twice that; the judgement allows
    half as many again (16), so a stall shorter than half the window cannot fail it."""
    telegram = TelegramHarness(webhook=True, forum=True)
    telegram.settings_options["per_chat_interval"] = CHAT_INTERVAL
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    async with telegram.running(), contextlib.AsyncExitStack() as stack:
        a = await stack.enter_async_context(replica(config, "a", telegram, clock))
        b = await stack.enter_async_context(replica(config, "b", telegram, clock))
        slugs = MEMBERS[:2]
        await _on_both(a, b, await _members(a, telegram, slugs), CHAT_CARDS)
        await _all_cards(telegram, slugs, CHAT_CARDS)
        sent = (a.outboxes["telegram"].sent, b.outboxes["telegram"].sent)
        into_chat = max(_sent(telegram).values(), key=len)  # the members' topics' chat
        cards = {slug: len(telegram.cards(slug)) for slug in slugs}
    assert cards == dict.fromkeys(slugs, CHAT_CARDS), cards  # waited for at least: none twice
    assert all(n > 0 for n in sent), sent
    assert len(into_chat) >= 2 * CHAT_CARDS, into_chat  # every card went into that chat
    most = _most_within(into_chat, WINDOW)
    assert most <= 1.5 * WINDOW / CHAT_INTERVAL + 1, (sent, most)


async def test_turns_of_a_shared_budget_are_an_interval_apart_across_replicas(
    postgres_url: str,
) -> None:
    """Two replicas reserving turns of one budget alternately: the first is now, each
    later one a whole interval after the one before, whichever replica asked."""
    async with PostgresStore(postgres_url):
        pass  # the migrations
    interval = 30.0  # far longer than the statements take: nobody waits for a turn here
    async with (
        PostgresCoordination(postgres_url, holder_tag("a")) as a,
        PostgresCoordination(postgres_url, holder_tag("b")) as b,
    ):
        waits = [await (a if n % 2 else b).pace("outbox:test", interval) for n in range(4)]
        other = await a.pace("outbox:other", interval)
    assert waits[0] == 0.0 and other == 0.0  # budgets are apart
    for n, wait in enumerate(waits[1:], start=1):
        assert interval * n - interval / 2 < wait <= interval * n, waits


RETRY_AFTER = 30  # seconds Telegram says to wait: far longer than anything here takes


async def test_a_chats_429_holds_the_chat_on_every_replica(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    """Telegram's ``retry_after`` is the bot's: the replica that met it reserves a turn that
    long in the chat's shared budget, so another replica's next call into the chat waits it
    out (read from the budget in the database, not by timing any call)."""
    telegram = TelegramHarness(webhook=True)
    telegram.settings_options["per_chat_interval"] = CHAT_INTERVAL
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    async with telegram.running(), contextlib.AsyncExitStack() as stack:
        a = await stack.enter_async_context(replica(config, "a", telegram, clock))
        telegram.fake.fail_next("sendMessage", 429, retry_after=RETRY_AFTER)
        keys = await _members(a, telegram, MEMBERS[:1])
        await _escalate(a.url, keys[MEMBERS[0]], "Held?")
        limited = await telegram.fake.wait_for_call(
            "sendMessage", predicate=lambda c: c.status == 429, timeout=BOUND
        )
        async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
            async with asyncio.timeout(BOUND):
                # No event says when replica a's statement committed: look until it has.
                budget = f"telegram:chat:{telegram.owner}"
                while (held := await _held(conn, budget)) < 10:  # noqa: ASYNC110
                    await asyncio.sleep(0.05)
    elapsed = time.monotonic() - limited.at
    # Without the shared hold the budget is one interval ahead of now at most.
    assert held >= RETRY_AFTER - elapsed - 0.5, (held, elapsed)


async def _held(conn: psycopg.AsyncConnection[Any], budget: str) -> float:
    """Seconds until the budget's next turn, as every replica's next reservation sees it."""
    cursor = await conn.execute(
        "SELECT extract(epoch FROM next_at - clock_timestamp())::float8"
        " FROM crewline_pacing WHERE name = %s",
        (budget,),
    )
    row = await cursor.fetchone()
    return float(row[0]) if row is not None else 0.0
