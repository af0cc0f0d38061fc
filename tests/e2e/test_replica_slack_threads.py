"""A member keeps one Slack thread (a root in its owner's DM) across two replicas.

Slack's lanes are sent by whichever replica holds them, so a member's bell and its cards
may be sent by two replicas at once, each opening the member's thread: each reads the DM's
history, and when both read it before either root landed, each posted one. The thread is
recorded as it is opened (``Tx.settle_thread``, as on Telegram and Discord); the replica
that records second deletes its root. The DM itself is one per user on Slack's side:
``conversations.open`` answers the same one on every replica."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import bell_for
from tests.e2e.replica_kit import WAIT, replica
from tests.harnesses.slack import SlackHarness


@pytest.fixture
async def slack() -> AsyncIterator[SlackHarness]:
    made = SlackHarness()
    async with made.running():
        yield made


def _roots(slack: SlackHarness) -> list[str]:
    return [
        m["ts"] for m in slack.fake.messages(slack.dm) if m.get("thread_ts", m["ts"]) == m["ts"]
    ]


async def _two_replicas(
    stack: contextlib.AsyncExitStack,
    tmp_path: Path,
    postgres_url: str,
    clock: FakeClock,
    slack: SlackHarness,
    slugs: list[str],
) -> tuple[Crewline, Crewline]:
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    a, b = replica(config, "a", slack, clock), replica(config, "b", slack, clock)
    await stack.enter_async_context(a)
    await stack.enter_async_context(b)
    for slug in slugs:
        await crew_admin.add_member(
            a.store, slug=slug, name=slug.title(), owners=[f"slack:{slack.owner}"],
            transports=["slack"],
        )  # fmt: skip
    return a, b


async def test_a_root_posted_beside_a_recorded_one_is_deleted_and_the_recorded_kept(
    tmp_path: Path, postgres_url: str, clock: FakeClock, slack: SlackHarness
) -> None:
    """Replica b reads the DM's history and posts Radar's root, its request slow on the
    way; replica a reads the history meanwhile, posts its root, which lands first, and
    records it. b's root then lands: b finds a's recorded, deletes its own, uses a's."""
    async with contextlib.AsyncExitStack() as stack:
        a, b = await _two_replicas(stack, tmp_path, postgres_url, clock, slack, ["radar"])
        member = await a.hub.member("radar")
        slow = slack.fake.delay_next(
            "chat.postMessage",
            where=lambda params: params.get("username") == "Radar" and not params.get("thread_ts"),
        )
        opening = asyncio.create_task(b.transport("slack").open_thread(member))
        async with asyncio.timeout(WAIT):
            await slow.arrived.wait()
        assert _roots(slack) == [], "precondition: b read no root, its own not landed yet"
        first = await a.transport("slack").open_thread(member)
        slow.release()
        assert await opening == first
        assert [f"{slack.dm}:{ts}" for ts in _roots(slack)] == [first]
        assert await a.store.thread_ref("radar", "slack") == first
        assert len(slack.fake.calls_to("chat.delete")) == 1


async def test_a_bell_rung_as_its_replica_loses_the_root_race_links_the_recorded_root(
    tmp_path: Path, postgres_url: str, clock: FakeClock, slack: SlackHarness
) -> None:
    """Replica b rings Radar's first bell, which opens Radar's thread: b's root is slow on
    its way. Replica a posts and records its root meanwhile. b's root lands; b deletes it
    and the bell, still in flight, links a's root: one root, one bell, no link to a root
    that is gone."""
    async with contextlib.AsyncExitStack() as stack:
        a, b = await _two_replicas(stack, tmp_path, postgres_url, clock, slack, ["radar"])
        member = await a.hub.member("radar")
        slow = slack.fake.delay_next(
            "chat.postMessage",
            where=lambda params: params.get("username") == "Radar" and not params.get("thread_ts"),
        )
        bell = bell_for("radar", "Radar")
        ringing = asyncio.create_task(b.transport("slack").ring(bell, message_ref=None))
        async with asyncio.timeout(WAIT):
            await slow.arrived.wait()
        assert _roots(slack) == [], "precondition: b read no root, its own not landed yet"
        first = await a.transport("slack").open_thread(member)
        slow.release()
        rung = await ringing
        top = [f"{slack.dm}:{ts}" for ts in _roots(slack)]
        assert [ref for ref in top if ref != rung] == [first], "b's root deleted"
        assert len(slack.fake.calls_to("chat.delete")) == 1
        shown = [m for m in slack.fake.messages(slack.dm) if f"{slack.dm}:{m['ts']}" == rung]
        assert len(shown) == 1, "the bell, once"
        linked = json.dumps(shown[0].get("blocks"))
        assert f"p{first.split(':')[1].replace('.', '')}" in linked, linked


async def test_two_replicas_opening_members_threads_at_once_make_one_root_each(
    tmp_path: Path, postgres_url: str, clock: FakeClock, slack: SlackHarness
) -> None:
    """Both replicas open each of six members' threads at once, each reading the DM's
    history before the other's root landed (the one that reads first has its root held on
    the way until the other has posted and recorded its own; they take turns): each posts
    a root, the one that records second deletes its own, and both use the one recorded.
    Left to themselves the two opens race only under load (idle, one reads the other's
    root in 2 runs of 2; on a loaded machine 1 to 3 members of 6 raced)."""
    slugs = [f"member{n}" for n in range(6)]
    async with contextlib.AsyncExitStack() as stack:
        a, b = await _two_replicas(stack, tmp_path, postgres_url, clock, slack, slugs)
        for n, slug in enumerate(slugs):
            member = await a.hub.member(slug)
            held, other = (a, b) if n % 2 == 0 else (b, a)
            slow = slack.fake.delay_next(
                "chat.postMessage",
                where=lambda params, name=member.name: (
                    params.get("username") == name and not params.get("thread_ts")
                ),
            )
            opening = asyncio.create_task(held.transport("slack").open_thread(member))
            async with asyncio.timeout(WAIT):
                await slow.arrived.wait()
            assert len(_roots(slack)) == n, "precondition: no root of this member yet"
            recorded = await other.transport("slack").open_thread(member)
            slow.release()
            assert await opening == recorded, slug
            assert recorded in {f"{slack.dm}:{ts}" for ts in _roots(slack)}, slug
            assert len(slack.fake.calls_to("chat.delete")) == n + 1, "the held root deleted"
        assert len(_roots(slack)) == len(slugs)
