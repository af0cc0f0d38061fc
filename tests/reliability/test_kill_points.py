"""Kills: SIGKILL at seeded random points during bursts of escalations, button presses,
typed replies, veto windows closing and a member's conversation being rewound and edited —
on every transport (Slack, Telegram polling and webhook, Discord, the local inbox).

One harness over the transports (:mod:`tests.reliability.kill_kit`): crewline runs as a
separate process pointed at a loopback fake in this process, so what reached the platform
outlives each kill. In every round three lanes each escalate (a third with a 2-s veto
window) and, once the card is up, the owner presses one of its buttons or types one of its
options as a reply (or, for a window, sometimes lets it close); four agents of another
member escalate as fast as crewline answers; a last lane writes to a third member's
conversation and rewinds or edits it through the owner's API, its agent letting go of its
context when asked; and two more members ask question cards and escalate routine questions
the concierge answers, some of them undone (:mod:`tests.reliability.kill_asks`, with its
own checks). The process is killed after a seeded random number (2 to 10) of steps and
started again for the next round. After the last round:

- every acknowledged escalation has exactly one card (Telegram: at least one; it cannot be
  asked whether a send landed, so a send in flight at a kill may land twice — bounded here
  by one per member lane per kill; docs/telegram.md says so);
- every press or reply the platform got a receipt for has exactly one answer event (or,
  when its window had just closed, the closing instead), and no record has two — the
  receipts read once crewline has answered the last life's acts, and before the events
  (``kill_kit.receipts_first``);
- every window closes exactly once, unless it was answered first;
- no boundary is left half-done: none still ``asking``, the conversation's generation is
  one more than the committed boundaries, each committed boundary has its one notice row,
  and every rewound row was rewound by a committed generation.

The seed is logged (``CREWLINE_RELIABILITY_SEED`` replays the choices, not the timing);
3 kills per transport in CI, 20 with ``CREWLINE_RELIABILITY=full``. On SQLite over every
transport; on PostgreSQL (``$CREWLINE_DATABASE_URL``) over the inbox and Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import random
import signal
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.config import Config
from crewline.store.open import open_store
from crewline.store.sqlite import DATABASE_NAME
from tests.reliability import kill_asks
from tests.reliability.kill_kit import TRANSPORTS, Act, Platform, platform, receipts_first
from tests.serving import crewline_serve

FULL = os.environ.get("CREWLINE_RELIABILITY") == "full"
KILLS = 20 if FULL else 3
SEED = int(os.environ.get("CREWLINE_RELIABILITY_SEED") or random.SystemRandom().randrange(2**32))
LANES = 3  # members escalating and answered at once
BURSTS = 4  # members whose agents escalate in bursts, one member a round
# The bound on any one wait. At the full size a restart inherits a backlog of up to about a
# hundred cards (the bursts'), which a loaded 2-core machine drains at about one a second.
WAIT = 120.0 if FULL else 60.0
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"  # kills.jsonl: each run's figures
log = logging.getLogger(__name__)
# A start of crewline takes seconds on a loaded machine, and each round is one.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(60 * (KILLS + 3) if FULL else 600)]


@dataclass(frozen=True, kw_only=True, slots=True)
class Asked:
    """An escalation crewline acknowledged."""

    id: str
    member: str
    window: bool


@dataclass(kw_only=True)
class Ledger:
    """What the test saw across all rounds."""

    asked: dict[str, Asked] = field(default_factory=dict)  # by tag
    acts: dict[str, Act] = field(default_factory=dict)  # by tag: the one act on its card
    boundaries: Counter[str] = field(default_factory=Counter)  # committed / not / cut off
    tags: itertools.count[int] = field(default_factory=itertools.count)


@dataclass(kw_only=True)
class Round:
    """One life of the crewline process: its URL, and the steps taken before the kill."""

    url: str
    steps: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    acting: list[asyncio.Task[Act]] = field(default_factory=list)


def _http(url: str, key: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=30, headers={"Authorization": f"Bearer {key}"})


async def _lane(
    run: Round,
    platform: Platform,
    ledger: Ledger,
    key: str,
    member: str,
    rng: random.Random,
    *,
    acts: int | None = None,
) -> None:
    """Escalate, wait for the card, act on it; again, until the process is killed (or, with
    ``acts``, until that many acts were answered)."""
    async with _http(run.url, key) as agent:
        while acts is None or acts > 0:
            tag = f"k{next(ledger.tags):05d}x"
            window = rng.random() < 0.3
            body: dict[str, Any] = {
                "message": f"decide {tag}",
                "options": [f"go-{tag}", f"stop-{tag}"],
            }
            if window:
                body |= {"deadline": "PT2S"} | (
                    {"default_action": "proceed"} if rng.random() < 0.5 else {}
                )
            try:
                response = await agent.post("/api/session-control/escalate", json=body)
            except httpx.HTTPError:
                return  # killed mid-request: not acknowledged
            assert response.status_code == 200, response.text
            ledger.asked[tag] = Asked(
                id=response.json()["escalation_id"], member=member, window=window
            )
            run.steps.put_nowait("escalated")
            if window and rng.random() < 0.5:
                continue  # left to its window
            card = await platform.card_up(tag, WAIT, or_settled=window)
            if card is None:
                continue  # its window closed before the card was seen open
            choice = rng.randrange(2)
            if rng.random() < 0.5:
                doing = platform.press(card, choice)
            else:
                doing = platform.reply(card, f"{('go', 'stop')[choice]}-{tag}")
            # Shielded: a kill cancels the lane, never an act half-sent to the fake.
            acting = asyncio.ensure_future(doing)
            run.acting.append(acting)
            ledger.acts[tag] = await asyncio.shield(acting)
            run.steps.put_nowait("acted")
            if acts is not None and not window:
                acts -= 1


async def _burst(run: Round, ledger: Ledger, key: str, member: str, *, agents: int = 4) -> None:
    """Agents of one member escalating at once, as fast as crewline answers, until the kill
    (nobody answers these: they pile up cards in flight)."""

    async def agent(client: httpx.AsyncClient) -> None:
        while True:
            tag = f"k{next(ledger.tags):05d}x"
            # a choice with no default stated: the concierge leaves it to the human
            body = {"message": f"decide {tag}", "options": ["ok", "not yet"]}
            try:
                response = await client.post("/api/session-control/escalate", json=body)
            except httpx.HTTPError:
                return  # killed mid-request: not acknowledged, may or may not exist
            if response.status_code == 429:  # this member's backlog is full
                return
            assert response.status_code == 200, response.text
            escalation = response.json()["escalation_id"]
            ledger.asked[tag] = Asked(id=escalation, member=member, window=False)
            run.steps.put_nowait("escalated")

    async with _http(run.url, key) as client:
        await asyncio.gather(*[agent(client) for _ in range(agents)])


async def _listener(run: Round, key: str, rows: list[str]) -> None:
    """The rewound member's agent: lets go of its context when asked, notes the owner's rows."""
    async with _http(run.url, key) as agent:
        cursor = 0
        while True:
            try:
                got = await agent.get("/api/session/events", params={"after": cursor, "wait": 5})
                for event in got.json()["events"]:
                    cursor = event["cursor"]
                    if event["kind"] == "human_message":
                        rows.append(event["body"]["row_id"])
                    elif event["kind"] == "context_boundary" and event["body"]["discard"]:
                        boundary = event["body"]["boundary_id"]
                        await agent.post(f"/api/session/boundaries/{boundary}/ack")
            except httpx.HTTPError:
                return


async def _rewinder(
    run: Round, ledger: Ledger, key: str, token: str, rows: list[str], rng: random.Random
) -> None:
    """The member writes, the owner answers, the member writes again; then a rewind or an
    edit-resend of the owner's last message."""
    async with _http(run.url, key) as agent, _http(run.url, token) as owner:
        for n in itertools.count():
            try:
                for text in (f"m{n}a", None, f"m{n}b"):
                    if text is None:
                        said = await owner.post(
                            "/api/members/rewound/reply", json={"text": f"h{n}"}
                        )
                        assert said.status_code == 200, said.text
                    else:
                        posted = await agent.post("/api/session/messages", json={"text": text})
                        assert posted.status_code == 200, posted.text
                if rng.random() < 0.5 or not rows:
                    body: dict[str, Any] = {"kind": "rewind", "steps": 1}
                else:
                    body = {"kind": "edit", "row_id": rows[-1], "text": f"h{n} edited"}
                done = await owner.post("/api/members/rewound/boundaries", json=body)
            except httpx.HTTPError:
                ledger.boundaries["cut off"] += 1
                return
            if done.status_code == 200:
                ledger.boundaries["committed" if done.json()["committed"] else "not committed"] += 1
            else:  # refused before anything was sent (e.g. the edited row was rewound)
                assert done.status_code in (404, 409), done.text
                ledger.boundaries[done.json()["error"]["code"]] += 1
            run.steps.put_nowait("boundary")


async def _crew(
    data: Path, chosen: Platform, database: str | None = None
) -> tuple[dict[str, str], dict[str, str], str, str, dict[str, str]]:
    """The lanes' and the bursts' members, the rewound member, the owner's token and the
    asking members (:mod:`kill_asks`), written before the first start (in process: each
    ``crewline member add`` costs seconds)."""
    transport = chosen.env["CREWLINE_TRANSPORTS"]
    async with open_store(database, data) as store:

        async def add(slug: str) -> str:
            made = await crew_admin.add_member(
                store, slug=slug, name=slug.title(), owners=[chosen.owner], transports=[transport]
            )
            return made.key

        keys = {f"lane-{n}": await add(f"lane-{n}") for n in range(LANES)}
        bursts = {f"burst-{n}": await add(f"burst-{n}") for n in range(BURSTS)}
        rewound, token = await add("rewound"), await crew_admin.issue_owner_token(store)
        asking = {slug: await add(slug) for slug in (kill_asks.ASKER, kill_asks.ROUTINE)}
        return keys, bursts, rewound, token, asking


async def _events(url: str, key: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    async with _http(url, key) as agent:
        while True:
            got = await agent.get(
                "/api/session/events", params={"after": found[-1]["cursor"] if found else 0}
            )
            assert got.status_code == 200, got.text
            page = got.json()["events"]
            if not page:
                return found
            found.extend(page)


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_kills_during_presses_replies_windows_and_boundaries_break_nothing(
    transport: str, tmp_path: Path
) -> None:
    await _kills(transport, tmp_path, database=None)


@pytest.mark.parametrize("transport", ["local", "discord"])
async def test_the_same_kills_on_postgresql_break_nothing(
    transport: str, tmp_path: Path, postgres_url: str
) -> None:
    """The kills above with every crewline on PostgresStore: the inbox, and a platform whose
    cards are read back (each acknowledged escalation exactly one card)."""
    await _kills(transport, tmp_path, database=postgres_url)


async def _kills(transport: str, tmp_path: Path, *, database: str | None) -> None:
    """``database``: the PostgreSQL URL every crewline opens (None: SQLite in ``tmp_path``)."""
    log.warning(
        "kill points on %s: seed %d (CREWLINE_RELIABILITY_SEED), %d kills", transport, SEED, KILLS
    )
    rng = random.Random(f"{SEED}:{transport}")
    ledger = Ledger()
    asks = kill_asks.Asks(tags=ledger.tags, wait=WAIT)
    async with platform(transport, tmp_path) as chosen:
        with (tmp_path / "crewline.toml").open("a", encoding="utf-8") as config:
            config.write(kill_asks.CONCIERGE_POLICY)
        env = {
            **os.environ,
            **chosen.env,
            "CREWLINE_DATA_DIR": str(tmp_path),
            "CREWLINE_LOG_LEVEL": "WARNING",
            "CREWLINE_BOUNDARY_WAIT": "2",
            **({"CREWLINE_DATABASE_URL": database} if database else {}),
        }
        keys, bursts, rewound_key, token, asking = await _crew(tmp_path, chosen, database)
        for round_ in range(KILLS):
            began = time.monotonic()
            async with crewline_serve(env=env) as (process, url):
                up = time.monotonic() - began
                chosen.url = url
                await chosen.serving(url)
                run = Round(url=url)
                rows: list[str] = []
                tasks = [
                    asyncio.create_task(_lane(run, chosen, ledger, key, slug, rng))
                    for slug, key in keys.items()
                ]
                burst = f"burst-{round_ % BURSTS}"  # in turn: each stays under its backlog
                tasks += [
                    asyncio.create_task(_burst(run, ledger, bursts[burst], burst)),
                    asyncio.create_task(_listener(run, rewound_key, rows)),
                    asyncio.create_task(_rewinder(run, ledger, rewound_key, token, rows, rng)),
                ]
                asks.life = round_
                tasks += [
                    asyncio.create_task(lane)
                    for lane in kill_asks.lanes(run, chosen, asks, asking, token, rng)
                ]
                steps = rng.randint(2, 10)  # kill after a random number of steps
                try:
                    async with asyncio.timeout(WAIT * 2):
                        for _ in range(steps):
                            await run.steps.get()
                except TimeoutError:
                    lane = next((t.exception() for t in tasks if t.done() and t.exception()), None)
                    raise AssertionError(
                        f"seed {SEED}: round {round_}: {steps} steps not taken in {WAIT * 2} s"
                    ) from lane
                process.send_signal(signal.SIGKILL)
                await process.wait()
                log.info(
                    "round %d: up in %.1f s, killed at %.1f s", round_, up, time.monotonic() - began
                )
                for task in tasks:
                    task.cancel()
                ended = await asyncio.gather(*tasks, return_exceptions=True)
                await asyncio.gather(*run.acting, return_exceptions=True)
                # A lane fails loudly in a killed life too (a wait that ran out, a refusal).
                failed = [e for e in ended if isinstance(e, Exception)]
                if failed:
                    raise AssertionError(f"seed {SEED}: round {round_}") from failed[0]
        began = time.monotonic()
        async with crewline_serve(env=env) as (_, url):
            log.info("last start: up in %.1f s", time.monotonic() - began)
            chosen.url = url
            await chosen.serving(url)
            # One answered act per lane in the last life, with no kill: receipts to check even
            # when every round was killed before its first act.
            last = Round(url=url)
            asks.life = KILLS
            async with asyncio.timeout(WAIT * 2):
                await asyncio.gather(
                    *[_lane(last, chosen, ledger, k, s, rng, acts=1) for s, k in keys.items()],
                    *kill_asks.lanes(last, chosen, asks, asking, token, rng, once=True),
                )
            asked = [*ledger.asked, *asks.questions, *asks.routine]
            try:
                await chosen.wait(lambda: chosen.shows_all(asked), WAIT * 2)
            except TimeoutError:
                cards = chosen.cards()
                raise AssertionError(
                    f"seed {SEED}: no card for {[t for t in asked if not cards[t]]}"
                ) from None
            # The receipts are read before the events they are checked against: one that
            # came while the events were being read would have no answer in them.
            acts = [*ledger.acts.values(), *asks.answers.values(), *asks.presses.values()]
            await receipts_first(chosen, acts, [t.result() for t in last.acting], WAIT)
            windows = {a.id for a in ledger.asked.values() if a.window}
            settled: set[str] = set()
            try:
                async with asyncio.timeout(WAIT):
                    while True:  # read once at least: a run may have asked no window at all
                        events = [e for key in keys.values() for e in await _events(url, key)]
                        settled = {
                            e["body"]["escalation_id"]
                            for e in events
                            if e["kind"] in ("escalation_answered", "window_closed")
                        }
                        if windows <= settled:  # every window has closed or been answered
                            break
                        await _events_after(url, keys, events)
            except TimeoutError:
                raise AssertionError(
                    f"seed {SEED}: windows neither closed nor answered in {WAIT} s:"
                    f" {sorted(windows - settled)}"
                ) from None
            log.info("settled %.1f s after the last start", time.monotonic() - began)
            asked_events = {slug: await _events(url, key) for slug, key in asking.items()}
            entries = await kill_asks.ledger(url, token)
        cards = chosen.cards()
    figures = kill_asks.check(chosen, asks, cards, asked_events, entries, seed=SEED)
    store = Config(data_dir=tmp_path, database_url=database)
    _check(chosen, ledger, cards, events, store, figures)


async def _events_after(url: str, keys: dict[str, str], seen: list[dict[str, Any]]) -> None:
    """Long-poll one lane's stream for its next event (a window still to close)."""
    key = next(iter(keys.values()))
    last = max((e["cursor"] for e in seen), default=0)
    async with _http(url, key) as agent:
        await agent.get("/api/session/events", params={"after": last, "wait": 2})


def _check(
    chosen: Platform,
    ledger: Ledger,
    cards: Counter[str],
    events: list[dict[str, Any]],
    store: Config,
    asks_figures: dict[str, int],
) -> None:
    answered = Counter(
        e["body"]["escalation_id"] for e in events if e["kind"] == "escalation_answered"
    )
    closed = Counter(e["body"]["escalation_id"] for e in events if e["kind"] == "window_closed")
    received = {t for t, act in ledger.acts.items() if act.received()}
    figures = {
        "transport": chosen.name,
        "store": "postgresql" if store.database_url else "sqlite",
        "seed": SEED,
        "kills": KILLS,
        "escalations": len(ledger.asked),
        "acts": len(ledger.acts),
        "receipts": len(received),
        "answers": sum(answered.values()),
        "windows_closed": sum(closed.values()),
        "boundaries": dict(ledger.boundaries),
        "events": len(events),
        "cards": sum(cards.values()),
        **asks_figures,
    }
    log.warning("kill points: %s", figures)
    ARTIFACTS.mkdir(exist_ok=True)
    with (ARTIFACTS / "kills.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(figures) + "\n")
    assert len(ledger.asked) >= KILLS
    assert answered, "no act was answered: the test checked nothing"
    twice = {e: n for e, n in (answered + closed).items() if n > 1}
    assert twice == {}, f"seed {SEED}: answered or closed twice"
    for tag, asked in ledger.asked.items():
        settled = answered[asked.id] + closed[asked.id]
        if asked.window:
            assert settled == 1, f"seed {SEED}: the window of {tag} closed {settled} times"
        if tag in received:
            assert settled == 1, f"seed {SEED}: {tag} got a receipt and {settled} answers"
            if not asked.window:
                assert answered[asked.id] == 1, f"seed {SEED}: {tag}"
    assert all(cards[t] >= 1 for t in ledger.asked), f"seed {SEED}: a card is missing"
    extra = {t: n - 1 for t, n in cards.items() if n > 1}
    if chosen.reads_back:
        assert extra == {}, f"seed {SEED}: cards posted twice: {extra}"
    else:  # each kill can leave at most the one in-flight send of each member's lane
        lanes = LANES + BURSTS + 1 + kill_asks.LANES
        assert sum(extra.values()) <= KILLS * lanes, f"seed {SEED}: {extra}"
    _check_generations(store)


def _check_generations(store: Config) -> None:
    """The rewound member's transcript is whole: every generation is a committed boundary."""
    with _connect(store) as db:
        states = Counter(
            s for (s,) in db.execute("SELECT state FROM boundaries WHERE member = 'rewound'")
        )
        committed = [
            b
            for (b,) in db.execute(
                "SELECT id FROM boundaries WHERE member = 'rewound' AND state = 'committed'"
            )
        ]
        (generation,) = db.execute(
            "SELECT generation FROM conversations WHERE key = 'rewound'"
        ).fetchone()
        rewound_in = {
            g
            for (g,) in db.execute(
                "SELECT DISTINCT rewound_in FROM rows"
                " WHERE conversation = 'rewound' AND rewound_in IS NOT NULL"
            )
        }
        notices = Counter(
            json.loads(meta)["boundary"]
            for (meta,) in db.execute(
                "SELECT meta FROM rows WHERE conversation = 'rewound' AND role = 'system'"
            )
            if "boundary" in json.loads(meta) and "failed" not in json.loads(meta)
        )
    assert states["asking"] == 0, f"seed {SEED}: a boundary was left asking: {states}"
    assert generation == 1 + len(committed), f"seed {SEED}: generation {generation}, {states}"
    assert rewound_in <= set(range(2, generation + 1)), f"seed {SEED}: {rewound_in}"
    assert {b: notices[b] for b in committed} == dict.fromkeys(committed, 1), f"seed {SEED}"


def _connect(store: Config) -> contextlib.AbstractContextManager[Any]:
    """The store's database through its engine's driver (both answer ``execute``)."""
    if store.database_url:
        import psycopg

        return psycopg.connect(store.database_url, autocommit=True)
    return contextlib.closing(sqlite3.connect(store.data_dir / DATABASE_NAME))
