"""The escalation end-to-end suite (SPEC §1 to §3): the seams of the core's rules.

The journeys (a card lands, a press and typed text answer it, a stranger is refused
privately, a window closes on the card, a bell, a question card) run over every transport
harness: each platform draws and parses them its own way. The HTTP surface's codes, keys
and views run over the memory harness alone (``MEMORY``): the platform does not change
them. The rules themselves are tested in-process, in tests/core/test_escalations.py.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from tests.driver import Crew
from tests.e2e.raw_database import raw_execute

ESCALATE = "/api/session-control/escalate"

# The HTTP surface is the same whichever platform the member is on.
MEMORY = pytest.mark.parametrize("harness", ["memory"], indirect=True)


async def _card(crew: Crew, member: str = "radar", count: int = 1) -> Any:
    """Wait until the member's thread shows ``count`` cards; return the last."""
    harness = crew.harness
    await harness.wait_until(lambda: len(harness.cards(member)) >= count)
    return harness.cards(member)[count - 1]


async def _rows(crew: Crew, member: str = "radar") -> int:
    return len(await crew.crewline.store.live_rows(member))


# --- §1.1 to 1.3: the verb, routing by caller -----------------------------------------------------


async def test_member_escalation_lands_as_a_card_in_its_own_thread(crew: Crew) -> None:
    """A member's escalation returns at once with its id and shows as a card with buttons."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Ship v2 tonight?", options=["yes", "no"])
    assert result["state"] == "pending"
    assert result["routed_to"] == {"member": "radar", "transports": [crew.harness.name]}
    card = await _card(crew)
    assert card.choices == ("yes", "no")
    assert "Ship v2 tonight?" in card.text
    conversation = await crew.conversation()
    assert [e["escalation_id"] for e in conversation["escalations"]] == [result["escalation_id"]]
    assert conversation["needs_you"] is True


@MEMORY
async def test_an_escalation_to_its_own_transcript_says_so_in_the_reply(crew: Crew) -> None:
    """The reply of an escalation that reaches no member (a plain session's, a conductor's)
    says where it went and that it is unindexed (the rule: tests/core/test_escalations.py)."""
    plain = await crew.add_session("plain")
    result = await crew.escalate(plain, message="Anyone there?")
    assert result["routed_to"] == {"own_transcript": True}
    assert result["state"] == "unindexed"


@MEMORY
async def test_session_send_refuses_escalation_fields_as_unknown(crew: Crew) -> None:
    """session_send stays target + message: a deadline on it is refused, never dropped."""
    key = await crew.add_member()
    before = await _rows(crew)
    response = await crew.call(
        key,
        "POST",
        "/api/session-control/send",
        json={"target": "radar", "message": "hi", "deadline": "PT5M"},
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown_field"
    assert response.json()["error"]["field"] == "deadline"
    assert await _rows(crew) == before


# --- §1.4 caller gates ----------------------------------------------------------------------------


@MEMORY
async def test_channel_agent_is_refused_and_the_refusal_is_audited(crew: Crew) -> None:
    """A channel agent may not escalate: 403 caller_blocked, SEL escalate:caller_blocked."""
    await crew.add_member()
    channel = await crew.add_session("channel", member="radar")
    response = await crew.call(channel, "POST", ESCALATE, json={"message": "let me in"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "caller_blocked"
    audit = await crew.crewline.store.sel(action_prefix="escalate:")
    assert [r.action for r in audit] == ["escalate:caller_blocked"]
    assert await _rows(crew) == 0


@MEMORY
async def test_unknown_key_is_refused_with_401_and_nothing_written(crew: Crew) -> None:
    """An unknown key is 401 invalid_key; a missing one is 401 missing_key."""
    await crew.add_member()
    wrong = await crew.call("crw_s_not-a-key", "POST", ESCALATE, json={"message": "x"})
    missing = await crew.call(None, "POST", ESCALATE, json={"message": "x"})
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "invalid_key")
    assert (missing.status_code, missing.json()["error"]["code"]) == (401, "missing_key")
    assert await _rows(crew) == 0


# --- §1.5 validation before anything is written ---------------------------------------------------


# Validation happens at the API's edge, before any transport or the store is reached: one
# crewline per store checks every rule (a crewline per rule and transport started 126).
INVALID_ESCALATIONS: list[tuple[dict[str, Any], str]] = [
    ({"message": ""}, "invalid_message"),
    ({"message": "x" * 4001}, "message_too_long"),
    ({"message": "x", "deadline": "2020-01-01T00:00:00Z"}, "deadline_in_past"),
    ({"message": "x", "deadline": "P31D"}, "deadline_too_far"),
    ({"message": "x", "deadline": "2030-01-01T00:00:00"}, "deadline_without_zone"),
    ({"message": "x", "deadline": "soon"}, "invalid_deadline"),
    ({"message": "x", "deadline": "PT"}, "invalid_deadline"),
    ({"message": "x", "default_action": "ship"}, "default_without_deadline"),
    ({"message": "x", "options": [str(n) for n in range(11)]}, "invalid_options"),
    ({"message": "x", "options": []}, "invalid_options"),
    ({"message": "x", "options": ["yes", "Yes"]}, "duplicate_options"),
    ({"message": "x", "options": ["y" * 81]}, "invalid_option"),
    ({"message": "x", "options": [" "]}, "invalid_option"),
    ({"message": "x", "goal": "Not A Slug"}, "invalid_goal"),
    ({"message": 42}, "invalid_type"),
    ({"message": "x", "options": "yes"}, "invalid_type"),
    ({"message": "x", "escalation_ids": ["a"]}, "unknown_field"),
    ({}, "missing_field"),
]


@MEMORY
async def test_invalid_escalation_is_refused_with_its_code_and_writes_nothing(
    crew: Crew,
) -> None:
    """Each validation rule refuses with its own code (400) and writes no row, no record."""
    key = await crew.add_member()
    for body, code in INVALID_ESCALATIONS:
        response = await crew.call(key, "POST", ESCALATE, json=body)
        assert response.status_code == 400, (code, response.text)
        assert response.json()["error"]["code"] == code
        assert await _rows(crew) == 0, code
        assert (await crew.conversation())["escalations"] == [], code


@MEMORY
async def test_malformed_json_is_refused_with_its_code(crew: Crew) -> None:
    """A body that is not JSON is 400 malformed_json."""
    key = await crew.add_member()
    response = await crew.call(
        key, "POST", ESCALATE, content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert (response.status_code, response.json()["error"]["code"]) == (400, "malformed_json")
    assert await _rows(crew) == 0


# --- §2 reply matching ----------------------------------------------------------------------------


async def test_a_click_answers_its_record_and_the_agent_hears_it(crew: Crew) -> None:
    """Rule 1: the owner's press answers the record; the agent gets id, answer, by, via."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Ship?", options=["yes", "no"])
    card = await _card(crew)
    await crew.harness.press("radar", card, 1)
    event = await crew.wait_for_event(key, "escalation_answered")
    assert event["body"]["escalation_id"] == result["escalation_id"]
    assert (event["body"]["answer"], event["body"]["choice"]) == ("no", 1)
    assert (event["body"]["by"], event["body"]["via"]) == ("user", "chip")
    await crew.harness.wait_until(lambda: crew.harness.cards("radar")[0].settled)
    settled = crew.harness.cards("radar")[0]
    assert "Answered: no — by you" in settled.text
    assert "Ship?" in settled.text


async def test_a_click_by_someone_else_is_refused_privately_and_changes_nothing(
    crew: Crew,
) -> None:
    """Rule 1/4: a non-owner's press is refused with a private notice; SEL records it."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Ship?", options=["yes", "no"])
    card = await _card(crew)
    notice = await crew.harness.press("radar", card, 0, user=crew.harness.stranger)
    assert notice is not None and "owner" in notice
    record = await crew.crewline.store.escalation(result["escalation_id"])
    assert record is not None and record.is_pending
    audit = await crew.crewline.store.sel(action_prefix="click:")
    assert [r.action for r in audit] == ["click:not_owner"]


async def test_typed_text_answers_the_one_pending_record(crew: Crew) -> None:
    """Rule 2: with exactly one pending, a typed reply answers it (via text)."""
    key = await crew.add_member()
    await crew.escalate(key, message="Which port?", options=["8080", "9090"])
    await _card(crew)
    await crew.harness.say("radar", "9090")
    event = await crew.wait_for_event(key, "escalation_answered")
    assert (event["body"]["answer"], event["body"]["choice"], event["body"]["via"]) == (
        "9090",
        1,
        "text",
    )


# --- §1.8 veto windows ----------------------------------------------------------------------------


async def test_window_with_a_default_closes_as_defaulted_never_failed(crew: Crew) -> None:
    """With no answer by the deadline the record is defaulted and the agent hears it."""
    key = await crew.add_member()
    result = await crew.escalate(
        key,
        message="Deploy?",
        deadline="PT30M",
        default_action="deploy to staging",
        options=["stop"],
    )
    await _card(crew)
    crew.clock.advance(timedelta(minutes=31))
    await crew.crewline.windows.rearm()
    event = await crew.wait_for_event(key, "window_closed")
    assert event["body"] == {
        "escalation_id": result["escalation_id"],
        "state": "defaulted",
        "default_action": "deploy to staging",
    }
    harness = crew.harness
    await harness.wait_until(lambda: "Window closed" in harness.cards("radar")[0].text)
    card = harness.cards("radar")[0]
    assert "Window closed — Radar said it would: deploy to staging" in card.text
    assert card.settled


@MEMORY
async def test_a_deadline_that_passed_while_down_closes_on_the_next_start(crew: Crew) -> None:
    """Missed deadlines fire on start."""
    key = await crew.add_member()
    result = await crew.escalate(
        key, message="Overnight?", deadline="PT1H", default_action="run the batch"
    )
    await crew.stop()
    crew.clock.advance(timedelta(hours=2))
    await crew.start()
    event = await crew.wait_for_event(key, "window_closed")
    assert event["body"]["escalation_id"] == result["escalation_id"]
    assert (await crew.conversation())["escalations"][0]["state"] == "defaulted"


# --- §2 the index and the roster ------------------------------------------------------------------


@MEMORY
async def test_the_roster_projects_needs_you_and_open_counts(crew: Crew) -> None:
    """GET /api/members shows needs_you and pending_escalations per member."""
    key = await crew.add_member()
    await crew.add_member("probe", "Probe")
    await crew.escalate(key, message="one")
    await crew.escalate(key, message="two")
    token = await crew.owner_token()
    members = (await crew.call(token, "GET", "/api/members")).json()["members"]
    by_slug = {m["slug"]: m for m in members}
    assert (by_slug["radar"]["needs_you"], by_slug["radar"]["pending_escalations"]) == (True, 2)
    assert (by_slug["probe"]["needs_you"], by_slug["probe"]["pending_escalations"]) == (False, 0)


@MEMORY
async def test_the_conversation_is_readable_by_its_owner_and_own_session_only(
    crew: Crew,
) -> None:
    """The owner and the member's own session read it; another member's session may not."""
    radar = await crew.add_member("radar", "Radar")
    probe = await crew.add_member("probe", "Probe")
    path = "/api/members/radar/conversation"
    assert (await crew.call(radar, "GET", path)).status_code == 200
    refused = await crew.call(probe, "GET", path)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_owner")
    token = await crew.owner_token()
    bad = await crew.call(token, "GET", "/api/members/Not_A_Slug/conversation")
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "invalid_member_slug")
    unknown = await crew.call(token, "GET", "/api/members/nobody/conversation")
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "unknown_member")


@MEMORY
async def test_a_reply_naming_another_members_record_is_refused(crew: Crew) -> None:
    """An owner's reply through the API may name one record, of that member only."""
    radar = await crew.add_member("radar", "Radar")
    probe = await crew.add_member("probe", "Probe")
    await crew.escalate(radar, message="Radar asks")
    theirs = await crew.escalate(probe, message="Probe asks")
    token = await crew.owner_token()
    rows = await _rows(crew)
    response = await crew.call(
        token,
        "POST",
        "/api/members/radar/reply",
        json={"text": "ok", "escalation_id": theirs["escalation_id"]},
    )
    assert (response.status_code, response.json()["error"]["code"]) == (403, "not_your_record")
    plural = await crew.call(
        token, "POST", "/api/members/radar/reply", json={"text": "ok", "escalation_ids": ["a", "b"]}
    )
    assert (plural.status_code, plural.json()["error"]["code"]) == (400, "unknown_field")
    assert await _rows(crew) == rows


# --- reconciliation -------------------------------------------------------------------------------


@MEMORY
async def test_an_unreadable_index_refuses_writers_and_is_rebuilt_from_the_transcript(
    crew: Crew,
) -> None:
    """A torn index is never treated as empty: 503, then rebuilt from the card rows."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Keep me", options=["ok"])
    # The precondition is that the next writer is the test's. Work the escalation started
    # after its reply (the concierge's judgement, the card's delivery) writes too, and the
    # first writer to find the index torn starts the repair: let it all finish first.
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    # Off the loop: the running server may hold the write lock until its loop runs again.
    await asyncio.to_thread(raw_execute, crew.config, "DROP TABLE escalations")
    refused = await crew.call(key, "POST", ESCALATE, json={"message": "during the outage"})
    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "escalation_index_unavailable"
    # The refusal started the repair: a reconciliation that rebuilds the index and refills
    # it from the transcript, in one transaction. The repair under test is the one waited
    # for, not a run of the test's own (which would find the index rebuilt).
    await crew.crewline.hub.index_repaired()
    records = (await crew.conversation())["escalations"]
    assert [(r["escalation_id"], r["state"]) for r in records] == [
        (result["escalation_id"], "pending")
    ]
    assert (await crew.call(key, "POST", ESCALATE, json={"message": "after"})).status_code == 200


# --- §3 question cards ----------------------------------------------------------------------------


async def test_a_question_card_blocks_until_its_button_answers_it(crew: Crew) -> None:
    """ask_question waits on its own path: a press answers the question, not an escalation."""
    key = await crew.add_member()
    escalation = await crew.escalate(key, message="Escalated", options=["x"])
    asked = (
        await crew.call(
            key,
            "POST",
            "/api/session-control/ask",
            json={"question": "Pick a DB", "options": ["sqlite", "pg"]},
        )
    ).json()
    harness = crew.harness
    await harness.wait_until(
        lambda: any("Pick a DB" in m.text and m.buttons for m in harness.messages("radar"))
    )
    question = next(m for m in harness.messages("radar") if "Pick a DB" in m.text)
    await harness.press("radar", question, 1)
    event = await crew.wait_for_event(key, "question_answered")
    assert event["body"] == {"question_id": asked["question_id"], "answer": "pg", "by": "user"}
    records = (await crew.conversation())["escalations"]
    assert records[0]["escalation_id"] == escalation["escalation_id"]
    assert records[0]["state"] == "pending"


# --- §1.10 the bell -------------------------------------------------------------------------------


async def test_escalations_of_one_goal_stack_into_one_bell(crew: Crew) -> None:
    """Two escalations with goal 'release' show one bell saying two requests, in words."""
    key = await crew.add_member()
    await crew.escalate(
        key,
        message="Tag it?",
        goal="release",
        deadline="PT1H",
        default_action="tag v2",
        options=["yes", "no"],
    )
    await crew.escalate(key, message="Publish notes?", goal="release")
    harness = crew.harness
    await harness.wait_until(lambda: any("2 requests" in b[-1] for b in harness.bells().values()))
    bells = harness.bells()
    assert len(bells) == 1
    body = next(iter(bells.values()))[-1]
    assert "Tag it?" in body and "Publish notes?" in body
    assert "UTC" in body and "Options: yes or no." in body
    assert not any(glyph in body for glyph in "·•→✓✗⏰")
