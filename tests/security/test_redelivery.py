"""Every kind of inbound event delivered twice, in and out of order, also across a restart.

The per-platform suites redeliver each platform's own envelope (Slack's retries,
Telegram's updates, Discord's interactions); this drives the core's rule 3 through the
memory transport, where any event can be sent again at any moment: the first delivery is
answered, every later one gets ``duplicate_event`` and changes nothing.
"""

from __future__ import annotations

import pytest

from crewline.models import Receipt
from tests.driver import Crew
from tests.harness import MemoryHarness

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

DUPLICATE = Receipt(accepted=False, code="duplicate_event")


async def _answers(crew: Crew, key: str) -> list[str]:
    return [
        e["body"]["escalation_id"]
        for e in await crew.events(key)
        if e["kind"] == "escalation_answered"
    ]


async def test_a_press_and_a_reply_delivered_twice_out_of_order_answer_once_each(
    crew: Crew,
) -> None:
    """Press A, type for B, then both again in the other order, then again after a restart."""
    harness = crew.harness
    assert isinstance(harness, MemoryHarness)
    memory = harness.memory
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["yes", "no"])
    await crew.delivered()
    b = await crew.escalate(key, message="B?")
    await crew.delivered()
    card_a = next(c for c in harness.cards("radar") if "A?" in c.text)

    pressed = await memory.press(harness.owner, card_a.ref, 0, event_id="ev-press")
    typed = await memory.say(harness.owner, "radar", "go ahead", event_id="ev-text")
    assert pressed.accepted and typed.accepted
    assert await _answers(crew, key) == [a["escalation_id"], b["escalation_id"]]
    rows = len(await crew.crewline.store.live_rows("radar"))

    assert await memory.say(harness.owner, "radar", "go ahead", event_id="ev-text") == DUPLICATE
    thread = memory.cards("radar")[0].thread  # the card is settled: replay its payload
    replayed = await memory.press_payload(
        harness.owner, thread, card_a.payloads[0], event_id="ev-press"
    )
    assert replayed == DUPLICATE
    await crew.restart()
    replayed = await memory.press_payload(
        harness.owner, thread, card_a.payloads[1], event_id="ev-press"
    )
    assert replayed == DUPLICATE
    assert await memory.say(harness.owner, "radar", "other", event_id="ev-text") == DUPLICATE

    assert len(await crew.crewline.store.live_rows("radar")) == rows
    assert await _answers(crew, key) == [a["escalation_id"], b["escalation_id"]]


async def test_a_command_and_an_edit_delivered_twice_run_once(crew: Crew) -> None:
    """A redelivered command runs nothing again; a redelivered reply adds no second row."""
    harness = crew.harness
    assert isinstance(harness, MemoryHarness)
    memory = harness.memory
    key = await crew.add_member()
    await crew.escalate(key, message="Which port?")
    await crew.delivered()
    first = await memory.say(harness.owner, "radar", "8080", event_id="ev-once")
    assert first.accepted
    rows = len(await crew.crewline.store.live_rows("radar"))
    for _ in range(3):
        assert await memory.say(harness.owner, "radar", "8080", event_id="ev-once") == DUPLICATE
    assert len(await crew.crewline.store.live_rows("radar")) == rows
    assert len(await _answers(crew, key)) == 1
