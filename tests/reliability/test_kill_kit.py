"""The kill test's own reading of the platforms (``kill_kit.Platform``): what counts as a card,
and what one look costs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from crewline.bot.cards import ambiguity_notice
from crewline.models import Escalation
from crewline.testing import FakeClock
from tests.reliability.kill_kit import Platform


def _platform(texts: list[str], reads: list[int]) -> Platform:
    def read() -> Iterable[tuple[Any, str]]:
        reads.append(1)
        return list(enumerate(texts))

    async def never(*_: Any) -> Any:
        raise AssertionError("not used")

    return Platform(
        name="test",
        env={},
        owner="test:owner",
        texts=read,
        card=lambda tag: None,
        press=never,
        reply=never,
        wait=never,
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
