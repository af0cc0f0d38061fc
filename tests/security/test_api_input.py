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
