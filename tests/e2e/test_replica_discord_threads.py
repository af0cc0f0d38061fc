"""A member keeps one Discord thread across two replicas on one PostgreSQL.

Discord runs on the replica holding its lease, so every card is posted by that one
(escalations through either replica's API land in the same thread). The thread is found
again by its name only in the holder's discord.py cache, which a replica that takes the
gateway over is given without archived threads; so the thread is recorded as it is opened
(``Tx.settle_thread``), and a second one opened in a race is archived, never shown."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.testing import FakeClock
from crewline.transports.discord import DiscordTransport
from tests.driver import bell_for
from tests.e2e.replica_kit import BOUND, OwnLoop, replica
from tests.e2e.test_replica_discord_lease import _escalate, _holder
from tests.fakes.discord import Json
from tests.harnesses.discord import DiscordHarness, _shown


@pytest.fixture
async def discord() -> AsyncIterator[DiscordHarness]:
    made = DiscordHarness()
    async with made.running() as running:
        yield running


def _threads(discord: DiscordHarness) -> list[Json]:
    return [t for t in discord.fake.threads if t["name"].endswith("(radar)")]


def _cards_in(discord: DiscordHarness, thread: Json) -> list[str]:
    return [_shown(m).text for m in discord.fake.messages(int(thread["id"]))]


async def _cards_shown(discord: DiscordHarness, *texts: str) -> None:
    def shown() -> bool:
        posted = [c for t in discord.fake.threads for c in _cards_in(discord, t)]
        return all(any(text in c for c in posted) for text in texts)

    await discord.wait_until(shown, timeout=BOUND)


async def _two_replicas(
    stack: contextlib.AsyncExitStack,
    tmp_path: Path,
    postgres_url: str,
    clock: FakeClock,
    discord: DiscordHarness,
) -> tuple[Crewline, Crewline, str]:
    """Replicas a and b, Radar bound to Discord; the holder of the gateway first."""
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    a, b = replica(config, "a", discord, clock), replica(config, "b", discord, clock)
    await stack.enter_async_context(a)
    await stack.enter_async_context(b)
    created = await crew_admin.add_member(
        a.store, slug="radar", name="Radar", owners=[f"discord:{discord.owner}"],
        transports=["discord"],
    )  # fmt: skip
    holder = await _holder(a, b)
    await discord.fake.wait_for_ready(count=1, timeout=BOUND)
    return holder, (b if holder is a else a), created.key


async def test_cards_sent_through_both_replicas_land_in_one_thread(
    tmp_path: Path, postgres_url: str, clock: FakeClock, discord: DiscordHarness
) -> None:
    """Radar's escalations through one replica, then the other, then both at once: one
    thread on Discord, every card in it."""
    async with contextlib.AsyncExitStack() as stack:
        holder, standby, key = await _two_replicas(stack, tmp_path, postgres_url, clock, discord)
        assert _threads(discord) == [], "precondition: Radar has no thread yet"
        await _escalate(standby, key, "One?")
        await _escalate(holder, key, "Two?")
        await asyncio.gather(_escalate(holder, key, "Three?"), _escalate(standby, key, "Four?"))
        await _cards_shown(discord, "One?", "Two?", "Three?", "Four?")
        (thread,) = _threads(discord)
        cards = _cards_in(discord, thread)
        assert [q for q in ("One?", "Two?", "Three?", "Four?") if any(q in c for c in cards)] == [
            "One?", "Two?", "Three?", "Four?",
        ]  # fmt: skip
        assert await holder.store.thread_ref("radar", "discord") == thread["id"]


async def test_the_thread_a_bell_opened_is_the_one_the_next_holder_posts_in(
    tmp_path: Path, postgres_url: str, clock: FakeClock, discord: DiscordHarness
) -> None:
    """The holder's bell opens Radar's thread before any card; the thread is archived (a
    week without activity) and the holder stops. The replica that takes the gateway over
    is not given the archived thread, yet posts Radar's card in it, opening no other."""
    async with contextlib.AsyncExitStack() as stack:
        holder, standby, key = await _two_replicas(stack, tmp_path, postgres_url, clock, discord)
        bell = bell_for("radar", "Radar")
        await holder.transport("discord").ring(bell, message_ref=None)
        (opened,) = _threads(discord)
        assert await holder.store.thread_ref("radar", "discord") in (None, opened["id"])
        await discord.fake.archive_thread(int(opened["id"]))
        await holder.__aexit__(None, None, None)
        await standby.leases["discord"].wait(held=True, timeout=BOUND)
        await discord.fake.wait_for_ready(count=2, timeout=BOUND)
        successor = standby.transport("discord")
        assert isinstance(successor, DiscordTransport)
        assert successor._cached_thread("radar") is None, "precondition: not in its cache"
        await _escalate(standby, key, "Ship?")
        await _cards_shown(discord, "Ship?")
        (thread,) = _threads(discord)
        assert thread["id"] == opened["id"]
        assert any("Ship?" in c for c in _cards_in(discord, thread))
        assert thread["thread_metadata"]["archived"] is False, "the card reopened it"


async def test_a_thread_opened_beside_a_recorded_one_is_archived_and_never_shown(
    tmp_path: Path, postgres_url: str, clock: FakeClock, discord: DiscordHarness
) -> None:
    """Two processes opening Radar's thread at once (the successor has not read the record
    the other wrote a moment before): the one that records second archives its thread,
    adds the owner to none of it, and uses the first."""
    async with contextlib.AsyncExitStack() as stack:
        holder, standby, _ = await _two_replicas(stack, tmp_path, postgres_url, clock, discord)
        member = await holder.hub.member("radar")
        first = await holder.transport("discord").open_thread(member)
        await discord.fake.archive_thread(int(first))
        await holder.__aexit__(None, None, None)
        await standby.leases["discord"].wait(held=True, timeout=BOUND)
        await discord.fake.wait_for_ready(count=2, timeout=BOUND)
        successor = standby.transport("discord")
        assert isinstance(successor, DiscordTransport)
        assert successor._cached_thread("radar") is None, "precondition: it opens one itself"
        # As if it had read no record before opening: it opens one, then finds the first.
        assert await successor.open_thread(member) == first
        threads = _threads(discord)
        assert len(threads) == 2, "precondition: a second thread was opened"
        second = next(t for t in threads if t["id"] != first)
        assert second["thread_metadata"]["archived"] is True
        assert int(discord.owner) not in discord.fake.thread_member_ids(int(second["id"]))


async def test_a_holder_frozen_as_it_opens_a_thread_resumes_into_the_successors(
    tmp_path: Path, postgres_url: str, clock: FakeClock, discord: DiscordHarness
) -> None:
    """Replica a, holding the gateway, freezes (every task of it, as a stopped process) as
    its request to open Radar's thread is on its way. Replica b takes the gateway over once
    a's lease expired, opens Radar's thread, records it and posts the card. Then a's request
    lands, making a second thread, and a runs again: the owner is in the recorded thread
    alone, and the card is in it once."""
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    async with OwnLoop() as own, contextlib.AsyncExitStack() as stack:

        async def made() -> Crewline:  # built on the loop it runs on
            return replica(config, "a", discord, clock)

        async with own.entered(await own.run(made())) as frozen:
            await own.run(frozen.leases["discord"].wait(held=True, timeout=BOUND))
            successor = await stack.enter_async_context(replica(config, "b", discord, clock))
            created = await crew_admin.add_member(
                successor.store, slug="radar", name="Radar", owners=[f"discord:{discord.owner}"],
                transports=["discord"],
            )  # fmt: skip
            assert not successor.leases["discord"].status().held, "precondition: a holds it"
            opening = discord.fake.delay_next(
                "POST", f"/channels/{discord.fake.crew_channel_id}/threads"
            )
            await _escalate(successor, created.key, "Ship?")  # a's outbox sends the card
            async with asyncio.timeout(BOUND):
                await opening.arrived.wait()
            await own.freeze()
            await successor.leases["discord"].wait(held=True, timeout=BOUND)
            await _cards_shown(discord, "Ship?")
            (recorded,) = _threads(discord)
            assert await successor.store.thread_ref("radar", "discord") == recorded["id"]
            opening.release()  # Discord carries out a's request, answered into a's socket
            await discord.wait_until(lambda: len(_threads(discord)) == 2, timeout=BOUND)
            own.thaw()
            await own.run(frozen.leases["discord"].wait(held=False, timeout=BOUND))
        # Every task of a has ended: what it did on waking is all on Discord now.
        stray = next(t for t in _threads(discord) if t["id"] != recorded["id"])
        assert int(discord.owner) in discord.fake.thread_member_ids(int(recorded["id"]))
        assert int(discord.owner) not in discord.fake.thread_member_ids(int(stray["id"]))
        cards = [c for t in _threads(discord) for c in _cards_in(discord, t) if "Ship?" in c]
        assert len(cards) == 1, cards
        assert await successor.store.thread_ref("radar", "discord") == recorded["id"]
