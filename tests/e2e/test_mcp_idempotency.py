"""An idempotency key on the MCP tools that write: the HTTP API's ``Idempotency-Key``, as
the argument ``idempotency_key``, kept in the same store with the same rule."""

from __future__ import annotations

from typing import Any

import pytest

from tests.driver import Crew
from tests.e2e.mcp_clients import SURFACES, call, in_memory

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

WRITES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "session_escalate": ({"message": "Ship it?", "options": ["yes", "no"]}, {"message": "Other"}),
    "session_send": ({"target": "hawk", "message": "ping"}, {"target": "hawk", "message": "pong"}),
    "ask_question": ({"question": "Pick a DB", "options": ["a", "b"]}, {"question": "Pick one"}),
    "session_post": ({"text": "Progress: 1/3"}, {"text": "Progress: 2/3"}),
}


async def _written(crew: Crew) -> dict[str, int]:
    """How many of each write the store holds."""
    store = crew.crewline.store
    radar = [row.text for row in await store.live_rows("radar")]
    return {
        "session_escalate": len(await store.escalations("radar")),
        "session_send": len(await store.live_rows("hawk")),
        "ask_question": sum("Pick" in text for text in radar),
        "session_post": sum(text.startswith("Progress") for text in radar),
    }


@pytest.mark.parametrize("surface", sorted(SURFACES))
async def test_a_retried_write_returns_the_first_result_and_writes_nothing(
    crew: Crew, surface: str
) -> None:
    """Each writing tool, called twice with one key: one write, one answer; the same key
    with other arguments is refused with the HTTP API's code, nothing written."""
    key = await crew.add_member()
    await crew.add_member("hawk", "Hawk")
    assert await _written(crew) == dict.fromkeys(WRITES, 0)
    async with SURFACES[surface](crew, key) as client:
        for tool, (arguments, other) in WRITES.items():
            failed, first = await call(client, tool, **arguments, idempotency_key=f"k-{tool}")
            assert not failed, first
            failed, again = await call(client, tool, **arguments, idempotency_key=f"k-{tool}")
            assert (failed, again) == (False, first), tool
            failed, reused = await call(client, tool, **other, idempotency_key=f"k-{tool}")
            assert failed and reused["error"]["code"] == "idempotency_key_reused", tool
    assert await _written(crew) == dict.fromkeys(WRITES, 1)


async def test_a_key_first_used_over_http_is_the_same_key_over_mcp(crew: Crew) -> None:
    """One store: MCP's retry of an HTTP escalation gets the HTTP answer, and a different
    body is refused with the code HTTP gives."""
    key = await crew.add_member()
    body = {"message": "Merge?", "options": ["merge", "hold"]}
    headers = {"Idempotency-Key": "shared-1"}
    first = await crew.call(
        key, "POST", "/api/session-control/escalate", json=body, headers=headers
    )
    assert first.status_code == 200, first.text
    async with in_memory(crew, key) as client:
        failed, again = await call(client, "session_escalate", **body, idempotency_key="shared-1")
        assert not failed
        assert again == first.json()
        failed, reused = await call(
            client, "session_escalate", message="Other", idempotency_key="shared-1"
        )
    over_http = await crew.call(
        key, "POST", "/api/session-control/escalate", json={"message": "Other"}, headers=headers
    )
    assert over_http.status_code == 409
    assert failed and reused["error"]["code"] == over_http.json()["error"]["code"]
    assert len(await crew.crewline.store.escalations("radar")) == 1


async def test_a_malformed_key_is_refused_naming_the_argument(crew: Crew) -> None:
    """invalid_idempotency_key, as over HTTP, with field idempotency_key; nothing written."""
    key = await crew.add_member()
    async with in_memory(crew, key) as client:
        failed, refused = await call(
            client, "session_escalate", message="Ship?", idempotency_key="x" * 256
        )
    assert failed
    assert (refused["error"]["code"], refused["error"]["field"]) == (
        "invalid_idempotency_key",
        "idempotency_key",
    )
    assert await crew.crewline.store.escalations("radar") == []
