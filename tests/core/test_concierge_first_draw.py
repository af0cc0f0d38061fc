"""A card held for its judgement (docs/concierge.md) is held whatever wakes its lane: the
outbox's poll, or the look every lane gets after a crew change made from the command line,
leaves its post at the lane's head until the judgement is written — then the card is drawn
once, with its suggestion. A judgement that never comes holds it only until ``HOLD_BOUND``
has passed on the Hub's clock. The judgement is kept from being written by a brain that
drafts only when the test lets it (the offline brain's words, so the card is still held).

A release always draws the card: one that lands while the lane's drain is reading its head
finds that drain going on to the card."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from crewline.bot.concierge import ConciergeSettings
from crewline.bot.concierge.feature import HOLD_BOUND
from crewline.brains import BrainAsk, Draft, OfflineBrain
from crewline.policy.routine import Verdict
from crewline.store.sqlite import SqliteStore
from crewline.transports.memory import MemoryMessage
from tests.bounds import WAIT
from tests.core.kit import HeldStore, Kit, running

QUESTION = "Force-push to main?"
SUGGESTED = "needs you: irreversible: it force-pushes to main"


class HeldBrain(OfflineBrain):
    """The offline brain, drafting only once ``go`` is set: its judgement waits meanwhile."""

    def __init__(self) -> None:
        self.drafting = asyncio.Event()
        self.go = asyncio.Event()

    async def draft(self, ask: BrainAsk, verdict: Verdict) -> Draft | None:
        self.drafting.set()
        await self.go.wait()
        return await super().draft(ask, verdict)


def _card(kit: Kit, question: str = QUESTION) -> MemoryMessage | None:
    found = [m for m in kit.shown() if question in m.versions[0].text]
    assert len(found) <= 1, [m.versions[0].text for m in kit.shown()]
    return found[0] if found else None


@asynccontextmanager
async def _drafting(
    tmp_path: Path, *, store_type: type[SqliteStore] = SqliteStore
) -> AsyncIterator[tuple[Kit, HeldBrain]]:
    """A Hub whose brain is held, where a member escalated the question: entered once the
    question's judgement is being drafted."""
    brain = HeldBrain()
    async with running(
        tmp_path, concierge=ConciergeSettings(brain=brain), store_type=store_type
    ) as kit:
        radar = await kit.add_member()
        await kit.escalate(radar, QUESTION, options=["yes", "no"])
        async with asyncio.timeout(WAIT):
            await brain.drafting.wait()
        yield kit, brain


async def _looked_at_every_lane(kit: Kit) -> None:
    """What the outbox's poll and a crew change's look do: start every lane with entries;
    returns once the card's lane stopped at its held post, or drew the card."""
    stopped = kit.outbox.held_back
    kit.outbox.wake()
    async with asyncio.timeout(WAIT):
        while kit.outbox.held_back == stopped and _card(kit) is None:  # noqa: ASYNC110 - counters signal nothing
            await asyncio.sleep(0.01)


async def test_a_look_at_every_lane_leaves_a_held_card_for_its_judgement(
    tmp_path: Path,
) -> None:
    async with _drafting(tmp_path) as (kit, brain):
        await _looked_at_every_lane(kit)
        assert _card(kit) is None  # held: not drawn bare
        brain.go.set()
        await kit.delivered()
        card = _card(kit)
        assert card is not None
        assert [SUGGESTED in v.text for v in card.versions] == [True]


async def test_a_judgement_that_never_comes_holds_its_card_only_until_the_bound(
    tmp_path: Path,
) -> None:
    async with _drafting(tmp_path) as (kit, brain):
        kit.clock.advance(HOLD_BOUND / 2)
        await _looked_at_every_lane(kit)
        assert _card(kit) is None  # within the bound: still held
        kit.clock.advance(HOLD_BOUND / 2)
        await _looked_at_every_lane(kit)
        await kit.memory.wait_until(lambda: _card(kit) is not None, timeout=WAIT)
        card = _card(kit)
        assert card is not None and SUGGESTED not in card.versions[0].text  # drawn as it stands
        brain.go.set()
        await kit.delivered()
        assert [SUGGESTED in v.text for v in card.versions] == [False, True]


async def test_a_release_while_the_lane_reads_its_head_draws_the_card(tmp_path: Path) -> None:
    """The judgement is released (and the lane woken) while the lane's drain is reading
    the held post at its head: that drain goes on to draw the card, with its suggestion."""
    async with _drafting(tmp_path, store_type=HeldStore) as (kit, brain):
        store = kit.store
        assert isinstance(store, HeldStore)
        store.lane = "radar"
        kit.outbox.wake()  # a look at every lane: the card's reads its head, and waits
        async with asyncio.timeout(WAIT):
            await store.head_read.wait()
            brain.go.set()
            await kit.bot.concierge.idle()  # written and released while the read waits
        assert _card(kit) is None
        store.heads.set()
        await kit.delivered()
        card = _card(kit)
        assert card is not None
        assert [SUGGESTED in v.text for v in card.versions] == [True]
