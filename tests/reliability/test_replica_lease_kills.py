"""Telegram's long polling and Discord's gateway under replica kills: three ``crewline
serve --replica-id`` processes on one PostgreSQL, each configured with both platforms, of
which one holds each platform's connection under its lease (``transport:<name>``).

Agents escalate through any replica's API (a cut-off request is retried elsewhere with the
same Idempotency-Key), a third of them with a 2-s veto window; the owner presses the card's
buttons or types an option as a reply on the platform's fake (:mod:`kill_kit`'s hands).
After every few steps a replica is SIGKILLed — the holder of a lease two times in three —
and started again at once. After the last kill:

- every acknowledged escalation has its card: exactly one on Discord (it reads back);
  on Telegram at least one, and a second only for a send in flight at a holder's death
  (Telegram cannot be asked whether it landed; at most one per member lane per kill);
- every press or reply the platform got a receipt for is answered exactly once, no record
  is answered or closed twice, and every window closes exactly once unless answered;
- the Telegram fake answered no getUpdates with 409 Conflict, ever — not even a dead
  holder's open poll meets its successor's, since a poll ends within the lease — and the
  Discord fake never saw an IDENTIFY while another session was connected;
- the takeover time after each holder kill (kill to the successor's first getUpdates or
  IDENTIFY) is logged with its p99, and written to ``artifacts/replica_lease_kills.jsonl``.

The seed is logged (``CREWLINE_RELIABILITY_SEED`` replays the choices, not the timing);
4 kills in CI, 20 with ``CREWLINE_RELIABILITY=full``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from crewline import crew as crew_admin
from crewline.replication.replicas import holder_tag
from crewline.store.postgres import PostgresStore
from crewline.store.postgres_coordination import PostgresCoordination
from tests.fakes.discord import FakeDiscord
from tests.fakes.telegram import FakeTelegram
from tests.reliability.kill_kit import TAG, Act, Platform, platform
from tests.reliability.test_replica_kills import Replica, _post

FULL = os.environ.get("CREWLINE_RELIABILITY") == "full"
KILLS = 20 if FULL else 4
SEED = int(os.environ.get("CREWLINE_RELIABILITY_SEED") or random.SystemRandom().randrange(2**32))
LANES = 2  # members per platform, each escalating and acting in turn
WAIT = 60.0  # the bound on any one wait
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
log = logging.getLogger(__name__)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(60 * (KILLS + 4))]


@dataclass(frozen=True, kw_only=True, slots=True)
class Asked:
    id: str
    member: str
    platform: str
    window: bool


@dataclass(kw_only=True)
class Ledger:
    asked: dict[str, Asked] = field(default_factory=dict)  # by tag
    acts: dict[str, Act] = field(default_factory=dict)  # by tag
    steps: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    tags: itertools.count[int] = field(default_factory=itertools.count)
    takeovers: dict[str, list[float]] = field(default_factory=dict)  # transport -> seconds
    holder_kills: Counter[str] = field(default_factory=Counter)


async def _lane(
    replicas: list[Replica],
    chosen: Platform,
    ledger: Ledger,
    key: str,
    member: str,
    rng: random.Random,
    *,
    acts: int | None = None,
) -> None:
    """Escalate through the replicas in turn, wait for the card, act on it; again."""
    for n in itertools.count():
        if acts is not None and acts <= 0:
            return
        tag = f"k{next(ledger.tags):05d}x"
        window = acts is None and rng.random() < 0.3
        body: dict[str, Any] = {"message": f"decide {tag}", "options": [f"go-{tag}", f"stop-{tag}"]}
        if window:
            body |= {"deadline": "PT2S"} | (
                {"default_action": "proceed"} if rng.random() < 0.5 else {}
            )
        headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": f"{SEED}-{tag}"}
        via = replicas[n % len(replicas) :] + replicas[: n % len(replicas)]
        result = await _post(via, "/api/session-control/escalate", body, headers)
        ledger.asked[tag] = Asked(
            id=str(result["escalation_id"]), member=member, platform=chosen.name, window=window
        )
        ledger.steps.put_nowait("escalated")
        if window and rng.random() < 0.5:
            continue  # left to its window
        card = await chosen.card_up(tag, WAIT, or_settled=window)
        if card is None:
            continue  # its window closed before the card was seen open
        choice = rng.randrange(2)
        if rng.random() < 0.5:
            act = await chosen.press(card, choice)
        else:
            act = await chosen.reply(card, f"{('go', 'stop')[choice]}-{tag}")
        ledger.acts[tag] = act
        ledger.steps.put_nowait("acted")
        if acts is not None and not window:
            acts -= 1


async def _holders(watch: PostgresCoordination) -> dict[str, str]:
    """transport -> the replica name holding its live lease."""
    return {
        view.name.removeprefix("transport:"): view.holder.split("/")[0]
        for view in await watch.leases("transport:")
        if view.holder is not None and view.expires_in > 0
    }


async def _held(watch: PostgresCoordination, transport: str) -> None:
    """Wait (bounded) until ``transport``'s lease has a live holder."""
    async with asyncio.timeout(WAIT):
        while True:
            if transport in await _holders(watch):
                return
            await asyncio.sleep(0.05)  # a poll of the leases table, not a wait for time


async def _taken_over(
    transport: str, killed_at: float, telegram: FakeTelegram, discord: FakeDiscord, seen: int
) -> float:
    """Seconds from the kill to the successor's first use of the connection."""
    if transport == "telegram":  # the successor starts (getMe), then polls

        def polled() -> float | None:
            started = [c.at for c in telegram.calls_to("getMe") if c.at > killed_at]
            return next(
                (c.at for c in telegram.calls_to("getUpdates") if started and c.at > started[0]),
                None,
            )

        await telegram.wait_for(lambda: polled() is not None, timeout=WAIT)
        return (polled() or 0.0) - killed_at
    await discord.wait_until(lambda: discord.identifies > seen, timeout=WAIT, what="IDENTIFY")
    return time.monotonic() - killed_at


async def test_leased_transports_survive_replica_kills(tmp_path: Path, postgres_url: str) -> None:
    log.warning("replica lease kills: seed %d (CREWLINE_RELIABILITY_SEED), %d kills", SEED, KILLS)
    rng = random.Random(SEED)
    ledger = Ledger()
    (tmp_path / "telegram").mkdir()
    (tmp_path / "discord").mkdir()
    async with (
        platform("telegram-polling", tmp_path / "telegram") as tg,
        platform("discord", tmp_path / "discord") as dc,
        PostgresCoordination(postgres_url, holder_tag("observer")) as watch,
    ):
        telegram: FakeTelegram = tg.extra["fake"]
        discord: FakeDiscord = dc.extra["fake"]
        settings = (tmp_path / "telegram" / "crewline.toml").read_text()
        env = tg.env | dc.env | {"CREWLINE_TRANSPORTS": "telegram,discord"}
        env |= {"CREWLINE_LOG_LEVEL": "WARNING"}
        keys: dict[str, tuple[Platform, str]] = {}
        sessions: list[str] = []
        async with PostgresStore(postgres_url) as store:
            for chosen in (tg, dc):
                transport = chosen.env["CREWLINE_TRANSPORTS"]
                for n in range(LANES):
                    slug = f"{transport}-{n}"
                    made = await crew_admin.add_member(
                        store, slug=slug, name=slug.title(), owners=[chosen.owner],
                        transports=[transport],
                    )  # fmt: skip
                    keys[slug] = (chosen, made.key)
                    sessions.append(made.session.id)
        replicas = [Replica(n, tmp_path / n, postgres_url) for n in "abc"]
        by_name = {r.name: r for r in replicas}
        for replica in replicas:
            (tmp_path / replica.name / "crewline.toml").write_text(settings)
            replica.env |= env
        lanes: list[asyncio.Task[None]] = []
        takeovers: list[asyncio.Task[None]] = []
        try:
            await asyncio.gather(*[r.start() for r in replicas])
            await telegram.wait_for(lambda: telegram.long_poll_open, timeout=WAIT)
            await discord.wait_for_ready(timeout=WAIT)  # both connections up, each held once
            lanes = [
                asyncio.create_task(_lane(replicas, chosen, ledger, key, slug, rng))
                for slug, (chosen, key) in keys.items()
            ]
            for round_ in range(KILLS):
                async with asyncio.timeout(WAIT * 2):
                    for _ in range(rng.randint(2, 6)):
                        await ledger.steps.get()
                pick = rng.choice(["telegram", "discord", None])
                if round_ % 2 == 0:
                    # every other round kills a holder, whatever the draw: the leases are hit
                    # (a takeover may still be under way, so wait for the lease to be held)
                    pick = pick or rng.choice(["telegram", "discord"])
                    await _held(watch, pick)
                holders = await _holders(watch)
                victim = by_name[holders[pick]] if pick in holders else rng.choice(replicas)
                held = [t for t, name in holders.items() if name == victim.name]
                seen = discord.identifies
                await victim.kill()
                killed_at = time.monotonic()  # dead: whatever the fakes get now is another's
                log.info("round %d: killed %s holding %s", round_, victim.name, held or "nothing")
                for transport in held:
                    ledger.holder_kills[transport] += 1

                    async def measure(
                        transport: str = transport, killed_at: float = killed_at, seen: int = seen
                    ) -> None:
                        took = await _taken_over(transport, killed_at, telegram, discord, seen)
                        ledger.takeovers.setdefault(transport, []).append(took)

                    takeovers.append(asyncio.create_task(measure()))
                await victim.start()
                await asyncio.gather(*takeovers)  # the next kill lands on a serving fleet
            for task in lanes:
                task.cancel()
            ended = await asyncio.gather(*lanes, return_exceptions=True)
            failed = [e for e in ended if isinstance(e, Exception)]
            if failed:  # a lane's wait that ran out, or a refusal: never discarded
                raise AssertionError(f"seed {SEED}: a lane failed") from failed[0]
            # One act per lane with no kill: receipts to check whatever the kills hit.
            async with asyncio.timeout(WAIT * 2):
                await asyncio.gather(
                    *[
                        _lane(replicas, chosen, ledger, key, slug, rng, acts=1)
                        for slug, (chosen, key) in keys.items()
                    ]
                )
            for chosen in (tg, dc):
                mine = [t for t, a in ledger.asked.items() if a.platform == chosen.name]
                try:
                    await chosen.wait(lambda m=mine, c=chosen: all(_cards(c)[t] for t in m), WAIT)
                except TimeoutError:
                    cards = _cards(chosen)
                    raise AssertionError(
                        f"seed {SEED}: no card for {[t for t in mine if not cards[t]]}"
                    ) from None
            records = await _settled(postgres_url, ledger, sessions)
        finally:
            for task in [*lanes, *takeovers]:
                task.cancel()
            await asyncio.gather(*[r.stop() for r in replicas])
        _check(ledger, records, tg, dc, telegram, discord)


async def _settled(url: str, ledger: Ledger, sessions: list[str]) -> dict[str, Counter[str]]:
    """Answer and closing events per record, once every window has closed or been answered."""
    windows = {a.id for a in ledger.asked.values() if a.window}
    async with PostgresStore(url) as store, asyncio.timeout(WAIT):
        while True:
            answered: Counter[str] = Counter()
            closed: Counter[str] = Counter()
            for session in sessions:
                for event in await store.events_after(session, 0, limit=100_000):
                    if event.kind == "escalation_answered":
                        answered[event.body["escalation_id"]] += 1
                    elif event.kind == "window_closed":
                        closed[event.body["escalation_id"]] += 1
            if windows <= set(answered) | set(closed):
                return {"answered": answered, "closed": closed}
            await asyncio.sleep(0.2)  # the windows' timers run in the replicas


def _cards(chosen: Platform) -> Counter[str]:
    """How many messages show each tag's card (a notice quoting the question is no card)."""
    counts: Counter[str] = Counter()
    for _, text in chosen.texts():
        if "to “decide" not in text:
            counts.update(set(TAG.findall(text)))
    return counts


def _check(
    ledger: Ledger,
    records: dict[str, Counter[str]],
    tg: Platform,
    dc: Platform,
    telegram: FakeTelegram,
    discord: FakeDiscord,
) -> None:
    answered, closed = records["answered"], records["closed"]
    received = {t for t, act in ledger.acts.items() if act.received()}
    cards = _cards(tg) + _cards(dc)
    tg_tags = {t for t, a in ledger.asked.items() if a.platform == tg.name}
    extra = {t: n - 1 for t, n in cards.items() if n > 1}
    conflicts = [c for c in telegram.calls_to("getUpdates") if c.status == 409]
    p99 = {
        t: round(statistics.quantiles(s, n=100, method="inclusive")[98] if len(s) > 1 else s[0], 2)
        for t, s in ledger.takeovers.items()
    }
    figures = {
        "seed": SEED,
        "kills": KILLS,
        "holder_kills": dict(ledger.holder_kills),
        "escalations": len(ledger.asked),
        "acts": len(ledger.acts),
        "receipts": len(received),
        "answers": sum(answered.values()),
        "windows_closed": sum(closed.values()),
        "telegram_cards_twice": len(extra),
        "takeover_s": {t: [round(x, 2) for x in s] for t, s in ledger.takeovers.items()},
        "takeover_p99_s": p99,
        "conflicts_409": len(conflicts),
        "overlapping_identifies": discord.overlapping_identifies,
    }
    log.warning("replica lease kills: %s", figures)
    ARTIFACTS.mkdir(exist_ok=True)
    with (ARTIFACTS / "replica_lease_kills.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(figures) + "\n")
    assert sum(ledger.holder_kills.values()) >= KILLS // 2, figures  # the leases were hit
    assert received, f"seed {SEED}: no act got a receipt: the test checked nothing"
    assert conflicts == [], f"seed {SEED}: two pollers at once: {conflicts}"
    assert discord.overlapping_identifies == 0, f"seed {SEED}: two gateway sessions at once"
    twice = {e: n for e, n in (answered + closed).items() if n > 1}
    assert twice == {}, f"seed {SEED}: answered or closed twice"
    for tag, asked in ledger.asked.items():
        settled = answered[asked.id] + closed[asked.id]
        if asked.window:
            assert settled == 1, f"seed {SEED}: the window of {tag} closed {settled} times"
        if tag in received:
            assert settled == 1, f"seed {SEED}: {tag} got a receipt and {settled} answers"
    assert not {t: n for t, n in extra.items() if t not in tg_tags}, f"seed {SEED}: {extra}"
    # A Telegram send in flight at its holder's death may land twice: one per lane per kill.
    assert len(extra) <= LANES * ledger.holder_kills["telegram"], f"seed {SEED}: {extra}"
