"""The Store contract's part for context boundaries and session lifetimes, on every store
through the port alone: generations, moving rows, boundaries and their answers, events
taken, unread and withdrawn, sessions ended and revoked, and the index's reads in a
transaction."""

from __future__ import annotations

from dataclasses import replace

from crewline.models import (
    CallerKind,
    Escalation,
    EscalationState,
    Question,
    RowRole,
    Session,
)
from crewline.store import Store, Tx, Webhook
from tests.contract.test_store_contract import NOW, _member, _row


async def test_a_new_generation_rewinds_the_rows_named_and_keeps_the_rest(store: Store) -> None:
    """begin_generation removes exactly the rows named; move_to_end puts rows last, in the
    order given; rows_after, row_before and last_rows read the live order."""
    await _member(store)
    a, b, c, d = await store.write(lambda tx: [_row(tx, t) for t in "abcd"])
    assert await store.write(lambda tx: tx.generation("radar")) == 1

    def rewind(tx: Tx) -> int:
        generation = tx.begin_generation("radar", rewound=[b])
        tx.move_to_end("radar", [c, a])
        return generation

    assert await store.write(rewind) == 2
    assert [r.id for r in await store.live_rows("radar")] == [d, c, a]

    def read(tx: Tx) -> None:
        assert tx.generation("radar") == 2
        rows = tx.live_rows("radar")
        assert [r.generation for r in rows if r.id in (c, a)] == [2, 2]
        assert [r.id for r in tx.rows_after("radar", rows[0].seq)] == [c, a]
        before = tx.row_before("radar", rows[-1].seq)
        assert before is not None and before.id == c
        assert tx.row_before("radar", rows[0].seq) is None
        assert [r.id for r in tx.last_rows("radar", role=RowRole.MEMBER, limit=2)] == [a, c]
        assert tx.last_rows("radar", role=RowRole.HUMAN, limit=2) == []

    await store.write(read)
    assert await store.row(b) is None
    rewound = await store.row(b, include_rewound=True)
    assert rewound is not None and rewound.text == "b"


async def test_a_boundary_keeps_each_sessions_first_answer_until_it_settles(
    store: Store,
) -> None:
    """put_boundary starts it asking; answer_boundary keeps the first answer per session;
    settle_boundary ends it, so the member has none in flight."""
    await _member(store)
    await store.write(
        lambda tx: tx.put_boundary("b1", member="radar", kind="rewind", asked=["s1", "s2"], now=NOW)
    )

    def answer(tx: Tx) -> None:
        assert tx.boundary_in_flight("radar") == "b1"
        tx.answer_boundary("b1", "s1", answer="ack", reason=None, now=NOW)
        tx.answer_boundary("b1", "s1", answer="nack", reason="late", now=NOW)
        tx.answer_boundary("b1", "s2", answer="nack", reason="mid-turn", now=NOW)

    await store.write(answer)
    record = await store.write(lambda tx: tx.boundary("b1"))
    assert record is not None
    assert (record.member, record.kind, record.state, record.asked) == (
        "radar",
        "rewind",
        "asking",
        ("s1", "s2"),
    )
    assert record.answers == {"s1": ("ack", None), "s2": ("nack", "mid-turn")}
    await store.write(lambda tx: tx.settle_boundary("b1", state="failed", now=NOW))
    settled = await store.write(lambda tx: tx.boundary("b1"))
    assert settled is not None and settled.state == "failed"
    assert await store.write(lambda tx: tx.boundary_in_flight("radar")) is None
    assert await store.write(lambda tx: tx.boundary("nope")) is None


async def test_events_taken_are_no_longer_unread_and_withdrawn_ones_vanish(
    store: Store,
) -> None:
    """take_events reads and remembers; unread_events lists what no session read nor a
    webhook acknowledged, in cursor order; withdraw_events hides events from every reader."""
    await _member(store)

    def add(tx: Tx) -> list[int]:
        tx.add_session(Session(id="s1", kind=CallerKind.MEMBER, member="radar"), "h1", NOW)
        tx.add_session(Session(id="s2", kind=CallerKind.MEMBER, member="radar"), "h2", NOW)
        return [tx.add_event(s, "k", {"n": n}, NOW) for n, s in enumerate(["s1", "s2"] * 3)]

    c1, c2, c3, c4, c5, c6 = await store.write(add)
    taken = await store.write(lambda tx: tx.take_events("s1", 0, limit=1))
    assert [e.cursor for e in taken] == [c1]
    await store.write(
        lambda tx: tx.put_webhook(
            Webhook(session="s2", url="http://x", secret="k", delivered_through=c2, created_at=NOW)
        )
    )
    unread = await store.write(lambda tx: tx.unread_events(["s1", "s2"]))
    assert [e.cursor for e in unread] == [c3, c4, c5, c6]
    await store.write(lambda tx: tx.withdraw_events([c3, c6], generation=2))
    assert [e.cursor for e in await store.write(lambda tx: tx.unread_events(["s1", "s2"]))] == [
        c4,
        c5,
    ]
    assert [e.cursor for e in await store.events_after("s1", 0)] == [c1, c5]
    assert [e.cursor for e in await store.write(lambda tx: tx.take_events("s1", c1))] == [c5]
    assert await store.write(lambda tx: tx.unread_events(["s1"])) == []


async def test_a_session_ends_once_and_a_members_sessions_are_revoked_together(
    store: Store,
) -> None:
    """end_session is true once; session_ended is true for an ended or unknown session;
    revoke_member_sessions revokes the member's own live sessions and counts them."""
    await _member(store)

    def add(tx: Tx) -> None:
        for n in range(3):
            tx.add_session(
                Session(id=f"s{n}", kind=CallerKind.MEMBER, member="radar"), f"h{n}", NOW
            )
        tx.add_session(Session(id="c1", kind=CallerKind.CONCIERGE, member=None), "hc", NOW)

    await store.write(add)
    assert await store.write(lambda tx: tx.session_ended("s0")) is False
    assert await store.write(lambda tx: tx.end_session("s0", NOW)) is True
    assert await store.write(lambda tx: tx.end_session("s0", NOW)) is False
    assert await store.write(lambda tx: tx.session_ended("s0")) is True
    assert await store.write(lambda tx: tx.session_ended("ghost")) is True
    assert await store.session_by_key_hash("h0") is None
    assert await store.write(lambda tx: tx.revoke_member_sessions("radar", NOW)) == 2
    assert await store.write(lambda tx: tx.member_sessions("radar")) == []
    assert await store.session_by_key_hash("hc") is not None


async def test_a_member_recreated_under_its_slug_is_another_incarnation(store: Store) -> None:
    """member_incarnation changes when the member is removed and added again."""
    member = await _member(store)
    first = await store.write(lambda tx: tx.member_incarnation("radar"))
    assert first
    await store.write(lambda tx: tx.remove_member("radar"))
    assert await store.write(lambda tx: tx.member_incarnation("radar")) is None
    await store.write(lambda tx: tx.add_member(member, NOW))
    second = await store.write(lambda tx: tx.member_incarnation("radar"))
    assert second and second != first


async def test_records_read_inside_a_transaction_and_counted_by_state(store: Store) -> None:
    """escalation/escalations/waiting_questions/webhook read in a transaction what the
    Store reads outside; escalation_counts counts records per state."""
    await _member(store)
    pending = Escalation(
        id="e1", member="radar", row_id="r1", session="s1", message="?", created_at=NOW
    )
    answered = replace(pending, id="e2", row_id="r2", state=EscalationState.ANSWERED)
    question = Question(id="q1", member="radar", session="s1", row_id="r3", question="?",
                        created_at=NOW)  # fmt: skip

    def write(tx: Tx) -> None:
        tx.put_escalation(pending)
        tx.put_escalation(answered)
        tx.put_escalation(replace(pending, id="e3", row_id="r4"))
        tx.put_question(question)
        tx.add_session(Session(id="s1", kind=CallerKind.MEMBER, member="radar"), "h1", NOW)
        tx.put_webhook(
            Webhook(session="s1", url="http://x", secret="k", delivered_through=0, created_at=NOW)
        )

    await store.write(write)

    def read(tx: Tx) -> None:
        assert tx.escalation("e2") == answered
        assert tx.escalation("nope") is None
        assert [e.id for e in tx.escalations("radar")] == ["e1", "e2", "e3"]
        assert [e.id for e in tx.escalations("radar", pending_only=True)] == ["e1", "e3"]
        assert tx.waiting_questions("radar") == [question]
        hook = tx.webhook("s1")
        assert hook is not None and hook.url == "http://x"
        assert tx.webhook("s2") is None

    await store.write(read)
    assert await store.escalation_counts() == {"pending": 2, "answered": 1}
