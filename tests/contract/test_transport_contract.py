"""The Transport contract, checked against every transport through its harness.

What the port promises (transports/base.py), observed from the human's side of the
platform: a thread per member, rows in order, cards redrawn in place, the bell stacked per
goal, the roster published, and human events reaching the core with their receipts.
"""

from __future__ import annotations

from tests.driver import Crew


async def _wait_rows(crew: Crew, member: str, count: int) -> None:
    harness = crew.harness
    await harness.wait_until(lambda: len(harness.messages(member)) >= count)


async def test_rows_appear_in_the_members_thread_in_order(crew: Crew) -> None:
    """A member's rows show in its own thread, in the order they were written."""
    key = await crew.add_member()
    for n in range(5):
        response = await crew.call(key, "POST", "/api/session/messages", json={"text": f"row {n}"})
        assert response.status_code == 200
    await _wait_rows(crew, "radar", 5)
    texts = [m.text for m in crew.harness.messages("radar")]
    positions = [next(i for i, text in enumerate(texts) if f"row {n}" in text) for n in range(5)]
    assert positions == sorted(positions)


async def test_each_member_has_its_own_thread(crew: Crew) -> None:
    """Two members' rows never mix."""
    radar = await crew.add_member("radar", "Radar")
    probe = await crew.add_member("probe", "Probe")
    await crew.call(radar, "POST", "/api/session/messages", json={"text": "from radar"})
    await crew.call(probe, "POST", "/api/session/messages", json={"text": "from probe"})
    await _wait_rows(crew, "radar", 1)
    await _wait_rows(crew, "probe", 1)
    assert all("probe" not in m.text for m in crew.harness.messages("radar"))
    assert all("radar" not in m.text for m in crew.harness.messages("probe"))


async def test_a_card_is_redrawn_in_place_not_posted_again(crew: Crew) -> None:
    """Settling a card updates the message that showed it; the thread gains no card."""
    key = await crew.add_member()
    await crew.escalate(key, message="Ship?", options=["yes", "no"])
    harness = crew.harness
    await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
    before = harness.cards("radar")[0]
    await harness.press("radar", before, 0)
    await harness.wait_until(lambda: harness.cards("radar")[0].settled)
    after = harness.cards("radar")
    assert len(after) == 1
    assert after[0].ref == before.ref


async def test_nothing_is_posted_twice_across_a_restart(crew: Crew) -> None:
    """What was delivered before a restart is not delivered again after it."""
    key = await crew.add_member()
    await crew.escalate(key, message="Once only", options=["ok"])
    await crew.delivered()
    shown = len(crew.harness.messages("radar"))
    await crew.restart()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "after restart"})
    await _wait_rows(crew, "radar", shown + 1)
    await crew.delivered()
    assert len(crew.harness.cards("radar")) == 1


async def test_a_button_posted_before_a_restart_still_answers_after_it(crew: Crew) -> None:
    """Buttons carry everything needed: a restart does not kill them."""
    key = await crew.add_member()
    await crew.escalate(key, message="Survive?", options=["yes"])
    harness = crew.harness
    await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
    card = harness.cards("radar")[0]
    await crew.restart()
    await harness.press("radar", card, 0)
    event = await crew.wait_for_event(key, "escalation_answered")
    assert event["body"]["answer"] == "yes"


async def test_the_roster_command_answers_with_members_and_open_counts(crew: Crew) -> None:
    """/roster reaches the core and its answer reaches the person who asked."""
    key = await crew.add_member()
    await crew.escalate(key, message="one")
    await crew.delivered()
    answer = await crew.harness.command("roster")
    assert answer is not None
    assert "Radar" in answer and "1 open" in answer


async def test_the_help_command_lists_the_commands(crew: Crew) -> None:
    """/help answers with the command list."""
    await crew.add_member()
    answer = await crew.harness.command("help")
    assert answer is not None and "/roster" in answer


async def test_a_typed_message_reaches_the_members_session(crew: Crew) -> None:
    """A human message in the thread becomes an event on the member's stream."""
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "hello human"})
    await _wait_rows(crew, "radar", 1)
    await crew.harness.say("radar", "hello radar")
    event = await crew.wait_for_event(key, "human_message")
    assert event["body"]["text"] == "hello radar"
