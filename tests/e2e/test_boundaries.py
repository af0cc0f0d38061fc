"""Context boundaries (SPEC §5) over the real HTTP API: the owner's boundary call and the
session's acks on the wire, their refusals' codes, a card answered through the API while a
boundary is in flight, and the event stream during one. The rules of the delta are tested
in-process, in tests/core/test_boundaries.py.

The concurrency tests inject what can happen while a boundary is in flight exactly inside
each of its awaits, through the boundary's test hook (no sleeps), and assert that the thing
really happened mid-boundary before asserting what the commit made of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest

from crewline.bot.boundaries import HookPoint
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, scene

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

AWAITS = [HookPoint.SENT, HookPoint.WAITING, HookPoint.COMMITTING]


def _acking(s: Scene, point: HookPoint | None = None, inject: Any = None) -> None:
    """The session acks as soon as it is asked; ``inject`` runs inside the await ``point``."""

    async def sent(s: Scene) -> None:
        assert await s.ack(s.seen["boundary_id"]) == 200
        if point is HookPoint.SENT and inject is not None:
            await inject(s)

    hooks: dict[HookPoint, Any] = {HookPoint.SENT: sent}
    if point is not None and point is not HookPoint.SENT and inject is not None:
        hooks[point] = inject
    s.on(hooks)


async def test_an_edit_rewinds_from_the_edited_row_and_resends_it_as_a_new_row(
    crew: Crew,
) -> None:
    """Editing h2 keeps m1 h1 m2, rewinds h2 m3, and appends the new text as a new row."""
    s = await scene(crew)
    _acking(s)
    response = await s.edit_h2()
    assert response.status_code == 200, response.text
    outcome = response.json()
    assert sorted(outcome["rewound"]) == sorted([s.rows["h2"].id, s.rows["m3"].id])
    live = await s.live()
    assert live[:3] == ["m1", "h1", "m2"] and live[-1] == "h2 edited"
    assert "h2" not in live and "m3" not in live
    kinds = [e["kind"] for e in await s.read()]
    assert kinds[-4:] == [
        "context_boundary",
        "human_edit",
        "context_boundary_committed",
        "human_message",
    ]
    [ok] = [r for r in await s.sel() if r.outcome == "ok"]
    assert ok.action == "boundary:edit" and ok.member == "radar"


async def test_nothing_to_rewind_and_an_unchanged_edit_are_refused(crew: Crew) -> None:
    """Refusals before anything is sent: a clear code, no event, no record."""
    s = await scene(crew)
    nothing = await s.boundary(kind="rewind", row_id=s.rows["m3"].id)
    assert nothing.status_code == 409 and nothing.json()["error"]["code"] == "nothing_to_rewind"
    same = await s.boundary(kind="edit", row_id=s.rows["h2"].id, text="h2")
    assert same.status_code == 409 and same.json()["error"]["code"] == "unchanged"
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    assert await s.sel() == []


# --- an answer through the API, injected inside each await ------------------------------------


async def _card_answered(s: Scene) -> None:
    assert await s.in_flight()
    answered = await s.answer(s.seen["question"])
    assert answered["state"] == "answered"


@pytest.mark.parametrize("point", AWAITS)
async def test_a_card_answered_during_the_boundary_stays_answered(
    crew: Crew, point: HookPoint
) -> None:
    """Rule 4: the commit retires only cards still waiting; an answer made meanwhile stands."""
    s = await scene(crew)
    s.seen["question"] = await s.ask("Proceed?")  # its row is after h2: the edit rewinds it
    _acking(s, point, _card_answered)
    response = await s.edit_h2()
    assert response.status_code == 200, response.text
    assert response.json()["retired_questions"] == []
    question = await crew.crewline.store.question(s.seen["question"])
    assert question is not None and question.state.value == "answered"
    assert not [e for e in await s.read() if e["kind"] == "question_cancelled"]


# --- the event stream during a boundary -------------------------------------------------------


async def test_an_event_sent_on_the_stream_during_the_boundary_is_not_sent_again(
    crew: Crew,
) -> None:
    """Rule 3 over server-sent events: what the stream sent counts as read."""
    s = await scene(crew)
    sender = await crew.add_session("plain")
    seen: list[dict[str, Any]] = []
    arrived = asyncio.Event()

    async def listen() -> None:
        async with (
            crew.client(s.key) as client,
            client.stream("GET", "/api/session/events/stream", params={"after": 0}) as stream,
        ):
            async for line in stream.aiter_lines():
                if line.startswith("data: "):
                    seen.append(json.loads(line.removeprefix("data: ")))
                    arrived.set()

    listener = asyncio.create_task(listen())

    async def streamed_meanwhile(s: Scene) -> None:
        assert await s.ack(s.seen["boundary_id"]) == 200
        arrived.clear()
        sent = await crew.call(
            sender,
            "POST",
            "/api/session-control/send",
            json={"target": "radar", "message": "streamed meanwhile"},
        )
        assert sent.status_code == 200
        async with asyncio.timeout(10):
            while not any(e["body"].get("text") == "streamed meanwhile" for e in seen):
                await arrived.wait()
                arrived.clear()

    s.on({HookPoint.SENT: streamed_meanwhile})
    try:
        response = await s.edit_h2()
        assert response.status_code == 200, response.text
        async with asyncio.timeout(10):
            while not any(e["body"].get("text") == "h2 edited" for e in seen):
                await arrived.wait()
                arrived.clear()
    finally:
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listener
    texts = [e["body"].get("text") for e in seen if e["kind"] in ("message", "human_message")]
    assert texts.count("streamed meanwhile") == 1
