"""The kill test's own reading of the platforms (``kill_kit.Platform``): what counts as a card,
what one look costs, when a wait for a card ends, and when a receipt is read."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.bot.cards import ambiguity_notice
from crewline.models import Escalation
from crewline.store.open import open_store
from crewline.testing import FakeClock
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.fakes.telegram import FakeTelegram
from tests.reliability.kill_kit import Card, Platform, platform, receipts_first
from tests.serving import crewline_serve


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


@pytest.mark.slow
async def test_a_receipt_is_read_before_the_answers_it_is_checked_against(
    tmp_path: Path,
) -> None:
    """Telegram's receipt for a press (its update confirmed by crewline's next getUpdates)
    comes after the press returned. The kill test read the receipts after the answer events,
    so a press confirmed while the events were read looked like a receipt with no answer
    (seed 550384870, telegram-polling, on a loaded machine: "k00041x got a receipt and 0
    answers"). Here crewline's getUpdates is held at the fake while the owner presses, so
    the events are read before crewline has the press: ``receipts_first`` keeps the
    receipt that came only after that read out of the check, and for an act that is due
    (a live crewline's) waits until crewline has answered it."""
    async with platform("telegram-polling", tmp_path) as chosen:
        fake: FakeTelegram = chosen.extra["fake"]
        async with open_store(None, tmp_path) as store:
            made = await crew_admin.add_member(
                store, slug="lane", name="Lane", owners=[chosen.owner], transports=["telegram"]
            )
        env = {**os.environ, **chosen.env, "CREWLINE_DATA_DIR": str(tmp_path)}
        env["CREWLINE_LOG_LEVEL"] = "WARNING"
        async with (
            crewline_serve(env=env) as (_, url),
            httpx.AsyncClient(
                base_url=url, timeout=HTTP_TIMEOUT, headers={"Authorization": f"Bearer {made.key}"}
            ) as agent,
        ):

            async def answered() -> set[str]:
                got = await agent.get("/api/session/events")
                assert got.status_code == 200, got.text
                return {
                    e["body"]["escalation_id"]
                    for e in got.json()["events"]
                    if e["kind"] == "escalation_answered"
                }

            asked: dict[str, str] = {}
            for tag in ("k00001x", "k00002x"):
                said = await agent.post(
                    "/api/session-control/escalate",
                    json={"message": f"decide {tag}", "options": [f"go-{tag}", f"stop-{tag}"]},
                )
                assert said.status_code == 200, said.text
                asked[tag] = said.json()["escalation_id"]
            cards = [await chosen.card_up(tag, WAIT) for tag in asked]
            late, due = asked.values()

            # crewline's next poll is held: a press now reaches it only once that is let go.
            polls = len(fake.calls_to("getUpdates"))
            release = fake.hold_next("getUpdates")
            await fake.wait_for(lambda: len(fake.calls_to("getUpdates")) > polls, timeout=WAIT)
            first, second = cards
            assert first is not None and second is not None
            pressed = await chosen.press(first, 0)
            confirmed = pressed.received  # Telegram's own word, read again below
            await receipts_first(chosen, [pressed], [], WAIT)  # not due: kept as it is
            before = await answered()
            assert late not in before  # the precondition: read before crewline had it

            then = await chosen.press(second, 1)
            waiting = asyncio.ensure_future(receipts_first(chosen, [then], [then], WAIT))
            release.set()
            await waiting
            after = await answered()
            # The first press's receipt came after its events were read (the race itself).
            await chosen.wait(confirmed, WAIT)

    # What the kill test checks: a receipt read first has its answer in what is read after.
    assert not pressed.received() or late in before
    assert then.received() and due in after
