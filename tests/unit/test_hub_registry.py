"""The Hub routes to what features registered, and names none of them: a bare Hub, with
one toy handler registered in a test, on a SQLite store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from crewline import crew as crew_admin
from crewline.bot import Hub
from crewline.bot.cards import ButtonPress
from crewline.bot.changes import Change
from crewline.bot.domain import DomainEvent, ReplyReached
from crewline.bot.ports import Pressed, PressHandler, Refusal, Refused
from crewline.models import HumanClick, Member, Receipt
from crewline.store.sqlite import SqliteStore
from crewline.testing import FakeClock

OWNER = "alice"
RECORD = "0123456789abcdef"


@dataclass(kw_only=True)
class ToyPresses(PressHandler):
    """Presses of kind ``e``, on radar, answered with the choice they carry."""

    member: Member
    kind: str = "e"
    checked: list[ButtonPress] = field(default_factory=list)
    written: list[int] = field(default_factory=list)

    async def check(
        self, event: HumanClick, press: ButtonPress, in_thread: Member | None
    ) -> Pressed:
        self.checked.append(press)
        if press.record_id != RECORD:
            raise Refused(Refusal(code="unknown_toy", notice="Not a toy."))
        return Pressed(member=self.member, stranger="Only radar's owner.")

    def write(self, ch: Change, event: HumanClick, press: ButtonPress, pressed: Pressed) -> Receipt:
        self.written.append(press.choice)
        return Receipt(accepted=True, notice=f"chose {press.choice}")


@pytest.fixture
async def hub(tmp_path: Path) -> AsyncIterator[Hub]:
    async with SqliteStore.in_directory(tmp_path) as store:
        await crew_admin.add_member(
            store, slug="radar", name="Radar", owners=[f"memory:{OWNER}"], transports=["memory"]
        )
        async with Hub(store, clock=FakeClock(), transports=["memory"]) as hub:
            yield hub


def _press(payload: str, *, user: str = OWNER, event_id: str = "ev-1") -> HumanClick:
    return HumanClick(transport="memory", event_id=event_id, user_id=user, payload=payload)


async def test_a_press_reaches_the_handler_its_payload_names_once(hub: Hub) -> None:
    """The payload's kind finds the handler; its write runs in one change that marks the
    event, so a redelivery writes nothing and is told what the first delivery was."""
    toy = ToyPresses(member=await hub.member("radar"))
    hub.press(toy)
    first = await hub.receive(_press(f"e:{RECORD}:2"))
    again = await hub.receive(_press(f"e:{RECORD}:2"))
    assert (first.accepted, first.notice) == (True, "chose 2")
    assert toy.written == [2]  # the redelivery reached check, never write
    assert (again.notice, again.repeat) == ("chose 2", True)


async def test_a_press_whose_kind_has_no_handler_is_refused_as_malformed(hub: Hub) -> None:
    """A Hub names no feature: with no handler registered for ``q``, a question's button is
    not one of this crewline's, and the refusal is audited."""
    hub.press(ToyPresses(member=await hub.member("radar")))
    refused = await hub.receive(_press(f"q:{RECORD}:0"))
    assert (refused.accepted, refused.code) == (False, "malformed_payload")
    records = await hub.store.sel_after(0, limit=10, action="click")
    assert [r.action for r in records] == ["click:malformed_payload"]


async def test_a_stranger_and_an_unknown_record_are_refused_before_any_write(hub: Hub) -> None:
    """The handler's check refuses an unknown record; the Hub refuses a presser who does
    not own the member the check found, with the notice the handler gave."""
    toy = ToyPresses(member=await hub.member("radar"))
    hub.press(toy)
    unknown = await hub.receive(_press("e:fedcba9876543210:0"))
    stranger = await hub.receive(_press(f"e:{RECORD}:0", user="mallory", event_id="ev-2"))
    assert (unknown.code, stranger.code, stranger.notice) == (
        "unknown_toy",
        "not_owner",
        "Only radar's owner.",
    )
    assert len(toy.checked) == 2 and toy.written == []


async def test_one_kind_has_one_handler(hub: Hub) -> None:
    """Registering a second handler for a kind already taken is a mistake, said at once."""
    hub.press(ToyPresses(member=await hub.member("radar")))
    with pytest.raises(ValueError, match="already have a handler"):
        hub.press(ToyPresses(member=await hub.member("radar")))


async def test_a_reaction_runs_inside_the_change_that_publishes(hub: Hub) -> None:
    """A reaction runs as the event is published, in that change: what it writes commits
    with the change, and goes with it when the change rolls back."""
    seen: list[DomainEvent] = []

    def react(ch: Change, event: DomainEvent) -> None:
        seen.append(event)
        ch.tx.set_setting("toy.reacted", str(len(seen)))

    hub.react(react)
    event = ReplyReached(member="radar", row_id=RECORD)
    await hub.change(lambda ch: ch.publish(event))

    def rolled_back(ch: Change) -> None:
        ch.publish(event)
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        await hub.change(rolled_back)
    assert seen == [event, event]
    assert await hub.store.setting("toy.reacted") == "1"
