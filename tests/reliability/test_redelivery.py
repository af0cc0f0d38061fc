"""Every kind of inbound event delivered twice, out of order and across a restart, on every
transport: answered once; every later delivery gets the same receipt as the first, marked a
repeat (what the human was told: the record it answered, or why none), and the human is
shown nothing more.

SPEC §2 rule 3: platform redeliveries are deduplicated by their event id. Each transport
delivers again the way its platform does (tests/reliability/wires.py): Slack's retry with
``X-Slack-Retry-Num`` (or the Socket Mode envelope's ``retry_attempt``) and a form sent
again with its trigger id, Telegram's update with the same ``update_id`` (webhook push, or
``getUpdates`` after a lost offset), Discord's identical dispatch (a duplicate
``INTERACTION_CREATE``, ``MESSAGE_CREATE`` or ``MESSAGE_UPDATE``), the local inbox's
double submit, the memory transport's event with its id. Every redelivery reaches the core,
in the same run as after a restart, and gets the first's receipt again; nothing changes and
the human is shown nothing more.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta

import pytest

from crewline.bot.receipts import KEEP_FOR
from crewline.config import Config
from crewline.models import Receipt, ReplyOutcome
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import HARNESSES, Harness
from tests.harnesses.slack import SlackHarness
from tests.reliability.wires import Sent, TelegramWire, Wire, wire_for

TRANSPORTS = ["memory", "local", "slack", "slack-socket", "telegram", "telegram-webhook", "discord"]


@pytest.fixture(params=TRANSPORTS)
async def crew(
    request: pytest.FixtureRequest, config: Config, clock: FakeClock
) -> AsyncIterator[Crew]:
    """crewline over one transport; Slack over HTTP and over Socket Mode."""
    name: str = request.param
    made: Harness = SlackHarness(socket_mode=True) if name == "slack-socket" else HARNESSES[name]()
    async with made.running() as harness:
        driver = Crew(config, clock, [harness])
        await driver.start()
        yield driver
        await driver.stop()


def _same(sent: Sent, receipt: Receipt | None) -> bool:
    """The redelivery's receipt is the first's, marked a repeat (the card's redraw aside: a
    repeat draws nothing)."""
    first = sent.first
    assert first is not None and not first.repeat, first
    return (
        receipt is not None
        and receipt.repeat
        and replace(receipt, repeat=False, redraw=None) == replace(first, redraw=None)
    )


async def _again(crew: Crew, wire: Wire, sent: Sent) -> None:
    """Deliver ``sent`` again (in this run or after a restart): it gets the first
    delivery's receipt, and the human is shown nothing more than before."""
    await crew.delivered()
    shown = wire.seen(sent)
    receipt = await wire.again(sent)
    await crew.delivered()
    assert wire.seen(sent) == shown, f"the redelivered {sent.kind} was answered again"
    assert _same(sent, receipt), (sent.first, receipt)


async def _answers(crew: Crew, key: str) -> list[str]:
    events = await crew.events(key)
    return [e["body"]["escalation_id"] for e in events if e["kind"] == "escalation_answered"]


async def test_a_press_and_a_reply_delivered_twice_out_of_order_are_answered_once(
    crew: Crew,
) -> None:
    """Press A, type for B; then both again in the other order; then both after a restart."""
    wire = wire_for(crew.harness)
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["yes", "no"])
    b = await crew.escalate(key, message="B?")
    await crew.delivered()
    await crew.crewline.bot.concierge.idle()
    card = next(c for c in crew.harness.cards("radar") if "A?" in c.text)

    pressed = await wire.press("radar", card, 0)
    typed = await wire.say("radar", "go ahead")
    assert pressed.first is not None and pressed.first.accepted, pressed.first
    assert typed.first is not None and typed.first.accepted, typed.first
    assert await _answers(crew, key) == [a["escalation_id"], b["escalation_id"]]
    rows = len(await crew.crewline.store.live_rows("radar"))

    assert pressed.first.escalation_id == a["escalation_id"], pressed.first
    assert typed.first.escalation_id == b["escalation_id"], typed.first
    await _again(crew, wire, typed)
    await _again(crew, wire, pressed)
    await crew.restart()
    await _again(crew, wire, pressed)
    await _again(crew, wire, typed)

    assert len(await crew.crewline.store.live_rows("radar")) == rows
    assert await _answers(crew, key) == [a["escalation_id"], b["escalation_id"]]
    records = (await crew.conversation())["escalations"]
    assert [(r["state"], r["answer"]) for r in records] == [
        ("answered", "yes"),
        ("answered", "go ahead"),
    ]
    assert await crew.crewline.store.sel() == []  # a redelivery is no security event


async def test_a_command_delivered_twice_is_answered_once(crew: Crew) -> None:
    """/roster again (and again after a restart) shows no second roster."""
    wire = wire_for(crew.harness)
    key = await crew.add_member()
    await crew.escalate(key, message="Anything?")
    await crew.delivered()

    roster = await wire.command("radar", "roster")
    assert roster.first is not None and roster.first.accepted, roster.first
    assert wire.seen(roster) == 1, "precondition: the roster was shown"
    await _again(crew, wire, roster)
    await crew.restart()
    await _again(crew, wire, roster)
    assert wire.seen(roster) == 1


async def test_an_edit_delivered_twice_draws_one_boundary(crew: Crew) -> None:
    """The owner's edit resends once; its redelivery rewinds nothing more."""
    wire = wire_for(crew.harness)
    key = await crew.add_member(stateless=True)  # the boundary needs no session's consent
    post = await crew.call(key, "POST", "/api/session/messages", json={"text": "m1"})
    assert post.status_code == 200, post.text
    await crew.delivered()
    said = await wire.say("radar", "h1")
    assert said.first is not None and said.first.accepted, said.first
    store = crew.crewline.store
    h1 = next(r for r in await store.live_rows("radar") if r.text == "h1")
    shown = await store.platform_message(crew.harness.name, f"row:{h1.id}")
    assert shown is not None, "precondition: crewline knows the owner's message"

    edited = await wire.edit("radar", shown.message_ref, "h1 edited")
    assert edited.first is not None and edited.first.accepted, edited.first
    live = [r.text for r in await store.live_rows("radar")]
    assert "h1" not in live and live[-1] == "h1 edited", live
    boundaries = await store.sel(action_prefix="boundary:")

    await _again(crew, wire, edited)
    await crew.restart()
    await _again(crew, wire, edited)
    store = crew.crewline.store  # the restarted crewline's
    assert [r.text for r in await store.live_rows("radar")] == live
    assert await store.sel(action_prefix="boundary:") == boundaries


# The undo is the core's: each transport's command redelivery is the roster test's.
@pytest.mark.parametrize("crew", ["memory"], indirect=True)
async def test_a_redelivered_concierge_undo_withdraws_one_answer(crew: Crew) -> None:
    """Two concierge answers; /concierge undo delivered twice (and after a restart)
    withdraws the latest only."""
    wire = wire_for(crew.harness)
    key = await crew.add_member()
    assert await crew.harness.command("concierge", "answer", "routine")
    for _ in range(2):
        await crew.escalate(key, message="Shall I proceed with the plan?")
        await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    records = (await crew.conversation())["escalations"]
    assert [r["state"] for r in records] == ["answered", "answered"], "precondition"

    undo = await wire.command("radar", "concierge", "undo")
    assert undo.first is not None and undo.first.accepted, undo.first
    await _again(crew, wire, undo)
    await crew.restart()
    await _again(crew, wire, undo)

    records = (await crew.conversation())["escalations"]
    assert sorted(r["state"] for r in records) == ["answered", "pending"]
    kept = [a for a in await crew.crewline.store.concierge_answers() if a.undone_at is None]
    assert len(kept) == 1


# What a reply that answered nothing was told is the core's too: one transport shows it.
@pytest.mark.parametrize("crew", ["memory"], indirect=True)
async def test_a_redelivered_ambiguous_reply_is_told_the_same_open_records(crew: Crew) -> None:
    """Two open, a reply naming neither: ambiguous with both; its redelivery (and after a
    restart, with one of them answered since) is told the same, and writes nothing."""
    wire = wire_for(crew.harness)
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["yes", "no"])
    b = await crew.escalate(key, message="B?", options=["ship", "wait"])
    await crew.delivered()

    typed = await wire.say("radar", "hmm, not sure")
    first = typed.first
    assert first is not None and first.outcome is ReplyOutcome.AMBIGUOUS, first
    assert [r.id for r in first.open] == [a["escalation_id"], b["escalation_id"]]
    rows = len(await crew.crewline.store.live_rows("radar"))
    await _again(crew, wire, typed)
    answered = (await wire.say("radar", "yes")).first
    assert answered is not None and answered.escalation_id == a["escalation_id"], answered
    await crew.restart()
    rows += 1  # the answer typed meanwhile
    again = await wire.again(typed)
    assert again is not None and again.repeat and again.outcome is ReplyOutcome.AMBIGUOUS
    assert [r.id for r in again.open] == [a["escalation_id"], b["escalation_id"]]
    assert len(await crew.crewline.store.live_rows("radar")) == rows


@pytest.mark.parametrize("crew", ["memory"], indirect=True)
async def test_a_redelivery_whose_first_receipt_was_not_kept_says_only_duplicate_event(
    crew: Crew,
) -> None:
    """A command marks its event before it runs: a crash before its answer was kept leaves
    a mark alone, and the redelivery is told only that the event was taken."""
    store = crew.crewline.store
    await crew.add_member()
    now = crew.crewline.hub.clock.now()
    assert await store.write(lambda tx: tx.mark_seen("memory", "cut-short", now))
    memory, owner = crew.harness.memory, crew.harness.owner
    receipt = await memory.command(owner, "roster", member="radar", event_id="cut-short")
    assert receipt == Receipt(accepted=False, code="duplicate_event", repeat=True)


@pytest.mark.parametrize("crew", ["telegram", "telegram-webhook"], indirect=True)
async def test_a_redelivered_press_whose_answer_was_lost_is_answered_with_the_same_text(
    crew: Crew,
) -> None:
    """The first answer to a press failed (its spinner still turns); Telegram delivers the
    update again in the same run: the query is answered with the first receipt's text, and
    the press is answered once."""
    wire = wire_for(crew.harness)
    assert isinstance(wire, TelegramWire)
    fake = crew.harness.fake
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["yes", "no"])
    await crew.delivered()
    await crew.crewline.bot.concierge.idle()
    card = next(c for c in crew.harness.cards("radar") if "A?" in c.text)

    fake.fail_next("answerCallbackQuery", 500)
    pressed = await wire.press("radar", card, 0)
    first = pressed.first
    assert first is not None and first.accepted and first.notice, first
    query = fake.callback_query(wire.query(pressed))
    assert not query.answered, "precondition: the first answer was lost"

    again = await wire.again(pressed)
    assert _same(pressed, again), (first, again)
    assert (query.answered, query.answer_text, query.show_alert) == (True, first.notice, False)
    assert await _answers(crew, key) == [a["escalation_id"]]


@pytest.mark.parametrize("crew", ["telegram"], indirect=True)
async def test_an_update_fetched_again_is_confirmed_again_only_once_handled_again(
    crew: Crew,
) -> None:
    """Long polling: a press queued again (as after a lost offset) is not confirmed on the
    strength of its first delivery's handling — only once this delivery was answered."""
    wire = wire_for(crew.harness)
    assert isinstance(wire, TelegramWire)
    fake = crew.harness.fake
    key = await crew.add_member()
    await crew.escalate(key, message="A?", options=["yes", "no"])
    await crew.delivered()
    await crew.crewline.bot.concierge.idle()
    card = next(c for c in crew.harness.cards("radar") if "A?" in c.text)
    pressed = await wire.press("radar", card, 0)
    update_id = pressed.handle.update_id
    await fake.wait_for(lambda: fake.is_confirmed(update_id) and fake.long_poll_open)

    release = fake.hold_next("answerCallbackQuery")
    await fake.redeliver(update_id)
    await fake.wait_for(lambda: len(fake.calls_to("answerCallbackQuery")) == 2)
    assert not fake.is_confirmed(update_id), "confirmed before its answer was given"
    release.set()
    await fake.wait_for(lambda: fake.is_confirmed(update_id))
    assert (await crew.harness.handled(pressed.handle)) is not None


@pytest.mark.parametrize("crew", ["memory"], indirect=True)
async def test_a_sweep_forgets_marks_past_their_keeping_and_keeps_the_rest(
    crew: Crew, clock: FakeClock
) -> None:
    """A press, then a typed reply three days later; a sweep seven days after the press
    forgets the press's mark (a redelivery now is a new event, refused: its card is
    settled) and keeps the reply's, whose redelivery still gets its receipt."""
    wire = wire_for(crew.harness)
    store = crew.crewline.store
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["yes", "no"])
    await crew.delivered()
    card = next(c for c in crew.harness.cards("radar") if "A?" in c.text)
    pressed = await wire.press("radar", card, 0)
    clock.advance(timedelta(days=3))
    b = await crew.escalate(key, message="B?")
    typed = await wire.say("radar", "go ahead")
    assert [s.first.escalation_id for s in (pressed, typed) if s.first] == [
        a["escalation_id"],
        b["escalation_id"],
    ]
    press_id, reply_id = pressed.handle[2], typed.handle[2]
    assert await store.write(lambda tx: tx.seen_event("memory", press_id)) is not None

    clock.advance(KEEP_FOR - timedelta(days=3) + timedelta(minutes=1))
    assert await crew.crewline.windows.forget_seen() >= 1
    assert await store.write(lambda tx: tx.seen_event("memory", press_id)) is None
    assert await store.write(lambda tx: tx.seen_event("memory", reply_id)) is not None
    await _again(crew, wire, typed)
    late = await wire.again(pressed)
    assert late is not None and not late.repeat and late.code == "already_settled", late
    assert await _answers(crew, key) == [a["escalation_id"], b["escalation_id"]]


@pytest.mark.parametrize("crew", ["memory", "telegram", "telegram-webhook"], indirect=True)
async def test_a_redelivered_edit_press_opens_no_second_reply_box(crew: Crew) -> None:
    """The concierge's Edit changes nothing, yet its press is remembered: a redelivery gets
    the first's receipt (the suggestion to edit), and Telegram sends no second prompt."""
    wire = wire_for(crew.harness)
    key = await crew.add_member()
    await crew.escalate(key, message="Delete the old migrations directory? Default: keep.")
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    card = next(c for c in crew.harness.cards("radar") if "migrations" in c.text)
    edit = next(i for i, p in enumerate(card.payloads) if p.startswith("c:") and p.endswith(":1"))
    pressed = await wire.press("radar", card, edit)
    assert pressed.first is not None and pressed.first.prefill, pressed.first

    def prompts() -> int:
        if not isinstance(wire, TelegramWire):
            return 0
        calls = wire.harness.fake.calls_to("sendMessage")
        return sum(1 for c in calls if "force_reply" in str(c.params.get("reply_markup")))

    opened = prompts()
    assert opened == (1 if isinstance(wire, TelegramWire) else 0), "precondition: one prompt"
    await _again(crew, wire, pressed)
    assert prompts() == opened
    await crew.restart()
    await _again(crew, wire, pressed)
    assert prompts() == opened
