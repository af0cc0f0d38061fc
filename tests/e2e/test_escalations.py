"""The escalation end-to-end suite (SPEC §1 to §3), run over every transport harness.

Each test drives crewline through its real HTTP API and plays the human through the
harness, and is named after the rule it pins.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from crewline.limits import MAX_PENDING
from tests.driver import Crew
from tests.e2e.raw_database import raw_execute

ESCALATE = "/api/session-control/escalate"


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


async def test_worker_escalation_lands_in_the_creating_members_thread(crew: Crew) -> None:
    """A worker created by a member escalates into that member's thread and index."""
    await crew.add_member()
    worker = await crew.add_session("worker", member="radar")
    result = await crew.escalate(worker, message="Which branch?", options=["main", "dev"])
    assert result["routed_to"]["member"] == "radar"
    await _card(crew)
    records = (await crew.conversation())["escalations"]
    assert records[0]["escalation_id"] == result["escalation_id"]


async def test_plain_session_escalation_stays_in_its_own_transcript(crew: Crew) -> None:
    """Any other session's escalation is written to its own transcript: no card, no index."""
    await crew.add_member()
    plain = await crew.add_session("plain")
    result = await crew.escalate(plain, message="Anyone there?")
    assert result["routed_to"] == {"own_transcript": True}
    assert result["state"] == "unindexed"
    assert (await crew.conversation())["escalations"] == []
    await crew.delivered()
    assert crew.harness.cards("radar") == []


async def test_a_member_named_user_is_not_a_reserved_word(crew: Crew) -> None:
    """'user' is an ordinary slug: a member called user escalates into its own thread."""
    key = await crew.add_member("user", "User")
    result = await crew.escalate(key, message="Hello?")
    assert result["routed_to"]["member"] == "user"
    await _card(crew, "user")


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


async def test_conductor_escalation_is_gated_like_any_other_write(crew: Crew) -> None:
    """A conductor passes the gate; having no member, it writes to its own transcript."""
    conductor = await crew.add_session("conductor")
    result = await crew.escalate(conductor, message="Plan approved?")
    assert result["routed_to"] == {"own_transcript": True}


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


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
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


async def test_malformed_json_is_refused_with_its_code(crew: Crew) -> None:
    """A body that is not JSON is 400 malformed_json."""
    key = await crew.add_member()
    response = await crew.call(
        key, "POST", ESCALATE, content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert (response.status_code, response.json()["error"]["code"]) == (400, "malformed_json")
    assert await _rows(crew) == 0


# --- §1.6 and 1.7: record before card, backlog ceiling --------------------------------------------


async def test_record_and_card_row_are_written_together_before_delivery(crew: Crew) -> None:
    """The index record names the card row, and both exist when the call returns."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Proceed?")
    record = await crew.crewline.store.escalation(result["escalation_id"])
    assert record is not None
    row = await crew.crewline.store.row(record.row_id)
    assert row is not None
    assert row.meta["escalation_id"] == record.id


async def test_backlog_ceiling_refuses_the_next_escalation_atomically(crew: Crew) -> None:
    """At 50 pending the next call is 429 escalation_backlog_full with the count; no row."""
    key = await crew.add_member()
    for n in range(MAX_PENDING):
        await crew.escalate(key, message=f"decision {n}")
    rows = await _rows(crew)
    response = await crew.call(key, "POST", ESCALATE, json={"message": "one more"})
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "escalation_backlog_full"
    assert response.json()["error"]["open_count"] == MAX_PENDING
    assert await _rows(crew) == rows


async def test_an_answer_frees_a_backlog_slot(crew: Crew) -> None:
    """Settled records do not count against the ceiling."""
    key = await crew.add_member()
    for n in range(MAX_PENDING):
        await crew.escalate(key, message=f"decision {n}", options=["ok"])
    full = await crew.call(key, "POST", ESCALATE, json={"message": "one more"})
    assert full.status_code == 429
    first = await _card(crew)
    await crew.harness.press("radar", first, 0)
    await crew.wait_for_event(key, "escalation_answered")
    assert (await crew.call(key, "POST", ESCALATE, json={"message": "now"})).status_code == 200


async def test_backlog_ceiling_holds_under_concurrent_calls(crew: Crew) -> None:
    """100 racing calls create exactly 50 records; the other 50 are refused with 429."""
    key = await crew.add_member()
    # A hundred requests at once queue behind one member's changes: on a loaded machine the
    # last answers late. The test is about counts, not latency, so it waits for every answer.
    async with crew.client(key, timeout=120) as client:
        responses = await asyncio.gather(
            *[client.post(ESCALATE, json={"message": f"race {n}"}) for n in range(100)]
        )
    statuses = sorted(r.status_code for r in responses)
    assert statuses.count(200) == MAX_PENDING
    assert statuses.count(429) == 100 - MAX_PENDING
    assert len((await crew.conversation())["escalations"]) == MAX_PENDING


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


async def test_a_click_on_a_settled_card_is_refused(crew: Crew) -> None:
    """A press on a record that is already answered answers nothing and says so."""
    key = await crew.add_member()
    await crew.escalate(key, message="Ship?", options=["yes", "no"])
    card = await _card(crew)
    await crew.harness.press("radar", card, 0)
    await crew.wait_for_event(key, "escalation_answered")
    notice = await crew.harness.press_payload("radar", card.payloads[1])
    assert notice is not None and "already settled" in notice
    records = (await crew.conversation())["escalations"]
    assert records[0]["answer"] == "yes"


@pytest.mark.parametrize("payload", ["e:zzzz:0", "x" * 64, "e:0123456789abcdef:0", ""])
async def test_a_forged_button_payload_is_refused_and_audited(crew: Crew, payload: str) -> None:
    """A malformed or unknown payload changes nothing; SEL records the attempt."""
    key = await crew.add_member()
    await crew.escalate(key, message="Ship?", options=["yes"])
    await _card(crew)
    notice = await crew.harness.press_payload("radar", payload)
    assert notice is not None
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    assert len(await crew.crewline.store.sel(action_prefix="click:")) == 1


async def test_a_forged_choice_index_is_refused(crew: Crew) -> None:
    """A payload naming a choice the record does not offer answers nothing."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Ship?", options=["yes", "no"])
    await _card(crew)
    notice = await crew.harness.press_payload("radar", f"e:{result['escalation_id']}:7")
    assert notice is not None
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    assert [r.action for r in await crew.crewline.store.sel(action_prefix="click:")] == [
        "click:invalid_choice"
    ]


async def test_a_click_naming_another_members_record_is_refused(crew: Crew) -> None:
    """A press in radar's thread carrying probe's escalation id answers nothing."""
    radar = await crew.add_member("radar", "Radar")
    probe = await crew.add_member("probe", "Probe")
    await crew.escalate(radar, message="Radar asks")
    theirs = await crew.escalate(probe, message="Probe asks", options=["ok"])
    await _card(crew, "radar")
    await _card(crew, "probe")
    notice = await crew.harness.press_payload("radar", f"e:{theirs['escalation_id']}:0")
    assert notice is not None
    assert (await crew.conversation("probe"))["escalations"][0]["state"] == "pending"


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


async def test_typed_text_with_two_pending_answers_nothing_and_lists_them(crew: Crew) -> None:
    """Rule 2: with two pending, a typed reply answers none; the thread says which are open."""
    key = await crew.add_member()
    await crew.escalate(key, message="First question")
    await crew.escalate(key, message="Second question")
    await _card(crew, count=2)
    await crew.harness.say("radar", "yes")
    harness = crew.harness
    await harness.wait_until(
        lambda: any("2 requests are open" in m.text for m in harness.messages("radar"))
    )
    notice = next(m for m in harness.messages("radar") if "2 requests are open" in m.text)
    assert "First question" in notice.text and "Second question" in notice.text
    states = [e["state"] for e in (await crew.conversation())["escalations"]]
    assert states == ["pending", "pending"]


async def test_a_message_from_someone_else_never_answers(crew: Crew) -> None:
    """Rule 4: a non-owner's typed text in the thread answers nothing."""
    key = await crew.add_member()
    await crew.escalate(key, message="Proceed?")
    await _card(crew)
    await crew.harness.say("radar", "yes", user=crew.harness.stranger)
    await crew.delivered()
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


async def test_chip_then_text_answers_both_in_arrival_order(crew: Crew) -> None:
    """Rule 6: a press for A, then typed text, answers A and then B."""
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["a1", "a2"])
    b = await crew.escalate(key, message="B?")
    card_a = await _card(crew, count=2)
    card_a = crew.harness.cards("radar")[0]
    await asyncio.gather(
        crew.harness.press("radar", card_a, 0), _later(crew.harness.say("radar", "b-answer"))
    )
    records = {e["escalation_id"]: e for e in (await crew.conversation())["escalations"]}
    assert records[a["escalation_id"]]["answer"] == "a1"
    assert records[b["escalation_id"]]["answer"] == "b-answer"


async def test_text_then_chip_leaves_the_second_pending(crew: Crew) -> None:
    """Rule 6: typed text with A and B open answers nothing; the press then answers A only."""
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["a1"])
    b = await crew.escalate(key, message="B?")
    await _card(crew, count=2)
    card_a = crew.harness.cards("radar")[0]
    await crew.harness.say("radar", "typed first")
    await crew.harness.press("radar", card_a, 0)
    records = {e["escalation_id"]: e for e in (await crew.conversation())["escalations"]}
    assert records[a["escalation_id"]]["state"] == "answered"
    assert records[b["escalation_id"]]["state"] == "pending"


async def test_typed_text_equal_to_an_option_of_one_pending_record_answers_it(
    crew: Crew,
) -> None:
    """Rule 2: with two pending, text equal (case and spacing aside) to an option of only
    one of them answers that one; the person is told which request it answered."""
    key = await crew.add_member()
    a = await crew.escalate(key, message="Which region?", options=["us-east", "eu-west"])
    b = await crew.escalate(key, message="Ship the migration?", options=["deploy", "wait"])
    await _card(crew, count=2)
    receipt = await crew.harness.say("radar", "  DEPLOY ")
    records = {e["escalation_id"]: e for e in (await crew.conversation())["escalations"]}
    assert records[a["escalation_id"]]["state"] == "pending"
    assert (records[b["escalation_id"]]["state"], records[b["escalation_id"]]["choice"]) == (
        "answered",
        0,
    )
    if receipt is not None:  # the platforms that tell the person privately
        assert (receipt.notice or "").startswith("Answered:")
        assert "— to “Ship the migration?”" in (receipt.notice or "")
    assert not any("requests are open" in m.text for m in crew.harness.messages("radar"))


async def test_an_option_both_offer_answers_the_other_after_a_press_in_arrival_order(
    crew: Crew,
) -> None:
    """Rules 2 and 6: A and B both offer "yes"; a press for A then a typed "yes" answers A
    and then B (only B is pending when the text arrives)."""
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["yes", "no"])
    b = await crew.escalate(key, message="B?", options=["yes", "no"])
    await _card(crew, count=2)
    card_a = crew.harness.cards("radar")[0]
    await asyncio.gather(
        crew.harness.press("radar", card_a, 1), _later(crew.harness.say("radar", "yes"))
    )
    records = {e["escalation_id"]: e for e in (await crew.conversation())["escalations"]}
    assert records[a["escalation_id"]]["answer"] == "no"
    assert (records[b["escalation_id"]]["answer"], records[b["escalation_id"]]["answered_via"]) == (
        "yes",
        "text",
    )


async def test_an_option_both_offer_typed_first_answers_nothing(crew: Crew) -> None:
    """Rules 2 and 6: typed "yes" while A and B both offer it answers neither; the press
    for A that follows answers A alone."""
    key = await crew.add_member()
    a = await crew.escalate(key, message="A?", options=["yes", "no"])
    b = await crew.escalate(key, message="B?", options=["yes", "no"])
    await _card(crew, count=2)
    card_a = crew.harness.cards("radar")[0]
    await crew.harness.say("radar", "yes")
    await crew.harness.press("radar", card_a, 1)
    records = {e["escalation_id"]: e for e in (await crew.conversation())["escalations"]}
    assert records[a["escalation_id"]]["answer"] == "no"
    assert records[b["escalation_id"]]["state"] == "pending"


async def _later(awaitable: Any) -> Any:
    await asyncio.sleep(0)  # yield once so the press is queued first: order, not timing
    return await awaitable


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


async def test_window_without_a_default_expires(crew: Crew) -> None:
    """A deadline with no default closes as expired."""
    key = await crew.add_member()
    await crew.escalate(key, message="Any thoughts?", deadline="PT10M")
    crew.clock.advance(timedelta(minutes=11))
    await crew.crewline.windows.rearm()
    event = await crew.wait_for_event(key, "window_closed")
    assert event["body"]["state"] == "expired"


async def test_the_scheduler_closes_a_window_at_its_deadline(crew: Crew) -> None:
    """The armed timer fires by itself: no sweep, no restart."""
    key = await crew.add_member()
    await crew.escalate(key, message="Quick one", deadline="PT1S", default_action="go")
    crew.clock.advance(timedelta(seconds=2))  # the fired timer judges "due" by crewline's clock
    event = await crew.wait_for_event(key, "window_closed")
    assert event["body"]["state"] == "defaulted"


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


async def test_the_card_says_the_default_ran_only_once_confirmed(crew: Crew) -> None:
    """default-applied is refused before the window closes, then redraws the card."""
    key = await crew.add_member()
    result = await crew.escalate(
        key, message="Rotate keys?", deadline="PT5M", default_action="rotate them"
    )
    path = f"/api/session-control/escalations/{result['escalation_id']}/default-applied"
    early = await crew.call(key, "POST", path)
    assert (early.status_code, early.json()["error"]["code"]) == (409, "not_defaulted")
    crew.clock.advance(timedelta(minutes=6))
    await crew.crewline.windows.rearm()
    await crew.wait_for_event(key, "window_closed")
    confirmed = await crew.call(key, "POST", path)
    assert confirmed.status_code == 200 and confirmed.json()["default_applied"] is True
    harness = crew.harness
    await harness.wait_until(lambda: "confirmed it did" in harness.cards("radar")[0].text)


# --- §2 the index and the roster ------------------------------------------------------------------


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


async def test_rewinding_an_answer_away_reopens_its_record(crew: Crew) -> None:
    """The transcript is the truth: remove the answering row and the record is pending again."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Ship?", options=["yes", "no"])
    card = await _card(crew)
    await crew.harness.press("radar", card, 0)
    await crew.wait_for_event(key, "escalation_answered")
    record = await crew.crewline.store.escalation(result["escalation_id"])
    assert record is not None and record.state.value == "answered"
    report = await crew.crewline.bot.escalations.truncate("radar", keep_through=record.row_id)
    assert report.reopened == [record.id]
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    await crew.wait_for_event(key, "escalation_reopened")
    harness = crew.harness
    await harness.wait_until(lambda: harness.cards("radar")[0].choices == ("yes", "no"))


async def test_an_orphan_record_is_retracted_after_the_grace_only(crew: Crew) -> None:
    """A record whose card row left the transcript is kept within the grace, then retracted."""
    key = await crew.add_member()
    await crew.crewline.bot.messages.post(
        (await crew.crewline.store.session_by_key_hash(_hash(key))), "before the card"
    )
    first = (await crew.crewline.store.live_rows("radar"))[0]
    result = await crew.escalate(key, message="Soon orphaned")
    young = await crew.crewline.bot.escalations.truncate("radar", keep_through=first.id)
    assert young.retracted == []
    crew.clock.advance(timedelta(minutes=5))
    old = await crew.crewline.bot.escalations.reconcile("radar")
    assert old.retracted == [result["escalation_id"]]
    await crew.wait_for_event(key, "escalation_retracted")


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
    await crew.crewline.bot.escalations.reconcile_all()
    records = (await crew.conversation())["escalations"]
    assert [(r["escalation_id"], r["state"]) for r in records] == [
        (result["escalation_id"], "pending")
    ]
    assert (await crew.call(key, "POST", ESCALATE, json={"message": "after"})).status_code == 200


def _hash(key: str) -> str:
    from crewline.keys import hash_key

    return hash_key(key)


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


async def test_typed_text_answers_an_escalation_never_a_question(crew: Crew) -> None:
    """A typed reply answers the one pending escalation and leaves the question waiting."""
    key = await crew.add_member()
    await crew.escalate(key, message="Escalated")
    asked = (
        await crew.call(
            key,
            "POST",
            "/api/session-control/ask",
            json={"question": "Still there?", "options": ["yes"]},
        )
    ).json()
    await _card(crew)
    await crew.harness.say("radar", "go ahead")
    await crew.wait_for_event(key, "escalation_answered")
    question = await crew.crewline.store.question(asked["question_id"])
    assert question is not None and question.state.value == "waiting"


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


async def test_a_dialog_is_answered_by_the_human_only(crew: Crew) -> None:
    """A dialog refuses an answer by the concierge; the human's answer goes through."""
    from crewline.bot import questions
    from crewline.errors import Forbidden
    from crewline.models import AnsweredBy

    key = await crew.add_member()
    asked = await crew.call(
        key,
        "POST",
        "/api/session-control/ask",
        json={"question": "Allow rm -rf build/?", "options": ["allow", "deny"], "dialog": True},
    )
    question_id = asked.json()["question_id"]
    hub = crew.crewline.hub
    member = await hub.member("radar")
    record = await crew.crewline.store.question(question_id)
    assert record is not None and record.dialog
    with pytest.raises(Forbidden):
        await hub.change(
            lambda ch: questions.answer_question(
                ch, member, record, answer="allow", by=AnsweredBy.CONCIERGE
            )
        )
    token = await crew.owner_token()
    answered = await crew.call(
        token, "POST", f"/api/questions/{question_id}/answer", json={"answer": "deny"}
    )
    assert answered.json()["state"] == "answered"
    event = await crew.wait_for_event(key, "question_answered")
    assert event["body"]["answer"] == "deny"
