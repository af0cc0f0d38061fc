"""Two crewline replicas on one PostgreSQL database, racing: every record answered once,
every outbox entry sent once, every window closed once, and a long poll on one replica
woken by an event committed on the other.

Both replicas share one MemoryTransport (the platform both would call); a human event
reaches whichever replica a load balancer gave it to, as a transport would hand it over.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path

import httpx
import psycopg
import pytest

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config, load_config
from crewline.errors import ConfigError, InvalidInput, Unavailable
from crewline.models import HumanClick, HumanMessage, Receipt, ReplyOutcome, Session
from crewline.store.sql.dialect import MEMBER_LOCKS
from crewline.testing import FakeClock
from crewline.transports.memory import MemoryMessage, MemoryTransport
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.e2e.replica_kit import until

MEMBERS = ("radar", "probe", "sonar")


@dataclass
class Pair:
    a: Crewline
    b: Crewline
    memory: MemoryTransport
    sessions: dict[str, Session]
    keys: dict[str, str]

    async def escalate(self, replica: Crewline, member: str, **body: object) -> str:
        async with httpx.AsyncClient(base_url=replica.url, timeout=HTTP_TIMEOUT) as client:
            response = await client.post(
                "/api/session-control/escalate",
                json=body,
                headers={"Authorization": f"Bearer {self.keys[member]}"},
            )
        assert response.status_code == 200, response.text
        return str(response.json()["escalation_id"])

    async def idle(self) -> None:
        """Both replicas' outboxes drained (each waits for the shared outbox to empty)."""
        for replica in (self.a, self.b):
            await replica.outboxes["memory"].wait_idle(timeout=WAIT)


def _replica(config: Config, name: str, clock: FakeClock, memory: MemoryTransport) -> Crewline:
    return Crewline(
        replace(config, data_dir=config.data_dir / name, replica_id=name),
        transports=[memory],
        clock=clock,
        outbox_poll_interval=0.2,
        delivery_wait=0.0,
        concierge=False,
    )


@pytest.fixture
async def pair(tmp_path: Path, postgres_url: str, clock: FakeClock) -> AsyncIterator[Pair]:
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    memory = MemoryTransport("memory")
    async with _replica(config, "a", clock, memory) as a, _replica(config, "b", clock, memory) as b:
        sessions, keys = {}, {}
        for slug in MEMBERS:
            created = await crew_admin.add_member(
                a.store,
                slug=slug,
                name=slug.title(),
                owners=["memory:alice"],
                transports=["memory"],
            )
            sessions[slug], keys[slug] = created.session, created.key
        yield Pair(a=a, b=b, memory=memory, sessions=sessions, keys=keys)


async def _card(pair: Pair, record: str) -> MemoryMessage:
    escalation = await pair.a.store.escalation(record)
    assert escalation is not None
    await pair.memory.wait_until(
        lambda: pair.memory.message_for(f"row:{escalation.row_id}") is not None
    )
    card = pair.memory.message_for(f"row:{escalation.row_id}")
    assert card is not None
    return card


def _click(payload: str, thread: str, event_id: str) -> HumanClick:
    return HumanClick(
        transport="memory", event_id=event_id, user_id="alice", thread=thread, payload=payload
    )


async def _events(replica: Crewline, session: Session) -> list[str]:
    return [e.kind for e in await replica.store.events_after(session.id, 0, limit=1000)]


async def test_clicks_racing_on_two_replicas_answer_each_record_once(pair: Pair) -> None:
    """The same card pressed on both replicas at once (two people's devices, two event
    ids): one press answers, the other finds it settled; never two answers."""
    records: dict[str, list[str]] = {slug: [] for slug in MEMBERS}
    for slug in MEMBERS:
        for n in range(6):
            options = ["yes", "no"]
            records[slug].append(
                await pair.escalate(pair.a, slug, message=f"{n}?", options=options)
            )
    total = sum(len(ids) for ids in records.values())
    await pair.memory.wait_until(lambda: len(pair.memory.messages) >= total)
    presses = []
    for record in [r for ids in records.values() for r in ids]:
        card = await _card(pair, record)
        assert len(card.current.buttons) == 2
        yes, no = (button.payload for button in card.current.buttons)
        presses.append(
            asyncio.gather(
                pair.a.hub.receive(_click(yes, card.thread, f"{record}-a")),
                pair.b.hub.receive(_click(no, card.thread, f"{record}-b")),
            )
        )
    receipts: list[tuple[Receipt, Receipt]] = await asyncio.gather(*presses)
    for first, second in receipts:
        answered = [r for r in (first, second) if r.outcome is ReplyOutcome.ANSWERED]
        assert len(answered) == 1, (first, second)
        refused = second if answered[0] is first else first
        assert refused.code == "already_settled", refused
    for slug, ids in records.items():
        kinds = Counter(await _events(pair.b, pair.sessions[slug]))
        assert kinds["escalation_answered"] == len(ids)
        for record in ids:
            settled = await pair.b.store.escalation(record)
            assert settled is not None and settled.state.value == "answered"
        answers = [
            r for r in await pair.b.store.live_rows(slug) if r.meta.get("escalation_id") in ids
            and r.role.value == "human"
        ]  # fmt: skip
        assert len(answers) == len(ids)


async def test_a_platform_retry_reaching_the_other_replica_answers_nothing(pair: Pair) -> None:
    """Slack retries a click to whichever replica: the event id is remembered in the shared
    store, so the second delivery is a duplicate whichever replica gets it."""
    record = await pair.escalate(pair.a, "radar", message="Ship?", options=["yes", "no"])
    card = await _card(pair, record)
    click = _click(card.current.buttons[0].payload, card.thread, "slack-retry-1")
    first, second = await asyncio.gather(pair.a.hub.receive(click), pair.b.hub.receive(click))
    fresh, repeat = sorted((first, second), key=lambda receipt: receipt.repeat)
    assert fresh.accepted and not fresh.repeat, fresh
    assert repeat == replace(fresh, repeat=True, redraw=None)  # the same receipt
    assert Counter(await _events(pair.a, pair.sessions["radar"]))["escalation_answered"] == 1


async def test_typed_replies_on_both_replicas_are_judged_one_after_the_other(
    pair: Pair,
) -> None:
    """Two typed answers to one pending record, on two replicas at once: the member's lock
    makes the second see the first's answer (no record answered twice)."""
    for n in range(5):
        await pair.escalate(pair.a, "probe", message=f"Deploy {n}?")
        shown = n + 1
        await pair.memory.wait_until(lambda shown=shown: len(pair.memory.cards("probe")) >= shown)
        thread = pair.memory.threads["probe"]
        first, second = await asyncio.gather(
            pair.a.hub.receive(_message(thread, "go", f"t{n}-a")),
            pair.b.hub.receive(_message(thread, "stop", f"t{n}-b")),
        )
        outcomes = sorted(str(r.outcome) for r in (first, second))
        assert outcomes.count(str(ReplyOutcome.ANSWERED)) == 1, (first, second)
    assert Counter(await _events(pair.a, pair.sessions["probe"]))["escalation_answered"] == 5


def _message(thread: str, text: str, event_id: str) -> HumanMessage:
    return HumanMessage(
        transport="memory",
        event_id=event_id,
        user_id="alice",
        thread=thread,
        text=text,
        message_ref=f"h-{event_id}",
    )


async def test_windows_close_once_whichever_replica_fires(pair: Pair, clock: FakeClock) -> None:
    """Both replicas arm the same windows; when they fall due both fire, and each window
    closes exactly once (one closing row, one event to the agent)."""
    ids = [
        await pair.escalate(pair.a, slug, message=f"{slug} {n}", deadline="PT1M",
                            default_action="go")
        for slug in MEMBERS for n in range(8)
    ]  # fmt: skip
    clock.advance(timedelta(minutes=2))
    closed = await asyncio.gather(
        pair.a.bot.escalations.close_due_windows(),
        pair.b.bot.escalations.close_due_windows(),
        *[replica.bot.escalations.close_window(i) for i in ids for replica in (pair.a, pair.b)],
    )
    assert closed[0] + closed[1] <= len(ids)
    for slug in MEMBERS:
        kinds = Counter(await _events(pair.a, pair.sessions[slug]))
        assert kinds["window_closed"] == 8
        closings = [r for r in await pair.a.store.live_rows(slug) if r.meta.get("window_closed")]
        assert len(closings) == 8
    assert await pair.b.store.pending_counts() == {}


async def test_each_outbox_entry_is_sent_by_one_replica_in_thread_order(pair: Pair) -> None:
    """Escalations land on both replicas; every card is posted exactly once, whichever
    replica's outbox took its lane, and each thread shows its cards in order."""
    sent: dict[str, list[str]] = {slug: [] for slug in MEMBERS}
    for n in range(8):
        for slug in MEMBERS:
            replica = pair.a if n % 2 else pair.b
            sent[slug].append(await pair.escalate(replica, slug, message=f"{slug} card {n}"))
    await pair.idle()
    assert pair.memory.calls.count("post") == len(pair.memory.messages) == 8 * len(MEMBERS)
    for slug, ids in sent.items():
        shown = [m.current.text for m in pair.memory.cards(slug)]
        assert [t for t in shown if f"{slug} card" in t] == shown
        assert len(shown) == len(ids)
        assert [int(t.split("card ")[1].split()[0].rstrip("?")) for t in shown] == sorted(
            int(t.split("card ")[1].split()[0].rstrip("?")) for t in shown
        )


async def test_a_long_poll_on_one_replica_hears_an_answer_committed_on_the_other(
    pair: Pair,
) -> None:
    """The agent long-polls replica B; the human answers on replica A: B's poll returns the
    answer at once (PostgreSQL's notification), not at the end of its wait."""
    record = await pair.escalate(pair.a, "sonar", message="Proceed?", options=["yes", "no"])
    card = await _card(pair, record)
    session = pair.sessions["sonar"]
    after = max([0, *[e.cursor for e in await pair.b.store.events_after(session.id, 0)]])

    async def poll() -> list[str]:
        async with httpx.AsyncClient(base_url=pair.b.url, timeout=120) as client:
            response = await client.get(
                "/api/session/events",
                params={"after": after, "wait": 60},
                headers={"Authorization": f"Bearer {pair.keys['sonar']}"},
            )
        assert response.status_code == 200, response.text
        return [e["kind"] for e in response.json()["events"]]

    polling = asyncio.create_task(poll())
    async with asyncio.timeout(WAIT):
        # Until the poll waits on B (the feed signals nothing when a reader registers).
        while not pair.b.hub.feed.waiting(session.id):  # noqa: ASYNC110
            await asyncio.sleep(0.01)
    receipt = await pair.a.hub.receive(_click(card.current.buttons[0].payload, card.thread, "x1"))
    assert receipt.outcome is ReplyOutcome.ANSWERED
    async with asyncio.timeout(20):  # far less than the poll's own 60 s wait
        assert await polling == ["escalation_answered"]


# Backends of each replica (named after it: ``<replica>/<nonce>``) waiting for a member's lock.
_WAITING_FOR_MEMBER = """SELECT DISTINCT split_part(a.application_name, '/', 1)
 FROM pg_locks l JOIN pg_stat_activity a USING (pid)
 WHERE l.locktype = 'advisory' AND NOT l.granted
   AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(%s, %s)"""


async def test_reconciliations_on_both_replicas_never_show_an_empty_index(
    pair: Pair, postgres_url: str
) -> None:
    """The index torn, both replicas reconcile at once (two starts, a start beside a
    repair), one held between its statements at a member's lock: a look-up meanwhile finds
    the record or is told the index is unavailable (a click then is refused with a retry,
    never told the card is unknown), and the index ends whole."""
    record = await pair.escalate(pair.a, "radar", message="Keep me", options=["ok"])
    await _card(pair, record)
    await pair.idle()
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as test:
        await test.execute("DROP TABLE escalations")
        with pytest.raises(Unavailable):  # the precondition: torn
            await pair.b.store.check_index()
        lock = ("radar", MEMBER_LOCKS)
        await test.execute("SELECT pg_advisory_lock(hashtextextended(%s, %s))", lock)
        runs = {
            name: asyncio.create_task(replica.bot.escalations.reconcile_all())
            for name, replica in (("a", pair.a), ("b", pair.b))
        }

        async def paused() -> bool:
            """Each run ended or waits for radar's lock, one at least waiting."""
            waiting = {
                r[0] for r in await (await test.execute(_WAITING_FOR_MEMBER, lock)).fetchall()
            }
            return bool(waiting) and all(run.done() or n in waiting for n, run in runs.items())

        await until(paused)
        try:
            found = await pair.b.store.escalation(record)
        except Unavailable:
            pass  # still torn: nobody is told there is no such record
        else:
            assert found is not None and found.id == record, "the index read as empty"
        await test.execute("SELECT pg_advisory_unlock(hashtextextended(%s, %s))", lock)
        await asyncio.gather(*runs.values())
    rebuilt = await pair.b.store.escalation(record)
    assert rebuilt is not None and rebuilt.state.value == "pending"


async def test_a_replica_id_needs_a_shared_postgresql(tmp_path: Path) -> None:
    """On SQLite there is one process: a replica id is refused, and nothing starts."""
    config = load_config(tmp_path, env={"CREWLINE_REPLICA_ID": "a"})
    assert config.replica_id == "a"
    with pytest.raises(ConfigError) as refused:
        async with Crewline(replace(config, port=0, transports=()), transports=[]):
            pass
    assert refused.value.code == "replicas_need_postgresql"
    assert not (tmp_path / "crewline.db").exists()


async def test_a_replica_id_must_be_a_usable_name(tmp_path: Path, postgres_url: str) -> None:
    config = Config(data_dir=tmp_path, port=0, transports=(), database_url=postgres_url)
    with pytest.raises(InvalidInput) as refused:
        async with Crewline(replace(config, replica_id="a b"), transports=[]):
            pass
    assert refused.value.code == "invalid_replica_id"
