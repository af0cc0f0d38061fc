"""Where a member's thread lives on Telegram, and what happens when a topic goes away."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from crewline.transports.telegram import TelegramTransport
from crewline.transports.telegram.refs import (
    ReplyThread,
    TopicThread,
    parse_message_ref,
    parse_thread,
)
from tests.driver import Crew, bell_for
from tests.fakes.telegram import ApiError, FakeChat
from tests.harnesses.telegram import TelegramHarness, telegram_crew


@asynccontextmanager
async def _forum_crew(
    config: Config, clock: FakeClock
) -> AsyncIterator[tuple[TelegramHarness, Crew]]:
    """crewline on Telegram in forum mode: no private topics, members' topics in a forum."""
    async with telegram_crew(config, clock, has_topics_enabled=False, forum=True) as (
        harness,
        crew,
    ):
        assert harness.fake.forum is not None
        yield harness, crew


def _topic_link(forum: FakeChat, thread: TopicThread) -> str:
    """The t.me link that opens ``thread``'s topic in the forum supergroup."""
    return f"https://t.me/c/{str(-forum.id)[3:]}/{thread.topic_id}"


async def test_private_topics_give_each_member_a_topic_in_the_owners_chat(
    config: Config, clock: FakeClock
) -> None:
    """With topics enabled for the bot, each member gets a topic named after it."""
    async with telegram_crew(config, clock) as (harness, crew):
        fake = harness.fake
        radar = await crew.add_member("radar", "Radar")
        probe = await crew.add_member("probe", "Probe")
        await crew.escalate(radar, message="Ship?", options=["yes"])
        await crew.escalate(probe, message="Probe here", options=["ok"])
        await harness.wait_until(lambda: bool(harness.cards("radar") and harness.cards("probe")))
        topics = fake.chat(fake.owner).topics
        assert sorted(t.name for t in topics.values()) == ["Probe", "Radar"]
        radar_thread = harness.thread("radar")
        assert isinstance(radar_thread, TopicThread)
        assert radar_thread.chat_id == fake.owner.id
        assert topics[radar_thread.topic_id].name == "Radar"
        assert harness.messages("radar")[0].text.startswith("Ship?")


async def test_forum_mode_puts_topics_in_the_supergroup_and_the_bell_in_the_owners_chat(
    config: Config, clock: FakeClock
) -> None:
    """Without private topics, member topics go to the forum; bell and status stay private."""
    async with _forum_crew(config, clock) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member("radar", "Radar")
        await crew.escalate(key, message="Ship?", options=["yes"], goal="release")
        await harness.wait_until(lambda: bool(harness.cards("radar") and harness.bells()))
        thread = harness.thread("radar")
        assert isinstance(thread, TopicThread) and thread.chat_id == fake.forum.id
        assert [t.name for t in fake.chat(fake.forum).topics.values()] == ["Radar"]
        bell = next(m for m in fake.messages(fake.owner) if "Radar needs you</b>" in (m.text or ""))
        link = _topic_link(fake.forum, thread)
        assert bell.buttons == [{"text": "Open Radar's topic", "url": link}]
        await harness.wait_until(lambda: fake.chat(fake.owner).pinned_message_id is not None)

        def status() -> str:
            pinned_id = fake.chat(fake.owner).pinned_message_id or 0
            return fake.message(fake.owner, pinned_id).text or ""

        # The status line is redrawn at most once a second: wait for the redraw, bounded.
        await harness.wait_until(lambda: "Radar</b>: needs you, 1 open" in status())
        card = harness.cards("radar")[0]
        await harness.press("radar", card, 0)
        event = await crew.wait_for_event(key, "escalation_answered")
        assert event["body"]["answer"] == "yes"


async def test_a_first_bell_rung_before_its_topic_exists_links_to_it(
    config: Config, clock: FakeClock
) -> None:
    """The bell's lane does not wait for the thread's: while Telegram refuses the member's
    topic, the first bell is rung all the same. It is sent only with its button to the
    topic, which is created once whichever lane gets there first."""
    async with _forum_crew(config, clock) as (harness, crew):
        fake = harness.fake
        lift = fake.refuse("createForumTopic")
        key = await crew.add_member("radar", "Radar")
        await crew.escalate(key, message="Ship?", options=["yes"], goal="release")
        await crew.lane_tried("telegram", "bell:radar")  # drawn, or failed and retried
        await crew.lane_tried("telegram", "radar")
        assert fake.chat(fake.forum).topics == {}, "precondition: the bell rang before the topic"
        assert any(c.status == 500 for c in fake.calls_to("createForumTopic"))
        lift()
        await crew.delivered()
        thread = harness.thread("radar")
        assert isinstance(thread, TopicThread) and thread.chat_id == fake.forum.id
        assert [t.name for t in fake.chat(fake.forum).topics.values()] == ["Radar"]
        link = _topic_link(fake.forum, thread)
        drawn = [
            c.params
            for c in fake.calls
            if c.status == 200
            and c.method in ("sendMessage", "editMessageText", "editMessageReplyMarkup")
            and "Radar needs you</b>" in str(c.params.get("text"))
        ]
        # Sent once, and with the button to the topic (not first without it, then redrawn).
        assert [link in str(params.get("reply_markup")) for params in drawn] == [True]
        bells = [m for m in fake.messages(fake.owner) if "Radar needs you</b>" in (m.text or "")]
        assert [m.buttons for m in bells] == [[{"text": "Open Radar's topic", "url": link}]]


async def test_a_topic_a_bell_opened_is_the_one_another_process_posts_cards_in(
    config: Config, clock: FakeClock
) -> None:
    """A bell rung before the member's first card opens its topic, and records it: another
    process (a replica, or this one restarted, knowing only the record: Telegram cannot list
    topics) posts the member's cards there, and opens no second topic beside it."""
    async with _forum_crew(config, clock) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member("radar", "Radar")
        await crew.delivered()
        transport = crew.crewline.transport("telegram")
        bell = bell_for("radar", "Radar")
        await transport.ring(bell, message_ref=None)
        opened = list(fake.chat(fake.forum).topics)
        assert len(opened) == 1, "precondition: the bell opened the member's topic"
        await crew.restart()
        await crew.escalate(key, message="Ship?", options=["yes"])
        await crew.delivered()
        assert list(fake.chat(fake.forum).topics) == opened
        cards = fake.messages(fake.forum.id, message_thread_id=opened[0])
        assert [m.text.startswith("Ship?") for m in cards if m.text] == [True]


async def _radar_restarted_after_its_topic(crew: Crew) -> tuple[str, TelegramTransport]:
    """Radar's topic, opened by one process, and the transport of the process restarted after
    it, which knows the topic only by its record (Telegram cannot list topics)."""
    await crew.add_member("radar", "Radar")
    await crew.delivered()
    member = await crew.crewline.hub.member("radar")
    thread = await crew.crewline.transport("telegram").open_thread(member)
    await crew.restart()
    again = crew.crewline.transport("telegram")
    assert isinstance(again, TelegramTransport)
    assert "radar" not in again.opened_threads, "precondition: known only by the record"
    return thread, again


async def test_a_bell_linking_to_a_topic_known_only_by_its_record_names_the_member(
    config: Config, clock: FakeClock
) -> None:
    """A topic is recorded before its member's name reaches the process that rings the bell
    (another lane between the two, another replica, a restart): the bell's button still says
    whose topic it opens."""
    async with _forum_crew(config, clock) as (harness, crew):
        fake = harness.fake
        thread, again = await _radar_restarted_after_its_topic(crew)
        bell = bell_for("radar", "Radar")
        sent = await again.ring(bell, message_ref=None)
        _, message_id = parse_message_ref(sent)
        where = parse_thread(thread)
        assert isinstance(where, TopicThread), "precondition: members get forum topics"
        assert fake.message(fake.owner, message_id).buttons == [
            {"text": "Open Radar's topic", "url": _topic_link(fake.forum, where)}
        ]


async def test_a_topic_opened_beside_a_recorded_one_is_deleted_and_the_recorded_kept(
    config: Config, clock: FakeClock
) -> None:
    """Two processes opening one member's topic at once (one's bell, the other's card
    lane): the one that records second deletes its topic and uses the first."""
    async with _forum_crew(config, clock) as (harness, crew):
        fake = harness.fake
        first, again = await _radar_restarted_after_its_topic(crew)
        member = await crew.crewline.hub.member("radar")
        # As if it had read no record before opening: it opens one, then finds the first.
        assert await again.open_thread(member) == first
        topics = fake.chat(fake.forum).topics
        assert len(topics) == 2, "precondition: a second topic was opened"
        assert [t.state for t in topics.values()].count("deleted") == 1
        assert again.opened_threads["radar"] == first


async def test_reply_chains_head_each_message_with_the_members_name(
    config: Config, clock: FakeClock
) -> None:
    """Without any topics, a member's messages are headed '<name> · #slug' and chained."""
    async with telegram_crew(config, clock, has_topics_enabled=False) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member("api-fix", "API Fix")
        for n in range(2):
            await crew.call(key, "POST", "/api/session/messages", json={"text": f"row {n}"})
        await crew.escalate(key, message="Merge?", options=["yes", "no"])
        await harness.wait_until(lambda: len(harness.messages("api-fix")) == 3)
        assert isinstance(harness.thread("api-fix"), ReplyThread)
        sent = [m for m in fake.messages(fake.owner) if "#api_fix" in (m.text or "")]
        assert [(m.text or "").split("\n")[0] for m in sent] == ["<b>API Fix</b> · #api_fix"] * 3
        assert [m.reply_to_message_id for m in sent] == [
            None,
            sent[0].message_id,
            sent[1].message_id,
        ]
        await harness.say("api-fix", "no")
        event = await crew.wait_for_event(key, "escalation_answered")
        assert event["body"]["answer"] == "no"


async def test_a_closed_topic_is_replaced_by_a_new_one_and_replies_follow(
    config: Config, clock: FakeClock
) -> None:
    """'message thread not found' on a gone topic: the member gets a new topic, no loss."""
    async with telegram_crew(config, clock) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member("radar", "Radar")
        await crew.call(key, "POST", "/api/session/messages", json={"text": "before"})
        await harness.wait_until(lambda: len(harness.messages("radar")) == 1)
        first = harness.thread("radar")
        assert isinstance(first, TopicThread)
        fake.close_topic(fake.owner, first.topic_id)
        await crew.escalate(key, message="Still there?", options=["yes"])
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        second = harness.thread("radar")
        assert isinstance(second, TopicThread) and second.topic_id != first.topic_id
        refused = [c for c in fake.calls_to("sendMessage") if c.status == 400]
        assert [c.response["description"] for c in refused if c.response] == [
            "Bad Request: message thread not found"
        ]
        assert await crew.crewline.store.thread_ref("radar", "telegram") == str(second)
        await harness.say("radar", "yes")
        event = await crew.wait_for_event(key, "escalation_answered")
        assert event["body"]["answer"] == "yes"


async def test_topics_that_fail_at_once_fall_back_to_a_reply_chain(
    config: Config, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh topic that cannot take a message (Bot API 10.0 rollout) means reply chains."""
    async with telegram_crew(config, clock) as (harness, crew):
        fake = harness.fake
        check_thread = fake._check_thread

        def private_topics_fail(chat: FakeChat, params: dict[str, Any]) -> int | None:
            if chat.type == "private" and params.get("message_thread_id") is not None:
                raise ApiError(400, "Bad Request: message thread not found")
            return check_thread(chat, params)

        monkeypatch.setattr(fake, "_check_thread", private_topics_fail)
        key = await crew.add_member("radar", "Radar")
        await crew.call(key, "POST", "/api/session/messages", json={"text": "hello"})
        await harness.wait_until(lambda: isinstance(harness.thread("radar"), ReplyThread))
        await harness.wait_until(lambda: len(harness.messages("radar")) == 1)
        assert len(fake.calls_to("createForumTopic")) == 1  # tried once, then never again
        refused = [c for c in fake.calls_to("sendMessage") if c.status == 400]
        created = fake.calls_to("createForumTopic")[0].response or {}
        topic = created["result"]["message_thread_id"]
        assert [c.params.get("message_thread_id") for c in refused] == [topic]
        shown = harness.messages("radar")[0]
        stored = fake.message(*parse_message_ref(shown.ref))
        assert (stored.message_thread_id, (stored.text or "").split("\n")[0]) == (
            None,
            "<b>Radar</b> · #radar",
        )
        await harness.say("radar", "hi back")
        event = await crew.wait_for_event(key, "human_message")
        assert event["body"]["text"] == "hi back"
        probe = await crew.add_member("probe", "Probe")
        await crew.call(probe, "POST", "/api/session/messages", json={"text": "me too"})
        await harness.wait_until(lambda: len(harness.messages("probe")) == 1)
        assert isinstance(harness.thread("probe"), ReplyThread)
        assert len(fake.calls_to("createForumTopic")) == 1
