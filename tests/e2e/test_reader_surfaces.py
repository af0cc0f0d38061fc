"""What a reader sees on each platform, over its wire-level fake: a waiting question rings
the bell and counts on the roster; a card's deadline is named once, in the reader's own zone
where the platform can (Slack's date token, Discord's timestamps) and in UTC words, zone
named, where it cannot (Telegram)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import Harness, Shown
from tests.harnesses.discord import DiscordHarness
from tests.harnesses.slack import SlackHarness
from tests.harnesses.telegram import TelegramHarness


async def test_a_waiting_question_rings_the_bell_and_counts_on_the_roster(crew: Crew) -> None:
    """On every transport: the bell says the question in words, /roster counts it as open;
    answered, the member is all clear."""
    key = await crew.add_member()
    harness = crew.harness
    asked = await crew.call(
        key,
        "POST",
        "/api/session-control/ask",
        json={"question": "Which **branch** do I rebase onto?", "options": ["main", "dev"]},
    )
    assert asked.status_code == 200, asked.text
    await harness.wait_until(lambda: "a question." in _question_bell(harness))
    assert "Radar waits for your answer to a question." in _question_bell(harness)
    assert "Which branch do I rebase onto? Options: main or dev." in _question_bell(harness)
    assert "Radar (radar): needs you, 1 open" in (await harness.command("roster") or "")
    await harness.wait_until(lambda: bool(_questions(harness)))
    await harness.press("radar", _questions(harness)[0], 1)
    event = await crew.wait_for_event(key, "question_answered")
    assert event["body"]["answer"] == "dev"
    await harness.wait_until(lambda: not _questions(harness))  # the card is settled
    assert "Radar (radar): all clear" in (await harness.command("roster") or "")


def _question_bell(harness: Harness) -> str:
    """The latest words of the member's question bell ('' before it rang)."""
    bodies = [b[-1] for b in harness.bells().values() if "question" in b[-1]]
    return bodies[0] if bodies else ""


def _questions(harness: Harness) -> list[Shown]:
    return [m for m in harness.messages("radar") if "Needs input" in m.text]


async def _deadline(crew: Crew) -> tuple[str, datetime]:
    """Escalate with a veto window; the member key and the deadline crewline recorded."""
    key = await crew.add_member()
    await crew.escalate(
        key, message="Rotate the keys?", deadline="PT30M", default_action="rotate them",
        options=["rotate", "wait"],
    )  # fmt: skip
    recorded = (await crew.conversation())["escalations"][0]["deadline"]
    return key, datetime.fromisoformat(recorded)


def _utc_words(moment: datetime) -> str:
    return f"{moment:%b} {moment.day}, {moment:%H:%M} UTC"


@pytest.fixture
async def slack() -> AsyncIterator[SlackHarness]:
    async with SlackHarness().running() as running:
        assert isinstance(running, SlackHarness)
        yield running


async def test_slack_shows_the_deadline_once_in_each_readers_zone(
    config: Config, clock: FakeClock, slack: SlackHarness
) -> None:
    """The card's section carries Slack's date token with the UTC words as its fallback, and
    no second "your time" line; the notification text keeps the words."""
    crew = Crew(config, clock, [slack])
    await crew.start()
    try:
        _, deadline = await _deadline(crew)
        await slack.wait_until(lambda: len(slack.thread_messages("radar")) == 1)
        card = slack.thread_messages("radar")[0]
        unix = int(deadline.timestamp())
        token = f"<!date^{unix}^{{date_short_pretty}} at {{time}}|{_utc_words(deadline)}>"
        sections = [b["text"]["text"] for b in card["blocks"] if b["type"] == "section"]
        assert f"Unless you reply by {token}, Radar will: rotate them" in "\n".join(sections)
        # the answers' row, then the concierge's controls in a row apart (Dismiss: no pick)
        assert [b["type"] for b in card["blocks"]] == ["section", "actions", "actions"]
        assert f"Unless you reply by {_utc_words(deadline)}, Radar" in card["text"]
    finally:
        await crew.stop()


async def test_discord_shows_the_deadline_as_timestamps(config: Config, clock: FakeClock) -> None:
    """The card's content has ``<t:UNIX:f>`` and the live ``<t:UNIX:R>``; no UTC words."""
    async with DiscordHarness().running() as running:
        assert isinstance(running, DiscordHarness)
        crew = Crew(config, clock, [running])
        await crew.start()
        try:
            _, deadline = await _deadline(crew)
            await running.wait_until(lambda: len(running.cards("radar")) == 1)
            text = running.cards("radar")[0].text
            unix = int(deadline.timestamp())
            assert f"Unless you reply by <t:{unix}:f> (<t:{unix}:R>), Radar will" in text
            assert "UTC" not in text
        finally:
            await crew.stop()


async def test_telegram_names_the_zone_of_the_deadline(config: Config, clock: FakeClock) -> None:
    """Telegram has no time markup: the card says the UTC words, zone named, once."""
    async with TelegramHarness().running() as running:
        assert isinstance(running, TelegramHarness)
        crew = Crew(config, clock, [running])
        await crew.start()
        try:
            _, deadline = await _deadline(crew)
            await running.wait_until(lambda: len(running.cards("radar")) == 1)
            text = running.cards("radar")[0].text
            assert f"Unless you reply by {_utc_words(deadline)}, Radar will" in text
            assert text.count("UTC") == 1
        finally:
            await crew.stop()
