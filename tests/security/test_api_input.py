"""Hostile bodies at the agents' HTTP API: each refused with a stable code, nothing written.

The API is the same whatever the transport, so these run over the memory transport; what
the platforms render of hostile text is in ``test_rendering.py``.
"""

from __future__ import annotations

import pytest

from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

ESCALATE = "/api/session-control/escalate"
JSON = {"Content-Type": "application/json"}


async def _refused(crew: Crew, key: str, body: bytes) -> dict[str, object]:
    """POST a raw body; it must be a 400 with an error code, and leave no card behind."""
    before = len(crew.harness.cards("radar"))
    response = await crew.call(key, "POST", ESCALATE, content=body, headers=JSON)
    assert response.status_code == 400, response.text
    error: dict[str, object] = response.json()["error"]
    await crew.delivered()
    assert len(crew.harness.cards("radar")) == before
    return error


@pytest.mark.parametrize(
    "body",
    [
        b'{"message": "\\ud800 a lone surrogate"}',
        b'{"message": "ok", "options": ["fine", "\\udfff"]}',
        b'{"message": "ok", "goal": "\\ud83d"}',
        b'{"message": "ok", "deadline": "PT5M", "default_action": "\\udc00"}',
    ],
    ids=["message", "options", "goal", "default_action"],
)
async def test_a_lone_surrogate_in_any_text_field_is_refused_as_invalid_text(
    crew: Crew, body: bytes
) -> None:
    """JSON can escape half a UTF-16 pair, which no database can hold: 400, not a 500."""
    key = await crew.add_member()
    error = await _refused(crew, key, body)
    assert error["code"] == "invalid_text"


@pytest.mark.parametrize(
    "body",
    [
        b'{"message": "\xff\xfe not UTF-8"}',
        b'{"message": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"message": "x", "options": ' + b'{"a": ' * 5_000 + b"1" + b"}" * 5_000 + b"}",
        b'{"message": "unterminated',
    ],
    ids=["invalid-utf8", "deep-array", "deep-object", "truncated"],
)
async def test_a_body_that_is_not_json_is_refused_as_malformed_json(
    crew: Crew, body: bytes
) -> None:
    """Bytes that are not UTF-8 and nesting past the parser's depth: the same code as bad JSON."""
    key = await crew.add_member()
    error = await _refused(crew, key, body)
    assert error["code"] == "malformed_json"


async def test_a_cursor_past_what_sqlite_holds_is_refused_as_invalid_cursor(crew: Crew) -> None:
    """An ``after`` beyond a 64-bit cursor was a 500 (an overflow in the query); found by
    tests/reliability/test_schema.py. Now 400 ``invalid_cursor``, on the poll and the stream."""
    key = await crew.add_member()
    for path in ("/api/session/events", "/api/session/events/stream"):
        for after in (2**63, 479975394296425544155136):
            answer = await crew.call(key, "GET", path, params={"after": after})
            assert answer.status_code == 400, (path, answer.text)
            assert answer.json()["error"]["code"] == "invalid_cursor"
    assert (
        await crew.call(key, "GET", "/api/session/events", params={"after": 2**63 - 1})
    ).status_code == 200


# Each was refused with the wrong words, the wrong code or no JSON at all (issue 27).
SHAPES: list[tuple[str, str, dict[str, object], int, str, str | None, str]] = [
    # method, path, request, status, code, field, in the message
    (
        "POST",
        ESCALATE,
        {"content": b'{"message": "x"}'},
        415,
        "unsupported_media_type",
        None,
        "Content-Type: application/json",
    ),
    (
        "POST",
        ESCALATE,
        {"content": b'{"message": "x"}', "headers": {"Content-Type": "text/plain"}},
        415,
        "unsupported_media_type",
        None,
        "takes a JSON object",
    ),
    (
        "POST",
        ESCALATE,
        {"content": b"", "headers": JSON},
        400,
        "malformed_json",
        None,
        "the body is empty",
    ),
    (
        "POST",
        ESCALATE,
        {"content": b'{\n  "message": x}', "headers": JSON},
        400,
        "malformed_json",
        None,
        "at line 2, column 14",
    ),
    (
        "POST",
        ESCALATE,
        {"json": {"message": "x", "deadline": "30m"}},
        400,
        "invalid_deadline",
        "deadline",
        "did you mean PT30M?",
    ),
    (
        "GET",
        "/api/session/events",
        {"params": {"after": "abc"}},
        400,
        "invalid_cursor",
        "after",
        "after must be a cursor",
    ),
    (
        "GET",
        "/api/session/events",
        {"params": {"wait": "soon"}},
        400,
        "invalid_wait",
        "wait",
        "wait must be a number of seconds",
    ),
    ("DELETE", "/api/session", {}, 405, "method_not_allowed", None, "allowed: GET"),
    ("GET", "/api/no-such-route", {}, 404, "not_found", None, "no route GET /api/no-such-route"),
]


async def test_every_refusal_has_the_one_error_shape_and_names_only_real_fields(
    crew: Crew,
) -> None:
    """415 for a body not sent as JSON, malformed JSON with its line and column and no
    field, the query's own codes, the framework's 404 and 405 (with Allow): all one shape."""
    key = await crew.add_member()
    seen = {}
    for method, path, request, *_ in SHAPES:
        response = await crew.call(key, method, path, **request)
        assert response.headers["content-type"] == "application/json", response.text
        error = response.json()["error"]
        seen[(method, path, str(request))] = (
            response.status_code,
            error["code"],
            error.get("field"),
            "field" in error,
        )
        assert set(response.json()) == {"error"}
    assert seen == {
        (method, path, str(request)): (status, code, field, field is not None)
        for method, path, request, status, code, field, _ in SHAPES
    }
    for method, path, request, _, code, _, words in SHAPES:
        response = await crew.call(key, method, path, **request)
        assert words in response.json()["error"]["message"], (code, response.text)
    allowed = await crew.call(key, "DELETE", "/api/session")
    assert allowed.headers["allow"] == "GET"
