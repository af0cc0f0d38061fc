"""An edited answer counts (SPEC §5 rule 5), in-process: the Hub, the memory transport
and its outbox on a SQLite store, with the fake clock; nothing of crewline is mocked.

The owner answers a card by typing ``8080`` and then edits that message: the record is
reopened before the resent text, and the text is matched as a reply like any typed one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from crewline import crew as crew_admin
from crewline.app.assembly import Bot
from crewline.app.scheduler import WindowScheduler
from crewline.bot.escalations import EscalationRequest
from crewline.bot.render import CoreRenderer
from crewline.models import (
    AnsweredVia,
    Escalation,
    EscalationState,
    Event,
    ReplyOutcome,
    RowRole,
    Session,
)
from crewline.store.sqlite import SqliteStore
from crewline.testing import FakeClock
from crewline.transports.base import DeliveryLimits
from crewline.transports.memory import MemoryTransport
from crewline.transports.outbox import OutboxDispatcher
from tests.bounds import WAIT

OWNER = "alice"


@dataclass(kw_only=True)
class Thread:
    """Radar's thread on the memory transport, and the owner's hands on it."""

    bot: Bot
    memory: MemoryTransport
    outbox: OutboxDispatcher
    session: Session
    clock: FakeClock
    read_to: int = 0  # how far the member's session has read its events

    async def escalate(self, message: str, **request: object) -> Escalation:
        receipt = await self.bot.escalations.escalate(
            self.session,
            EscalationRequest(message=message, wait_for_delivery=False, **request),  # type: ignore[arg-type]
        )
        await self.delivered()  # the thread exists before the owner types in it
        return receipt.escalation

    async def delivered(self) -> None:
        await self.outbox.wait_idle(timeout=WAIT)

    async def answer_by_typing(self, text: str) -> str:
        """Type ``text`` as the one answer; returns the platform ref of the owner's message."""
        receipt = await self.memory.say(OWNER, "radar", text)
        assert receipt.outcome is ReplyOutcome.ANSWERED, receipt
        record = await self.bot.hub.store.escalation(receipt.escalation_id or "")
        assert record is not None and record.answer_row_id is not None
        shown = await self.bot.hub.store.platform_message("memory", f"row:{record.answer_row_id}")
        assert shown is not None
        return shown.message_ref

    async def edit(self, ref: str, text: str) -> None:
        receipt = await self.memory.edit(OWNER, "radar", ref, text)
        assert receipt.accepted, receipt
        await self.delivered()

    async def read(self) -> list[Event]:
        """What the member's session reads next (and so counts as read)."""
        events = await self.bot.hub.take_events(self.session.id, self.read_to, limit=1000)
        if events:
            self.read_to = events[-1].cursor
        return events

    async def record(self, escalation_id: str) -> Escalation:
        found = await self.bot.hub.store.escalation(escalation_id)
        assert found is not None
        return found

    def card_text(self, n: int = 0) -> str:
        return self.memory.cards("radar")[n].current.text


@pytest.fixture
async def thread(tmp_path: Path) -> AsyncIterator[Thread]:
    clock = FakeClock()
    async with SqliteStore.in_directory(tmp_path) as store:
        created = await crew_admin.add_member(
            store,
            slug="radar",
            name="Radar",
            owners=[f"memory:{OWNER}"],
            transports=["memory"],
            stateless=True,  # its boundaries commit without waiting for an acknowledgement
        )
        memory = MemoryTransport(limits=DeliveryLimits(roster_interval=0))  # no pacing
        async with Bot(store, clock=clock, transports=["memory"]) as bot:
            hub = bot.hub
            memory.attach(hub)
            await memory.start(hub.receive)
            async with OutboxDispatcher(store, memory, CoreRenderer(store, clock)) as outbox:
                hub.on_outbox(lambda transport, lanes: outbox.wake(lanes))
                yield Thread(
                    bot=bot, memory=memory, outbox=outbox, session=created.session, clock=clock
                )
            await memory.stop()


def _kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


async def test_an_edited_answer_answers_the_reopened_record_with_via_edit(thread: Thread) -> None:
    """8080 edited to 9090: the session reads the boundary, the reopening, then the new
    answer (via edit, no stray message); the record and its card say 9090."""
    record = await thread.escalate("Which port?")
    ref = await thread.answer_by_typing("8080")
    first = await thread.read()
    assert _kinds(first)[-1] == "escalation_answered"  # the session heard 8080
    assert first[-1].body["answer"] == "8080"
    await thread.edit(ref, "9090")
    after = await thread.read()
    assert _kinds(after) == [
        "context_boundary",
        "human_edit",
        "context_boundary_committed",
        "escalation_reopened",
        "escalation_answered",
    ]
    answered = after[-1].body
    assert (answered["escalation_id"], answered["answer"]) == (record.id, "9090")
    assert (answered["by"], answered["via"]) == ("user", "edit")
    now = await thread.record(record.id)
    assert (now.state, now.answer, now.answered_via) == (
        EscalationState.ANSWERED,
        "9090",
        AnsweredVia.EDIT,
    )
    resent = await thread.bot.store.row(now.answer_row_id or "")
    assert resent is not None and resent.meta.get("resent_from") is not None
    assert resent.id == answered["row_id"]
    assert "Answered: 9090 — by you" in thread.card_text()
    assert [m.current.text for m in thread.memory.thread_messages("radar")][-1] == "9090"
    assert not (await thread.bot.escalations.reconcile("radar")).changed


async def test_an_answer_the_session_never_read_is_replaced_without_a_reopening(
    thread: Thread,
) -> None:
    """The 8080 answer was withdrawn unread by the edit: the session reads the boundary and
    the 9090 answer only (a reopening of an answer it never heard is not news)."""
    record = await thread.escalate("Which port?")
    before = await thread.read()
    ref = await thread.answer_by_typing("8080")
    await thread.edit(ref, "9090")
    after = await thread.read()
    assert _kinds(before) == []
    assert _kinds(after) == [
        "context_boundary",
        "human_edit",
        "context_boundary_committed",
        "escalation_answered",
    ]
    assert (after[-1].body["escalation_id"], after[-1].body["answer"]) == (record.id, "9090")


async def test_an_edit_to_text_that_matches_nothing_with_several_open_answers_none(
    thread: Thread,
) -> None:
    """Two open (the reopened one and another), and the new text names neither: the thread
    says which are open, both wait, and the text reaches the member as a message."""
    port = await thread.escalate("Which port?", options=["8080", "9090"])
    other = await thread.escalate("Deploy the worker?", options=["yes", "no"])
    ref = await thread.answer_by_typing("8080")  # an option of exactly one: it answers it
    assert (await thread.record(port.id)).state is EscalationState.ANSWERED
    await thread.read()
    await thread.edit(ref, "7070")
    after = await thread.read()
    assert _kinds(after) == [
        "context_boundary",
        "human_edit",
        "context_boundary_committed",
        "escalation_reopened",
        "human_message",
    ]
    assert after[-1].body["text"] == "7070"
    assert after[-1].body["resent_from"] is not None
    states = {e: (await thread.record(e)).state for e in (port.id, other.id)}
    assert states == {port.id: EscalationState.PENDING, other.id: EscalationState.PENDING}
    live = await thread.bot.store.live_rows("radar")
    notice = live[-1]
    assert notice.role is RowRole.SYSTEM and notice.text.startswith("2 requests are open")
    shown = [m.current.text for m in thread.memory.thread_messages("radar")]
    assert shown[-2:] == ["7070", notice.text]
    assert thread.memory.cards("radar")[0].current.buttons  # the card is open again


async def test_an_edit_to_another_option_answers_it_with_several_open(thread: Thread) -> None:
    """The new text is an option of exactly one open record: it answers that one."""
    port = await thread.escalate("Which port?", options=["8080", "9090"])
    other = await thread.escalate("Deploy the worker?", options=["yes", "no"])
    ref = await thread.answer_by_typing("8080")
    await thread.edit(ref, "9090")
    now = await thread.record(port.id)
    assert (now.state, now.answer, now.choice, now.answered_via) == (
        EscalationState.ANSWERED,
        "9090",
        1,
        AnsweredVia.EDIT,
    )
    assert (await thread.record(other.id)).state is EscalationState.PENDING


async def test_an_edited_answer_after_the_deadline_answers_and_never_defaults(
    thread: Thread,
) -> None:
    """The window passed while 8080 stood; the edit reopens the record after its deadline and
    answers it with 9090: no window closes, by timer or sweep."""
    record = await thread.escalate(
        "Which port?", deadline="PT1M", default_action="use 8080", options=["8080", "9090"]
    )
    ref = await thread.answer_by_typing("8080")
    await thread.read()
    thread.clock.advance(timedelta(minutes=2))
    await thread.edit(ref, "9090")
    after = await thread.read()
    assert _kinds(after)[-2:] == ["escalation_reopened", "escalation_answered"]
    assert after[-2].body["window_held"] is True
    assert await thread.bot.escalations.close_due_windows() == 0
    now = await thread.record(record.id)
    assert (now.state, now.answer) == (EscalationState.ANSWERED, "9090")
    assert "window_closed" not in _kinds(await thread.read())


async def test_a_reopened_record_past_its_deadline_waits_for_the_human(thread: Thread) -> None:
    """The edit answers nothing (two open), after the deadline: the record waits — the
    sweep, the scheduler's start and a rebuilt index all leave it open — until the owner
    answers it."""
    store = thread.bot.store
    port = await thread.escalate(
        "Which port?", deadline="PT1M", default_action="use 8080", options=["8080", "9090"]
    )
    await thread.escalate("Deploy the worker?", options=["yes", "no"])
    ref = await thread.answer_by_typing("8080")
    await thread.read()
    thread.clock.advance(timedelta(minutes=2))
    await thread.edit(ref, "7070")
    held = await thread.record(port.id)
    assert (held.state, held.window_held) == (EscalationState.PENDING, True)
    assert held.deadline is not None and held.deadline < thread.clock.now()
    assert await thread.bot.escalations.close_due_windows() == 0
    async with WindowScheduler(
        thread.bot.hub, thread.bot.escalations
    ):  # its start closes every window already past
        pass
    assert await store.due_windows(thread.clock.now()) == []
    with sqlite3.connect(store.path) as raw:  # the index torn: rebuilt from the transcript
        raw.execute("DROP TABLE escalations")
    await thread.bot.escalations.reconcile_all()
    rebuilt = await thread.record(port.id)
    assert (rebuilt.state, rebuilt.window_held) == (EscalationState.PENDING, True)
    assert await thread.bot.escalations.close_due_windows() == 0
    await thread.delivered()
    card = thread.card_text()
    assert "Radar waits for your reply, and will not do this by itself: use 8080" in card
    assert "Unless you reply by" not in card
    assert "window_closed" not in _kinds(await thread.read())
    pressed = await thread.memory.press(OWNER, thread.memory.cards("radar")[0].ref, 1)
    assert pressed.accepted, pressed
    assert (await thread.record(port.id)).answer == "9090"


async def test_a_rewound_answer_past_the_deadline_waits_for_the_human_too(
    thread: Thread,
) -> None:
    """/rewind to the card takes the answer back after the deadline: the record reopens
    held, and no window closes."""
    record = await thread.escalate("Ship it?", deadline="PT1M", default_action="ship it")
    await thread.answer_by_typing("not yet")
    await thread.read()
    thread.clock.advance(timedelta(minutes=2))
    card = thread.memory.cards("radar")[0]
    rewound = await thread.memory.command(OWNER, "rewind", member="radar", message_ref=card.ref)
    assert rewound.accepted, rewound
    assert _kinds(await thread.read())[-1] == "escalation_reopened"
    assert await thread.bot.escalations.close_due_windows() == 0
    now = await thread.record(record.id)
    assert (now.state, now.window_held) == (EscalationState.PENDING, True)
