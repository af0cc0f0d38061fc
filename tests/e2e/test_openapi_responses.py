"""Every answer crewline gives on its API is the one /openapi.json documents: a walk through
each operation (successes and refusals) checks that the status is documented for that route
and that the body validates against the schema documented for that status, extra keys
included (the models forbid them)."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from crewline.api.openapi import CODES
from crewline.config import Config
from crewline.testing import FakeClock
from crewline.transports import Connection, MemoryTransport
from tests.driver import Crew
from tests.fakes.receiver import LOOPBACK
from tests.harness import MemoryHarness

# Operations whose success body is not JSON: the metrics text and the event stream.
NOT_JSON = {("GET", "/metrics"), ("GET", "/api/session/events/stream")}


@pytest.fixture
async def crew(config: Config, clock: FakeClock, tmp_path: Path) -> AsyncIterator[Crew]:
    """crewline with a launcher, so the concierge's dispatch and respawn can succeed, and
    webhooks allowed to loopback, so one can be registered."""
    launchers = {"worker": (sys.executable, "-c", "pass")}
    allowed = replace(config, launchers=launchers, webhook_networks=LOOPBACK)
    driver = Crew(allowed, clock, [MemoryHarness()])
    await driver.start()
    yield driver
    await driver.stop()


class Checked:
    """Calls crewline and checks each answer against /openapi.json as it comes."""

    def __init__(self, crew: Crew, schema: dict[str, Any]) -> None:
        self.crew = crew
        self.schema = schema
        self.seen: dict[tuple[str, str], set[int]] = {}

    def operation(self, method: str, path: str) -> tuple[str, dict[str, Any]]:
        for template, operations in self.schema["paths"].items():
            if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):
                return template, operations[method.lower()]
        raise AssertionError(f"{method} {path} is not in /openapi.json")

    async def call(self, key: str | None, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response = await self.crew.call(key, method, path, **kwargs)
        self.check(method, path, response)
        return response

    def check(self, method: str, path: str, response: httpx.Response) -> None:
        template, operation = self.operation(method, path)
        status = response.status_code
        where = f"{method} {path} answered {status}: {response.text[:300]}"
        assert str(status) in operation["responses"], f"undocumented: {where}"
        self.seen.setdefault((method, template), set()).add(status)
        content = operation["responses"][str(status)].get("content", {})
        documented = content.get("application/json", {}).get("schema")
        assert documented, f"no body schema: {where}"
        body = response.json()
        jsonschema.validate(body, {**documented, "components": self.schema["components"]})
        if status >= 400 and "error" in body:  # /readyz's 503 is its own report
            assert body["error"]["code"] in CODES[status][1], f"undocumented code: {where}"


async def _until_boundary(crew: Crew, key: str, after: int) -> tuple[str, int]:
    """The id of the next context_boundary event the session is sent, and the cursor."""
    async with asyncio.timeout(20):
        while True:
            for event in await crew.events(key, after=after, wait=2):
                after = event["cursor"]
                if event["kind"] == "context_boundary":
                    return event["body"]["boundary_id"], after


async def test_every_answer_of_every_operation_is_documented_and_fits_its_schema(
    crew: Crew,
) -> None:
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    api = Checked(crew, schema)
    radar = await crew.add_member()
    await crew.add_member("probe", "Probe")
    owner = await crew.owner_token()
    concierge = await crew.add_session("concierge")

    # operations
    await api.call(None, "GET", "/healthz")
    await api.call(None, "GET", "/readyz")

    # the agents' side
    await api.call(radar, "GET", "/api/session")
    await api.call("nope", "GET", "/api/session")  # 401
    esc = "/api/session-control/escalate"
    pending = await api.call(radar, "POST", esc, json={"message": "Ship?", "options": ["yes"]})
    record = pending.json()["escalation_id"]
    windowed = await api.call(
        radar, "POST", esc, json={"message": "Tag?", "deadline": "PT1S", "default_action": "tag"}
    )
    await api.call(radar, "POST", esc, json={"message": "Now?", "wait_for_delivery": False})
    await api.call(radar, "POST", esc, json={"message": "x", "cc": 1})  # 400
    await api.call(None, "POST", esc, json={"message": "x"})  # 401
    await api.call(owner, "POST", esc, json={"message": "x"})  # 403
    await api.call(radar, "POST", esc, content=b"{" + b" " * (1024 * 1024 + 1) + b"}")  # 413
    send = "/api/session-control/send"
    await api.call(radar, "POST", send, json={"target": "probe", "message": "hi"})
    await api.call(radar, "POST", send, json={"target": "ghost", "message": "hi"})  # 404
    asked = await api.call(radar, "POST", "/api/session-control/ask", json={"question": "DB?"})
    records = "/api/session-control/escalations"
    await api.call(radar, "GET", f"{records}/{record}")
    await api.call(radar, "GET", f"{records}/nope")  # 404
    await api.call(radar, "POST", f"{records}/{record}/default-applied")  # 409
    crew.clock.advance(timedelta(seconds=2))
    await crew.crewline.windows.rearm()
    defaulted = windowed.json()["escalation_id"]
    await api.call(radar, "POST", f"{records}/{defaulted}/default-applied")
    withdrawn = (await crew.escalate(radar, message="Never mind?"))["escalation_id"]
    await api.call(radar, "POST", f"{records}/{withdrawn}/retract")
    await api.call(radar, "POST", f"{records}/{withdrawn}/retract")  # 409
    await api.call(radar, "POST", "/api/session/messages", json={"text": "working on it"})
    await api.call(radar, "POST", "/api/session/turn", json={"state": "started"})
    await api.call(radar, "POST", "/api/session/turn", json={"state": "ended"})
    await api.call(radar, "POST", "/api/session/turn", json={"state": "maybe"})  # 400
    await api.call(radar, "GET", "/api/session/events", params={"after": 0})
    await api.call(radar, "GET", "/api/session/events", params={"after": -1})  # 400
    hook = "/api/session/webhook"
    await api.call(radar, "GET", hook)  # 404
    await api.call(radar, "PUT", hook, json={"url": "http://127.0.0.1:9/hook", "secret": "s" * 32})
    await api.call(radar, "GET", hook)
    await api.call(radar, "DELETE", hook)

    # the owner's side
    await api.call(owner, "GET", "/api/members")
    await api.call(owner, "GET", "/api/members/radar/conversation")
    await api.call(owner, "GET", "/api/members/ghost/conversation")  # 404
    await api.call(radar, "POST", "/api/members/radar/reply", json={"text": "hi"})  # 403
    await api.call(owner, "POST", "/api/members/radar/reply", json={"text": "yes"})
    forks = "/api/members/radar/forks"
    await api.call(owner, "POST", forks, json={"slug": "radar-two"})
    await api.call(owner, "POST", forks, json={"slug": "radar-two"})  # 409: taken
    question = asked.json()["question_id"]
    await api.call(owner, "POST", f"/api/questions/{question}/answer", json={"answer": "pg"})
    await api.call(owner, "POST", "/api/questions/nope/answer", json={"answer": "x"})  # 404
    await api.call(owner, "GET", "/api/concierge/policy")
    await api.call(owner, "PUT", "/api/concierge/policy", json={"answer": "always", "act": "on"})
    await api.call(owner, "PUT", "/api/concierge/policy", json={"act": "maybe"})  # 400
    await api.call(owner, "GET", "/api/concierge/ledger")
    await api.call(owner, "POST", "/api/concierge/undo")  # 404: nothing to undo
    await api.call(owner, "GET", "/api/audit", params={"kind": "escalate", "limit": 5})
    await api.call(radar, "GET", "/api/audit")  # 403
    await api.call(owner, "GET", "/api/audit", params={"after": "abc"})  # 400

    # a boundary the member's session lets go of, and one it refuses
    cursor = (await crew.events(radar))[-1]["cursor"]
    boundaries = "/api/members/radar/boundaries"
    rewind = asyncio.create_task(api.call(owner, "POST", boundaries, json={"kind": "reset"}))
    boundary_id, cursor = await _until_boundary(crew, radar, cursor)
    await api.call(radar, "POST", f"/api/session/boundaries/{boundary_id}/ack")
    await rewind
    await api.call(radar, "POST", "/api/session/boundaries/nope/ack")  # 404
    await crew.escalate(radar, message="Again?")
    refused = asyncio.create_task(api.call(owner, "POST", boundaries, json={"kind": "reset"}))
    boundary_id, cursor = await _until_boundary(crew, radar, cursor)
    nack = f"/api/session/boundaries/{boundary_id}/nack"
    await api.call(radar, "POST", nack, json={"reason": "mid-turn"})
    await refused

    # a concierge session's verbs
    question_text = "What colour should the dashboard header be?"
    open_record = (await crew.escalate(radar, message=question_text))["escalation_id"]
    await crew.crewline.bot.concierge.idle()
    verbs = "/api/concierge"
    body = {"record_id": open_record, "text": "teal", "why": "routine"}
    await api.call(concierge, "POST", f"{verbs}/suggest", json=body)
    await api.call(concierge, "POST", f"{verbs}/reply", json=body)
    await api.call(concierge, "POST", f"{verbs}/reply", json=body)  # 400: answered already
    await api.call(owner, "POST", "/api/concierge/undo")
    dispatched = await api.call(
        concierge, "POST", f"{verbs}/dispatch", json={"launcher": "worker", "why": "a tester"}
    )
    session_id = dispatched.json()["session_id"]
    respawn = {"session_id": session_id, "launcher": "worker", "why": "again"}
    respawned = await api.call(concierge, "POST", f"{verbs}/respawn", json=respawn)
    stop = {"session_id": respawned.json()["session_id"], "why": "done"}
    await api.call(concierge, "POST", f"{verbs}/stop", json=stop)
    await api.call(concierge, "POST", f"{verbs}/stop", json=stop)  # 404: gone
    await crew.crewline.launchers.wait_exited()

    # every JSON operation was walked, and answered 200 at least once
    operations = {
        (method.upper(), path)
        for path, ops in schema["paths"].items()
        for method in ops
        if (method.upper(), path) not in NOT_JSON
    }
    assert operations - set(api.seen) == set()
    assert {op: s for op, s in api.seen.items() if 200 not in s} == {}


async def test_a_refused_readiness_check_is_documented_and_fits_its_schema(crew: Crew) -> None:
    """/readyz answers 503 with the same documented body when a part fails."""
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    api = Checked(crew, schema)
    transport = crew.crewline.transport("memory")
    assert isinstance(transport, MemoryTransport)
    transport.reachable = Connection(connected=False, reason="the platform is down")
    response = await api.call(None, "GET", "/readyz")
    assert response.status_code == 503
    assert response.json()["failed"]
