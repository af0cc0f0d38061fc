"""The long poll's read of a session's events, in-process: a poll waiting alone is handed
its events by the change that adds them (read and remembered as delivered in that change's
transaction), and any other read takes its own."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from crewline.bot.changes import Change
from crewline.models import Event, Session
from tests.bounds import WAIT
from tests.core.kit import Kit


async def _parked(kit: Kit, session: Session, readers: int = 1) -> None:
    """Until ``readers`` long polls of the session wait (bounded), their first reads done."""
    feed = kit.bot.hub.feed
    async with asyncio.timeout(WAIT):
        while feed.parked(session.id) < readers:  # noqa: ASYNC110 - no hook; yields only
            await asyncio.sleep(0)
    # The polls' reads went to the reader connection before they yielded: one more read
    # there returns after theirs (it answers in order), so they found nothing.
    assert await kit.store.events_after(session.id, 0) == []


def _note(session: Session) -> Callable[[Change], None]:
    def write(ch: Change) -> None:
        ch.event(session.id, "message", {"text": "ping"})

    return write


async def _unread(kit: Kit, session: Session) -> list[Event]:
    return await kit.store.write(lambda tx: tx.unread_events([session.id]))


async def test_a_lone_waiting_read_is_answered_by_the_change_that_adds_its_event(
    kit: Kit,
) -> None:
    """One commit: the change's. The poll needs no transaction of its own, and the event
    counts as delivered."""
    session = await kit.add_member()
    await kit.delivered()  # nothing else writing
    reading = asyncio.create_task(kit.bot.messages.events(session, after=0, wait=WAIT))
    await _parked(kit, session)
    before = kit.store.batches_committed
    await kit.bot.hub.change(_note(session))
    events = await reading
    assert [(e.kind, e.body["text"]) for e in events] == [("message", "ping")]
    assert kit.store.batches_committed == before + 1
    assert await _unread(kit, session) == []


async def test_two_waiting_reads_of_one_session_each_read_the_event(kit: Kit) -> None:
    """Two polls of one session: neither is handed the event, each takes it itself."""
    session = await kit.add_member()
    await kit.delivered()
    first = asyncio.create_task(kit.bot.messages.events(session, after=0, wait=WAIT))
    second = asyncio.create_task(kit.bot.messages.events(session, after=0, wait=WAIT))
    await _parked(kit, session, readers=2)
    assert kit.bot.hub.feed.taker(session.id) is None
    await kit.bot.hub.change(_note(session))
    for reading in (first, second):
        assert [e.kind for e in await reading] == ["message"]
    assert await _unread(kit, session) == []


async def test_a_poll_that_stopped_waiting_leaves_its_events_to_the_next_read(kit: Kit) -> None:
    """A poll that ended before the change parks nothing: the next read finds the event."""
    session = await kit.add_member()
    await kit.delivered()
    assert await kit.bot.messages.events(session, after=0, wait=0.01) == []
    assert kit.bot.hub.feed.taker(session.id) is None
    await kit.bot.hub.change(_note(session))
    assert [e.kind for e in await _unread(kit, session)] == ["message"]
    events = await kit.bot.messages.events(session, after=0, wait=WAIT)
    assert [e.kind for e in events] == ["message"]
    assert await _unread(kit, session) == []
