"""The agents' API surface: health, metrics, OpenAPI, one error shape, bad input refused."""

from __future__ import annotations

from typing import Any

import pytest

from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


async def _rows(crew: Crew, member: str = "radar") -> int:
    return len(await crew.crewline.store.live_rows(member))


async def test_healthz_answers_ok(crew: Crew) -> None:
    """/healthz needs no key."""
    response = await crew.call(None, "GET", "/healthz")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


async def test_openapi_describes_every_verb_and_forbids_unknown_fields(crew: Crew) -> None:
    """The schema agents read lists the verbs, and the bodies allow no extra fields."""
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    for path in (
        "/api/session-control/escalate",
        "/api/session-control/send",
        "/api/session/messages",
        "/api/session/events",
        "/api/members",
    ):
        assert path in schema["paths"]
    escalate = schema["components"]["schemas"]["EscalateBody"]
    assert escalate["additionalProperties"] is False
    assert "target" not in escalate["properties"]
    assert set(schema["components"]["schemas"]["SendBody"]["properties"]) == {"target", "message"}


async def test_metrics_are_prometheus_text(crew: Crew) -> None:
    """/metrics counts requests and accepted escalations in Prometheus' text format."""
    key = await crew.add_member()
    await crew.escalate(key, message="count me")
    body = (await crew.call(None, "GET", "/metrics")).text
    assert "crewline_escalations_total 1.0" in body
    assert 'crewline_http_requests_total{method="POST",status="200"}' in body
    assert "crewline_outbox_pending" in body


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/api/session-control/send", {"target": "radar"}, "missing_field"),
        ("/api/session-control/send", {"target": "radar", "message": 5}, "invalid_type"),
        ("/api/session-control/send", {"target": "Radar!", "message": "x"}, "invalid_target"),
        (
            "/api/session-control/send",
            {"target": "radar", "message": "x", "cc": "y"},
            "unknown_field",
        ),
        ("/api/session/messages", {"text": ""}, "invalid_text"),
        ("/api/session/messages", {"text": "x" * 4001}, "invalid_text"),
        ("/api/session/messages", {"body": "x"}, "unknown_field"),
        ("/api/session/messages", ["not", "an", "object"], "invalid_type"),
    ],
)
async def test_bad_input_gets_its_code_and_writes_nothing(
    crew: Crew, path: str, body: Any, code: str
) -> None:
    """Every refusal is one shape with a stable code, and no row is written."""
    key = await crew.add_member()
    response = await crew.call(key, "POST", path, json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert await _rows(crew) == 0


async def test_send_to_an_unknown_member_is_404(crew: Crew) -> None:
    """A well-formed target that names nobody is unknown_member."""
    key = await crew.add_member()
    response = await crew.call(
        key, "POST", "/api/session-control/send", json={"target": "nobody", "message": "hi"}
    )
    assert (response.status_code, response.json()["error"]["code"]) == (404, "unknown_member")


async def test_send_writes_a_row_in_the_target_thread_and_an_event_for_it(crew: Crew) -> None:
    """session_send: a row in the target member's thread and an event on its stream."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    response = await crew.call(
        sender, "POST", "/api/session-control/send", json={"target": "radar", "message": "status?"}
    )
    assert response.status_code == 200
    rows = await crew.crewline.store.live_rows("radar")
    assert [r.text for r in rows] == ["status?"]
    event = await crew.wait_for_event(radar, "message")
    assert event["body"]["row_id"] == rows[0].id


async def test_keys_and_tokens_only_open_their_own_doors(crew: Crew) -> None:
    """The owner's token cannot act as a session; a session key cannot act as the owner."""
    key = await crew.add_member()
    token = await crew.owner_token()
    as_owner = await crew.call(token, "POST", "/api/session/messages", json={"text": "x"})
    assert (as_owner.status_code, as_owner.json()["error"]["code"]) == (403, "session_key_required")
    as_session = await crew.call(key, "POST", "/api/members/radar/reply", json={"text": "x"})
    assert (as_session.status_code, as_session.json()["error"]["code"]) == (
        403,
        "owner_token_required",
    )
    assert await _rows(crew) == 0


async def test_unknown_routes_answer_in_the_error_shape(crew: Crew) -> None:
    """Even a 404 from the router is {"error": {"code", "message"}}."""
    response = await crew.call(None, "GET", "/api/nothing-here")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
