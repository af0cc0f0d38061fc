"""Audit of destruction (SPEC §5.6): one test per row of docs/boundaries.md's exit table.

Every exit after the discard is sent that does not commit writes exactly one SEL record
with its own reason and ``native_cleared`` = 1 / unknown, or none where it is positively
known that nothing was discarded. Cancellations are landed on the boundary's awaits
through its test hook; each test asserts the cancellation really landed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from crewline.bot.boundaries import (
    DRAIN_PASSES,
    BoundaryKind,
    BoundaryRequest,
    HookPoint,
    Outcome,
)
from crewline.keys import hash_key, new_session_key
from crewline.models import CallerKind, Session, new_id
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, errors, scene
from tests.e2e.raw_database import raw_execute

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


def _edit(s: Scene) -> BoundaryRequest:
    return BoundaryRequest(
        member="radar",
        kind=BoundaryKind.EDIT,
        actor="memory:alice",
        row=s.rows["h2"].id,
        text="h2 edited",
    )


def _start(s: Scene, request: BoundaryRequest | None = None) -> asyncio.Task[Outcome]:
    return asyncio.create_task(s.crew.crewline.bot.boundaries.run(request or _edit(s)))


def _cancel_self() -> None:
    """Land a cancellation on the boundary's next await (the hook runs in its task)."""
    task = asyncio.current_task()
    assert task is not None
    task.cancel()


async def _second_member_session(crew: Crew) -> str:
    key = new_session_key()
    session = Session(id=new_id(), kind=CallerKind.MEMBER, member="radar")
    now = crew.clock.now()
    await crew.crewline.store.write(lambda tx: tx.add_session(session, hash_key(key), now))
    return key


async def _unchanged(s: Scene) -> None:
    live = await s.live()
    assert live[:5] == ["m1", "h1", "m2", "h2", "m3"]
    assert "h2 edited" not in live


async def _cancelled(task: asyncio.Task[Outcome]) -> None:
    with pytest.raises(asyncio.CancelledError):
        await task


async def _cancel_through_the_drain(task: asyncio.Task[Outcome], ready: asyncio.Event) -> int:
    """Once the hook has cancelled the boundary into its drain, cancel it on each of the
    drain's passes; returns how many further cancellations landed."""
    async with asyncio.timeout(10):
        await ready.wait()
    # One step for the hook's own cancellation to land, one to enter the drain's await.
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    landed = 0
    for _ in range(DRAIN_PASSES):
        assert not task.done()
        task.cancel()
        landed += 1
        await asyncio.sleep(0)  # the boundary takes it and awaits its next pass
    return landed


def _block(crew: Crew) -> asyncio.Event:
    """Hold the member's actor busy, so a transaction queued behind it cannot settle."""
    release = asyncio.Event()
    crew.crewline.hub.actors.submit("radar", release.wait)
    return release


# 1 -------------------------------------------------------------------------------------------
async def test_1_a_refusal_before_anything_is_sent_leaves_no_record(crew: Crew) -> None:
    """An unknown row is refused with its code; no event went out, so no record."""
    s = await scene(crew)
    response = await s.boundary(kind="rewind", row_id="0123456789abcdef")
    assert response.json()["error"]["code"] == "unknown_row"
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    assert await s.sel() == []


# 2 -------------------------------------------------------------------------------------------
async def test_2_a_cancelled_freeze_that_raises_leaves_no_record(crew: Crew) -> None:
    """The freeze refused (rolled back): provably nothing was sent."""
    s = await scene(crew)
    s.on({HookPoint.FREEZING: lambda s: _async(_cancel_self)})
    bad = BoundaryRequest(
        member="radar", kind=BoundaryKind.REWIND, actor="memory:alice", row="0123456789abcdef"
    )
    await _cancelled(_start(s, bad))
    assert s.seen["points"] == [HookPoint.FREEZING]
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    assert await s.sel() == []


# 3 -------------------------------------------------------------------------------------------
async def test_3_a_cancelled_freeze_that_lands_records_unknown(crew: Crew) -> None:
    """The discard went out and nobody answered yet: native_cleared=unknown."""
    s = await scene(crew)
    s.on({HookPoint.FREEZING: lambda s: _async(_cancel_self)})
    await _cancelled(_start(s))
    assert [e["kind"] for e in await s.read()][-3:] == [
        "context_boundary",
        "human_edit",
        "context_boundary_aborted",
    ]
    assert errors(await s.sel()) == [("freeze_cancelled", "unknown")]
    assert not await s.in_flight()
    await _unchanged(s)


# 4 -------------------------------------------------------------------------------------------
async def test_4_a_freeze_that_never_settles_in_the_drain_records_unknown(crew: Crew) -> None:
    """Cancelled more often than the drain's passes: unknown; the late freeze is closed."""
    s = await scene(crew)
    release = _block(crew)
    hooked = asyncio.Event()

    async def cancel(s: Scene) -> None:
        hooked.set()
        _cancel_self()

    s.on({HookPoint.FREEZING: cancel})
    task = _start(s)
    landed = await _cancel_through_the_drain(task, hooked)
    await _cancelled(task)
    assert landed == DRAIN_PASSES
    assert errors(await s.sel()) == [("freeze_unsettled", "unknown")]
    release.set()
    # The freeze runs late, once the actor is free, and is closed as soon as it lands: the
    # session is told (in the same transaction that settles the boundary), no second record.
    aborted = await crew.wait_for_event(s.key, "context_boundary_aborted", timeout=30)
    assert aborted["body"]["reason"] == "freeze_unsettled"
    assert not await s.in_flight()
    assert errors(await s.sel()) == [("freeze_unsettled", "unknown")]
    await _unchanged(s)


# 5 -------------------------------------------------------------------------------------------
async def test_5_every_session_refusing_leaves_no_record(crew: Crew) -> None:
    """A nack is positive knowledge that nothing was discarded: 409, no record."""
    s = await scene(crew)

    async def refuse(s: Scene) -> None:
        assert await s.nack(s.seen["boundary_id"], "mid-turn") == 200

    s.on({HookPoint.SENT: refuse})
    response = await s.edit_h2()
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "boundary_refused"
    assert errors(await s.sel()) == []
    live = await s.live()
    assert live[-1].startswith("Not rewound: its session refused")
    await _unchanged(s)


# 6 -------------------------------------------------------------------------------------------
async def test_6_a_refusal_after_another_session_discarded_records_1(crew: Crew) -> None:
    """One session let go, the other refused: the destruction happened."""
    s = await scene(crew)
    other = await _second_member_session(crew)

    async def split(s: Scene) -> None:
        assert await s.ack(s.seen["boundary_id"]) == 200
        refused = await s.crew.call(
            other,
            "POST",
            f"/api/session/boundaries/{s.seen['boundary_id']}/nack",
            json={"reason": "busy"},
        )
        assert refused.status_code == 200

    s.on({HookPoint.SENT: split})
    response = await s.edit_h2()
    assert response.status_code == 409
    assert errors(await s.sel()) == [("refused_after_discard", "1")]
    await _unchanged(s)


# 7 -------------------------------------------------------------------------------------------
async def test_7_no_answer_in_time_records_unknown(crew: Crew) -> None:
    """The bounded wait ends with no answer: 503 boundary_unacknowledged, unknown."""
    s = await scene(crew)
    crew.crewline.bot.boundaries.wait = 0
    response = await s.edit_h2()
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "boundary_unacknowledged"
    assert errors(await s.sel()) == [("ack_timeout", "unknown")]
    await _unchanged(s)


# 8 -------------------------------------------------------------------------------------------
async def test_8_one_ack_and_one_silence_records_1(crew: Crew) -> None:
    """One session let go and the other never answered: it happened."""
    s = await scene(crew)
    await _second_member_session(crew)

    async def one(s: Scene) -> None:
        assert await s.ack(s.seen["boundary_id"]) == 200
        s.crew.crewline.bot.boundaries.wait = 0

    s.on({HookPoint.SENT: one})
    response = await s.edit_h2()
    assert response.status_code == 503
    assert errors(await s.sel()) == [("ack_timeout_after_discard", "1")]
    await _unchanged(s)


# 9 -------------------------------------------------------------------------------------------
async def test_9_the_wait_cancelled_before_any_answer_records_unknown(crew: Crew) -> None:
    """A cancellation inside the wait, nothing answered: unknown."""
    s = await scene(crew)
    s.on({HookPoint.WAITING: lambda s: _async(_cancel_self)})
    await _cancelled(_start(s))
    assert HookPoint.WAITING in s.seen["points"]
    assert errors(await s.sel()) == [("wait_cancelled", "unknown")]
    await _unchanged(s)


# 10 ------------------------------------------------------------------------------------------
async def test_10_the_wait_cancelled_after_the_ack_records_1(crew: Crew) -> None:
    """The session had let go when the cancellation landed: it happened."""
    s = await scene(crew)

    async def ack_then_cancel(s: Scene) -> None:
        assert await s.ack(s.seen["boundary_id"]) == 200
        _cancel_self()

    s.on({HookPoint.WAITING: ack_then_cancel})
    await _cancelled(_start(s))
    assert errors(await s.sel()) == [("wait_cancelled", "1")]
    await _unchanged(s)


# 11 is the member re-created meanwhile: test_boundaries.py
# ::test_a_member_recreated_during_the_boundary_keeps_its_transcript, at each await.


# 12 ------------------------------------------------------------------------------------------
async def test_12_a_generation_moved_meanwhile_records_1(crew: Crew) -> None:
    """Something else rewound the conversation meanwhile: 409, the destruction recorded."""
    s = await scene(crew)

    async def truncate(s: Scene) -> None:
        await s.crew.crewline.bot.escalations.truncate("radar", keep_through=s.rows["m3"].id)

    s.on({HookPoint.SENT: _ack, HookPoint.COMMITTING: truncate})
    response = await s.edit_h2()
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "boundary_generation_moved"
    assert errors(await s.sel()) == [("generation_moved", "1")]
    await _unchanged(s)


async def _ack(s: Scene) -> None:
    assert await s.ack(s.seen["boundary_id"]) == 200


def _drop_index(crew: Crew) -> None:
    raw_execute(crew.config, "DROP TABLE escalations")


# 13 ------------------------------------------------------------------------------------------
async def test_13_a_commit_that_raises_records_1(crew: Crew) -> None:
    """The rewrite failed (an unreadable index): 503 boundary_commit_failed, recorded."""
    s = await scene(crew)

    async def break_index(s: Scene) -> None:
        await asyncio.to_thread(_drop_index, s.crew)

    s.on({HookPoint.SENT: _ack, HookPoint.COMMITTING: break_index})
    response = await s.edit_h2()
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "boundary_commit_failed"
    assert errors(await s.sel()) == [("commit_failed", "1")]
    await _unchanged(s)


# 14 ------------------------------------------------------------------------------------------
async def test_14_a_cancelled_commit_that_raises_records_1(crew: Crew) -> None:
    """A cancellation on the commit, which then fails: the destruction is recorded."""
    s = await scene(crew)

    async def break_and_cancel(s: Scene) -> None:
        await asyncio.to_thread(_drop_index, s.crew)
        _cancel_self()

    s.on({HookPoint.SENT: _ack, HookPoint.COMMITTING: break_and_cancel})
    await _cancelled(_start(s))
    assert errors(await s.sel()) == [("commit_cancelled", "1")]
    await _unchanged(s)


# 15 ------------------------------------------------------------------------------------------
async def test_15_a_commit_that_never_settles_in_the_drain_records_1(crew: Crew) -> None:
    """Cancelled more often than the drain's passes: recorded; the late commit writes nothing."""
    s = await scene(crew)
    blocked: list[asyncio.Event] = []
    hooked = asyncio.Event()

    async def block_and_cancel(s: Scene) -> None:
        blocked.append(_block(s.crew))
        hooked.set()
        _cancel_self()

    s.on({HookPoint.SENT: _ack, HookPoint.COMMITTING: block_and_cancel})
    task = _start(s)
    landed = await _cancel_through_the_drain(task, hooked)
    await _cancelled(task)
    assert landed == DRAIN_PASSES
    assert errors(await s.sel()) == [("commit_unsettled", "1")]
    blocked[0].set()
    await crew.crewline.hub.on_member("radar", lambda: _async(lambda: None))
    await crew.crewline.hub.on_member("radar", lambda: _async(lambda: None))
    assert not [r for r in await s.sel() if r.outcome == "ok"]
    await _unchanged(s)


# 16 ------------------------------------------------------------------------------------------
async def test_16_a_cancelled_commit_that_lands_is_committed_and_no_error(crew: Crew) -> None:
    """The drain sees the commit land: success audited, no error record, the cancel goes on."""
    s = await scene(crew)

    async def cancel(s: Scene) -> None:
        _cancel_self()

    s.on({HookPoint.SENT: _ack, HookPoint.COMMITTING: cancel})
    await _cancelled(_start(s))
    records = await s.sel()
    assert errors(records) == []
    assert [r.outcome for r in records] == ["ok"]
    assert (await s.live())[-1] == "h2 edited"


# 17 is success: test_boundaries.py::test_an_edit_rewinds_from_the_edited_row_and_resends_it...


async def _async(call: Callable[[], Any]) -> None:
    call()
