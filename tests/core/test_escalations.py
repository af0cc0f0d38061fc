"""Escalations' rules (SPEC §1 to §3) in-process: routing, the backlog ceiling, reply
matching, veto windows, reconciliation and question cards, on the Hub with the memory
transport and the fake clock. The seams (the HTTP surface, each platform's rendering) stay
in tests/e2e/test_escalations.py."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from crewline.bot import cards, questions
from crewline.bot.cards import parse_payload
from crewline.bot.escalations import EscalationRequest
from crewline.bot.escalations.replies import EscalationPresses
from crewline.errors import BacklogFull, Conflict, Forbidden
from crewline.limits import MAX_PENDING
from crewline.models import AnsweredBy, HumanClick, Row
from tests.core.kit import OWNER, STRANGER, Kit, choices


async def _rows(kit: Kit, member: str = "radar") -> list[Row]:
    return list(await kit.store.live_rows(member))


async def _later(awaitable: Any) -> Any:
    await asyncio.sleep(0)  # yield once so the press is queued first: order, not timing
    return await awaitable


# --- §1.1 to 1.3: routing by caller -----------------------------------------------------------


async def test_worker_escalation_lands_in_the_creating_members_thread(kit: Kit) -> None:
    """A worker created by a member escalates into that member's thread and index."""
    await kit.add_member()
    worker = await kit.add_session("worker", member="radar")
    record = await kit.escalate(worker, "Which branch?", options=["main", "dev"])
    assert record.member == "radar"
    await kit.card()
    assert [e.id for e in await kit.store.escalations("radar")] == [record.id]


async def test_an_escalation_takes_its_member_as_read_with_the_callers_key(kit: Kit) -> None:
    """The member read with the key this call came with is not read again; a member that is
    not the caller's own is not taken."""
    radar = await kit.add_member()
    await kit.add_member("probe", "Probe")
    with_key = await kit.store.member("radar")
    assert with_key is not None and with_key.transports == ("memory",)
    as_read = replace(with_key, transports=())  # told apart from what a read would find
    taken = await kit.bot.escalations.escalate(radar, _request("One?"), member=as_read)
    assert taken.transports == () and taken.escalation.member == "radar"
    other = await kit.store.member("probe")
    assert other is not None
    read = await kit.bot.escalations.escalate(radar, _request("Two?"), member=other)
    assert read.transports == ("memory",) and read.escalation.member == "radar"


async def test_plain_session_escalation_stays_in_its_own_transcript(kit: Kit) -> None:
    """Any other session's escalation is written to its own transcript: no card, no index."""
    await kit.add_member()
    plain = await kit.add_session("plain")
    receipt = await kit.bot.escalations.escalate(plain, _request("Anyone there?"))
    assert receipt.routing.member is None
    assert await kit.store.escalations("radar") == []
    await kit.delivered()
    assert kit.memory.cards("radar") == []


async def test_conductor_escalation_is_gated_like_any_other_write(kit: Kit) -> None:
    """A conductor passes the gate; having no member, it writes to its own transcript."""
    conductor = await kit.add_session("conductor")
    receipt = await kit.bot.escalations.escalate(conductor, _request("Plan approved?"))
    assert receipt.routing.member is None
    assert receipt.routing.conversation != ""


async def test_a_member_named_user_is_not_a_reserved_word(kit: Kit) -> None:
    """'user' is an ordinary slug: a member called user escalates into its own thread."""
    user = await kit.add_member("user", "User")
    record = await kit.escalate(user, "Hello?")
    assert record.member == "user"
    await kit.card("user")


# --- §1.6 and 1.7: record before card, backlog ceiling -----------------------------------------


async def test_record_and_card_row_are_written_together_before_delivery(kit: Kit) -> None:
    """The index record names the card row, and both exist when the call returns."""
    radar = await kit.add_member()
    record = await kit.escalate(radar, "Proceed?")
    row = await kit.store.row(record.row_id)
    assert row is not None
    assert row.meta["escalation_id"] == record.id


async def test_backlog_ceiling_refuses_the_next_escalation_atomically(kit: Kit) -> None:
    """At 50 pending the next call is refused (escalation_backlog_full, with the count) and
    writes no row."""
    radar = await kit.add_member()
    for n in range(MAX_PENDING):
        await kit.escalate(radar, f"decision {n}")
    rows = len(await _rows(kit))
    with pytest.raises(BacklogFull) as refused:
        await kit.escalate(radar, "one more")
    assert refused.value.code == "escalation_backlog_full"
    assert refused.value.details["open_count"] == MAX_PENDING
    assert len(await _rows(kit)) == rows


async def test_an_answer_frees_a_backlog_slot(kit: Kit) -> None:
    """Settled records do not count against the ceiling."""
    radar = await kit.add_member()
    for n in range(MAX_PENDING):
        await kit.escalate(radar, f"decision {n}", options=["ok"])
    with pytest.raises(BacklogFull):
        await kit.escalate(radar, "one more")
    first = await kit.card()
    assert (await kit.press(first, 0)).accepted
    await kit.event(radar, "escalation_answered")
    assert (await kit.escalate(radar, "now")).is_pending


async def test_backlog_ceiling_holds_under_concurrent_calls(kit: Kit) -> None:
    """100 racing calls create exactly 50 records; the other 50 are refused."""
    radar = await kit.add_member()
    outcomes = await asyncio.gather(
        *[kit.escalate(radar, f"race {n}") for n in range(100)], return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, BacklogFull)]
    assert len(refused) == 100 - MAX_PENDING
    assert len(outcomes) - len(refused) == MAX_PENDING
    assert len(await kit.store.escalations("radar")) == MAX_PENDING


# --- §2 reply matching -------------------------------------------------------------------------


async def test_a_press_answers_with_the_card_its_change_left_reading_its_record_once(
    kit: Kit,
) -> None:
    """A press from a platform that settles the card in the click's own response (Discord)
    gets a receipt carrying its card as the answer left it, the card the outbox then draws;
    pressed in its member's thread, the record is read by its answering change alone: not
    on the press's way in, nor after its commit."""
    radar = await kit.add_member()
    record = await kit.escalate(radar, "Ship it?", options=["yes", "no"])
    card = await kit.card()
    await kit.delivered()
    lookups = kit.store._lookups  # type: ignore[attr-defined]
    statements: list[str] = []
    lookups.set_trace_callback(statements.append)
    try:
        receipt = await kit.press(card, "yes", card_in_response=True)
    finally:
        lookups.set_trace_callback(None)
    answered = await kit.record(record.id)
    assert receipt.accepted and answered.answer == "yes"
    assert receipt.redraw == cards.escalation_card(answered, "Radar")
    assert receipt.redraw.settled and receipt.redraw.buttons == ()
    await kit.delivered()
    assert card.current == receipt.redraw  # the outbox's redraw of the same state
    assert any("FROM seen_events" in s or "identities" in s for s in statements)  # traced
    assert not [s for s in statements if "FROM escalations" in s and "WHERE id = " in s]


async def test_a_press_naming_another_members_record_is_refused_as_before(kit: Kit) -> None:
    """Pressed in a member's thread, a payload naming another member's record is refused
    as unknown and audited, whoever presses it (the owner in the answering change, a
    stranger before it, ahead of not owning the member); a stranger's press of the member's
    own card is refused as not the owner's. Nothing is answered."""
    radar, probe = await kit.add_member(), await kit.add_member("probe")
    other = await kit.escalate(probe, "Elsewhere?", options=["yes", "no"])
    await kit.escalate(radar, "Here?", options=["yes", "no"])
    card = await kit.card()
    await kit.delivered()
    forged = f"e:{other.id}:0"
    owners = await kit.press_payload(forged, member="radar")
    strangers = await kit.press_payload(forged, member="radar", user=STRANGER)
    on_own_card = await kit.press(card, "yes", user=STRANGER)
    assert [(r.accepted, r.code) for r in (owners, strangers, on_own_card)] == [
        (False, "unknown_escalation"),
        (False, "unknown_escalation"),
        (False, "not_owner"),
    ]
    audit = await kit.store.sel(action_prefix="click:")
    assert sorted(r.action for r in audit) == [
        "click:not_owner",
        "click:unknown_escalation",
        "click:unknown_escalation",
    ]
    assert {r.member for r in audit} == {"radar"}
    assert all(r.is_pending for r in await kit.store.escalations("probe"))
    assert all(r.is_pending for r in await kit.store.escalations("radar"))


async def test_a_press_from_a_platform_that_redraws_through_the_outbox_draws_no_card(
    kit: Kit,
) -> None:
    """Elsewhere the outbox's redraw settles the pressed card, and the press's change draws
    none for its receipt: the card ends as the press left it all the same."""
    radar = await kit.add_member()
    record = await kit.escalate(radar, "Ship it?", options=["yes", "no"])
    card = await kit.card()
    await kit.delivered()
    receipt = await kit.press(card, "yes")
    assert receipt.accepted and receipt.redraw is None
    await kit.delivered()
    answered = await kit.record(record.id)
    assert answered.answer == "yes"
    assert card.current == cards.escalation_card(answered, "Radar")
    assert card.current.settled and card.current.buttons == ()


async def test_a_press_in_its_members_thread_is_judged_with_that_member_as_read(
    kit: Kit,
) -> None:
    """The member found for the thread a press came from is the member it is judged under
    (not read again); a press from no member's thread reads the record's member."""
    radar = await kit.add_member()
    record = await kit.escalate(radar, "Ship it?", options=["yes", "no"])
    await kit.card()
    found = await kit.store.member("radar")
    assert found is not None and found.transports == ("memory",)
    as_read = replace(found, transports=())  # told apart from what a read would find
    handler = EscalationPresses(kit.store)
    payload = f"e:{record.id}:0"
    press = parse_payload(payload)
    assert press is not None
    click = HumanClick(
        transport="memory", event_id="ev-1", user_id=OWNER, thread="t", payload=payload
    )
    assert (await handler.check(click, press, as_read)).member is as_read
    assert (await handler.check(click, press, None)).member.transports == ("memory",)


async def test_a_click_on_a_settled_card_is_refused(kit: Kit) -> None:
    """A press on a record that is already answered answers nothing and says so."""
    radar = await kit.add_member()
    await kit.escalate(radar, "Ship?", options=["yes", "no"])
    card = await kit.card()
    stale = card.current.buttons[1].payload
    await kit.press(card, 0)
    await kit.event(radar, "escalation_answered")
    notice = (await kit.press_payload(stale)).notice
    assert notice is not None and "already settled" in notice
    assert [e.answer for e in await kit.store.escalations("radar")] == ["yes"]


@pytest.mark.parametrize("payload", ["e:zzzz:0", "x" * 64, "e:0123456789abcdef:0", ""])
async def test_a_forged_button_payload_is_refused_and_audited(kit: Kit, payload: str) -> None:
    """A malformed or unknown payload changes nothing; SEL records the attempt."""
    radar = await kit.add_member()
    await kit.escalate(radar, "Ship?", options=["yes"])
    await kit.card()
    receipt = await kit.press_payload(payload)
    assert not receipt.accepted and receipt.notice is not None
    assert await kit.states() == ["pending"]
    assert len(await kit.store.sel(action_prefix="click:")) == 1


async def test_a_forged_choice_index_is_refused(kit: Kit) -> None:
    """A payload naming a choice the record does not offer answers nothing."""
    radar = await kit.add_member()
    record = await kit.escalate(radar, "Ship?", options=["yes", "no"])
    await kit.card()
    receipt = await kit.press_payload(f"e:{record.id}:7")
    assert not receipt.accepted and receipt.notice is not None
    assert await kit.states() == ["pending"]
    audit = await kit.store.sel(action_prefix="click:")
    assert [r.action for r in audit] == ["click:invalid_choice"]


async def test_a_click_naming_another_members_record_is_refused(kit: Kit) -> None:
    """A press in radar's thread carrying probe's escalation id answers nothing."""
    radar = await kit.add_member("radar", "Radar")
    probe = await kit.add_member("probe", "Probe")
    await kit.escalate(radar, "Radar asks")
    theirs = await kit.escalate(probe, "Probe asks", options=["ok"])
    await kit.card("radar")
    await kit.card("probe")
    receipt = await kit.press_payload(f"e:{theirs.id}:0", member="radar")
    assert not receipt.accepted and receipt.notice is not None
    assert await kit.states("probe") == ["pending"]


async def test_typed_text_with_two_pending_answers_nothing_and_lists_them(kit: Kit) -> None:
    """Rule 2: with two pending, a typed reply answers none; the thread says which are open."""
    radar = await kit.add_member()
    await kit.escalate(radar, "First question")
    await kit.escalate(radar, "Second question")
    await kit.card(count=2)
    await kit.say("yes")
    notice = await kit.shown_with("2 requests are open")
    assert "First question" in notice.current.text and "Second question" in notice.current.text
    assert await kit.states() == ["pending", "pending"]


async def test_a_message_from_someone_else_never_answers(kit: Kit) -> None:
    """Rule 4: a non-owner's typed text in the thread answers nothing."""
    radar = await kit.add_member()
    await kit.escalate(radar, "Proceed?")
    await kit.card()
    receipt = await kit.say("yes", user=STRANGER)
    assert receipt.escalation_id is None
    await kit.delivered()
    assert await kit.states() == ["pending"]


async def test_chip_then_text_answers_both_in_arrival_order(kit: Kit) -> None:
    """Rule 6: a press for A, then typed text, answers A and then B."""
    radar = await kit.add_member()
    a = await kit.escalate(radar, "A?", options=["a1", "a2"])
    b = await kit.escalate(radar, "B?")
    await kit.card(count=2)
    card_a = kit.memory.cards("radar")[0]
    await asyncio.gather(kit.press(card_a, 0), _later(kit.say("b-answer")))
    assert (await kit.record(a.id)).answer == "a1"
    assert (await kit.record(b.id)).answer == "b-answer"


async def test_text_then_chip_leaves_the_second_pending(kit: Kit) -> None:
    """Rule 6: typed text with A and B open answers nothing; the press then answers A only."""
    radar = await kit.add_member()
    a = await kit.escalate(radar, "A?", options=["a1"])
    b = await kit.escalate(radar, "B?")
    await kit.card(count=2)
    card_a = kit.memory.cards("radar")[0]
    await kit.say("typed first")
    await kit.press(card_a, 0)
    assert (await kit.record(a.id)).state.value == "answered"
    assert (await kit.record(b.id)).state.value == "pending"


async def test_typed_text_equal_to_an_option_of_one_pending_record_answers_it(kit: Kit) -> None:
    """Rule 2: with two pending, text equal (case and spacing aside) to an option of only
    one of them answers that one; the person is told which request it answered."""
    radar = await kit.add_member()
    a = await kit.escalate(radar, "Which region?", options=["us-east", "eu-west"])
    b = await kit.escalate(radar, "Ship the migration?", options=["deploy", "wait"])
    await kit.card(count=2)
    receipt = await kit.say("  DEPLOY ")
    assert (await kit.record(a.id)).state.value == "pending"
    answered = await kit.record(b.id)
    assert (answered.state.value, answered.choice) == ("answered", 0)
    assert (receipt.notice or "").startswith("Answered:")
    assert "— to “Ship the migration?”" in (receipt.notice or "")
    await kit.delivered()
    assert not any("requests are open" in m.current.text for m in kit.shown())


async def test_an_option_both_offer_answers_the_other_after_a_press_in_arrival_order(
    kit: Kit,
) -> None:
    """Rules 2 and 6: A and B both offer "yes"; a press for A then a typed "yes" answers A
    and then B (only B is pending when the text arrives)."""
    radar = await kit.add_member()
    a = await kit.escalate(radar, "A?", options=["yes", "no"])
    b = await kit.escalate(radar, "B?", options=["yes", "no"])
    await kit.card(count=2)
    card_a = kit.memory.cards("radar")[0]
    await asyncio.gather(kit.press(card_a, 1), _later(kit.say("yes")))
    assert (await kit.record(a.id)).answer == "no"
    second = await kit.record(b.id)
    assert (second.answer, second.answered_via.value if second.answered_via else None) == (
        "yes",
        "text",
    )


async def test_an_option_both_offer_typed_first_answers_nothing(kit: Kit) -> None:
    """Rules 2 and 6: typed "yes" while A and B both offer it answers neither; the press
    for A that follows answers A alone."""
    radar = await kit.add_member()
    a = await kit.escalate(radar, "A?", options=["yes", "no"])
    b = await kit.escalate(radar, "B?", options=["yes", "no"])
    await kit.card(count=2)
    card_a = kit.memory.cards("radar")[0]
    await kit.say("yes")
    await kit.press(card_a, 1)
    assert (await kit.record(a.id)).answer == "no"
    assert (await kit.record(b.id)).state.value == "pending"


# --- §1.8 veto windows -------------------------------------------------------------------------


async def test_window_without_a_default_expires(kit: Kit) -> None:
    """A deadline with no default closes as expired."""
    radar = await kit.add_member()
    await kit.escalate(radar, "Any thoughts?", deadline="PT10M")
    kit.clock.advance(timedelta(minutes=11))
    await kit.windows.rearm()
    event = await kit.event(radar, "window_closed")
    assert event.body["state"] == "expired"


async def test_the_scheduler_closes_a_window_at_its_deadline(kit: Kit) -> None:
    """The armed timer fires by itself: no sweep, no restart."""
    radar = await kit.add_member()
    await kit.escalate(radar, "Quick one", deadline="PT1S", default_action="go")
    kit.clock.advance(timedelta(seconds=2))  # the fired timer judges "due" by crewline's clock
    event = await kit.event(radar, "window_closed")
    assert event.body["state"] == "defaulted"


async def test_the_card_says_the_default_ran_only_once_confirmed(kit: Kit) -> None:
    """Confirming the default is refused before the window closes (not_defaulted), then
    redraws the card."""
    radar = await kit.add_member()
    record = await kit.escalate(radar, "Rotate keys?", deadline="PT5M", default_action="rotate")
    with pytest.raises(Conflict) as early:
        await kit.bot.escalations.confirm_default(radar, record.id)
    assert early.value.code == "not_defaulted"
    kit.clock.advance(timedelta(minutes=6))
    await kit.windows.rearm()
    await kit.event(radar, "window_closed")
    confirmed = await kit.bot.escalations.confirm_default(radar, record.id)
    assert confirmed.default_applied is True
    await kit.wait_until(lambda: "confirmed it did" in kit.memory.cards("radar")[0].current.text)


# --- reconciliation ----------------------------------------------------------------------------


async def test_rewinding_an_answer_away_reopens_its_record(kit: Kit) -> None:
    """The transcript is the truth: remove the answering row and the record is pending again."""
    radar = await kit.add_member()
    record = await kit.escalate(radar, "Ship?", options=["yes", "no"])
    await kit.press(await kit.card(), 0)
    await kit.event(radar, "escalation_answered")
    assert (await kit.record(record.id)).state.value == "answered"
    report = await kit.bot.escalations.truncate("radar", keep_through=record.row_id)
    assert report.reopened == [record.id]
    assert await kit.states() == ["pending"]
    await kit.event(radar, "escalation_reopened")
    await kit.wait_until(lambda: choices(kit.memory.cards("radar")[0]) == ("yes", "no"))


async def test_an_orphan_record_is_retracted_after_the_grace_only(kit: Kit) -> None:
    """A record whose card row left the transcript is kept within the grace, then retracted."""
    radar = await kit.add_member()
    await kit.bot.messages.post(radar, "before the card")
    first = (await _rows(kit))[0]
    record = await kit.escalate(radar, "Soon orphaned")
    young = await kit.bot.escalations.truncate("radar", keep_through=first.id)
    assert young.retracted == []
    kit.clock.advance(timedelta(minutes=5))
    old = await kit.bot.escalations.reconcile("radar")
    assert old.retracted == [record.id]
    await kit.event(radar, "escalation_retracted")


# --- §3 question cards -------------------------------------------------------------------------


async def test_typed_text_answers_an_escalation_never_a_question(kit: Kit) -> None:
    """A typed reply answers the one pending escalation and leaves the question waiting."""
    radar = await kit.add_member()
    await kit.escalate(radar, "Escalated")
    asked = await kit.bot.questions.ask(radar, "Still there?", ["yes"])
    await kit.card()
    await kit.say("go ahead")
    await kit.event(radar, "escalation_answered")
    question = await kit.store.question(asked.id)
    assert question is not None and question.state.value == "waiting"


async def test_a_dialog_is_answered_by_the_human_only(kit: Kit) -> None:
    """A dialog refuses an answer by the concierge; the human's answer goes through."""
    radar = await kit.add_member()
    asked = await kit.bot.questions.ask(
        radar, "Allow rm -rf build/?", ["allow", "deny"], dialog=True
    )
    member = await kit.bot.hub.member("radar")
    record = await kit.store.question(asked.id)
    assert record is not None and record.dialog
    with pytest.raises(Forbidden):
        await kit.bot.hub.change(
            lambda ch: questions.answer_question(
                ch, member, record, answer="allow", by=AnsweredBy.CONCIERGE
            )
        )
    answered = await kit.bot.questions.answer(member, asked.id, "deny")
    assert answered.state.value == "answered"
    event = await kit.event(radar, "question_answered")
    assert event.body["answer"] == "deny"


def _request(message: str) -> EscalationRequest:
    return EscalationRequest(message=message, wait_for_delivery=False)
