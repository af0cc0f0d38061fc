"""Discord across restarts and gateway drops: buttons keep working, nothing is lost or
processed twice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.fakes.discord import GATEWAY_PATH, RESUME_GATEWAY_PATH
from tests.harnesses.discord import crew_on_discord
from tests.harnesses.discord import discord_of as _discord
from tests.harnesses.discord import only_card as _card


@pytest.fixture
async def crew(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    async with crew_on_discord(config, clock) as running:
        yield running


async def _answered(crew: Crew, key: str) -> list[dict[str, Any]]:
    return [e for e in await crew.events(key) if e["kind"] == "escalation_answered"]


async def test_a_card_posted_before_a_restart_is_answered_by_the_new_client(crew: Crew) -> None:
    """A press on a card posted by the previous process reaches the new one and answers it."""
    harness = _discord(crew)
    key = await crew.add_member()
    result = await crew.escalate(key, message="Survive a restart?", options=["yes", "no"])
    card = await _card(crew)
    assert harness.fake.identifies == 1
    await crew.restart()
    assert harness.fake.identifies == 2
    assert len(harness.transports) == 2

    notice = await harness.press("radar", card, 1)

    event = await crew.wait_for_event(key, "escalation_answered")
    assert (event["body"]["escalation_id"], event["body"]["answer"]) == (
        result["escalation_id"],
        "no",
    )
    assert notice == "Answered: no"
    # The press's own response settles the card: its new words, no buttons (type 7).
    press = [c for c in harness.fake.interaction_callbacks if c.type == 7]
    assert [c.status for c in press] == [200]
    assert "Answered: no — by you" in press[0].data["content"]
    assert not press[0].data.get("components")
    await harness.wait_until(lambda: harness.cards("radar")[0].settled)
    settled = harness.cards("radar")[0]
    assert settled.ref == card.ref
    assert "Answered: no — by you" in settled.text
    syncs = harness.fake.calls_to("PUT", r"/applications/\d+/guilds/\d+/commands")
    assert len(syncs) == 1  # the second start found its commands registered


async def test_a_reply_sent_while_the_gateway_was_down_is_replayed_once(crew: Crew) -> None:
    """After a drop the client resumes; the reply sent in the gap answers once, and its
    redelivery answers nothing.

    crewline's own calls (the roster redraw, paced to one a second, lands late on a loaded
    machine) would be dispatched in the gap and replayed too, so the drop waits until every
    outbox is drained: the reply is then the only thing the client can miss.
    """
    harness = _discord(crew)
    fake = harness.fake
    key = await crew.add_member()
    await crew.escalate(key, message="Which port?", options=["8080", "9090"])
    await _card(crew)
    thread = harness.thread_id("radar")
    await crew.delivered()
    assert await crew.crewline.store.outbox_size() == 0
    assert (fake.identifies, fake.resumes) == (1, 0)

    with fake.gateway_paused():
        await fake.drop_connection(code=4000)
        missed = await fake.send_message(thread, "9090")
    await fake.wait_for_resume()
    first = await harness.receipt(str(missed.id))
    await fake.redeliver(missed)
    again = await harness.receipt(str(missed.id), times=2)

    assert fake.gateway_connections[-1].startswith(RESUME_GATEWAY_PATH)
    assert (fake.identifies, fake.resumes) == (1, 1)
    assert [f["d"]["id"] for f in fake.replayed] == [str(missed.id)]
    assert first.accepted and (first.notice or "").startswith("Answered: 9090 — to")
    assert again == replace(first, repeat=True)  # the same receipt, and no second reply
    answered = await _answered(crew, key)
    assert [(e["body"]["answer"], e["body"]["via"]) for e in answered] == [("9090", "text")]
    human_rows = [
        r for r in await crew.crewline.store.live_rows("radar") if r.role.value == "human"
    ]
    assert len(human_rows) == 1


async def test_a_press_during_a_drop_is_answered_after_the_resume(crew: Crew) -> None:
    """A press dispatched while the client is away is replayed on RESUME and answered."""
    harness = _discord(crew)
    fake = harness.fake
    key = await crew.add_member()
    await crew.escalate(key, message="Go?", options=["go"])
    card = await _card(crew)
    with fake.gateway_paused():
        await fake.drop_connection(code=None)
        press = await fake.press_button(int(card.ref), card.payloads[0])
    await fake.wait_for_resume()
    receipt = await harness.receipt(str(press.id))
    assert receipt.accepted
    callback = await fake.wait_for_callback(press.id)
    assert (callback.type, callback.status) == (7, 200)
    assert [e["body"]["answer"] for e in await _answered(crew, key)] == ["go"]


async def test_an_invalidated_session_identifies_afresh_and_keeps_listening(crew: Crew) -> None:
    """When Discord ends the session the client identifies again; later replies still count
    (what was sent in the gap is lost to the gateway, which is why the card stays open)."""
    harness = _discord(crew)
    fake = harness.fake
    key = await crew.add_member()
    await crew.escalate(key, message="Still there?")
    await _card(crew)
    await fake.invalidate_session()
    await fake.wait_for_ready(count=2)
    assert fake.gateway_connections[-1].startswith(GATEWAY_PATH)

    receipt = await harness.say("radar", "yes, still here")

    assert receipt is not None and receipt.accepted
    assert [e["body"]["answer"] for e in await _answered(crew, key)] == ["yes, still here"]


async def test_readyz_names_the_discord_gateway_while_it_is_down(crew: Crew) -> None:
    """While the gateway connection is lost /readyz answers 503 naming Discord; after the
    resume it is ready again."""
    harness = _discord(crew)
    fake = harness.fake
    key = await crew.add_member()
    await crew.escalate(key, message="Up?")
    await _card(crew)
    await crew.delivered()
    assert (await crew.call(None, "GET", "/readyz")).status_code == 200
    with fake.gateway_paused():
        await fake.drop_connection(code=4000)
        await fake.wait_until(lambda: len(fake.gateway_connections) == 2, what="a reconnect")
        down = await crew.call(None, "GET", "/readyz")
    await fake.wait_for_resume()
    # A message dispatched after RESUMED is handled after it: the client is back by then.
    assert await harness.say("radar", "back?") is not None
    up = await crew.call(None, "GET", "/readyz")
    assert down.status_code == 503 and down.json()["failed"] == ["transport:discord"]
    assert "disconnected" in down.json()["checks"]["transport:discord"]["detail"]
    assert (up.status_code, up.json()["failed"]) == (200, [])
