"""A new card handed to its post (``bot/written.py``) is drawn from only while no change
touched it since the transaction that wrote it took its tick: whichever of the touch and
the hand-over's keeping comes first, and however many touches were forgotten meanwhile."""

from __future__ import annotations

from datetime import UTC, datetime

from crewline.bot.written import Written, WrittenCards
from crewline.models import Escalation, Member, Suggestion

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
CARD = Written(
    member=Member(slug="radar", name="Radar", owner=0, transports=("memory",)),
    escalation=Escalation(
        id="e1", member="radar", row_id="r1", session="s1", message="Ship?", created_at=NOW
    ),
)


def test_a_hand_over_is_taken_once() -> None:
    written = WrittenCards()
    written.keep("row:r1", written.tick(), CARD)
    assert written.take("row:r1") == CARD
    assert written.take("row:r1") is None


def test_a_touch_after_the_tick_stales_the_hand_over_whenever_it_is_kept() -> None:
    written = WrittenCards()
    tick = written.tick()
    written.touch("row:r1")  # a change in the same batch, before the writer's after-commit
    written.keep("row:r1", tick, CARD)
    assert written.take("row:r1") is None
    later = WrittenCards()
    later.keep("row:r1", later.tick(), CARD)
    assert later.touch("row:r1")[1] == CARD  # good until this touch
    assert later.take("row:r1") is None


def test_a_touch_before_the_tick_leaves_it_good() -> None:
    written = WrittenCards()
    written.touch("row:r1")
    written.keep("row:r1", written.tick(), CARD)
    assert written.take("row:r1") == CARD


def test_a_touch_hands_the_card_over_again_until_the_next_touch() -> None:
    written = WrittenCards()
    written.keep("row:r1", written.tick(), CARD)
    tick, good = written.touch("row:r1")
    assert good == CARD
    suggestion = Suggestion(
        record_id="e1", member="radar", text="yes", why="green", brain="offline", at=NOW
    )
    amended = Written(member=CARD.member, escalation=CARD.escalation, suggestion=suggestion)
    written.keep("row:r1", tick, amended)
    assert written.take("row:r1") == amended
    written.keep("row:r1", tick, amended)
    written.touch("row:r1")
    assert written.take("row:r1") is None


def test_forgotten_touches_stale_every_hand_over_older_than_them() -> None:
    written = WrittenCards(kept=2)
    tick = written.tick()
    for n in range(3):  # the first touch is forgotten: it may have been r1's
        written.touch(f"row:other{n}")
    written.keep("row:r1", tick, CARD)
    assert written.take("row:r1") is None
    written.keep("row:r1", written.tick(), CARD)  # taken after them: good
    assert written.take("row:r1") == CARD


def test_only_the_newest_hand_overs_are_kept() -> None:
    written = WrittenCards(kept=2)
    for n in range(3):
        written.keep(f"row:r{n}", written.tick(), CARD)
    assert written.take("row:r0") is None
    assert written.take("row:r1") == CARD
    assert written.take("row:r2") == CARD
