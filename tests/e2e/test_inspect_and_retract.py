"""An agent reads one of its records, and withdraws its own open request: the card settles as
withdrawn on every transport, the bell restacks, and the withdrawal survives an index rebuild."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from crewline.keys import hash_key
from tests.driver import Crew
from tests.e2e.raw_database import raw_execute

pytestmark = pytest.mark.parametrize("harness", ["memory", "slack"], indirect=True)

ESCALATIONS = "/api/session-control/escalations"


async def _retract(crew: Crew, key: str, escalation_id: str) -> tuple[int, dict[str, Any]]:
    response = await crew.call(key, "POST", f"{ESCALATIONS}/{escalation_id}/retract")
    return response.status_code, response.json()


async def test_a_session_reads_its_record_with_its_answer(crew: Crew) -> None:
    """State, answer, choice, who, via and when, after the human pressed a button."""
    radar = await crew.add_member()
    created = await crew.escalate(radar, message="Ship?", options=["yes", "no"])
    path = f"{ESCALATIONS}/{created['escalation_id']}"
    before = (await crew.call(radar, "GET", path)).json()
    assert (before["state"], before["answer"]) == ("pending", None)
    await crew.delivered()
    card = crew.harness.cards("radar")[0]
    await crew.harness.press("radar", card, 1)
    await crew.wait_for_event(radar, "escalation_answered")
    after = (await crew.call(radar, "GET", path)).json()
    assert {k: after[k] for k in ("state", "answer", "choice", "answered_by", "answered_via")} == {
        "state": "answered",
        "answer": "no",
        "choice": 1,
        "answered_by": "user",
        "answered_via": "chip",
    }
    assert after["settled_at"] is not None


async def test_another_sessions_record_is_not_found(crew: Crew) -> None:
    """Another member's session gets 404 for a record that exists, as for one that does not."""
    radar = await crew.add_member()
    scout = await crew.add_member("scout", "Scout")
    created = await crew.escalate(radar, message="Mine")
    path = f"{ESCALATIONS}/{created['escalation_id']}"
    assert (await crew.call(radar, "GET", path)).status_code == 200  # the precondition
    for call in (("GET", path), ("POST", f"{path}/retract")):
        response = await crew.call(scout, *call)
        assert (response.status_code, response.json()["error"]["code"]) == (
            404,
            "unknown_escalation",
        )
    missing = await crew.call(radar, "GET", f"{ESCALATIONS}/0000000000000000")
    assert missing.json()["error"]["code"] == "unknown_escalation"
    assert (await crew.conversation("radar"))["escalations"][0]["state"] == "pending"


async def test_a_withdrawn_request_settles_its_card_everywhere_and_restacks_the_bell(
    crew: Crew,
) -> None:
    """retract: record retracted, the card loses its buttons and says so, the bell restacks,
    the session is told, and a press on the old card changes nothing."""
    radar = await crew.add_member()
    created = await crew.escalate(radar, message="Deploy v2?", options=["yes", "no"], goal="ship")
    await crew.delivered()
    harness = crew.harness
    card = harness.cards("radar")[0]
    assert card.choices == ("yes", "no")  # the precondition: a live card
    bells_before = sum(len(v) for v in harness.bells().values())
    status, body = await _retract(crew, radar, created["escalation_id"])
    assert (status, body["state"]) == (200, "retracted")
    await harness.wait_until(lambda: harness.cards("radar")[0].settled)
    assert "Withdrawn" in harness.cards("radar")[0].text
    await harness.wait_until(lambda: sum(len(v) for v in harness.bells().values()) > bells_before)
    event = await crew.wait_for_event(radar, "escalation_retracted")
    assert event["body"] == {"escalation_id": created["escalation_id"], "reason": "withdrawn"}
    await harness.press_payload("radar", card.payloads[0])  # the old card's button
    assert (await crew.conversation())["escalations"][0]["state"] == "retracted"
    assert (await crew.conversation())["pending_escalations"] == 0


async def test_retracting_a_settled_request_is_a_conflict(crew: Crew) -> None:
    """Answered first, then withdrawn: 409 already_settled, and the answer stands."""
    radar = await crew.add_member()
    created = await crew.escalate(radar, message="Ship?", options=["yes"])
    await crew.delivered()
    await crew.harness.press("radar", crew.harness.cards("radar")[0], 0)
    await crew.wait_for_event(radar, "escalation_answered")
    status, body = await _retract(crew, radar, created["escalation_id"])
    assert (status, body["error"]["code"], body["error"]["state"]) == (
        409,
        "already_settled",
        "answered",
    )
    assert (await crew.conversation())["escalations"][0]["state"] == "answered"


async def test_a_withdrawal_survives_an_index_rebuilt_from_the_transcript(crew: Crew) -> None:
    """The withdrawal is a transcript row: reconciling an emptied index keeps it retracted."""
    radar = await crew.add_member()
    created = await crew.escalate(radar, message="Later")
    await _retract(crew, radar, created["escalation_id"])
    await asyncio.to_thread(raw_execute, crew.config, "DELETE FROM escalations")
    report = await crew.crewline.bot.escalations.reconcile("radar")
    assert report.rebuilt == [created["escalation_id"]]  # the precondition: rebuilt from rows
    record = await crew.crewline.store.escalation(created["escalation_id"])
    assert record is not None and record.state.value == "retracted"


async def test_a_channel_agent_may_not_retract(crew: Crew) -> None:
    """Retract is gated like escalate: a channel agent is refused and the refusal audited."""
    await crew.add_member()
    channel = await crew.add_session("channel")
    response = await crew.call(channel, "POST", f"{ESCALATIONS}/0000000000000000/retract")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "caller_blocked")
    session = await crew.crewline.store.session_by_key_hash(hash_key(channel))
    assert session is not None
    assert [r.actor for r in await crew.crewline.store.sel(action_prefix="retract:")] == [
        session.id
    ]
