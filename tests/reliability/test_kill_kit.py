"""The kill test's own reading of the platforms (``kill_kit.Platform``): what counts as a card,
what one look costs, and when a wait for a card ends."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

from crewline.bot.cards import ambiguity_notice
from crewline.models import Escalation
from crewline.testing import FakeClock
from tests.reliability.kill_kit import Card, Platform


def _platform(
    texts: list[str], reads: list[int], buttons: dict[str, Card] | None = None
) -> Platform:
    """A platform showing ``texts``; the cards in ``buttons`` show their buttons. Its wait
    looks once: nothing else will change, so what does not hold now never will."""

    def read() -> Iterable[tuple[Any, str]]:
        reads.append(1)
        return list(enumerate(texts))

    async def never(*_: Any) -> Any:
        raise AssertionError("not used")

    async def look(predicate: Callable[[], bool], timeout: float) -> None:
        if not predicate():
            raise TimeoutError

    return Platform(
        name="test",
        env={},
        owner="test:owner",
        texts=read,
        card=lambda tag: (buttons or {}).get(tag),
        press=never,
        reply=never,
        wait=look,
        serving=never,
    )


def test_a_notice_listing_open_records_is_no_card_of_theirs() -> None:
    """crewline's own notice (a typed reply that could answer two records) repeats their
    words; counted as cards, it made a card look posted twice."""
    now = FakeClock().now()
    pending = [
        Escalation(
            id=f"e{n}",
            member="m",
            row_id=f"r{n}",
            session="s",
            message=f"decide k0000{n}x",
            options=(f"go-k0000{n}x", f"stop-k0000{n}x"),
            created_at=now,
        )
        for n in (1, 2)
    ]
    notice = ambiguity_notice(pending)
    assert "decide k00001x" in notice and "decide k00002x" in notice  # the precondition
    shown = _platform(["decide k00001x", "decide k00002x", notice], [])
    assert shown.cards() == {"k00001x": 1, "k00002x": 1}


def test_one_look_for_every_card_reads_the_messages_once() -> None:
    """A wait re-checks on every change the fake records, inside its loop: a look that read
    every message once per tag stalled the fake past crewline's call timeout."""
    reads: list[int] = []
    tags = [f"k{n:05d}x" for n in range(200)]
    shown = _platform([f"decide {t}" for t in tags], reads)
    assert shown.shows_all(tags)
    assert not shown.shows_all([*tags, "k99999x"])
    assert len(reads) == 2


async def test_a_window_that_closed_before_its_card_was_seen_open_ends_the_wait() -> None:
    """A 2-s window may close before its card is drawn or looked at, so its card only ever
    shows settled; a lane that waited for buttons alone waited out its 60 s (the ~70-s
    Discord-on-PostgreSQL case) and went on as if nothing were wrong."""
    shown = _platform(["decide k00001x (closed: proceed)"], [])
    assert shown.settled("k00001x")  # the precondition: up, and no buttons
    assert await shown.card_up("k00001x", 60, or_settled=True) is None


async def test_a_card_that_never_shows_its_buttons_fails_the_wait_by_name() -> None:
    """Without a window nothing closes the card: its wait fails loudly, naming it."""
    open_card = Card(ref=1, thread=2, payloads=("e:1:0", "e:1:1"))
    shown = _platform(["decide k00001x", "decide k00002x"], [], {"k00002x": open_card})
    assert await shown.card_up("k00002x", 60) == open_card
    with pytest.raises(AssertionError, match=r"card of k00001x showed no buttons .* \(settled\)"):
        await shown.card_up("k00001x", 60)
    with pytest.raises(AssertionError, match=r"card of k00003x .* \(shown 0 times\)"):
        await shown.card_up("k00003x", 60, or_settled=True)
