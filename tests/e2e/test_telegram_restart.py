"""Restarts on Telegram: buttons, reply chains, the bell and the status survive them."""

from __future__ import annotations

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from crewline.transports.telegram.refs import ReplyThread
from tests.harnesses.telegram import telegram_crew

MODES = pytest.mark.parametrize("webhook", [False, True], ids=["polling", "webhook"])


@MODES
async def test_buttons_posted_before_a_restart_answer_after_it(
    config: Config, clock: FakeClock, webhook: bool
) -> None:
    """A card's callback_data carries all it needs: a new bot process answers the press."""
    async with telegram_crew(config, clock, webhook=webhook) as (harness, crew):
        key = await crew.add_member()
        await crew.escalate(key, message="Survive?", options=["yes", "no"])
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        card = harness.cards("radar")[0]
        await crew.restart()
        assert len(harness.transports) == 2
        notice = await harness.press("radar", card, 1)
        assert notice == "Answered: no"
        event = await crew.wait_for_event(key, "escalation_answered")
        assert event["body"]["answer"] == "no"
        await harness.wait_until(lambda: harness.cards("radar")[0].settled)
        assert [m.ref for m in harness.messages("radar")] == [card.ref]


async def test_reply_chains_still_route_presses_and_replies_after_a_restart(
    config: Config, clock: FakeClock
) -> None:
    """Without topics, the header's hashtag tells the new process whose thread it is."""
    async with telegram_crew(config, clock, has_topics_enabled=False) as (harness, crew):
        radar = await crew.add_member("radar", "Radar")
        probe = await crew.add_member("probe", "Probe")
        await crew.escalate(radar, message="Radar asks", options=["ok"])
        await crew.escalate(probe, message="Probe asks")
        await harness.wait_until(lambda: bool(harness.cards("radar") and harness.cards("probe")))
        assert isinstance(harness.thread("probe"), ReplyThread)
        radar_card = harness.cards("radar")[0]
        await crew.restart()
        assert await harness.press("radar", radar_card, 0) == "Answered: ok"
        await harness.say("probe", "probe's answer")
        event = await crew.wait_for_event(probe, "escalation_answered")
        assert event["body"]["answer"] == "probe's answer"
        assert (await crew.conversation("radar"))["escalations"][0]["answer"] == "ok"


async def test_the_status_message_and_the_bell_are_edited_not_reposted_after_a_restart(
    config: Config, clock: FakeClock
) -> None:
    """The pinned status is found again (getChat) and the bell's message is edited."""
    async with telegram_crew(config, clock) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member()
        await crew.escalate(key, message="First", goal="release")
        chat = fake.chat(fake.owner)
        await harness.wait_until(
            lambda: chat.pinned_message_id is not None and bool(harness.bells())
        )
        await crew.delivered()
        pinned = chat.pinned_message_id
        await crew.restart()
        await crew.escalate(key, message="Second", goal="release")
        await harness.wait_until(
            lambda: "2 requests" in harness.bells()["escalation:radar:release"][-1]
        )
        status = fake.message(fake.owner, pinned or 0)
        await harness.wait_until(lambda: "needs you, 2 open" in (status.text or ""))
        assert chat.pinned_message_id == pinned
        statuses = [m for m in fake.messages(fake.owner) if "crew status" in (m.text or "")]
        bells = [m for m in fake.messages(fake.owner) if "needs you</b>" in (m.text or "")]
        assert (len(statuses), len(bells)) == (1, 1)
