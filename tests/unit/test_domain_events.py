"""Domain events: published after the commit, off the member's actor, failures contained."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from crewline import crew as crew_admin
from crewline.app.assembly import Bot
from crewline.bot.changes import Change
from crewline.bot.domain import (
    DomainEvent,
    EscalationRecorded,
    EscalationSettled,
    QuestionRaised,
    QuestionSettled,
)
from crewline.bot.escalations import EscalationRequest
from crewline.models import Session
from crewline.store.sqlite import SqliteStore
from crewline.testing import FakeClock
from tests.bounds import WAIT


@pytest.fixture
async def hub_and_session(tmp_path: Path) -> AsyncIterator[tuple[Bot, Session]]:
    async with SqliteStore.in_directory(tmp_path) as store:
        created = await crew_admin.add_member(
            store, slug="radar", name="Radar", owners=["memory:alice"], transports=["memory"]
        )
        async with Bot(store, clock=FakeClock(), transports=["memory"]) as bot:
            yield bot, created.session


async def test_subscribers_get_the_events_of_a_committed_change_in_order(
    hub_and_session: tuple[Bot, Session],
) -> None:
    """An escalation publishes EscalationRecorded, its answer EscalationSettled, in order."""
    bot, session = hub_and_session
    hub = bot.hub
    seen: list[DomainEvent] = []

    async def collect(event: DomainEvent) -> None:
        seen.append(event)

    hub.subscribe(collect)
    receipt = await bot.escalations.escalate(session, EscalationRequest(message="Ship?"))
    question = await bot.questions.ask(session, "Which port?", ["8080", "4321"])
    member = await hub.member("radar")
    await bot.questions.answer(member, question.id, "4321")
    await hub.domain.drain()
    assert [type(e) for e in seen] == [
        EscalationRecorded,
        QuestionRaised,
        QuestionSettled,
    ]
    first = seen[0]
    assert isinstance(first, EscalationRecorded)
    assert first.escalation.id == receipt.escalation.id


async def test_a_rolled_back_change_publishes_nothing(hub_and_session: tuple[Bot, Session]) -> None:
    """A transaction that raises after naming an event publishes it to no one."""
    bot, session = hub_and_session
    hub = bot.hub
    seen: list[DomainEvent] = []

    async def collect(event: DomainEvent) -> None:
        seen.append(event)

    hub.subscribe(collect)
    receipt = await bot.escalations.escalate(session, EscalationRequest(message="Ship?"))
    await hub.domain.drain()
    assert len(seen) == 1

    def fail(ch: Change) -> None:
        ch.publish(EscalationSettled(escalation=receipt.escalation))
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        await hub.change(fail)
    await hub.domain.drain()
    assert len(seen) == 1


async def test_a_failing_subscriber_breaks_neither_the_change_nor_the_others(
    hub_and_session: tuple[Bot, Session],
) -> None:
    """A subscriber that raises is logged; the escalation stands and later ones still run."""
    bot, session = hub_and_session
    hub = bot.hub
    seen: list[DomainEvent] = []

    async def broken(event: DomainEvent) -> None:
        raise ValueError("boom")

    async def collect(event: DomainEvent) -> None:
        seen.append(event)

    hub.subscribe(broken)
    hub.subscribe(collect)
    receipt = await bot.escalations.escalate(session, EscalationRequest(message="Ship?"))
    await hub.domain.drain()
    assert await hub.store.escalation(receipt.escalation.id) is not None
    assert len(seen) == 1


async def test_a_slow_subscriber_does_not_hold_the_members_actor(
    hub_and_session: tuple[Bot, Session],
) -> None:
    """While a subscriber is still working, the member's next change commits."""
    bot, session = hub_and_session
    hub = bot.hub
    release = asyncio.Event()
    entered = asyncio.Event()

    async def slow(event: DomainEvent) -> None:
        entered.set()
        await release.wait()

    hub.subscribe(slow)
    await bot.escalations.escalate(session, EscalationRequest(message="First?"))
    async with asyncio.timeout(WAIT):
        await entered.wait()
        second = await bot.escalations.escalate(session, EscalationRequest(message="Second?"))
    assert second.escalation.message == "Second?"
    release.set()
    await hub.domain.drain()
