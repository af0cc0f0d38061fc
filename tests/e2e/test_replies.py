"""The owner's reply API says what a reply did: which record it answered, or that it
answered none and why (SPEC §2)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


async def _reply(crew: Crew, text: str, escalation_id: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"text": text}
    if escalation_id is not None:
        body["escalation_id"] = escalation_id
    response = await crew.call(
        await crew.owner_token(), "POST", "/api/members/radar/reply", json=body
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def test_a_reply_that_answers_names_its_record(crew: Crew) -> None:
    """With one request open, the reply answers it and says which."""
    key = await crew.add_member()
    asked = await crew.escalate(key, message="Ship v2 tonight?", options=["yes", "no"])
    result = await _reply(crew, "yes")
    assert result == {
        "accepted": True,
        "outcome": "answered",
        "escalation_id": asked["escalation_id"],
        "open": [],
        "notice": "Answered: yes — to “Ship v2 tonight?”",
    }
    assert (await crew.conversation())["escalations"][0]["state"] == "answered"


async def test_an_ambiguous_reply_answers_nothing_and_lists_the_open_ones(crew: Crew) -> None:
    """With several open and no option named, the reply answers none and lists them."""
    key = await crew.add_member()
    first = await crew.escalate(key, message="First?", options=["a", "b"])
    second = await crew.escalate(key, message="Second?")
    result = await _reply(crew, "sure")
    assert result["outcome"] == "ambiguous" and result["escalation_id"] is None
    assert result["open"] == [
        {"escalation_id": first["escalation_id"], "message": "First?", "options": ["a", "b"]},
        {"escalation_id": second["escalation_id"], "message": "Second?", "options": []},
    ]
    states = [e["state"] for e in (await crew.conversation())["escalations"]]
    assert states == ["pending", "pending"]


async def test_a_reply_naming_a_settled_record_says_it_was_already_settled(crew: Crew) -> None:
    """A reply naming a record answered before it arrived answers nothing, and says so."""
    key = await crew.add_member()
    asked = await crew.escalate(key, message="Proceed?")
    assert (await _reply(crew, "go"))["outcome"] == "answered"
    late = await _reply(crew, "stop", asked["escalation_id"])
    assert (late["outcome"], late["escalation_id"]) == ("already_settled", asked["escalation_id"])
    assert "already settled (answered)" in late["notice"]
    record = (await crew.conversation())["escalations"][0]
    assert record["answer"] == "go"


async def test_a_reply_with_nothing_open_is_a_message_and_says_so(crew: Crew) -> None:
    """With no request open the reply is a plain message to the member."""
    key = await crew.add_member()
    assert (await crew.conversation())["escalations"] == []
    result = await _reply(crew, "hello")
    assert (result["outcome"], result["escalation_id"], result["open"]) == (
        "no_open_request",
        None,
        [],
    )
    event = await crew.wait_for_event(key, "human_message")
    assert event["body"]["text"] == "hello"
