"""The agents' hot verbs served lean (crewline.api.lean) answer every request as FastAPI's
handler does: the plain case and each way to get it wrong, status, content type, the
challenge header and body, side by side with the same app built with ``lean=False``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from crewline.api.http import LEAN_PATHS, create_app
from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

EVENTS = "/api/session/events"
ESCALATE = "/api/session-control/escalate"
SEND = "/api/session-control/send"
ASK = "/api/session-control/ask"
POST = "/api/session/messages"
JSON = {"Content-Type": "application/json"}
BODIES: dict[str, dict[str, Any]] = {
    ESCALATE: {"message": "Merge it?", "options": ["yes", "no"]},
    SEND: {"target": "sonar", "message": "hello"},
    ASK: {"question": "Which one?", "options": ["a", "b"]},
    POST: {"text": "a note"},
}
CHANGED = {ESCALATE: "message", SEND: "message", ASK: "question", POST: "text"}


@asynccontextmanager
async def _framework(crew: Crew) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the same bot's API with every route through FastAPI's handler."""
    app = create_app(crew.crewline.bot, lean=False)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        yield client


def _seen(response: httpx.Response, *, ids: bool) -> tuple[Any, ...]:
    """What a caller sees of an answer, its body byte for byte; ``ids`` False: a success's
    fresh ids and times as their types, since the two calls each made their own, and its
    delivery as the transports it names (``_delivery_told``)."""
    body: Any = response.content
    if not ids and response.status_code == 200:
        fields = response.json()
        body = {
            k: (type(v).__name__ if k.endswith(("id", "_at")) else v) for k, v in fields.items()
        }
        if "delivery" in body:
            body["delivery"] = sorted(body["delivery"])
            body["note"] = _delivery_told(fields)
    return (
        response.status_code,
        response.headers.get("content-type"),
        response.headers.get("www-authenticate"),
        body,
    )


def _delivery_told(fields: dict[str, Any]) -> str:
    """Whether a reply's note tells the delivery it reports. The suites' servers do not wait
    for the platform (``tests.driver``: ``delivery_wait=0``), so whether a card is already
    shown when its reply is drawn is a race between the outbox's lane and the reply, decided
    by the verb both routes call, not by the route: the two calls may each report either."""
    shown = [t for t, state in fields["delivery"].items() if state == "delivered"]
    queued = [t for t, state in fields["delivery"].items() if state == "queued"]
    note = fields["note"]
    told = all(f"shown on {t}" in note for t in shown) and all(
        f"queued for {t}" in note for t in queued
    )
    return "tells its delivery" if told and (shown or queued) else note


def _cases(key: str) -> list[tuple[str, dict[str, Any]]]:
    """Each lean route's plain call, and the ways to get each part of it wrong."""
    auth = {"Authorization": f"Bearer {key}", **JSON}
    cases: list[tuple[str, dict[str, Any]]] = []
    for path in BODIES:
        body = BODIES[path]
        cases += [
            (path, {"headers": auth, "json": body}),
            (path, {"headers": JSON, "json": body}),  # no key
            (path, {"headers": {**JSON, "Authorization": "Bearer nope"}, "json": body}),
            (path, {"headers": {**JSON, "Authorization": f"Basic {key}"}, "json": body}),
            (path, {"headers": {**JSON, "Authorization": "Bearer"}, "json": body}),
            (path, {"headers": auth, "content": b"{not json"}),
            (path, {"headers": auth, "content": b"\xff\xfe{}"}),
            (path, {"headers": auth, "content": b"[1, 2]"}),
            (path, {"headers": auth, "content": b"null"}),
            (path, {"headers": auth, "content": b""}),
            (path, {"headers": auth, "content": b"[" * 100_000}),
            (path, {"headers": auth, "json": {}}),
            (path, {"headers": auth, "json": {**body, "extra": 1}}),
            (path, {"headers": auth, "json": {k: 5 for k in body}}),
            (path, {"headers": {"Authorization": f"Bearer {key}"}, "data": {"a": "b"}}),
            (path, {"headers": {"Authorization": "Bearer nope"}, "content": b"{not json"}),
            (path, {"headers": JSON, "json": {"extra": 1}}),  # no key, and a bad body
        ]
    cases += [
        (SEND, {"headers": auth, "json": {"target": "nobody", "message": "x"}}),
        (SEND, {"headers": auth, "json": {"target": "Not A Slug", "message": "x"}}),
        (ESCALATE, {"headers": auth, "json": {"message": "x", "options": ["only"]}}),
        (ESCALATE, {"headers": auth, "json": {"message": "", "options": ["a", "b"]}}),
        (POST, {"headers": auth, "json": {"text": "é ✓ \u2028"}}),
    ]
    return cases


def _reads(key: str) -> list[dict[str, Any]]:
    """The events read's plain calls, and the ways to get its key or parameters wrong."""
    auth = {"Authorization": f"Bearer {key}"}
    return [
        {"headers": auth},
        {"headers": auth, "params": {"after": "1"}},
        {"headers": auth, "params": {"after": "0", "wait": "0"}},
        {"headers": auth, "params": {"after": "-1"}},
        {"headers": auth, "params": {"after": "two"}},
        {"headers": auth, "params": {"after": "1.5"}},
        {"headers": auth, "params": {"after": ""}},
        {"headers": auth, "params": {"wait": "soon"}},
        {"headers": auth, "params": {"wait": "-1"}},
        {"headers": auth, "params": {"wait": "nan"}},
        {"headers": auth, "params": [("after", "1"), ("after", "x")]},
        {"headers": auth, "params": [("after", "x"), ("after", "0")]},
        {"headers": auth, "params": {"other": "1"}},
        {},
        {"headers": {"Authorization": "Bearer nope"}, "params": {"after": "x"}},
        {"headers": {"Authorization": f"Basic {key}"}},
    ]


async def test_each_lean_route_answers_every_request_as_fastapi_does(crew: Crew) -> None:
    assert set(LEAN_PATHS) == {*BODIES, EVENTS}, "a lean route this test does not call"
    key = await crew.add_member()
    await crew.add_member("sonar", "Sonar")
    async with crew.client(None) as lean, _framework(crew) as framework:
        for request in _reads(key):  # first: nothing happens between the two reads
            served = await lean.get(EVENTS, **request)
            plain = await framework.get(EVENTS, **request)
            where = f"GET {EVENTS} {request}"
            assert _seen(served, ids=True) == _seen(plain, ids=True), where
            assert served.status_code != 500, where
        for path, request in _cases(key):
            served = await lean.post(path, **request)
            plain = await framework.post(path, **request)
            where = f"POST {path} {json.dumps(request, default=str)[:200]}"
            assert _seen(served, ids=False) == _seen(plain, ids=False), where


async def test_a_retry_of_a_lean_call_is_answered_by_fastapi_with_its_first_outcome(
    crew: Crew,
) -> None:
    """With one Idempotency-Key, a lean call then the same call through FastAPI's handler:
    the second is the first's outcome, byte for byte; a different body under that key is
    refused the same way by both."""
    key = await crew.add_member()
    await crew.add_member("sonar", "Sonar")
    async with crew.client(None) as lean, _framework(crew) as framework:
        for n, path in enumerate(BODIES):
            headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": f"k{n}", **JSON}
            first = await lean.post(path, headers=headers, json=BODIES[path])
            again = await framework.post(path, headers=headers, json=BODIES[path])
            assert first.status_code == 200, first.text
            assert (again.status_code, again.content) == (200, first.content)
            other = {**BODIES[path], CHANGED[path]: "something else"}
            refused = await lean.post(path, headers=headers, json=other)
            assert refused.status_code == 409, refused.text
            plain = await framework.post(path, headers=headers, json=other)
            assert _seen(refused, ids=True) == _seen(plain, ids=True)
