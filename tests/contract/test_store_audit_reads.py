"""The record as the owner reads it, on every store through the port: the SEL and the
concierge's ledger, paged by id and filtered by member, time and kind."""

from __future__ import annotations

from datetime import timedelta

from crewline.models import LedgerEntry
from crewline.store import Store, Tx
from tests.contract.test_store_contract import NOW


def _audit(tx: Tx) -> None:
    tx.audit("boundary:rewind", "ok", NOW, actor="owner:1", member="radar", details={"n": 1})
    tx.audit("boundary_x", "ok", NOW, member="radar")  # '_' must not match as a wildcard
    tx.audit("escalate:caller_blocked", "denied", NOW + timedelta(minutes=1), member="scout")
    tx.audit("boundary:edit", "error", NOW + timedelta(minutes=2), member="radar")
    tx.audit("boundary", "ok", NOW + timedelta(minutes=3))


async def test_sel_after_pages_by_id_and_filters(store: Store) -> None:
    """sel_after: ids above the cursor, oldest first, at most limit; member, since and an
    action with everything beneath it narrow it, each alone and together."""
    await store.write(_audit)
    every = await store.sel_after(0, limit=100)
    assert [r.action for r in every] == [
        "boundary:rewind",
        "boundary_x",
        "escalate:caller_blocked",
        "boundary:edit",
        "boundary",
    ]
    assert every[0].details == {"n": 1} and every[0].actor == "owner:1"
    first, second = every[0].id, every[1].id
    assert [r.id for r in await store.sel_after(0, limit=2)] == [first, second]
    assert [r.action for r in await store.sel_after(second, limit=100)] == [
        "escalate:caller_blocked",
        "boundary:edit",
        "boundary",
    ]
    boundaries = await store.sel_after(0, limit=100, action="boundary")
    assert [r.action for r in boundaries] == ["boundary:rewind", "boundary:edit", "boundary"]
    assert [r.action for r in await store.sel_after(0, limit=100, action="boundary:edit")] == [
        "boundary:edit"
    ]
    radar = await store.sel_after(0, limit=100, member="radar")
    assert [r.action for r in radar] == ["boundary:rewind", "boundary_x", "boundary:edit"]
    later = await store.sel_after(0, limit=100, since=NOW + timedelta(minutes=1))
    assert [r.action for r in later] == ["escalate:caller_blocked", "boundary:edit", "boundary"]
    together = await store.sel_after(first, limit=100, member="radar", since=NOW, action="boundary")
    assert [r.action for r in together] == ["boundary:edit"]
    assert await store.sel_after(every[-1].id, limit=100) == []


async def test_ledger_after_pages_by_id_and_filters(store: Store) -> None:
    """ledger_after: ids above the cursor, oldest first, at most limit; member, since and
    decision narrow it."""

    def entry(n: int, member: str | None, decision: str) -> LedgerEntry:
        return LedgerEntry(
            at=NOW + timedelta(minutes=n),
            member=member,
            record_id=f"{n:016x}",
            decision=decision,
            verdict="routine",
            policy="routine",
            brain="offline",
            rationale=f"r{n}",
            evidence=(f"row{n}",),
            actor="concierge",
        )

    entries = [
        entry(0, "radar", "suggested"),
        entry(1, "scout", "answered"),
        entry(2, "radar", "answered"),
        entry(3, None, "acted"),
    ]
    await store.write(lambda tx: tx.add_ledger_entries(entries))
    every = await store.ledger_after(0, limit=100)
    assert [e.rationale for e in every] == ["r0", "r1", "r2", "r3"]
    assert every[1].evidence == ("row1",) and every[1].actor == "concierge"
    assert [e.rationale for e in await store.ledger_after(every[0].id, limit=2)] == ["r1", "r2"]
    radar = await store.ledger_after(0, limit=100, member="radar")
    assert [e.rationale for e in radar] == ["r0", "r2"]
    answered = await store.ledger_after(0, limit=100, decision="answered")
    assert [e.rationale for e in answered] == ["r1", "r2"]
    later = await store.ledger_after(0, limit=100, since=NOW + timedelta(minutes=2))
    assert [e.rationale for e in later] == ["r2", "r3"]
    assert await store.ledger_after(every[-1].id, limit=100) == []
