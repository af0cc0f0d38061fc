"""Idempotency-Key on escalate, send and ask: a retry returns the first response and writes
nothing new, for 24 hours; a reused key for another request, or a malformed key, is refused."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest

from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

ESCALATE = "/api/session-control/escalate"


async def _post(
    crew: Crew, key: str, path: str, body: dict[str, Any], idempotency_key: str | None
) -> httpx.Response:
    headers = {} if idempotency_key is None else {"Idempotency-Key": idempotency_key}
    return await crew.call(key, "POST", path, json=body, headers=headers)


async def test_a_retried_escalation_returns_the_first_response_and_writes_nothing(
    crew: Crew,
) -> None:
    """Same key, same body: the same status and body, one record, one card."""
    radar = await crew.add_member()
    body = {"message": "ship it?", "options": ["yes", "no"]}
    first = await _post(crew, radar, ESCALATE, body, "retry-1")
    again = await _post(crew, radar, ESCALATE, body, "retry-1")
    assert first.status_code == 200, first.text
    assert (again.status_code, again.json()) == (200, first.json())
    await crew.delivered()
    assert len((await crew.conversation())["escalations"]) == 1
    assert len(crew.harness.cards("radar")) == 1


async def test_without_a_key_every_call_writes(crew: Crew) -> None:
    """The precondition of the test above: two calls with no key are two records."""
    radar = await crew.add_member()
    for _ in range(2):
        assert (await _post(crew, radar, ESCALATE, {"message": "m"}, None)).status_code == 200
    assert len((await crew.conversation())["escalations"]) == 2


async def test_concurrent_retries_with_one_key_make_one_write(crew: Crew) -> None:
    """Ten calls racing with one key: one record, and every caller gets its response."""
    radar = await crew.add_member()
    responses = await asyncio.gather(
        *[_post(crew, radar, ESCALATE, {"message": "once"}, "race") for _ in range(10)]
    )
    assert {r.status_code for r in responses} == {200}
    assert len({r.json()["escalation_id"] for r in responses}) == 1
    assert len((await crew.conversation())["escalations"]) == 1


async def test_a_key_reused_for_another_request_is_refused(crew: Crew) -> None:
    """Same key, different body: 409 idempotency_key_reused, and nothing is written."""
    radar = await crew.add_member()
    assert (await _post(crew, radar, ESCALATE, {"message": "a"}, "k")).status_code == 200
    reused = await _post(crew, radar, ESCALATE, {"message": "b"}, "k")
    assert (reused.status_code, reused.json()["error"]["code"]) == (409, "idempotency_key_reused")
    assert [e["message"] for e in (await crew.conversation())["escalations"]] == ["a"]


async def test_a_key_is_the_sessions_own(crew: Crew) -> None:
    """Another session's identical key is a different call: it writes its own record."""
    radar = await crew.add_member()
    worker = await crew.add_session("worker", member="radar")
    first = await _post(crew, radar, ESCALATE, {"message": "m"}, "shared")
    second = await _post(crew, worker, ESCALATE, {"message": "m"}, "shared")
    assert second.json()["escalation_id"] != first.json()["escalation_id"]
    assert len((await crew.conversation())["escalations"]) == 2


async def test_a_retry_is_answered_even_when_the_request_would_no_longer_pass(
    crew: Crew,
) -> None:
    """The deadline has passed since the first call: the retry still gets the first answer."""
    radar = await crew.add_member()
    deadline = (crew.clock.now() + timedelta(minutes=5)).isoformat()
    body = {"message": "m", "deadline": deadline}
    first = await _post(crew, radar, ESCALATE, body, "late")
    crew.clock.advance(timedelta(minutes=10))
    unkeyed = await _post(crew, radar, ESCALATE, body, None)
    assert unkeyed.json()["error"]["code"] == "deadline_in_past"  # the precondition
    again = await _post(crew, radar, ESCALATE, body, "late")
    assert (again.status_code, again.json()) == (200, first.json())


async def test_a_key_is_remembered_for_24_hours(crew: Crew) -> None:
    """After 24 hours the key is forgotten: the same call writes again."""
    radar = await crew.add_member()
    first = await _post(crew, radar, ESCALATE, {"message": "m"}, "day")
    crew.clock.advance(timedelta(hours=23, minutes=59))
    assert (await _post(crew, radar, ESCALATE, {"message": "m"}, "day")).json() == first.json()
    crew.clock.advance(timedelta(minutes=1))
    later = await _post(crew, radar, ESCALATE, {"message": "m"}, "day")
    assert later.json()["escalation_id"] != first.json()["escalation_id"]


async def test_send_and_ask_are_idempotent_too(crew: Crew) -> None:
    """A retried send makes one message event; a retried ask makes one question."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    send = {"target": "radar", "message": "hello"}
    sent = [await _post(crew, sender, "/api/session-control/send", send, "s") for _ in range(2)]
    assert sent[0].json() == sent[1].json()
    assert [e["kind"] for e in await crew.events(radar)] == ["message"]
    ask = {"question": "which port?", "options": ["8080", "9090"]}
    asked = [await _post(crew, radar, "/api/session-control/ask", ask, "q") for _ in range(2)]
    assert asked[0].status_code == 200, asked[0].text
    assert asked[0].json() == asked[1].json()
    await crew.delivered()
    questions = [m for m in crew.harness.messages("radar") if "which port?" in m.text]
    assert len(questions) == 1


async def test_a_retried_post_writes_one_row(crew: Crew) -> None:
    """POST /api/session/messages with a key, twice: one row in the thread."""
    radar = await crew.add_member()
    posted = [
        await _post(crew, radar, "/api/session/messages", {"text": "done"}, "p") for _ in range(2)
    ]
    assert posted[0].status_code == 200, posted[0].text
    assert posted[0].json() == posted[1].json()
    rows = await crew.crewline.store.live_rows("radar")
    assert [r.text for r in rows] == ["done"]


async def test_the_same_key_on_another_verb_is_refused(crew: Crew) -> None:
    """A key first used to escalate cannot be replayed as a send."""
    radar = await crew.add_member()
    assert (await _post(crew, radar, ESCALATE, {"message": "m"}, "verb")).status_code == 200
    sent = await _post(
        crew, radar, "/api/session-control/send", {"target": "radar", "message": "m"}, "verb"
    )
    assert (sent.status_code, sent.json()["error"]["code"]) == (409, "idempotency_key_reused")


@pytest.mark.parametrize("bad", ["", "k" * 256, "tab\there", "caf\xe9"])
async def test_a_malformed_key_is_refused_and_nothing_written(crew: Crew, bad: str) -> None:
    """Empty, longer than 255, or not printable ASCII: 400 invalid_idempotency_key."""
    radar = await crew.add_member()
    async with crew.client(radar) as client:
        response = await client.post(
            ESCALATE,
            json={"message": "m"},
            headers=[(b"Idempotency-Key", bad.encode("latin-1"))],
        )
    assert (response.status_code, response.json()["error"]["code"]) == (
        400,
        "invalid_idempotency_key",
    )
    assert (await crew.conversation())["escalations"] == []
