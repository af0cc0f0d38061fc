"""Context boundaries (SPEC §5): one transaction, committed by delta, over the real HTTP API.

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

from crewline import crew as crew_admin
from crewline.bot.boundaries import HookPoint
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, errors, scene

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


async def test_a_stateless_session_counts_as_discarded_at_once(crew: Crew) -> None:
    """A stateless member's rewind commits without waiting for any acknowledgement."""
    s = await scene(crew, stateless=True)
    s.on({})
    response = await s.boundary(kind="rewind", row_id=s.rows["m2"].id)
    assert response.status_code == 200, response.text
    assert HookPoint.WAITING not in s.seen["points"]
    assert (await s.live())[:3] == ["m1", "h1", "m2"]
    assert "h2" not in await s.live()


async def test_rewind_n_regenerate_and_reset(crew: Crew) -> None:
    """/rewind 2 continues from h1; regenerate re-delivers the last human row; reset empties."""
    s = await scene(crew, stateless=True)
    rewound = await s.boundary(kind="rewind", steps=2)
    assert rewound.status_code == 200, rewound.text
    assert (await s.live())[:2] == ["m1", "h1"] and "m2" not in await s.live()
    await s.post("m2 again")
    regenerated = await s.boundary(kind="regenerate")
    assert regenerated.status_code == 200, regenerated.text
    assert "m2 again" not in await s.live()
    again = [e for e in await s.read() if e["kind"] == "human_message"][-1]
    assert again["body"] == {"row_id": s.rows["h1"].id, "text": "h1", "regenerate": True}
    reset = await s.boundary(kind="reset")
    assert reset.status_code == 200, reset.text
    assert [t for t in await s.live() if not t.startswith(("Rewound", "Regen", "Reset"))] == []


async def test_nothing_to_rewind_and_an_unchanged_edit_are_refused(crew: Crew) -> None:
    """Refusals before anything is sent: a clear code, no event, no record."""
    s = await scene(crew)
    nothing = await s.boundary(kind="rewind", row_id=s.rows["m3"].id)
    assert nothing.status_code == 409 and nothing.json()["error"]["code"] == "nothing_to_rewind"
    same = await s.boundary(kind="edit", row_id=s.rows["h2"].id, text="h2")
    assert same.status_code == 409 and same.json()["error"]["code"] == "unchanged"
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    assert await s.sel() == []


async def test_an_undelivered_event_about_a_rewound_row_is_withdrawn(crew: Crew) -> None:
    """Rule 2 for the session: the rewound suffix is not delivered after the boundary."""
    s = await scene(crew)
    [session] = await crew.crewline.store.write(lambda tx: tx.member_sessions("radar"))
    queued = await crew.crewline.store.events_after(session.id, 0)  # read, not delivered
    about = [e.body.get("row_id") for e in queued if e.kind == "human_message"]
    assert about == [s.rows["h1"].id, s.rows["h2"].id]
    _acking(s)
    response = await s.edit_h2()
    assert response.status_code == 200, response.text
    told = [e["body"] for e in await s.read() if e["kind"] == "human_message"]
    assert [b["row_id"] for b in told] == [s.rows["h1"].id, response.json()["resent_row"]]


# --- the delta rules, injected inside each await ----------------------------------------------


async def _row_arrives(s: Scene) -> None:
    assert await s.in_flight()
    s.seen["arrived"] = await s.post("arrived")


@pytest.mark.parametrize("point", AWAITS)
async def test_a_row_arriving_during_the_boundary_survives_after_the_edited_row(
    crew: Crew, point: HookPoint
) -> None:
    """Rule 2: the arrival stays, after the resent row; the rewound suffix stays rewound."""
    s = await scene(crew)
    _acking(s, point, _row_arrives)
    response = await s.edit_h2()
    assert response.status_code == 200, response.text
    assert "arrived" in s.seen
    live = await s.live()
    assert live[:3] == ["m1", "h1", "m2"]
    assert live[-2:] == ["h2 edited", "arrived"]
    assert "h2" not in live and "m3" not in live
    assert response.json()["kept"] == [s.seen["arrived"]]


async def _session_reads(s: Scene) -> None:
    assert await s.in_flight()
    sender = s.seen["sender"]
    for text in ("read meanwhile", "unread meanwhile"):
        sent = await s.crew.call(
            sender,
            "POST",
            "/api/session-control/send",
            json={"target": "radar", "message": text},
        )
        assert sent.status_code == 200
        if text == "read meanwhile":
            events = await s.read()
            assert events[-1]["body"]["text"] == "read meanwhile"
            s.seen["cursor"] = events[-1]["cursor"]


@pytest.mark.parametrize("point", AWAITS)
async def test_an_event_the_session_read_during_the_boundary_is_not_delivered_again(
    crew: Crew, point: HookPoint
) -> None:
    """Rule 3: a read event never comes again; an unread arrival comes once, after the
    boundary's own resent row."""
    s = await scene(crew)
    s.seen["sender"] = await crew.add_session("plain")
    _acking(s, point, _session_reads)
    response = await s.edit_h2()
    assert response.status_code == 200, response.text
    after = await s.read(after=s.seen["cursor"])
    texts = [e["body"].get("text") for e in after if e["kind"] in ("message", "human_message")]
    assert texts == ["h2 edited", "unread meanwhile"]


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


async def test_a_waiting_card_the_boundary_rewinds_is_cancelled_and_announced_once(
    crew: Crew,
) -> None:
    """The control for the test above: with no answer, the rewound card is retired."""
    s = await scene(crew)
    question_id = await s.ask("Proceed?")
    _acking(s)
    response = await s.edit_h2()
    assert response.json()["retired_questions"] == [question_id]
    cancelled = [e for e in await s.read() if e["kind"] == "question_cancelled"]
    assert [e["body"]["question_id"] for e in cancelled] == [question_id]


async def _card_raised(s: Scene) -> None:
    assert await s.in_flight()
    s.seen["raised"] = await s.ask("Raised meanwhile?")


@pytest.mark.parametrize("point", AWAITS)
async def test_a_card_raised_during_the_boundary_survives(crew: Crew, point: HookPoint) -> None:
    """Rule 4: a card raised meanwhile keeps waiting and its row stays after the edit."""
    s = await scene(crew)
    _acking(s, point, _card_raised)
    response = await s.edit_h2()
    assert response.status_code == 200, response.text
    question = await crew.crewline.store.question(s.seen["raised"])
    assert question is not None and question.state.value == "waiting"
    assert (await s.live())[-2:] == ["h2 edited", "Raised meanwhile?"]


async def _member_recreated(s: Scene) -> None:
    assert await s.in_flight()
    store = s.crew.crewline.store
    await crew_admin.remove_member(store, "radar")
    s.seen["new_key"] = await s.crew.add_member()
    s.seen["new_row"] = await s.post("new life", key=s.seen["new_key"])


@pytest.mark.parametrize("point", AWAITS)
async def test_a_member_recreated_during_the_boundary_keeps_its_transcript(
    crew: Crew, point: HookPoint
) -> None:
    """Rule 8: 409 boundary_target_changed, one SEL record, nothing of the new member's
    conversation rewound."""
    s = await scene(crew)
    _acking(s, point, _member_recreated)
    response = await s.edit_h2()
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == "boundary_target_changed"
    assert errors(await s.sel()) == [("target_changed", "1")]
    live = await s.live()
    assert live[-1] == "new life" and "h2" in live and "m3" in live
    assert not any(t.startswith("Not rewound") for t in live)


# --- escalations follow the transcript --------------------------------------------------------


async def test_escalation_records_follow_the_rewound_transcript(crew: Crew) -> None:
    """Rule 5: a card rewound away is retracted; a reply rewound away reopens its record."""
    s = await scene(crew, stateless=True)
    kept = await crew.escalate(s.key, message="Kept card?")
    await crew.delivered()
    await crew.harness.say("radar", "yes")  # answers the one pending record
    answered = (await _conversation(s))["escalations"]
    assert [e["state"] for e in answered] == ["answered"]
    anchor = await s.post("anchor")
    dropped = await crew.escalate(s.key, message="Dropped card?")
    response = await s.boundary(kind="rewind", row_id=kept_row(answered))
    assert response.status_code == 200, response.text
    states = {e["escalation_id"]: e["state"] for e in (await _conversation(s))["escalations"]}
    assert states == {kept["escalation_id"]: "pending", dropped["escalation_id"]: "retracted"}
    assert anchor in response.json()["rewound"]


def kept_row(records: list[dict[str, Any]]) -> str:
    row_id: str = records[0]["row_id"]
    return row_id


async def _conversation(s: Scene) -> Any:
    # With the scene's token: issuing another one would revoke it.
    return (await s.crew.call(s.token, "GET", "/api/members/radar/conversation")).json()


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


async def test_by_default_a_session_mid_turn_is_asked_all_the_same(crew: Crew) -> None:
    """boundary_mid_turn defaults to "ask": the session said it is mid-turn, and it is asked
    to let go (it may nack) rather than crewline refusing for it."""
    s = await scene(crew)
    said = await crew.call(s.key, "POST", "/api/session/turn", json={"state": "started"})
    assert said.status_code == 200 and said.json()["since"] is not None
    asked = asyncio.create_task(s.boundary(kind="rewind"))
    event = await crew.wait_for_event(s.key, "context_boundary")
    assert await s.nack(event["body"]["boundary_id"], "mid-turn") == 200
    response = await asked
    assert response.status_code == 409 and response.json()["error"]["code"] == "boundary_refused"
