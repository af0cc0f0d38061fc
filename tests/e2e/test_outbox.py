"""The outbox: persisted before sending, retried, ordered per thread, never sent twice."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime

import pytest

from crewline import crew as crew_admin
from crewline.app.assembly import Bot
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.errors import PermanentTransportError, RateLimited, TransientTransportError
from crewline.models import OutboundMessage
from crewline.store.open import open_store
from crewline.testing import FakeClock
from crewline.transports.base import DeliveryLimits, HumanEventSink
from crewline.transports.memory import MemoryTransport
from tests.bounds import WAIT
from tests.driver import Crew
from tests.e2e.raw_database import raw_query
from tests.harness import MemoryHarness


@pytest.fixture
async def memory_crew(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    """The memory platform paced as a platform is (its roster redrawn at most once a
    second): the failures set up here fall on the next call, which must be the row's post,
    not a roster redraw the crew watch queued meanwhile."""
    driver = Crew(config, clock, [MemoryHarness(limits=DeliveryLimits())])
    await driver.start()
    yield driver
    await driver.stop()


def _texts(crew: Crew, member: str) -> list[str]:
    return [m.text for m in crew.harness.messages(member)]


async def test_entries_written_before_a_crash_are_sent_once_in_order_after_it(
    config: Config,
    clock: FakeClock,
) -> None:
    """Rows committed while no dispatcher ran are delivered after the restart, in order."""
    async with open_store(config.database_url, config.data_dir) as store:
        keys = {}
        for slug in ("radar", "probe"):
            created = await crew_admin.add_member(
                store, slug=slug, name=slug.title(), owners=["memory:alice"], transports=["memory"]
            )
            keys[slug] = created.session
        async with Bot(store, clock=clock, transports=["memory"]) as bot:
            for n in range(3):
                for slug, session in keys.items():
                    await bot.messages.post(session, f"{slug} {n}")
        heads = {h.lane: h.op for h in await store.outbox_heads("memory")}
        assert heads == {"radar": "post", "probe": "post", "roster": "roster"}
    crew = Crew(config, clock, [MemoryHarness()])
    await crew.start()
    try:
        await crew.delivered()
        assert _texts(crew, "radar") == ["radar 0", "radar 1", "radar 2"]
        assert _texts(crew, "probe") == ["probe 0", "probe 1", "probe 2"]
        await crew.restart()
        await crew.delivered()
        assert len(_texts(crew, "radar")) == 3
    finally:
        await crew.stop()


async def test_a_rate_limited_call_is_retried_after_the_wait_and_keeps_order(
    memory_crew: Crew,
) -> None:
    """RateLimited holds the lane for retry_after; then every row arrives, in order, once."""
    key = await memory_crew.add_member()
    harness = memory_crew.harness
    assert isinstance(harness, MemoryHarness)
    harness.memory.fail_next(RateLimited("slow down", retry_after=0.2))
    for n in range(3):
        await memory_crew.call(key, "POST", "/api/session/messages", json={"text": f"r{n}"})
    await memory_crew.delivered()
    assert _texts(memory_crew, "radar") == ["r0", "r1", "r2"]
    assert memory_crew.crewline.outboxes["memory"].rate_limited == 1


async def test_transient_failures_are_retried_until_the_call_lands(memory_crew: Crew) -> None:
    """A platform outage loses nothing: the call is retried with back-off until it works."""
    key = await memory_crew.add_member()
    harness = memory_crew.harness
    assert isinstance(harness, MemoryHarness)
    harness.memory.fail_next(TransientTransportError("502 from the platform"), times=2)
    await memory_crew.call(key, "POST", "/api/session/messages", json={"text": "survives"})
    await memory_crew.delivered()
    assert _texts(memory_crew, "radar") == ["survives"]


async def test_a_permanent_failure_is_set_aside_and_does_not_block_the_thread(
    memory_crew: Crew,
) -> None:
    """A call that can never succeed goes to the dead letters; the next row still arrives."""
    key = await memory_crew.add_member()
    harness = memory_crew.harness
    assert isinstance(harness, MemoryHarness)
    await memory_crew.call(key, "POST", "/api/session/messages", json={"text": "first"})
    await memory_crew.delivered()
    harness.memory.fail_next(PermanentTransportError("channel_not_found"))
    await memory_crew.call(key, "POST", "/api/session/messages", json={"text": "lost"})
    await memory_crew.call(key, "POST", "/api/session/messages", json={"text": "next"})
    await memory_crew.delivered()
    assert _texts(memory_crew, "radar") == ["first", "next"]
    dead = await asyncio.to_thread(
        raw_query, memory_crew.config, "SELECT op, last_error FROM outbox_dead"
    )
    assert dead == [("post", "channel_not_found")]


class _WatchedStart(MemoryTransport):
    """A memory transport that notes, when it is started, whether its outbox already runs."""

    crewline: Crewline | None = None
    outbox_ran_before_start: bool | None = None

    async def start(self, sink: HumanEventSink) -> None:
        assert self.crewline is not None
        self.outbox_ran_before_start = self.name in self.crewline.outboxes
        await super().start(sink)


async def test_an_outbox_sends_only_once_its_transport_has_started(
    config: Config, clock: FakeClock
) -> None:
    """Entries queued while crewline was not serving wait for the transport's start: its
    dispatcher begins after it (before, its first call failed: "roster failed")."""
    async with open_store(config.database_url, config.data_dir) as store:
        await crew_admin.add_member(
            store, slug="radar", name="Radar", owners=["memory:alice"], transports=["memory"]
        )
        heads = {h.lane: h.op for h in await store.outbox_heads("memory")}
    assert heads == {"roster": "roster"}  # queued with no crewline serving
    transport = _WatchedStart("memory")
    crewline = Crewline(config, transports=[transport], clock=clock, outbox_poll_interval=0.2)
    transport.crewline = crewline
    async with crewline:
        assert transport.outbox_ran_before_start is False
        await crewline.outboxes["memory"].wait_idle()
        assert [e.slug for e in transport.rosters[-1]] == ["radar"]
        assert "roster" in transport.calls


class _HeldFirstPost(MemoryTransport):
    """The first post waits for ``release``; every redraw's message ref is noted."""

    def __init__(self) -> None:
        super().__init__("memory")
        self.release = asyncio.Event()
        self.holding = asyncio.Event()
        self.updated: list[str] = []

    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        if not self.holding.is_set():
            self.holding.set()
            await self.release.wait()
        return await super().post(thread, message, key=key, retry=retry, since=since)

    async def update(self, thread: str, message_ref: str, message: OutboundMessage) -> None:
        self.updated.append(message_ref)
        await super().update(thread, message_ref, message)


async def _lane(config: Config, lane: str) -> list[tuple[str, str]]:
    """The lane's entries in the outbox as (op, object key), head first."""
    assert lane.isalnum()  # spelled into the query below
    rows = await asyncio.to_thread(
        raw_query,
        config,
        f"SELECT op, object_key FROM outbox WHERE lane = '{lane}' ORDER BY id",
    )
    return [(str(op), str(key)) for op, key in rows]


async def _held_crew(config: Config, clock: FakeClock) -> tuple[Crew, _HeldFirstPost]:
    harness = MemoryHarness()
    held = _HeldFirstPost()
    harness._transport = held
    # The poll and the crew watch far off: a card's lane is started by what the test does
    # (the concierge holds a new card's lane until its judgement is written), not by the
    # clock. Either wakes every lane: the watch, once it saw ``add_member``'s write, at its
    # next tick, which under load fell between a card's escalation and its judgement.
    crew = Crew(config, clock, [harness], outbox_poll_interval=3600, crew_watch_interval=3600)
    await crew.start()
    return crew, held


def _card(held: _HeldFirstPost, words: str) -> list[OutboundMessage]:
    """Every version of the one card drawn with ``words``."""
    (card,) = [m for m in held.messages.values() if words in m.versions[0].text]
    return card.versions


async def test_a_post_covers_the_redraws_of_its_card_queued_before_it(
    config: Config, clock: FakeClock
) -> None:
    """A card whose suggestion landed while its post was its lane's head, not yet drawn,
    is posted with the suggestion; the redraw queued for it is settled by the post, not
    sent again."""
    crew, held = await _held_crew(config, clock)
    try:
        key = await crew.add_member()
        await crew.escalate(key, message="Force-push to main?")
        async with asyncio.timeout(WAIT):
            await held.holding.wait()  # judged, then its post begun and held
        (card,) = (await crew.conversation())["escalations"]
        # The judgement found the post at its lane's head, where a dispatcher may have
        # begun drawing it: so it queued a redraw, which waits behind the post.
        assert await _lane(config, "radar") == [
            ("post", f"row:{card['row_id']}"),
            ("update", f"row:{card['row_id']}"),
        ]
        held.release.set()
        await crew.delivered()
        (drawn,) = _card(held, "Force-push")
        assert "needs you:" in drawn.text
        assert held.updated == []
        assert await _lane(config, "radar") == []
    finally:
        held.release.set()
        await crew.stop()


async def test_a_card_judged_behind_another_entry_of_its_lane_queues_no_redraw(
    config: Config, clock: FakeClock
) -> None:
    """A card judged while its post waits behind another entry of its lane (the thread's
    previous card, its post in flight) queues no redraw on SQLite: no dispatcher can have
    begun its post, which draws the suggestion itself. PostgreSQL promises nothing of the
    kind (another connection may settle the entry ahead and draw the post meanwhile), so
    it queues the redraw, which the post then settles."""
    crew, held = await _held_crew(config, clock)
    try:
        key = await crew.add_member()
        await crew.escalate(key, message="Ship v2 tonight?", options=["yes", "no"])
        async with asyncio.timeout(WAIT):
            await held.holding.wait()  # the first card's post is in flight, held
        # Its judgement's release wakes the lane after the commit that let the post begin:
        # under load that wake can come after the post is held. Let it pass before counting.
        await crew.crewline.bot.concierge.idle()
        woken: list[set[str]] = []
        crew.crewline.hub.on_outbox(lambda transport, lanes: woken.append(set(lanes)))
        await crew.escalate(key, message="Force-push to main?")
        await crew.crewline.bot.concierge.idle()
        # The roster's redraws (the new member's, whenever the crew watch looks) are beside
        # the point: the lanes of the escalation and of its judgement are.
        woken = [lanes for lanes in woken if lanes != {"roster"}]
        # The escalation's commit left the card's lane to the judgement (it holds the card),
        # whose commit woke it, with or without a redraw queued there.
        assert "bell:radar" in woken[0] and "radar" not in woken[0], woken
        assert any("radar" in lanes for lanes in woken[1:]), woken
        first, second = (await crew.conversation())["escalations"]
        lane = await _lane(config, "radar")
        assert lane.index(("post", f"row:{first['row_id']}")) == 0
        assert ("post", f"row:{second['row_id']}") in lane  # judged while still queued
        redraws = [key for op, key in lane if op == "update" and key == f"row:{second['row_id']}"]
        assert redraws == ([] if config.database_url is None else [f"row:{second['row_id']}"])
        held.release.set()
        await crew.delivered()
        (drawn,) = _card(held, "Force-push")
        assert "needs you:" in drawn.text
        assert held.updated == []
    finally:
        held.release.set()
        await crew.stop()


async def test_a_suggestion_that_lands_while_its_card_is_drawn_is_redrawn(
    config: Config, clock: FakeClock
) -> None:
    """A suggestion that lands while its card's post is being drawn (its lane's head, in
    flight) is redrawn once the post is made: the post drew the card without it."""
    crew, held = await _held_crew(config, clock)
    try:
        key = await crew.add_member()
        await crew.escalate(key, message="Force-push to main?")
        async with asyncio.timeout(WAIT):
            await held.holding.wait()  # drawn with the built-in suggestion, its post held
        (card,) = (await crew.conversation())["escalations"]
        concierge = await crew.add_session("concierge")
        response = await crew.call(
            concierge,
            "POST",
            "/api/concierge/suggest",
            json={"record_id": card["escalation_id"], "text": "no", "why": "main is protected"},
        )
        assert response.status_code == 200, response.text
        assert ("update", f"row:{card['row_id']}") in await _lane(config, "radar")
        held.release.set()
        await crew.delivered()
        versions = _card(held, "Force-push")
        assert "needs you:" in versions[0].text  # the built-in brain's: no pick, only why
        assert "main is protected" not in versions[0].text
        assert "concierge suggests: no — main is protected" in versions[-1].text
        assert len(held.updated) == 1
    finally:
        held.release.set()
        await crew.stop()


class _Looks(MemoryTransport):
    """Records, per post, whether the outbox asked it to look for an earlier attempt."""

    def __init__(self) -> None:
        super().__init__("memory")
        self.looks: list[tuple[str, bool, datetime | None]] = []

    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        self.looks.append((thread, retry, since))
        return await super().post(thread, message, key=key, retry=retry, since=since)


async def test_after_a_restart_only_each_lanes_head_looks_before_posting(
    config: Config, clock: FakeClock
) -> None:
    """An earlier process sent a lane one entry at a time, each once the one before was
    recorded: only a lane's head can have been sent unrecorded. So only its post looks for
    an earlier attempt (no further back than when it was queued); the entries behind it
    post at once instead of each costing the platform a search."""
    async with open_store(config.database_url, config.data_dir) as store:
        created = await crew_admin.add_member(
            store, slug="radar", name="Radar", owners=["memory:alice"], transports=["memory"]
        )
        async with Bot(store, clock=clock, transports=["memory"]) as bot:
            for n in range(3):
                await bot.messages.post(created.session, f"radar {n}")
        heads = {h.lane: h.op for h in await store.outbox_heads("memory")}
        assert heads["radar"] == "post", "precondition: three posts inherited in one lane"
    harness = MemoryHarness()
    looks = _Looks()
    harness._transport = looks
    crew = Crew(config, clock, [harness])
    await crew.start()
    try:
        await crew.delivered()
        assert _texts(crew, "radar") == ["radar 0", "radar 1", "radar 2"]
        (head, *behind) = looks.looks
        assert head[1] is True and head[2] is not None
        assert abs((head[2] - clock.now()).total_seconds()) < 0.001
        assert [(retry, since) for _, retry, since in behind] == [(False, None), (False, None)]
    finally:
        await crew.stop()
