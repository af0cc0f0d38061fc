"""Bad or hostile input over Discord: each is refused or ignored, nothing is written, and
SEL records what is a security event."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.fakes.discord import FLAG_EPHEMERAL
from tests.harnesses.discord import crew_on_discord
from tests.harnesses.discord import discord_of as _discord
from tests.harnesses.discord import only_card as _card


@pytest.fixture
async def crew(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    async with crew_on_discord(config, clock) as running:
        yield running


async def _sel(crew: Crew, prefix: str) -> list[str]:
    return [r.action for r in await crew.crewline.store.sel(action_prefix=prefix)]


async def test_a_strangers_press_is_refused_ephemerally_and_audited(crew: Crew) -> None:
    """Someone else in the server presses the owner's card: only they see the refusal."""
    harness = _discord(crew)
    key = await crew.add_member()
    result = await crew.escalate(key, message="Ship?", options=["yes", "no"])
    card = await _card(crew)
    assert await _sel(crew, "click:") == []

    press = await harness.fake.press_button(
        int(card.ref), card.payloads[0], user=harness.user(harness.stranger)
    )
    await harness.receipt(str(press.id))

    callback = await harness.fake.wait_for_callback(press.id)
    assert (callback.type, callback.ephemeral) == (4, True)
    assert "owner" in str(callback.data["content"])
    assert harness.fake.message(int(card.ref))["components"] != []  # still open for the owner
    record = await crew.crewline.store.escalation(result["escalation_id"])
    assert record is not None and record.is_pending
    assert await _sel(crew, "click:") == ["click:not_owner"]


async def test_a_double_click_answers_once_and_refuses_the_second_press(crew: Crew) -> None:
    """Two presses in flight on one card (a double click): the first answers, the second is
    told privately that the request is already settled."""
    harness = _discord(crew)
    key = await crew.add_member()
    await crew.escalate(key, message="Ship?", options=["yes", "no"])
    card = await _card(crew)
    first, second = await asyncio.gather(
        harness.fake.press_button(int(card.ref), card.payloads[0]),
        harness.fake.press_button(int(card.ref), card.payloads[1]),
    )
    assert (await harness.receipt(str(first.id))).accepted
    refused = await harness.receipt(str(second.id))

    assert (refused.accepted, refused.code) == (False, "already_settled")
    assert "already settled" in str(harness.notice(second))
    records = (await crew.conversation())["escalations"]
    assert [(r["state"], r["answer"]) for r in records] == [("answered", "yes")]


async def test_a_foreign_custom_id_on_a_bot_message_is_refused_and_audited(crew: Crew) -> None:
    """A button crewline did not make (posted with the bot's token) still gets an answer:
    the one template routes it to the core, which refuses it as not crewline's."""
    harness = _discord(crew)
    fake = harness.fake
    key = await crew.add_member()
    await crew.escalate(key, message="Ship?", options=["yes"])
    await _card(crew)
    thread = harness.thread_id("radar")
    button = {"type": 2, "style": 1, "label": "Free money", "custom_id": "'; DROP TABLE rows;--"}
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{fake.api_base}/channels/{thread}/messages",
            headers={"Authorization": f"Bot {fake.token}"},
            json={"content": "click me", "components": [{"type": 1, "components": [button]}]},
        ) as response,
    ):
        assert response.status == 200
        lure = await response.json()

    press = await fake.press_button(lure, button["custom_id"])
    receipt = await harness.receipt(str(press.id))

    assert receipt.code == "malformed_payload"
    callback = await fake.wait_for_callback(press.id)
    assert (callback.type, callback.ephemeral) == (4, True)
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    assert await _sel(crew, "click:") == ["click:malformed_payload"]


async def test_a_strangers_message_answers_nothing_and_is_told_in_the_thread(crew: Crew) -> None:
    """A non-owner's typed reply is refused (audited); the refusal is a reply in the thread,
    since Discord has no private answer to a plain message."""
    harness = _discord(crew)
    key = await crew.add_member()
    await crew.escalate(key, message="Proceed?")
    await _card(crew)
    thread = harness.thread_id("radar")

    sent = await harness.fake.send_message(thread, "yes", author=harness.user(harness.stranger))
    receipt = await harness.receipt(str(sent.id))

    assert receipt.code == "not_owner"
    replies = [m for m in harness.fake.messages(thread) if m["type"] == 19]
    assert len(replies) == 1
    assert "owner" in replies[0]["content"]
    assert replies[0]["message_reference"]["message_id"] == str(sent.id)
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    assert await _sel(crew, "message:") == ["message:not_owner"]


async def test_text_from_an_agent_can_ping_nobody(crew: Crew) -> None:
    """A member writing @everyone or someone's mention notifies no one: crewline posts with
    no allowed mentions."""
    harness = _discord(crew)
    key = await crew.add_member()
    hostile = f"@everyone <@{harness.owner}> <@&123> look at this"
    response = await crew.call(key, "POST", "/api/session/messages", json={"text": hostile})
    assert response.status_code == 200
    await harness.wait_until(
        lambda: any("look at this" in m.text for m in harness.messages("radar"))
    )
    posts = harness.fake.calls_to("POST", rf"/channels/{harness.thread_id('radar')}/messages")
    bodies = [c.json for c in posts if "look at this" in str(c.json.get("content"))]
    assert len(bodies) == 1
    assert bodies[0]["allowed_mentions"]["parse"] == []
    assert not bodies[0]["allowed_mentions"].get("users")


async def test_a_strangers_command_is_refused_privately(crew: Crew) -> None:
    """Anyone in the server can run /roster; only the owner gets an answer from the core."""
    harness = _discord(crew)
    await crew.add_member()
    run = await harness.fake.run_command("roster", user=harness.user(harness.stranger))
    receipt = await harness.receipt(str(run.id))
    assert receipt.code == "not_owner"
    callback = await harness.fake.wait_for_callback(run.id)
    assert callback.ephemeral
    assert int(callback.data.get("flags") or 0) & FLAG_EPHEMERAL
    assert "owner" in str(callback.data["content"])
