"""Context boundaries' rules (SPEC §5) in-process: one transaction, committed by delta.

The transcript is ``m1 h1 m2 h2 m3`` (m: the member's rows, h: the owner's messages); an
edit of ``h2`` keeps ``m1 h1 m2`` and rewinds ``h2 m3``. The concurrency tests inject what
can happen while a boundary is in flight exactly inside each of its awaits, through the
boundary's test hook (no sleeps), and assert that it really happened mid-boundary before
asserting what the commit made of it. The owner's boundary API and the session's acks over
HTTP, their codes on the wire and the event stream stay in tests/e2e/test_boundaries.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from crewline import crew as crew_admin
from crewline.bot.boundaries import BoundaryKind, BoundaryRequest, HookPoint, Outcome
from crewline.bot.boundaries.run import outcome_error
from crewline.models import Event, Row, Session
from crewline.transports.memory import MemoryMessage
from tests.core.kit import OWNER, STRANGER, Kit, labels

AWAITS = [HookPoint.SENT, HookPoint.WAITING, HookPoint.COMMITTING]

Injection = Callable[["Scene"], Awaitable[None]]


@dataclass(kw_only=True)
class Scene:
    """Radar's conversation, and the owner's and the session's hands on its boundaries."""

    kit: Kit
    session: Session  # the member's
    rows: dict[str, Row]  # by text
    seen: dict[str, Any] = field(default_factory=dict)  # what injections observed

    async def post(self, text: str, *, session: Session | None = None) -> str:
        row = await self.kit.bot.messages.post(session or self.session, text)
        return row.id

    async def ask(self, question: str) -> str:
        return (await self.kit.bot.questions.ask(self.session, question, ["yes", "no"])).id

    async def read(self, *, after: int = 0) -> list[Event]:
        """The session's events after ``after``, read as an agent reads them."""
        return await self.kit.bot.messages.events(self.session, after=after, wait=0)

    async def boundary(
        self,
        kind: str,
        *,
        row: str | None = None,
        steps: int | None = None,
        text: str | None = None,
    ) -> Outcome:
        return await self.kit.bot.boundaries.run(
            BoundaryRequest(
                member="radar",
                kind=BoundaryKind(kind),
                actor=f"memory:{OWNER}",
                row=row,
                steps=steps,
                text=text,
            )
        )

    async def edit_h2(self) -> Outcome:
        return await self.boundary("edit", row=self.rows["h2"].id, text="h2 edited")

    async def ack(self, boundary_id: str) -> None:
        await self.kit.bot.boundaries.answer(self.session, boundary_id, ack=True)

    async def live(self) -> list[str]:
        return [r.text for r in await self.kit.store.live_rows("radar")]

    async def in_flight(self) -> bool:
        found = await self.kit.store.write(lambda tx: tx.boundary_in_flight("radar"))
        return found is not None

    def on(self, hooks: dict[HookPoint, Injection]) -> None:
        """Run ``hooks[point]`` inside the boundary's await at ``point``."""

        async def hook(point: HookPoint, boundary_id: str) -> None:
            self.seen.setdefault("points", []).append(point)
            self.seen["boundary_id"] = boundary_id
            injection = hooks.get(point)
            if injection is not None:
                await injection(self)

        self.kit.bot.boundaries.hook = hook

    def acking(self, point: HookPoint | None = None, inject: Injection | None = None) -> None:
        """The session acks as soon as it is asked; ``inject`` runs inside the await
        ``point``."""

        async def sent(s: Scene) -> None:
            await s.ack(s.seen["boundary_id"])
            if point is HookPoint.SENT and inject is not None:
                await inject(s)

        hooks: dict[HookPoint, Injection] = {HookPoint.SENT: sent}
        if point is not None and point is not HookPoint.SENT and inject is not None:
            hooks[point] = inject
        self.on(hooks)


@pytest.fixture
async def scene(kit: Kit) -> Scene:
    return await _scene(kit)


@pytest.fixture
async def stateless(kit: Kit) -> Scene:
    return await _scene(kit, stateless=True)


async def _scene(kit: Kit, *, stateless: bool = False) -> Scene:
    session = await kit.add_member(stateless=stateless)
    made = Scene(kit=kit, session=session, rows={})
    for text in ("m1", "h1", "m2", "h2", "m3"):
        if text.startswith("m"):
            await made.post(text)
            await kit.delivered()  # the thread exists before the owner types in it
        else:
            receipt = await kit.say(text)
            assert receipt.accepted, receipt
    made.rows = {r.text: r for r in await kit.store.live_rows("radar")}
    assert list(made.rows) == ["m1", "h1", "m2", "h2", "m3"]
    return made


def _code(outcome: Outcome) -> str | None:
    error = outcome_error(outcome)
    return error.code if error is not None else None


async def test_a_stateless_session_counts_as_discarded_at_once(stateless: Scene) -> None:
    """A stateless member's rewind commits without waiting for any acknowledgement."""
    s = stateless
    s.on({})
    outcome = await s.boundary("rewind", row=s.rows["m2"].id)
    assert outcome.committed, outcome
    assert HookPoint.WAITING not in s.seen["points"]
    assert (await s.live())[:3] == ["m1", "h1", "m2"]
    assert "h2" not in await s.live()


async def test_rewind_n_regenerate_and_reset(stateless: Scene) -> None:
    """/rewind 2 continues from h1; regenerate re-delivers the last human row; reset empties."""
    s = stateless
    rewound = await s.boundary("rewind", steps=2)
    assert rewound.committed, rewound
    assert (await s.live())[:2] == ["m1", "h1"] and "m2" not in await s.live()
    await s.post("m2 again")
    regenerated = await s.boundary("regenerate")
    assert regenerated.committed, regenerated
    assert "m2 again" not in await s.live()
    again = [e for e in await s.read() if e.kind == "human_message"][-1]
    assert again.body == {"row_id": s.rows["h1"].id, "text": "h1", "regenerate": True}
    reset = await s.boundary("reset")
    assert reset.committed, reset
    assert [t for t in await s.live() if not t.startswith(("Rewound", "Regen", "Reset"))] == []


async def test_an_undelivered_event_about_a_rewound_row_is_withdrawn(scene: Scene) -> None:
    """Rule 2 for the session: the rewound suffix is not delivered after the boundary."""
    s = scene
    queued = await s.kit.store.events_after(s.session.id, 0)  # read, not delivered
    about = [e.body.get("row_id") for e in queued if e.kind == "human_message"]
    assert about == [s.rows["h1"].id, s.rows["h2"].id]
    s.acking()
    outcome = await s.edit_h2()
    assert outcome.committed, outcome
    told = [e.body for e in await s.read() if e.kind == "human_message"]
    assert [b["row_id"] for b in told] == [s.rows["h1"].id, outcome.resent_row]


# --- the delta rules, injected inside each await ------------------------------------------------


async def _row_arrives(s: Scene) -> None:
    assert await s.in_flight()
    s.seen["arrived"] = await s.post("arrived")


@pytest.mark.parametrize("point", AWAITS)
async def test_a_row_arriving_during_the_boundary_survives_after_the_edited_row(
    scene: Scene, point: HookPoint
) -> None:
    """Rule 2: the arrival stays, after the resent row; the rewound suffix stays rewound."""
    s = scene
    s.acking(point, _row_arrives)
    outcome = await s.edit_h2()
    assert outcome.committed, outcome
    assert "arrived" in s.seen
    live = await s.live()
    assert live[:3] == ["m1", "h1", "m2"]
    assert live[-2:] == ["h2 edited", "arrived"]
    assert "h2" not in live and "m3" not in live
    assert list(outcome.kept) == [s.seen["arrived"]]


async def _session_reads(s: Scene) -> None:
    assert await s.in_flight()
    sender = s.seen["sender"]
    for text in ("read meanwhile", "unread meanwhile"):
        await s.kit.bot.messages.send(sender, "radar", text)
        if text == "read meanwhile":
            events = await s.read()
            assert events[-1].body["text"] == "read meanwhile"
            s.seen["cursor"] = events[-1].cursor


@pytest.mark.parametrize("point", AWAITS)
async def test_an_event_the_session_read_during_the_boundary_is_not_delivered_again(
    scene: Scene, point: HookPoint
) -> None:
    """Rule 3: a read event never comes again; an unread arrival comes once, after the
    boundary's own resent row."""
    s = scene
    s.seen["sender"] = await s.kit.add_session("plain")
    s.acking(point, _session_reads)
    outcome = await s.edit_h2()
    assert outcome.committed, outcome
    after = await s.read(after=s.seen["cursor"])
    texts = [e.body.get("text") for e in after if e.kind in ("message", "human_message")]
    assert texts == ["h2 edited", "unread meanwhile"]


async def test_a_waiting_card_the_boundary_rewinds_is_cancelled_and_announced_once(
    scene: Scene,
) -> None:
    """The control for the e2e test of a card answered meanwhile: with no answer, the
    rewound card is retired."""
    s = scene
    question_id = await s.ask("Proceed?")
    s.acking()
    outcome = await s.edit_h2()
    assert list(outcome.retired_questions) == [question_id]
    cancelled = [e for e in await s.read() if e.kind == "question_cancelled"]
    assert [e.body["question_id"] for e in cancelled] == [question_id]


async def _card_raised(s: Scene) -> None:
    assert await s.in_flight()
    s.seen["raised"] = await s.ask("Raised meanwhile?")


@pytest.mark.parametrize("point", AWAITS)
async def test_a_card_raised_during_the_boundary_survives(scene: Scene, point: HookPoint) -> None:
    """Rule 4: a card raised meanwhile keeps waiting and its row stays after the edit."""
    s = scene
    s.acking(point, _card_raised)
    outcome = await s.edit_h2()
    assert outcome.committed, outcome
    question = await s.kit.store.question(s.seen["raised"])
    assert question is not None and question.state.value == "waiting"
    assert (await s.live())[-2:] == ["h2 edited", "Raised meanwhile?"]


async def _member_recreated(s: Scene) -> None:
    assert await s.in_flight()
    await crew_admin.remove_member(s.kit.store, "radar")
    new = await s.kit.add_member()
    s.seen["new_row"] = await s.post("new life", session=new)


@pytest.mark.parametrize("point", AWAITS)
async def test_a_member_recreated_during_the_boundary_keeps_its_transcript(
    scene: Scene, point: HookPoint
) -> None:
    """Rule 8: boundary_target_changed, one SEL record, nothing of the new member's
    conversation rewound."""
    s = scene
    s.acking(point, _member_recreated)
    outcome = await s.edit_h2()
    assert not outcome.committed
    assert _code(outcome) == "boundary_target_changed"
    records = await s.kit.store.sel(action_prefix="boundary:")
    errors = [
        (r.details.get("reason"), r.details.get("native_cleared"))
        for r in records
        if r.outcome == "error"
    ]
    assert errors == [("target_changed", "1")]
    live = await s.live()
    assert live[-1] == "new life" and "h2" in live and "m3" in live
    assert not any(t.startswith("Not rewound") for t in live)


# --- escalations follow the transcript ----------------------------------------------------------


async def test_escalation_records_follow_the_rewound_transcript(stateless: Scene) -> None:
    """Rule 5: a card rewound away is retracted; a reply rewound away reopens its record."""
    s, kit = stateless, stateless.kit
    kept = await kit.escalate(s.session, "Kept card?")
    await kit.delivered()
    await kit.say("yes")  # answers the one pending record
    assert await kit.states() == ["answered"]
    anchor = await s.post("anchor")
    dropped = await kit.escalate(s.session, "Dropped card?")
    outcome = await s.boundary("rewind", row=kept.row_id)
    assert outcome.committed, outcome
    states = {e.id: e.state.value for e in await kit.store.escalations("radar")}
    assert states == {kept.id: "pending", dropped.id: "retracted"}
    assert anchor in outcome.rewound


async def test_by_default_a_session_mid_turn_is_asked_all_the_same(scene: Scene) -> None:
    """boundary_mid_turn defaults to "ask": the session said it is mid-turn, and it is asked
    to let go (it may nack) rather than crewline refusing for it."""
    s = scene
    since = await s.kit.bot.boundaries.turn(s.session, started=True)
    assert since is not None
    asked = asyncio.create_task(s.boundary("rewind"))
    event = await s.kit.event(s.session, "context_boundary")
    await s.kit.bot.boundaries.answer(
        s.session, event.body["boundary_id"], ack=False, reason="mid-turn"
    )
    outcome = await asked
    assert not outcome.committed
    assert _code(outcome) == "boundary_refused"


# --- §5 regenerate: the button on the member's last turn ---------------------------------------
# Drawn and pressed on every platform: tests/e2e/test_boundaries_regenerate.py's journey.

REGENERATE = "Regenerate"


def _shown(kit: Kit, text: str) -> MemoryMessage:
    found = [m for m in kit.shown() if text in m.current.text]
    assert len(found) == 1, found
    return found[0]


def _has_regenerate(kit: Kit, text: str) -> bool:
    return REGENERATE in labels(_shown(kit, text))


async def test_the_regenerate_button_goes_when_the_turn_ends_and_a_stale_press_is_refused(
    stateless: Scene,
) -> None:
    """The owner writes h3: m3 loses the button; its old payload is refused, nothing done."""
    s, kit = stateless, stateless.kit
    await kit.delivered()
    m3 = _shown(kit, "m3")
    payload = m3.current.buttons[labels(m3).index(REGENERATE)].payload
    receipt = await kit.say("h3")
    assert receipt.accepted, receipt
    await kit.delivered()
    await kit.wait_until(lambda: not _has_regenerate(kit, "m3"))
    notice = (await kit.press_payload(payload)).notice
    assert notice is not None and "no longer Radar's last turn" in notice, notice
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3", "h3"]
    assert not [e for e in await s.read() if e.kind == "context_boundary"]


async def test_the_member_writing_again_moves_the_regenerate_button_to_its_new_message(
    stateless: Scene,
) -> None:
    """m4 after m3: the button leaves m3 for m4."""
    s, kit = stateless, stateless.kit
    await kit.delivered()
    assert _has_regenerate(kit, "m3")
    assert not _has_regenerate(kit, "m2")  # h2 came after it
    await s.post("m4")
    await kit.delivered()
    await kit.wait_until(lambda: not _has_regenerate(kit, "m3"))
    assert _has_regenerate(kit, "m4")


async def test_someone_elses_regenerate_press_is_refused_and_changes_nothing(
    stateless: Scene,
) -> None:
    """A press by a person who does not own the member: refused privately and audited."""
    s, kit = stateless, stateless.kit
    await kit.delivered()
    m3 = _shown(kit, "m3")
    assert _has_regenerate(kit, "m3")
    notice = (await kit.press(m3, REGENERATE, user=STRANGER)).notice
    assert notice is not None and "owner" in notice, notice
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]
    audit = await kit.store.sel(action_prefix="click:")
    assert [r.action for r in audit] == ["click:not_owner"]
