"""Kills during question cards and concierge answers: two more lanes of the kill test.

In every life of ``test_kill_points`` (crewline started with the concierge's policy
``routine``) two more members work beside the escalating lanes:

- ``asker``'s agent asks blocking questions (``ask``): with two options, the owner presses
  one on the platform; with none (free text), the owner answers through the owner's API;
- ``routine``'s agent escalates a routine question ("Shall I proceed with the plan?"),
  which the concierge answers by itself; half the time the agent waits for the answer on
  its events (so it has read it), else the owner sees the card settle; the owner undoes
  some answers at once and the last one left of a life at the start of the
  next (after the restart), then presses the reopened card.

:func:`check` then holds, after the last life: every acknowledged question and routine
escalation has exactly one card (Telegram: at least one); a question has at most one
answer, and exactly one when the owner's act got a receipt; the concierge answers only the
routine member's records, each at most once, and its ledger record of an answer exists
exactly when the answer's event does (less the answers an undo withdrew before the session
read them); each undo is one ledger record and reopens its record; a reopened record takes
at most one answer from the owner, and one exactly when the press got a receipt.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from tests.reliability.kill_kit import Act, Platform

__all__ = ["ASKER", "CONCIERGE_POLICY", "LANES", "ROUTINE", "Asks", "check", "lanes"]

ASKER = "asker"
ROUTINE = "routine"
LANES = 2  # the member lanes this module adds (each may leave one send in flight at a kill)
CONCIERGE_POLICY = '\n[concierge]\nanswer = "routine"\n'
LEDGER_LIMIT = 1000  # the ledger API's largest page


class Life(Protocol):
    """One life of the crewline process, as the kill test's ``Round`` is."""

    url: str
    steps: asyncio.Queue[str]
    acting: list[asyncio.Task[Act]]


@dataclass(frozen=True, kw_only=True, slots=True)
class Undo:
    """An undo the owner got a receipt for."""

    record: str
    outcome: str
    later: bool  # the answer was given in an earlier life: undone after a restart


@dataclass(kw_only=True)
class Asks:
    """What the question and concierge lanes saw across all lives."""

    tags: itertools.count[int]  # shared with the other lanes: every tag is unique
    wait: float  # the bound on any one wait for a card
    questions: dict[str, str] = field(default_factory=dict)  # tag -> question id
    answers: dict[str, Act] = field(default_factory=dict)  # tag -> the owner's one answer
    routine: dict[str, str] = field(default_factory=dict)  # tag -> escalation id
    answered_in: dict[str, int] = field(default_factory=dict)  # escalation id -> life seen
    undos: list[Undo] = field(default_factory=list)
    presses: dict[str, Act] = field(default_factory=dict)  # escalation id -> press on reopen
    life: int = 0

    def undoable(self) -> list[str]:
        """Answers seen in an earlier life and not undone since (as far as the owner knows)."""
        undone = {u.record for u in self.undos}
        return [r for r, life in self.answered_in.items() if life < self.life and r not in undone]


def _http(url: str, key: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=30, headers={"Authorization": f"Bearer {key}"})


async def _shielded(run: Life, doing: Awaitable[Act]) -> Act:
    """An act on the platform: a kill cancels the lane, never an act half-sent to the fake."""
    acting = asyncio.ensure_future(doing)
    run.acting.append(acting)
    return await asyncio.shield(acting)


async def _wait(platform: Platform, asks: Asks, predicate: Callable[[], bool], what: str) -> None:
    """Until ``predicate`` holds on the platform; an AssertionError naming ``what`` when it
    did not within the wait (a lane of a killed life is cancelled first)."""
    try:
        await platform.wait(predicate, asks.wait)
    except TimeoutError:
        raise AssertionError(f"{what}: not within {asks.wait} s") from None


async def question_lane(
    run: Life,
    platform: Platform,
    asks: Asks,
    key: str,
    token: str,
    rng: random.Random,
    *,
    once: bool = False,
) -> None:
    """Ask, wait for the card, answer it (a press, or the owner's API for free text); again,
    until the kill (or, ``once``, after one question with options and one without)."""
    async with _http(run.url, key) as agent, _http(run.url, token) as owner:
        for n in itertools.count():
            if once and n == 2:
                return
            tag = f"k{next(asks.tags):05d}x"
            free = n % 2 == 1 if once else rng.random() < 0.4
            body: dict[str, Any] = {"question": f"decide {tag}: what now?"}
            if not free:
                body["options"] = [f"go-{tag}", f"stop-{tag}"]
            try:
                asked = await agent.post("/api/session-control/ask", json=body)
            except httpx.HTTPError:
                return  # killed mid-request: not acknowledged
            assert asked.status_code == 200, asked.text
            question = asked.json()["question_id"]
            asks.questions[tag] = question
            run.steps.put_nowait("asked")
            if free:
                shown = functools.partial(_shown, platform, tag)
                await _wait(platform, asks, shown, f"the card of question {tag}")
                answering = _answer(owner, question, tag, killed=not once)
                asks.answers[tag] = await _shielded(run, answering)
            else:
                card = await platform.card_up(tag, asks.wait)
                assert card is not None
                asks.answers[tag] = await _shielded(run, platform.press(card, rng.randrange(2)))
            run.steps.put_nowait("answered")


def _shown(platform: Platform, tag: str) -> bool:
    return platform.cards()[tag] >= 1


async def _answer(owner: httpx.AsyncClient, question: str, tag: str, *, killed: bool) -> Act:
    """The owner's typed answer to a free-text question, through the owner's API. A request
    error means no receipt in a life that is ``killed``; in the last life, which is never
    killed, it is the failure itself, and is raised as such rather than read later as
    "nothing checked"."""
    try:
        said = await owner.post(f"/api/questions/{question}/answer", json={"answer": f"do-{tag}"})
    except httpx.HTTPError:
        if not killed:
            raise
        return Act(received=lambda: False)
    assert said.status_code == 200, said.text
    return Act(received=lambda: True)


async def routine_lane(
    run: Life,
    platform: Platform,
    asks: Asks,
    key: str,
    token: str,
    rng: random.Random,
    *,
    once: bool = False,
) -> None:
    """Undo an answer of an earlier life, when there is one (after the restart); then
    escalate routine questions the concierge answers, undoing some at once, until the kill
    (or, ``once``, after one answered)."""
    async with _http(run.url, key) as agent, _http(run.url, token) as owner:
        if asks.undoable() and not await _undo(run, platform, asks, owner, rng):
            return
        cursor = 0
        while True:
            tag = f"k{next(asks.tags):05d}x"
            body = {
                "message": f"decide {tag}. Shall I proceed with the plan?",
                "options": ["yes", "no"],
            }
            try:
                escalated = await agent.post("/api/session-control/escalate", json=body)
            except httpx.HTTPError:
                return
            assert escalated.status_code == 200, escalated.text
            record = escalated.json()["escalation_id"]
            asks.routine[tag] = record
            run.steps.put_nowait("escalated")
            if rng.random() < 0.5:
                # The agent waits for the answer on its events: it has read it, so an undo
                # tells it; this needs no card, which a backlog may hold up.
                heard = await _heard(agent, record, cursor, asks.wait)
                if heard is None:
                    return  # killed
                cursor = heard
            else:  # the owner sees the card settle (no buttons); the agent has read nothing
                settled = functools.partial(platform.settled, tag)
                await _wait(platform, asks, settled, f"the concierge's answer on the card of {tag}")
            asks.answered_in[record] = asks.life
            run.steps.put_nowait("concierge answered")
            # The last life undoes when no undo got through yet: every run checks one.
            now = rng.random() < 0.5 or (once and not asks.undos)
            if now and not await _undo(run, platform, asks, owner, rng):
                return
            if once:
                return


async def _heard(agent: httpx.AsyncClient, record: str, cursor: int, wait: float) -> int | None:
    """The cursor read up to once the agent's event stream brought the answer to ``record``
    (long polls, after ``cursor``); None when the kill cut it off, an AssertionError when
    it did not come within ``wait``."""
    try:
        async with asyncio.timeout(wait):
            while True:
                got = await agent.get("/api/session/events", params={"after": cursor, "wait": 5})
                for event in got.json()["events"]:
                    cursor = event["cursor"]
                    answered = event["kind"] == "escalation_answered"
                    if answered and event["body"]["escalation_id"] == record:
                        return cursor
    except TimeoutError:
        raise AssertionError(f"the concierge's answer to {record}: not within {wait} s") from None
    except httpx.HTTPError:
        return None


async def _undo(
    run: Life, platform: Platform, asks: Asks, owner: httpx.AsyncClient, rng: random.Random
) -> bool:
    """The owner's undo of the concierge's last answer, and a press on the reopened card;
    False when the kill cut it off."""
    try:
        undone = await owner.post("/api/concierge/undo")
    except httpx.HTTPError:
        return False
    if undone.status_code == 404:  # an undo cut off by a kill took it already
        return True
    assert undone.status_code == 200, undone.text
    record = undone.json()["undone"]["record_id"]
    asks.undos.append(
        Undo(
            record=record,
            outcome=undone.json()["outcome"],
            # Unseen: answered just before a kill, so in an earlier life.
            later=asks.answered_in.get(record, -1) < asks.life,
        )
    )
    run.steps.put_nowait("undone")
    tag = next((t for t, r in asks.routine.items() if r == record), None)
    if tag is None:  # its escalation's acknowledgement was cut off by a kill
        return True
    card = await platform.card_up(tag, asks.wait)  # reopened
    assert card is not None
    asks.presses[record] = await _shielded(run, platform.press(card, rng.randrange(2)))
    run.steps.put_nowait("acted")
    return True


def lanes(
    run: Life,
    platform: Platform,
    asks: Asks,
    keys: dict[str, str],
    token: str,
    rng: random.Random,
    *,
    once: bool = False,
) -> list[Any]:
    """The two lanes' coroutines for one life (``once``: the last life, not killed)."""
    return [
        question_lane(run, platform, asks, keys[ASKER], token, rng, once=once),
        routine_lane(run, platform, asks, keys[ROUTINE], token, rng, once=once),
    ]


async def ledger(url: str, token: str) -> list[dict[str, Any]]:
    """The concierge's ledger, through the owner's API (whole: checked below the limit)."""
    async with _http(url, token) as owner:
        got = await owner.get("/api/concierge/ledger", params={"limit": LEDGER_LIMIT})
    assert got.status_code == 200, got.text
    entries: list[dict[str, Any]] = got.json()["entries"]
    assert len(entries) < LEDGER_LIMIT, "the ledger outgrew one page: raise the limit"
    return entries


def check(
    platform: Platform,
    asks: Asks,
    cards: Counter[str],
    events: dict[str, list[dict[str, Any]]],
    entries: list[dict[str, Any]],
    *,
    seed: int,
) -> dict[str, int]:
    """Assert the invariants above; returns the figures of the run."""
    for tag in [*asks.questions, *asks.routine]:
        assert cards[tag] >= 1, f"seed {seed}: no card for {tag}"
        if platform.reads_back:
            assert cards[tag] == 1, f"seed {seed}: {cards[tag]} cards for {tag}"
    _check_questions(asks, events[ASKER], seed=seed)
    return _check_concierge(asks, events[ROUTINE], entries, seed=seed)


def _check_questions(asks: Asks, events: list[dict[str, Any]], *, seed: int) -> None:
    answered = Counter(e["body"]["question_id"] for e in events if e["kind"] == "question_answered")
    by = {
        e["body"]["question_id"]: e["body"]["by"]
        for e in events
        if e["kind"] == "question_answered"
    }
    assert max(answered.values(), default=0) <= 1, f"seed {seed}: a question answered twice"
    received = [t for t, act in asks.answers.items() if act.received()]
    assert received, f"seed {seed}: no answer to a question got a receipt: nothing checked"
    for tag in received:
        question = asks.questions[tag]
        assert answered[question] == 1, f"seed {seed}: {tag} got a receipt and no answer"
        assert by[question] == "user", f"seed {seed}: {tag} answered by {by[question]}"


def _check_concierge(
    asks: Asks, events: list[dict[str, Any]], entries: list[dict[str, Any]], *, seed: int
) -> dict[str, int]:
    decisions = Counter((e["record_id"], e["decision"]) for e in entries)
    answered = {e["record_id"] for e in entries if e["decision"] == "answered"}
    others = {e["member"] for e in entries if e["decision"] == "answered"} - {ROUTINE}
    assert not others, f"seed {seed}: the concierge answered records of {others}"
    assert answered, f"seed {seed}: the concierge answered nothing: nothing checked"
    # With the escalations a kill cut off before their acknowledgement, which may exist.
    routine = set(asks.routine.values()) | answered
    kinds = Counter(
        (e["body"].get("escalation_id"), e["kind"], e["body"].get("by")) for e in events
    )
    for record in routine:
        gave, undone = decisions[record, "answered"], decisions[record, "undone"]
        told = kinds[record, "concierge_answer_withdrawn", None]
        assert gave <= 1, f"seed {seed}: the concierge answered {record} {gave} times"
        assert undone <= gave, f"seed {seed}: {record} undone {undone} times, answered {gave}"
        # An undo before the session read the answer takes the answer's event back.
        shown = kinds[record, "escalation_answered", "concierge"]
        assert shown == gave - undone + told, (
            f"seed {seed}: {record}: {gave} ledger answers, {undone} undone, {told} told,"
            f" {shown} answer events"
        )
        assert kinds[record, "escalation_reopened", None] == told, f"seed {seed}: {record}"
        by_owner = kinds[record, "escalation_answered", "user"]
        assert by_owner <= undone, f"seed {seed}: {record} answered by the owner {by_owner} times"
        press = asks.presses.get(record)
        if press is not None and press.received():
            assert by_owner == 1, f"seed {seed}: a press on reopened {record} got no answer"
    assert asks.undos, f"seed {seed}: no undo got a receipt: nothing checked"
    for undo in asks.undos:
        assert decisions[undo.record, "undone"] == 1, f"seed {seed}: undo of {undo.record}"
        assert (undo.outcome == "told") == (
            kinds[undo.record, "concierge_answer_withdrawn", None] == 1
        ), f"seed {seed}: undo of {undo.record} said {undo.outcome}"
    return {
        "questions": len(asks.questions),
        "question_answers": sum(1 for a in asks.answers.values() if a.received()),
        "concierge_answers": len(answered),
        "undos": len(asks.undos),
        "undos_after_restart": sum(u.later for u in asks.undos),
    }
