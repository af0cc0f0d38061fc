"""The Store contract, run against every Store implementation (SQLite and PostgreSQL),
through the port alone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from crewline.errors import Conflict, NotFound
from crewline.models import (
    BellLine,
    CallerKind,
    Escalation,
    EscalationState,
    Identity,
    Member,
    Question,
    QuestionState,
    RowRole,
    Session,
)
from crewline.store import PlatformMessage, PostContext, RedrawContext, Store, Tx
from crewline.store.sqlite import SqliteStore

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


async def _member(store: Store, slug: str = "radar") -> Member:
    def write(tx: Tx) -> Member:
        human = tx.ensure_human([Identity(platform="memory", user_id="alice")], NOW)
        member = Member(slug=slug, name=slug.title(), owner=human, transports=("memory",))
        tx.add_member(member, NOW)
        return member

    return await store.write(write)


def _row(tx: Tx, text: str, conversation: str = "radar") -> str:
    return tx.append_row(
        conversation=conversation, role=RowRole.MEMBER, author="Radar", text=text, meta={}, now=NOW
    ).id


async def test_a_member_round_trips_with_its_transports(store: Store) -> None:
    """What add_member writes, member() reads back; a second add of the slug conflicts."""
    member = await _member(store)
    assert await store.member("radar") == member
    with pytest.raises(Conflict):
        await store.write(lambda tx: tx.add_member(member, NOW))
    assert [m.slug for m in await store.members()] == ["radar"]


async def test_identities_of_one_human_resolve_to_that_human(store: Store) -> None:
    """Several platform accounts bind to one human; unknown accounts resolve to nobody."""
    human = await store.write(
        lambda tx: tx.ensure_human(
            [Identity(platform="slack", user_id="U1"), Identity(platform="telegram", user_id="7")],
            NOW,
        )
    )
    assert await store.human_of("slack", "U1") == human
    assert await store.human_of("telegram", "7") == human
    assert await store.human_of("slack", "U2") is None


async def test_rows_keep_their_order_and_ids(store: Store) -> None:
    """Rows come back in sequence order with the ids they were written under."""
    await _member(store)
    ids = await store.write(lambda tx: [_row(tx, f"r{n}") for n in range(3)])
    rows = await store.live_rows("radar")
    assert [r.id for r in rows] == ids
    assert [r.seq for r in rows] == sorted(r.seq for r in rows)


async def test_truncating_starts_a_new_generation_without_the_suffix(store: Store) -> None:
    """Rows after the kept row leave the transcript; new rows join the new generation."""
    await _member(store)
    ids = await store.write(lambda tx: [_row(tx, f"r{n}") for n in range(4)])
    generation = await store.write(
        lambda tx: tx.truncate_conversation("radar", keep_through=ids[1])
    )
    assert generation == 2
    assert [r.id for r in await store.live_rows("radar")] == ids[:2]
    new = await store.write(lambda tx: _row(tx, "after"))
    rows = await store.live_rows("radar")
    assert [r.id for r in rows] == [*ids[:2], new]
    assert rows[-1].generation == 2
    assert await store.row(ids[3]) is None
    assert await store.row(ids[3], include_rewound=True) is not None
    with pytest.raises(NotFound):
        await store.write(lambda tx: tx.truncate_conversation("radar", keep_through=ids[3]))


async def test_escalation_records_round_trip_and_count_pending(store: Store) -> None:
    """The index stores every field; pending counts follow the states; a held window is
    never due."""
    await _member(store)
    record = Escalation(
        id="0123456789abcdef",
        member="radar",
        row_id="r1",
        session="s1",
        message="Ship?",
        deadline=NOW + timedelta(hours=1),
        default_action="ship",
        options=("yes", "no"),
        goal="release",
        created_at=NOW,
    )
    await store.write(lambda tx: tx.put_escalation(record))
    assert await store.escalation(record.id) == record
    assert await store.pending_counts() == {"radar": 1}
    assert await store.due_windows(NOW + timedelta(hours=2)) == [
        (record.id, "radar", record.deadline)
    ]
    held = replace(record, window_held=True)  # its answer was taken back: it waits
    await store.write(lambda tx: tx.put_escalation(held))
    assert await store.escalation(record.id) == held
    assert await store.pending_counts() == {"radar": 1}
    assert await store.due_windows(NOW + timedelta(hours=2)) == []
    answered = replace(record, state=EscalationState.ANSWERED)
    await store.write(lambda tx: tx.put_escalation(answered))
    assert await store.pending_counts() == {}
    assert await store.due_windows(NOW + timedelta(hours=2)) == []


async def test_a_bell_reads_what_it_says_of_the_open_requests_of_one_goal(store: Store) -> None:
    """bell_lines: the member's pending records about one goal ("": none), oldest first,
    each as the bell words it; answered ones, other goals and other members are left out."""
    await _member(store)
    await _member(store, "quill")

    def record(n: int, **fields: object) -> Escalation:
        made: dict[str, object] = {
            "id": f"{n:016x}",
            "member": "radar",
            "row_id": f"r{n}",
            "session": "s1",
            "message": f"m{n}",
            "created_at": NOW + timedelta(seconds=n),
        }
        return Escalation(**(made | fields))  # type: ignore[arg-type]

    records = [
        record(3, deadline=NOW, default_action="ship", options=("yes", "no")),
        record(1, window_held=True, deadline=NOW),
        record(2, goal="release"),
        record(4, state=EscalationState.ANSWERED),
        record(5, member="quill"),
        record(6, goal=""),
    ]
    await store.write(lambda tx: [tx.put_escalation(r) for r in records])
    assert await store.bell_lines("radar", "") == [
        BellLine(message="m1", deadline=NOW, window_held=True),
        BellLine(message="m3", deadline=NOW, default_action="ship", options=("yes", "no")),
        BellLine(message="m6"),
    ]
    assert await store.bell_lines("radar", "release") == [BellLine(message="m2")]
    assert await store.bell_lines("nobody", "") == []


async def test_waiting_questions_are_listed_per_member_oldest_first(store: Store) -> None:
    """A member's waiting questions, in the order asked; answered ones and others' leave."""
    await _member(store)
    await _member(store, "probe")
    first, second = (
        Question(
            id=f"{n:016x}",
            member="radar",
            session="s1",
            row_id=f"q{n}",
            question=f"Question {n}?",
            options=("a", "b"),
            created_at=NOW + timedelta(seconds=n),
        )
        for n in (1, 2)
    )
    other = replace(first, id="f" * 16, member="probe")
    await store.write(lambda tx: [tx.put_question(q) for q in (second, first, other)])
    assert await store.waiting_questions("radar") == [first, second]
    assert await store.waiting_counts() == {"radar": 2, "probe": 1}
    answered = replace(first, state=QuestionState.ANSWERED, answer="a", settled_at=NOW)
    await store.write(lambda tx: tx.put_question(answered))
    assert await store.waiting_questions("radar") == [second]
    assert await store.waiting_questions("nobody") == []


async def test_events_are_read_by_cursor_per_session(store: Store) -> None:
    """A session's stream is ordered, resumable from any cursor, and its own."""
    cursors = await store.write(
        lambda tx: [tx.add_event(session, "k", {"n": n}, NOW) for n, session in enumerate("abab")]
    )
    events = await store.events_after("a", 0)
    assert [e.body["n"] for e in events] == [0, 2]
    assert [e.body["n"] for e in await store.events_after("a", cursors[0])] == [2]
    assert await store.events_after("a", cursors[2]) == []
    assert await store.has_events_after("a", cursors[0])
    assert not await store.has_events_after("a", cursors[2])
    await store.write(lambda tx: tx.withdraw_events([cursors[2]], generation=1))
    assert not await store.has_events_after("a", cursors[0])  # a withdrawn one is none


async def test_the_outbox_offers_one_head_per_lane_in_order(store: Store) -> None:
    """Heads are the oldest entry of each lane; settling one exposes the next."""

    def fill(tx: Tx) -> list[int]:
        return [
            tx.enqueue(transport="memory", lane=lane, op="post", object_key=f"row:{n}", now=NOW)
            for n, lane in enumerate(["a", "b", "a"])
        ]

    ids = await store.write(fill)
    assert [h.id for h in await store.outbox_heads("memory")] == ids[:2]
    await store.write(lambda tx: tx.settle_outbox(ids[0]))
    assert [h.id for h in await store.outbox_heads("memory")] == [ids[1], ids[2]]
    assert await store.outbox_size("memory") == 2


async def test_a_post_behind_another_entry_of_its_lane_has_not_begun(store: Store) -> None:
    """posts_not_begun names the posts queued behind an earlier entry of their lane on
    that transport, never a lane's head, a post no longer queued, another op or another
    transport's post; a store may name fewer (PostgreSQL names none), never more."""

    def fill(tx: Tx) -> None:
        for lane, op, key, transport in [
            ("a", "post", "row:1", "memory"),  # a's head
            ("a", "post", "row:2", "memory"),  # behind it
            ("a", "update", "row:1", "memory"),
            ("b", "post", "row:3", "memory"),  # b's head: may be being drawn
            ("c", "update", "row:4", "memory"),
            ("c", "post", "row:5", "slack"),  # another transport's lane
            ("c", "post", "row:6", "slack"),
        ]:
            tx.queue_call(transport=transport, lane=lane, op=op, object_key=key, now=NOW)

    await store.write(fill)
    asked = [("a", "row:1"), ("a", "row:2"), ("b", "row:3"), ("c", "row:4"), ("c", "row:6")]
    asked += [("a", "row:9"), ("z", "row:2")]
    found = await store.write(lambda tx: tx.posts_not_begun("memory", asked))
    on_slack = await store.write(lambda tx: tx.posts_not_begun("slack", [("c", "row:6")]))
    assert found <= {("a", "row:2")} and on_slack <= {("c", "row:6")}
    if isinstance(store, SqliteStore):  # one writer: the promise can be kept exactly
        assert (found, on_slack) == ({("a", "row:2")}, {("c", "row:6")})
    assert await store.write(lambda tx: tx.posts_not_begun("memory", [])) == set()


async def test_an_outbox_entry_says_when_it_was_queued(store: Store) -> None:
    """``created_at`` is the enqueuing transaction's moment, read back by head and by lane
    (a retried post looks for its earlier attempt no further back than this)."""

    def fill(tx: Tx) -> None:
        tx.enqueue(transport="memory", lane="a", op="post", object_key="row:1", now=NOW)
        tx.queue_call(
            transport="memory",
            lane="b",
            op="post",
            object_key="row:2",
            now=NOW + timedelta(seconds=1.5),
        )

    await store.write(fill)
    heads = {h.lane: h.created_at for h in await store.outbox_heads("memory")}
    assert heads == {"a": NOW, "b": NOW + timedelta(seconds=1.5)}
    head = await store.outbox_head("memory", "b")
    assert head is not None and head.created_at == NOW + timedelta(seconds=1.5)


async def test_the_outbox_backlog_names_the_oldest_waiting_entry_and_the_dead(
    store: Store,
) -> None:
    """Per transport: how many wait, since when and why, and how many were given up."""
    assert await store.outbox_backlog() == []

    def fill(tx: Tx) -> list[int]:
        return [
            tx.enqueue(
                transport=transport,
                lane="a",
                op="post",
                object_key=f"row:{n}",
                now=NOW + timedelta(minutes=n),
            )
            for n, transport in enumerate(["slack", "slack", "memory", "slack"])
        ]

    ids = await store.write(fill)
    await store.write(lambda tx: tx.retry_outbox(ids[0], not_before=0, error="timed out"))
    await store.write(lambda tx: tx.bury_outbox(ids[2], error="forbidden", now=NOW))
    backlog = {b.transport: b for b in await store.outbox_backlog()}
    assert set(backlog) == {"memory", "slack"}
    slack, memory = backlog["slack"], backlog["memory"]
    assert (slack.pending, slack.oldest, slack.oldest_error, slack.dead) == (
        3,
        NOW,
        "timed out",
        0,
    )
    assert (memory.pending, memory.oldest, memory.dead) == (0, None, 1)


async def test_a_platform_event_is_seen_once(store: Store) -> None:
    """mark_seen is true the first time and false for a redelivery."""
    assert await store.write(lambda tx: tx.mark_seen("slack", "Ev1", NOW)) is True
    assert await store.write(lambda tx: tx.mark_seen("slack", "Ev1", NOW)) is False
    assert await store.write(lambda tx: tx.mark_seen("telegram", "Ev1", NOW)) is True


async def test_a_seen_event_keeps_its_first_receipt(store: Store) -> None:
    """keep_receipt stores what the first delivery was told beside its mark; seen_event
    reads it back; a refused event (never marked) keeps nothing; keeping a receipt forgets
    no other mark, however old."""
    assert await store.write(lambda tx: tx.seen_event("slack", "Ev1")) is None
    told = {"accepted": True, "notice": "Answered: yes", "open": ["e1", "e2"]}

    def take(tx: Tx) -> None:
        assert tx.mark_seen("slack", "Ev1", NOW)
        tx.keep_receipt("slack", "Ev1", told)

    await store.write(take)
    seen = await store.write(lambda tx: tx.seen_event("slack", "Ev1"))
    assert seen is not None and (seen.seen_at, seen.receipt) == (NOW, told)

    await store.write(lambda tx: tx.mark_seen("slack", "Ev2", NOW))  # marked, nothing kept
    kept_none = await store.write(lambda tx: tx.seen_event("slack", "Ev2"))
    assert kept_none is not None and kept_none.receipt is None

    refused = {"accepted": False, "code": "not_owner"}
    await store.write(lambda tx: tx.keep_receipt("slack", "Ev3", refused))
    assert await store.write(lambda tx: tx.seen_event("slack", "Ev3")) is None

    later = NOW + timedelta(days=30)

    def take_later(tx: Tx) -> None:
        assert tx.mark_seen("slack", "Ev4", later)
        tx.keep_receipt("slack", "Ev4", told)

    await store.write(take_later)
    old = await store.write(lambda tx: tx.seen_event("slack", "Ev1"))
    assert old is not None and old.receipt == told


async def test_a_sweep_forgets_marks_before_its_horizon_only(store: Store) -> None:
    """forget_seen_events forgets marks made before ``before`` with their receipts, the
    oldest first and at most ``limit`` at a time; a mark at or after ``before`` keeps its
    receipt, and a forgotten event is new again."""
    told = {"accepted": True, "notice": "Answered: yes"}
    ages = {"old1": 9, "old2": 8, "old3": 7.5, "edge": 7, "new": 1}  # days before NOW

    def take(tx: Tx) -> None:
        for event_id, days in ages.items():
            assert tx.mark_seen("telegram", event_id, NOW - timedelta(days=days))
            tx.keep_receipt("telegram", event_id, told)

    await store.write(take)
    before = NOW - timedelta(days=7)
    assert await store.write(lambda tx: tx.forget_seen_events(before=before, limit=2)) == 2
    assert await store.write(lambda tx: tx.seen_event("telegram", "old1")) is None
    assert await store.write(lambda tx: tx.seen_event("telegram", "old2")) is None
    assert await store.write(lambda tx: tx.seen_event("telegram", "old3")) is not None
    assert await store.write(lambda tx: tx.forget_seen_events(before=before, limit=2)) == 1
    assert await store.write(lambda tx: tx.forget_seen_events(before=before, limit=2)) == 0

    for event_id in ("edge", "new"):
        kept = await store.write(lambda tx, e=event_id: tx.seen_event("telegram", e))
        assert kept is not None and kept.receipt == told, event_id
    assert await store.write(lambda tx: tx.seen_event("telegram", "old3")) is None
    assert await store.write(lambda tx: tx.mark_seen("telegram", "old1", NOW)) is True


async def test_the_audit_log_is_append_only(store: Store) -> None:
    """SEL records can be added and read, never changed."""
    await store.write(lambda tx: tx.audit("escalate:caller_blocked", "denied", NOW, actor="s1"))
    records = await store.sel(action_prefix="escalate:")
    assert [(r.action, r.actor) for r in records] == [("escalate:caller_blocked", "s1")]
    assert [r.action for r in await store.sel(action_prefix="other")] == []


async def test_platform_messages_map_both_ways(store: Store) -> None:
    """A recorded platform message is found by object and by message ref."""
    shown = PlatformMessage(
        transport="slack", object_key="row:x", thread_ref="D1:1.0", message_ref="2.0"
    )
    await store.write(lambda tx: tx.record_platform_message(shown))
    assert await store.platform_message("slack", "row:x") == shown
    assert await store.object_for_message("slack", "2.0") == "row:x"


async def test_a_posts_look_ups_read_together_are_those_read_one_by_one(store: Store) -> None:
    """post_context gives the object's redraws in the lane, its recorded message and the
    lane's member's thread, as outbox_object_ids, platform_message and thread_ref do."""
    await _member(store)

    async def one_by_one() -> PostContext:
        return PostContext(
            redraws=tuple(await store.outbox_object_ids("memory", "radar", "update", "row:x")),
            shown=await store.platform_message("memory", "row:x"),
            thread_ref=await store.thread_ref("radar", "memory"),
        )

    nothing = PostContext(redraws=(), shown=None, thread_ref=None)
    assert await store.post_context("memory", "radar", "row:x") == nothing == await one_by_one()

    def queue(tx: Tx) -> None:
        for op, key in [("post", "row:x"), ("update", "row:x"), ("update", "row:y")]:
            tx.queue_call(transport="memory", lane="radar", op=op, object_key=key, now=NOW)
        tx.queue_call(transport="memory", lane="other", op="update", object_key="row:x", now=NOW)
        tx.queue_call(transport="memory", lane="radar", op="update", object_key="row:x", now=NOW)
        tx.record_thread("radar", "memory", "T1")
        tx.record_platform_message(
            PlatformMessage(
                transport="memory", object_key="row:x", thread_ref="T1", message_ref="M1"
            )
        )

    await store.write(queue)
    both = await store.post_context("memory", "radar", "row:x")
    assert both == await one_by_one()
    assert len(both.redraws) == 2 and both.shown is not None and both.thread_ref == "T1"
    assert await store.post_context("slack", "radar", "row:x") == nothing


async def test_a_redraws_look_ups_read_together_are_those_read_one_by_one(store: Store) -> None:
    """redraw_context gives the object's entries of the op in the lane and its recorded
    message, as outbox_object_ids and platform_message do."""
    await _member(store)

    async def one_by_one(op: str, key: str) -> RedrawContext:
        return RedrawContext(
            covered=tuple(await store.outbox_object_ids("memory", "radar", op, key)),
            shown=await store.platform_message("memory", key),
        )

    nothing = RedrawContext(covered=(), shown=None)
    assert await store.redraw_context("memory", "radar", "update", "row:x") == nothing
    assert nothing == await one_by_one("update", "row:x")

    def queue(tx: Tx) -> None:
        for op, key in [("post", "row:x"), ("update", "row:x"), ("ring", "bell:x")]:
            tx.queue_call(transport="memory", lane="radar", op=op, object_key=key, now=NOW)
        tx.queue_call(transport="memory", lane="other", op="update", object_key="row:x", now=NOW)
        tx.queue_call(transport="memory", lane="radar", op="update", object_key="row:x", now=NOW)
        tx.record_platform_message(
            PlatformMessage(
                transport="memory", object_key="row:x", thread_ref="T1", message_ref="M1"
            )
        )

    await store.write(queue)
    update = await store.redraw_context("memory", "radar", "update", "row:x")
    assert update == await one_by_one("update", "row:x")
    assert len(update.covered) == 2 and update.shown is not None
    ring = await store.redraw_context("memory", "radar", "ring", "bell:x")
    assert ring == await one_by_one("ring", "bell:x")
    assert len(ring.covered) == 1 and ring.shown is None
    assert await store.redraw_context("slack", "radar", "update", "row:x") == nothing


async def test_sessions_are_found_by_key_hash_only_while_live(store: Store) -> None:
    """A session resolves from its key hash; an unknown hash resolves to nothing."""
    await _member(store)
    session = Session(id="s1", kind=CallerKind.MEMBER, member="radar")
    await store.write(lambda tx: tx.add_session(session, "hash-1", NOW))
    assert await store.session_by_key_hash("hash-1") == session
    assert await store.session_by_key_hash("hash-2") is None


async def test_a_session_is_found_with_its_member_by_key_hash(store: Store) -> None:
    """What a call's key check reads: the session and the member it speaks for, as
    ``member`` reads it; no member for a session of none; nothing for a revoked or unknown
    key, or a removed member's."""

    def two_transports(tx: Tx) -> Member:
        human = tx.ensure_human([Identity(platform="memory", user_id="alice")], NOW)
        member = Member(slug="radar", name="Radar", owner=human, transports=("slack", "memory"))
        tx.add_member(member, NOW)
        return member

    await store.write(two_transports)
    await _member(store, "probe")
    own = Session(id="s1", kind=CallerKind.MEMBER, member="radar")
    probe = Session(id="s2", kind=CallerKind.MEMBER, member="probe")
    nobody = Session(id="s3", kind=CallerKind.MEMBER, member=None)
    for session, key_hash in ((own, "hash-1"), (probe, "hash-2"), (nobody, "hash-3")):
        await store.write(lambda tx, s=session, h=key_hash: tx.add_session(s, h, NOW))
    radar = await store.member("radar")
    assert radar is not None and radar.transports == ("memory", "slack")
    assert await store.session_and_member("hash-1") == (own, radar)
    assert await store.session_and_member("hash-2") == (probe, await store.member("probe"))
    await store.write(lambda tx: tx.remove_member("probe"))
    assert await store.session_and_member("hash-2") is None  # its sessions went with it
    assert await store.session_and_member("hash-3") == (nobody, None)
    await store.write(lambda tx: tx.revoke_member_sessions("radar", NOW))
    assert await store.session_and_member("hash-1") is None
    assert await store.session_and_member("hash-4") is None


async def test_live_sessions_leave_out_the_revoked_and_the_removed(store: Store) -> None:
    """What an open stream is checked by: a revoked key, a removed member or an id never
    given is not live."""
    await _member(store)
    await _member(store, "probe")
    first = Session(id="s1", kind=CallerKind.MEMBER, member="radar")
    other = Session(id="s2", kind=CallerKind.MEMBER, member="probe")
    await store.write(
        lambda tx: (tx.add_session(first, "h1", NOW), tx.add_session(other, "h2", NOW))
    )
    assert await store.live_sessions({"s1", "s2", "nobody"}) == {"s1", "s2"}
    assert await store.live_sessions(set()) == set()
    await store.write(lambda tx: tx.revoke_member_sessions("radar", NOW))
    await store.write(lambda tx: tx.remove_member("probe"))
    assert await store.live_sessions({"s1", "s2"}) == set()


# --- group commit ---------------------------------------------------------------------------


async def test_concurrent_writers_each_commit_their_own_transaction_atomically(
    store: Store,
) -> None:
    """N concurrent transactions each commit atomically; each caller sees its own result."""
    await _member(store)

    def transaction(n: int) -> Callable[[Tx], tuple[int, str, str]]:
        def run(tx: Tx) -> tuple[int, str, str]:
            return n, _row(tx, f"a{n}"), _row(tx, f"b{n}")

        return run

    results = await asyncio.gather(*[store.write(transaction(n)) for n in range(200)])
    assert [r[0] for r in results] == list(range(200))
    rows = {r.id: r.text for r in await store.live_rows("radar")}
    assert all(rows[a] == f"a{n}" and rows[b] == f"b{n}" for n, a, b in results)


async def test_a_failing_transaction_does_not_take_its_batch_down(store: Store) -> None:
    """One transaction raising rolls back only itself; the rest of its batch commits."""
    await _member(store)

    def good(n: int) -> Callable[[Tx], str]:
        return lambda tx: _row(tx, f"good {n}")

    def bad(tx: Tx) -> None:
        _row(tx, "half-written")
        raise ValueError("boom")

    outcomes = await asyncio.gather(
        store.write(good(1)), store.write(bad), store.write(good(2)), return_exceptions=True
    )
    assert isinstance(outcomes[1], ValueError)
    # concurrent writes promise no order among themselves (PostgreSQL runs them in parallel)
    texts = sorted(r.text for r in await store.live_rows("radar"))
    assert texts == ["good 1", "good 2"]


async def test_a_queued_call_takes_its_place_in_its_lane_like_an_enqueued_one(
    store: Store,
) -> None:
    """queue_call writes the entry enqueue would (no id returned): the lane's entries come
    out in the order they were written, whichever of the two wrote them; a redraw too."""

    def write(tx: Tx) -> int:
        tx.queue_call(transport="memory", lane="L", op="post", object_key="row:1", now=NOW)
        second = tx.enqueue(transport="memory", lane="L", op="post", object_key="row:2", now=NOW)
        tx.queue_call(
            transport="memory", lane="L", op="post", object_key="row:3", now=NOW,
            body={"n": 3},
        )  # fmt: skip
        tx.queue_call(
            transport="memory", lane="roster", op="roster", object_key="roster", now=NOW,
            ordered=False,
        )  # fmt: skip
        return second

    second = await store.write(write)
    delivered = []
    while (head := await store.outbox_head("memory", "L")) is not None:
        delivered.append((head.object_key, head.body))
        await store.write(lambda tx, entry=head.id: tx.settle_outbox(entry))
    assert delivered == [("row:1", {}), ("row:2", {}), ("row:3", {"n": 3})]
    assert second > 0
    assert await store.outbox_object_ids("memory", "roster", "roster", "roster")


async def test_queued_calls_that_end_a_transaction_all_land_in_order(store: Store) -> None:
    """Several queue_calls as a transaction's last writes (an escalation's card, bell and
    roster) land, each in its lane in the order queued, whether the transaction commits
    alone or beside others; a transaction that raises after queuing lands none."""

    def queue(n: int) -> Callable[[Tx], None]:
        def write(tx: Tx) -> None:
            _row(tx, f"said {n}")
            for lane, key in (("L", f"row:{n}"), ("bell", f"bell:{n}"), ("L", f"row:{n}b")):
                tx.queue_call(transport="memory", lane=lane, op="post", object_key=key, now=NOW)
            tx.queue_call(
                transport="memory", lane="roster", op="roster", object_key="roster", now=NOW,
                body={"n": n}, ordered=False,
            )  # fmt: skip

        return write

    def fails(tx: Tx) -> None:
        queue(99)(tx)
        raise ValueError("after queuing")

    await store.write(queue(0))
    outcomes = await asyncio.gather(
        *(store.write(queue(n)) for n in range(1, 9)), store.write(fails), return_exceptions=True
    )
    assert outcomes[:8] == [None] * 8 and isinstance(outcomes[8], ValueError)

    async def drain(lane: str) -> list[str]:
        keys = []
        while (head := await store.outbox_head("memory", lane)) is not None:
            keys.append(head.object_key)
            await store.write(lambda tx, entry=head.id: tx.settle_outbox(entry))
        return keys

    lane = await drain("L")
    # concurrent transactions commit in any order; each one's two entries stay in order
    assert sorted(lane) == sorted(k for n in range(9) for k in (f"row:{n}", f"row:{n}b"))
    assert all(lane.index(f"row:{n}") < lane.index(f"row:{n}b") for n in range(9))
    assert sorted(await drain("bell")) == sorted(f"bell:{n}" for n in range(9))
    assert len(await store.outbox_object_ids("memory", "roster", "roster", "roster")) == 9
    assert await store.outbox_size() == 9  # the roster redraws, none of the failed one's
