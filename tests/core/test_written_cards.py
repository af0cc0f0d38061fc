"""A new escalation's card is posted as the change that raised it wrote it, handed over
after its commit instead of read back (``bot/written.py``): drawn the same as a read would
draw it, and never when a change since could have changed it. The post of a card waits
behind the member's first card (its lane's head read held) while a change redraws it; the
redraw's entry is left out then (``Tx.posts_not_begun``), so only the hand-over's touch
keeps the post from drawing the card as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

from crewline.bot import cards
from crewline.bot.changes import Change
from crewline.bot.render import CoreRenderer
from crewline.models import Escalation, Member, OutboundMessage, Session, Suggestion
from crewline.store import CardRead
from tests.bounds import WAIT
from tests.core.kit import HeldStore, Kit, running


class CountingStore(HeldStore):
    """A held store that counts its card read-backs."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.card_reads = 0

    async def card_read(self, row_id: str) -> CardRead | None:
        self.card_reads += 1
        return await super().card_read(row_id)


def _store(kit: Kit) -> CountingStore:
    assert isinstance(kit.store, CountingStore)
    return kit.store


async def _as_read(kit: Kit, record: Escalation) -> OutboundMessage:
    """The card as a read of the store draws it now."""
    drawn = await CoreRenderer(kit.store, kit.clock).message(f"row:{record.row_id}")
    assert drawn is not None
    return drawn[1]


def _posted(kit: Kit, record: Escalation) -> list[OutboundMessage]:
    """Every version of the record's card the platform was sent, its post first."""
    return next(m.versions for m in kit.shown() if m.key == f"row:{record.row_id}")


async def test_a_handed_over_card_is_drawn_as_a_read_draws_it(tmp_path: Path) -> None:
    async with running(tmp_path, store_type=CountingStore) as kit:
        radar = await kit.add_member()
        raised = [
            await kit.escalate(radar, "Ship it?"),
            await kit.escalate(radar, "Rotate keys?", deadline="PT5M", default_action="rotate"),
            await kit.escalate(radar, "Which region?", options=["eu", "us"], goal="launch"),
        ]
        await kit.delivered()
        # The first card waited at its lane's head for its judgement, whose redraw was
        # queued there: that post read its card. The others were judged while they waited
        # behind it, and drew the hand-over each judgement renewed with its suggestion.
        assert _store(kit).card_reads == 1
        for record in raised:
            assert _posted(kit, record) == [await _as_read(kit, record)]


async def _second_card_waiting(kit: Kit) -> tuple[Session, Member, Escalation]:
    """Radar's second card queued behind its first, whose post is held at its head read."""
    store = _store(kit)
    radar = await kit.add_member()
    store.heads.clear()
    store.lane = "radar"
    await kit.escalate(radar, "First?")
    async with asyncio.timeout(WAIT):
        await store.head_read.wait()
    second = await kit.escalate(radar, "Second?", options=["yes", "no"])
    # Both judged and written (the second's redraw left out, its post waiting): a judgement
    # still in flight when the lane moves on would queue a redraw the post then reads.
    await kit.bot.concierge.idle()
    member = await kit.store.member("radar")
    assert member is not None
    return radar, member, second


def _suggestion(record: Escalation, kit: Kit) -> Suggestion:
    return Suggestion(
        record_id=record.id,
        member=record.member,
        text="yes",
        why="CI is green",
        brain="offline",
        at=kit.clock.now(),
    )


async def _redrawn_before_its_post(kit: Kit, *, handed_again: bool) -> Escalation:
    _, member, second = await _second_card_waiting(kit)
    key = f"row:{second.row_id}"
    suggestion = _suggestion(second, kit)

    def suggest(ch: Change) -> None:
        ch.tx.put_suggestion(suggestion)
        ch.redraw([(member, key)], suggestions={key: suggestion} if handed_again else None)

    await kit.bot.hub.change(suggest)
    # The precondition: the redraw left out its entry, the post waiting to draw it.
    assert await kit.store.outbox_object_ids("memory", "radar", "update", key) == []
    _store(kit).heads.set()
    await kit.delivered()
    return second


async def test_a_card_redrawn_before_its_post_is_drawn_as_changed(tmp_path: Path) -> None:
    async with running(tmp_path, store_type=CountingStore) as kit:
        second = await _redrawn_before_its_post(kit, handed_again=False)
        reads = _store(kit).card_reads
        posted = _posted(kit, second)
        assert posted[0] != cards.escalation_card(second, "Radar")  # unchanged, it would be
        assert posted == [await _as_read(kit, second)], "the card was posted as first written"
        assert reads == 2  # the first card (see above) and the touched one, read back


async def test_a_suggestion_hands_the_card_over_again(tmp_path: Path) -> None:
    async with running(tmp_path, store_type=CountingStore) as kit:
        second = await _redrawn_before_its_post(kit, handed_again=True)
        reads = _store(kit).card_reads
        posted = _posted(kit, second)
        assert posted[0] != cards.escalation_card(second, "Radar")
        assert posted == [await _as_read(kit, second)]
        assert reads == 1  # the first card only


async def test_a_card_settled_before_its_post_is_posted_settled(tmp_path: Path) -> None:
    async with running(tmp_path, store_type=CountingStore) as kit:
        radar, _, second = await _second_card_waiting(kit)
        await kit.bot.escalations.retract(radar, second.id)
        _store(kit).heads.set()
        await kit.delivered()
        posted = _posted(kit, second)
        assert posted[0] == await _as_read(kit, second)
        assert not posted[0].buttons, "the retracted card was posted with its buttons"
