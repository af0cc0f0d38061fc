"""What crewline looks like in a Discord server: private member threads, the bell, the
pinned status, the commands and edits."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from crewline.config import Config
from crewline.models import HumanCommand
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.fakes.discord import PRIVATE_THREAD, Dispatch, Json
from tests.harness import Shown
from tests.harnesses.discord import DiscordHarness, crew_on_discord
from tests.harnesses.discord import discord_of as _discord


@pytest.fixture
async def crew(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    async with crew_on_discord(config, clock) as running:
        yield running


async def _cards(crew: Crew, count: int, member: str = "radar") -> list[Shown]:
    harness = _discord(crew)
    await harness.wait_until(lambda: len(harness.cards(member)) == count)
    return harness.cards(member)


def _bells(harness: DiscordHarness) -> list[Json]:
    """The bell messages in the crew channel (crewline's, with an embed)."""
    return [
        m
        for m in harness.fake.messages(harness.fake.crew_channel_id)
        if int(m["author"]["id"]) == harness.fake.bot_user.id and m["embeds"]
    ]


def _status(harness: DiscordHarness) -> list[Json]:
    return [
        m
        for m in harness.fake.messages(harness.fake.crew_channel_id)
        if m["pinned"] and m["content"].startswith("**crewline status**")
    ]


async def test_each_member_gets_a_private_thread_with_its_owner_added(crew: Crew) -> None:
    """A member's first message opens a private, non-invitable thread in the crew channel,
    named after it, with its owner added; a second member gets its own."""
    harness = _discord(crew)
    assert harness.fake.threads == []
    radar = await crew.add_member("radar", "Radar")
    probe = await crew.add_member("probe", "Probe")
    for key in (radar, probe, radar):
        await crew.call(key, "POST", "/api/session/messages", json={"text": "hello"})
    await crew.delivered()

    threads = {t["name"]: t for t in harness.fake.threads}
    assert sorted(threads) == ["Probe (probe)", "Radar (radar)"]
    radar_thread = threads["Radar (radar)"]
    assert radar_thread["type"] == PRIVATE_THREAD
    assert radar_thread["parent_id"] == str(harness.fake.crew_channel_id)
    assert radar_thread["thread_metadata"]["invitable"] is False
    members = harness.fake.thread_member_ids(int(radar_thread["id"]))
    assert members == {harness.fake.bot_user.id, harness.fake.owner.id}
    assert len(harness.messages("radar")) == 2
    assert [m.text for m in harness.messages("probe")] == ["**Probe**\nhello"]


async def test_the_bell_pings_the_owner_links_the_thread_and_stacks_in_place(
    crew: Crew,
) -> None:
    """Requests of one goal share one bell message, edited as they stack; when none is left
    it goes, and the goal's next request pings the owner again."""
    harness = _discord(crew)
    fake = harness.fake
    key = await crew.add_member()
    await crew.escalate(key, message="Tag it?", goal="release", options=["yes", "no"])
    await harness.wait_until(lambda: len(_bells(harness)) == 1)
    await crew.escalate(key, message="Publish notes?", goal="release", options=["ok"])
    await harness.wait_until(lambda: any("2 requests" in v[-1] for v in harness.bells().values()))
    bells = _bells(harness)
    assert len(bells) == 1
    thread = harness.thread_id("radar")
    assert bells[0]["content"] == f"<@{harness.owner}> <#{thread}>"
    assert bells[0]["embeds"][0]["url"] == f"https://discord.com/channels/{fake.guild_id}/{thread}"
    assert bells[0]["embeds"][0]["title"] == "Radar needs you"
    posted = [
        c
        for c in fake.calls_to("POST", rf"/channels/{fake.crew_channel_id}/messages")
        if c.json.get("embeds")
    ]
    assert len(posted) == 1
    mentions = posted[0].json["allowed_mentions"]
    assert ([str(u) for u in mentions["users"]], mentions["parse"]) == ([harness.owner], [])
    edits = fake.calls_to("PATCH", rf"/channels/{fake.crew_channel_id}/messages/{bells[0]['id']}")
    assert edits and all(c.status == 200 for c in edits)

    for card in await _cards(crew, 2):
        await harness.press("radar", card, 0)
    await harness.wait_until(lambda: _bells(harness) == [])

    await crew.escalate(key, message="Ship it?", goal="release")
    await harness.wait_until(lambda: len(_bells(harness)) == 1)
    again = _bells(harness)[0]
    assert again["id"] != bells[0]["id"]
    assert again["content"].startswith(f"<@{harness.owner}>")


async def test_a_first_bell_rung_before_its_thread_exists_links_to_it(crew: Crew) -> None:
    """The bell's lane does not wait for the thread's: while Discord refuses the member's
    thread, the first bell is rung all the same. It is posted only with its link to the
    thread, which is created once whichever lane gets there first."""
    harness = _discord(crew)
    fake = harness.fake
    threads = rf"/channels/{fake.crew_channel_id}/threads"
    lift = fake.refuse("POST", threads)
    key = await crew.add_member()
    await crew.escalate(key, message="Tag it?", goal="release", options=["yes"])
    await crew.lane_tried("discord", "bell:radar")  # the bell has rung: posted, or failed
    assert fake.threads == [], "precondition: the bell rang before the thread existed"
    assert [c.status for c in fake.calls_to("POST", threads)][:1] == [503]
    lift()
    await crew.delivered()
    assert len(fake.threads) == 1
    thread = harness.thread_id("radar")
    drawn = [
        c.json
        for c in fake.calls
        if c.status == 200
        and c.method in ("POST", "PATCH")
        and c.path.startswith(f"/channels/{fake.crew_channel_id}/messages")
        and isinstance(c.json, dict)
        and c.json.get("embeds")
    ]
    # Posted once, and with the link to the thread (not first without it, then edited).
    assert [f"/{thread}" in json.dumps(body) for body in drawn] == [True]


async def test_the_status_is_pinned_edited_in_place_and_found_after_a_restart(
    crew: Crew,
) -> None:
    """One pinned status message lists the roster; changes edit it, a restart reuses it."""
    harness = _discord(crew)
    key = await crew.add_member()
    await crew.escalate(key, message="Ship?", options=["yes"])
    await harness.wait_until(
        lambda: any("needs you, 1 open" in m["content"] for m in _status(harness))
    )
    [status] = _status(harness)
    assert status["content"].splitlines() == [
        "**crewline status**",
        "Radar (radar): needs you, 1 open",
    ]
    [card] = await _cards(crew, 1)
    await harness.press("radar", card, 0)
    await harness.wait_until(lambda: "all clear" in _status(harness)[0]["content"])

    await crew.restart()
    await crew.add_member("probe", "Probe")
    await crew.escalate(key, message="Again?")
    await harness.wait_until(lambda: "Probe (probe)" in _status(harness)[0]["content"])
    assert [m["id"] for m in _status(harness)] == [status["id"]]


async def test_commands_are_registered_in_the_server_and_reach_the_core(crew: Crew) -> None:
    """/concierge status|answer|undo|act, /roster and /help are guild commands; a concierge command
    reaches the core as a HumanCommand and its answer is shown to the caller only."""
    harness = _discord(crew)
    fake = harness.fake
    await crew.add_member()
    commands = {c["name"]: c for c in fake.commands(fake.guild_id)}
    assert sorted(commands) == [
        "Fork from here",
        "Rewind to here",
        "concierge",
        "fork",
        "help",
        "regenerate",
        "reset",
        "rewind",
        "roster",
    ]
    assert commands["Rewind to here"]["type"] == commands["Fork from here"]["type"] == 3
    subcommands = [o["name"] for o in commands["concierge"]["options"]]
    assert subcommands == ["status", "answer", "undo", "act"]
    policy = commands["concierge"]["options"][1]["options"][0]
    assert [c["value"] for c in policy["choices"]] == ["never", "routine", "always"]

    answer = await harness.command("concierge", "answer", "routine")

    events = [e for e, _ in harness.handled_events if isinstance(e, HumanCommand)]
    assert [(e.name, e.args, e.thread) for e in events] == [
        ("concierge", ("answer", "routine"), None)
    ]
    assert answer is not None and "answer routine" in answer
    assert not any("/concierge" in m["content"] for m in fake.messages(fake.crew_channel_id))


async def test_a_command_in_a_members_thread_names_that_thread(crew: Crew) -> None:
    """Run inside a member's thread, a command carries the thread ref to the core."""
    harness = _discord(crew)
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "hi"})
    await crew.delivered()
    answer = await harness.command("help", member="radar")
    assert answer is not None and "/roster" in answer
    [event] = [e for e, _ in harness.handled_events if isinstance(e, HumanCommand)]
    assert event.thread == str(harness.thread_id("radar"))


async def test_an_edit_in_the_thread_reaches_the_member_once(crew: Crew) -> None:
    """Editing one's message sends the member a human_edit event; a redelivery does not."""
    harness = _discord(crew)
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "what now?"})
    await crew.delivered()
    thread = harness.thread_id("radar")
    sent = await harness.fake.send_message(thread, "deploy to staging")
    await harness.receipt(str(sent.id))

    edit = await harness.fake.edit_message(thread, sent.id, "deploy to production")
    event_id = f"{sent.id}@{edit.data['edited_timestamp']}"
    first = await harness.receipt(event_id)
    assert first.accepted
    await harness.fake.redeliver(edit)
    assert await harness.receipt(event_id, times=2) == replace(first, repeat=True)

    edits = [e for e in await crew.events(key) if e["kind"] == "human_edit"]
    assert [e["body"]["text"] for e in edits] == ["deploy to production"]


async def test_a_long_message_is_posted_whole_in_an_embed(crew: Crew) -> None:
    """A 4000-character row is over Discord's 2000 content limit: it goes in an embed."""
    harness = _discord(crew)
    key = await crew.add_member()
    text = "word " * 799 + "end"
    assert len(text) > 2000
    await crew.call(key, "POST", "/api/session/messages", json={"text": text})
    await harness.wait_until(lambda: len(harness.messages("radar")) == 1)
    [stored] = harness.fake.messages(harness.thread_id("radar"))
    assert stored["content"] == "**Radar**"
    assert stored["embeds"][0]["description"] == text


async def test_what_is_not_a_persons_message_in_a_member_thread_is_ignored(crew: Crew) -> None:
    """Messages in the crew channel itself, and updates Discord makes by itself (a link
    preview: no edit timestamp), never reach the core."""
    harness = _discord(crew)
    fake = harness.fake
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "hi"})
    await crew.delivered()
    thread = harness.thread_id("radar")
    sent = await fake.send_message(thread, "see https://example.com")
    await harness.receipt(str(sent.id))
    await fake.send_message(fake.crew_channel_id, "chatter in the crew channel")
    preview = {**sent.data, "embeds": [{"type": "link", "url": "https://example.com"}]}
    await fake.redeliver(Dispatch("MESSAGE_UPDATE", {**preview, "edited_timestamp": None}))

    barrier = await fake.send_message(thread, "barrier")
    await harness.receipt(str(barrier.id))

    assert [e.event_id for e, _ in harness.handled_events] == [str(sent.id), str(barrier.id)]
    assert [e for e in await crew.events(key) if e["kind"] == "human_edit"] == []
