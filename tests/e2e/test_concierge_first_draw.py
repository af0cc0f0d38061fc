"""A new card the concierge judges without I/O (the offline brain, a question no fleet fact
can change) is drawn once, already carrying its suggestion or its answer: its post is held
back until the judgement's commit, whatever starts its thread's outbox lane meanwhile (the
outbox's poll, its look after ``add_member``'s crew write), so the platform gets one post
and no redraw — unless a reply waits for the card's post, for a reply never waits for the
concierge (docs/concierge.md). The suites' replies do not wait (the driver's delivery wait
is 0), except in the last two tests here. What holds the judgement back to prove it is in
tests/core/test_concierge_first_draw.py."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from crewline.config import Config
from crewline.models import OutboundMessage
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import MemoryHarness

SUGGESTION_BUTTONS = ("Send suggestion", "Edit", "Dismiss")


@pytest.fixture
async def crew(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    harness = MemoryHarness()
    async with harness.running() as running:
        # The outbox's poll (the driver's 0.2 s) starts any lane with entries, a held one
        # too: the card stays held all the same.
        driver = Crew(config, clock, [running])
        await driver.start()
        yield driver
        await driver.stop()


def _draws(crew: Crew, words: str) -> list[OutboundMessage]:
    """Every version the platform was sent of the one message first drawn with ``words``."""
    harness = crew.harness
    assert isinstance(harness, MemoryHarness)
    found = [m for m in harness.memory.thread_messages("radar") if words in m.versions[0].text]
    assert len(found) == 1, [m.versions[0].text for m in harness.memory.thread_messages("radar")]
    return found[0].versions


async def _settled(crew: Crew) -> None:
    await crew.crewline.bot.concierge.idle()  # first: delivered() wakes every lane itself
    await crew.delivered()


async def test_a_careful_card_is_posted_once_with_its_suggestion(crew: Crew) -> None:
    key = await crew.add_member()
    await crew.escalate(key, message="Force-push to main?", options=["yes", "no"])
    await _settled(crew)
    draws = _draws(crew, "Force-push to main?")
    assert len(draws) == 1, [d.text for d in draws]
    assert "needs you: irreversible: it force-pushes to main" in draws[0].text
    assert tuple(b.label for b in draws[0].buttons) == ("yes", "no", "Dismiss")


async def test_a_routine_card_is_posted_once_already_answered(crew: Crew) -> None:
    key = await crew.add_member()
    await crew.harness.command("concierge", "answer", "routine")
    await crew.delivered()
    await crew.escalate(key, message="Shall I proceed with the plan?")
    await _settled(crew)
    card = _draws(crew, "Shall I proceed with the plan?")
    assert len(card) == 1, [d.text for d in card]
    assert card[0].settled
    line = _draws(crew, "concierge answered: yes")
    assert [b.label for b in line[0].buttons] == ["Undo"]
    event = await crew.wait_for_event(key, "escalation_answered")
    assert event["body"]["by"] == "concierge"


async def test_a_question_card_is_posted_once_with_its_suggestion(crew: Crew) -> None:
    key = await crew.add_member()
    response = await crew.call(
        key,
        "POST",
        "/api/session-control/ask",
        json={"question": "Drop the legacy users table?", "options": ["yes", "no"]},
    )
    assert response.status_code == 200, response.text
    await _settled(crew)
    draws = _draws(crew, "Drop the legacy users table?")
    assert len(draws) == 1, [d.text for d in draws]
    assert "needs you:" in draws[0].text


async def test_a_reply_that_waits_for_its_card_never_waits_for_the_concierge(
    crew: Crew,
) -> None:
    """An escalate reply that waits for its card's post releases the hold first: the card's
    lane is woken before the reply starts waiting, whatever the concierge is doing."""
    hub = crew.crewline.hub
    woken: list[set[str]] = []
    hub.on_outbox(lambda transport, lanes: woken.append(set(lanes)))
    lane_woken_when_waited: list[bool] = []

    async def posted(
        transport: str, lane: str, object_key: str, timeout: float, *, waiting: Callable[[], None]
    ) -> bool:
        waiting()  # the outbox's check waits for this post (it is not busy)
        lane_woken_when_waited.append(any(lane in lanes for lanes in woken))
        return True

    escalations = crew.crewline.bot.escalations
    escalations.on_posted(posted)
    escalations.delivery_wait = 5.0  # the suite's crew answers at once; this reply waits
    key = await crew.add_member()
    await crew.escalate(key, message="Force-push to main?", options=["yes", "no"])
    assert lane_woken_when_waited == [True]
    await _settled(crew)
    assert "needs you:" in _draws(crew, "Force-push to main?")[-1].text


async def test_a_reply_told_queued_at_once_leaves_its_card_drawn_once_with_its_suggestion(
    crew: Crew,
) -> None:
    """A reply that would wait for its card's post, but is told ``queued`` at once (a busy
    outbox: the check never waits), does not release the hold: the card is still posted
    once, with its suggestion, instead of at once and then redrawn."""
    escalations = crew.crewline.bot.escalations
    checked: list[str] = []

    async def posted(
        transport: str, lane: str, object_key: str, timeout: float, *, waiting: Callable[[], None]
    ) -> bool:
        checked.append(object_key)
        return False  # busy: answers at once, never waits (so never calls waiting)

    escalations.on_posted(posted)
    escalations.delivery_wait = 5.0  # the reply would wait, if the outbox let it
    key = await crew.add_member()
    body = await crew.escalate(key, message="Force-push to main?", options=["yes", "no"])
    assert len(checked) == 1 and body["delivery"] == {"memory": "queued"}, (checked, body)
    await _settled(crew)
    draws = _draws(crew, "Force-push to main?")
    assert len(draws) == 1, [d.text for d in draws]
    assert "needs you:" in draws[0].text
