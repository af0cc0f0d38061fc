"""docs/api.md's error table is exactly what the HTTP API sends: every code in it is
provoked here from outside, and answers with the status the table gives it, in the one
error shape. A code that only a fault inside crewline can bring (an index that cannot be
read, a boundary's commit that fails), or a server bound beyond loopback, names the test
that provokes it, which must exist and assert that code. The table and /openapi.json's
codes agree, apart from the answers that belong to no operation (the HTTP server's own, the
framework's 405, /mcp's)."""

from __future__ import annotations

import ast
import asyncio
import json
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.api.openapi import CODES
from crewline.config import Config
from crewline.testing import FakeClock
from tests.bounds import WAIT
from tests.driver import Crew
from tests.harness import MemoryHarness

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "docs" / "api.md"
ROW = re.compile(r"^\| (\d{3}) \| `([a-z_]+)` \| .+ \|$")
# Answers that belong to no operation of /openapi.json.
NOT_PER_OPERATION = {
    "method_not_allowed": 405,
    "header_timeout": 408,
    "body_timeout": 408,
    "header_too_large": 431,
    "origin_not_allowed": 403,
    "host_not_allowed": 403,
}
# Codes only a fault inside crewline, or a server set up otherwise, brings: the test that
# provokes each — over HTTP, or in-process where its rule is tested (tests/core), asserting
# the outcome's code that the API sends as it is.
ELSEWHERE = {
    "metrics_token_required": (
        "tests/e2e/test_metrics_access.py",
        "test_metrics_beyond_loopback_without_a_token_are_refused",
    ),
    "escalation_index_unavailable": (
        "tests/e2e/test_escalations.py",
        "test_an_unreadable_index_refuses_writers_and_is_rebuilt_from_the_transcript",
    ),
    "boundary_commit_failed": (
        "tests/e2e/test_boundaries_exits.py",
        "test_13_a_commit_that_raises_records_1",
    ),
    "boundary_generation_moved": (
        "tests/e2e/test_boundaries_exits.py",
        "test_12_a_generation_moved_meanwhile_records_1",
    ),
    "boundary_target_changed": (
        "tests/core/test_boundaries.py",
        "test_a_member_recreated_during_the_boundary_keeps_its_transcript",
    ),
}
SHORT = 0.5  # seconds: the HTTP server's timeout that a 408 is provoked with
SECRET = "s" * 32
JSON = {"Content-Type": "application/json"}


def documented() -> dict[str, int]:
    """The table of docs/api.md: code -> status."""
    table: dict[str, int] = {}
    for line in API.read_text().splitlines():
        found = ROW.match(line)
        if found:
            assert found[2] not in table, f"{found[2]} is in the table twice"
            table[found[2]] = int(found[1])
    return table


def test_the_table_is_the_schemas_codes_and_the_answers_outside_it() -> None:
    """Every code /openapi.json documents is in the table with its status, and nothing else
    is, but the answers that belong to no operation."""
    table = documented()
    assert len(table) > 60, "precondition: the table was read"
    schema = {code: status for status, (_, codes) in CODES.items() for code in codes}
    assert table == {**schema, **NOT_PER_OPERATION}


@pytest.fixture
async def crew(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    """crewline with two launchers (one that cannot start), its HTTP timeouts as shipped."""
    launchers = {"worker": (sys.executable, "-c", "pass"), "broken": ("/nonexistent/agent",)}
    driver = Crew(replace(config, launchers=launchers), clock, [MemoryHarness()])
    await driver.start()
    yield driver
    await driver.stop()


class Provoked:
    """What each provoked code was answered with."""

    def __init__(self, crew: Crew) -> None:
        self.crew = crew
        self.answers: dict[str, tuple[int, str]] = {}

    async def call(
        self, code: str, key: str | None, method: str, path: str, **kwargs: Any
    ) -> httpx.Response:
        response = await self.crew.call(key, method, path, **kwargs)
        self.note(code, response.status_code, response.text)
        return response

    def note(self, code: str, status: int, text: str) -> None:
        try:
            got = json.loads(text)["error"]["code"]
        except (ValueError, KeyError, TypeError):
            got = f"not the error shape: {text[:120]}"
        assert code not in self.answers, f"{code} provoked twice"
        self.answers[code] = (status, got)


async def _raw(crew: Crew, sent: bytes) -> tuple[int, str]:
    """Send raw bytes and read to the server's close: the status and the body."""
    url = urlsplit(crew.url)
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    try:
        writer.write(sent)
        await writer.drain()
        async with asyncio.timeout(WAIT):
            answer = await reader.read()
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode()


async def _next_boundary(crew: Crew, key: str, after: int) -> tuple[str, int]:
    """The id of the next context_boundary event the session gets, and its cursor."""
    async with asyncio.timeout(WAIT):
        while True:
            for event in await crew.events(key, after=after, wait=5):
                after = event["cursor"]
                if event["kind"] == "context_boundary":
                    return event["body"]["boundary_id"], after


def _last_cursor(events: list[dict[str, Any]]) -> int:
    return max((e["cursor"] for e in events), default=0)


@pytest.mark.sqlite_only("the codes are the API's; the stores' own are tested elsewhere")
async def test_every_code_of_the_table_is_sent_with_its_status(crew: Crew) -> None:
    table = documented()
    p = Provoked(crew)
    radar = await crew.add_member()
    probe = await crew.add_member("probe", "Probe")
    owner = await crew.owner_token()
    concierge = await crew.add_session("concierge")
    channel = await crew.add_session("channel")
    esc, send, ask = (
        "/api/session-control/escalate",
        "/api/session-control/send",
        "/api/session-control/ask",
    )

    # 400 -------------------------------------------------------------------------------------
    bad_bodies: dict[str, object] = {
        "unknown_field": {"message": "x", "cc": 1},
        "missing_field": {},
        "invalid_type": {"message": 5},
        "invalid_message": {"message": "  "},
        "message_too_long": {"message": "x" * 4001},
        "invalid_deadline": {"message": "x", "deadline": "30m"},
        "deadline_without_zone": {"message": "x", "deadline": "2030-01-01T00:00:00"},
        "deadline_in_past": {"message": "x", "deadline": "2000-01-01T00:00:00Z"},
        "deadline_too_far": {"message": "x", "deadline": "P31D"},
        "default_without_deadline": {"message": "x", "default_action": "y"},
        "invalid_default_action": {"message": "x", "deadline": "PT5M", "default_action": " "},
        "invalid_options": {"message": "x", "options": []},
        "invalid_option": {"message": "x", "options": [" "]},
        "duplicate_options": {"message": "x", "options": ["a", "A"]},
        "invalid_goal": {"message": "x", "goal": "Not A Slug"},
    }
    for code, body in bad_bodies.items():
        await p.call(code, radar, "POST", esc, json=body)
    await p.call("malformed_json", radar, "POST", esc, content=b"{", headers=JSON)
    await p.call(
        "invalid_text", radar, "POST", esc, content=b'{"message": "\\ud800"}', headers=JSON
    )
    await p.call("invalid_target", radar, "POST", send, json={"target": "Bad!", "message": "x"})
    await p.call("invalid_member_slug", owner, "GET", "/api/members/Bad!/conversation")
    await p.call("invalid_cursor", radar, "GET", "/api/session/events", params={"after": "abc"})
    await p.call("invalid_wait", radar, "GET", "/api/session/events", params={"wait": 61})
    await p.call("invalid_since", owner, "GET", "/api/audit", params={"since": "last week"})
    await p.call("invalid_limit", owner, "GET", "/api/concierge/ledger", params={"limit": 0})
    await p.call("invalid_question", radar, "POST", ask, json={"question": ""})
    long_key = {"Idempotency-Key": "k" * 256}
    await p.call(
        "invalid_idempotency_key", radar, "POST", esc, json={"message": "x"}, headers=long_key
    )
    hook = "/api/session/webhook"
    for code, url, secret in (
        ("invalid_webhook_url", "http://0177.0.0.1/h", SECRET),
        ("webhook_url_is_crewline", f"{crew.url}/h", SECRET),
        ("webhook_address_not_allowed", "http://[64:ff9b::7f00:1]/h", SECRET),
        ("invalid_webhook_secret", "http://93.184.216.34/h", "short"),
    ):
        await p.call(code, radar, "PUT", hook, json={"url": url, "secret": secret})
    boundaries = "/api/members/radar/boundaries"
    await p.call("invalid_kind", owner, "POST", boundaries, json={"kind": "explode"})
    await p.call("invalid_steps", owner, "POST", boundaries, json={"kind": "rewind", "steps": 0})
    nack = "/api/session/boundaries/nope/nack"
    await p.call("invalid_reason", radar, "POST", nack, json={"reason": ""})
    policy = "/api/concierge/policy"
    await p.call("invalid_answer_policy", owner, "PUT", policy, json={"answer": "sometimes"})
    await p.call("invalid_act_policy", owner, "PUT", policy, json={"act": "maybe"})

    # the concierge's verbs, under a policy that lets it act
    question = (await p.crew.call(radar, "POST", ask, json={"question": "Which DB?"})).json()
    command = {"record_id": question["question_id"], "text": "/stop", "why": "x"}
    await p.call(
        "policy", concierge, "POST", "/api/concierge/reply", json={**command, "text": "pg"}
    )
    on = await crew.call(owner, "PUT", policy, json={"answer": "always", "act": "on"})
    assert on.status_code == 200, on.text
    await p.call("bad_request", concierge, "POST", "/api/concierge/reply", json=command)
    dispatch = "/api/concierge/dispatch"
    await p.call(
        "unknown_launcher", concierge, "POST", dispatch, json={"launcher": "nope", "why": "x"}
    )
    await p.call(
        "launcher_failed", concierge, "POST", dispatch, json={"launcher": "broken", "why": "x"}
    )
    launchers = crew.crewline.launchers
    url, launchers.url = launchers.url, None  # as before crewline serves
    await p.call(
        "not_serving", concierge, "POST", dispatch, json={"launcher": "worker", "why": "x"}
    )
    launchers.url = url
    stop = {"session_id": "nope", "why": "x"}
    await p.call("unknown_session", concierge, "POST", "/api/concierge/stop", json=stop)
    suggest = {"record_id": "nope", "text": "x", "why": "x"}
    await p.call("unknown_record", concierge, "POST", "/api/concierge/suggest", json=suggest)

    # 401, 403, 404, 405 ---------------------------------------------------------------------
    await p.call("missing_key", None, "GET", "/api/session")
    await p.call("invalid_key", "crw_s_nope", "GET", "/api/session")
    await p.call("caller_blocked", channel, "POST", esc, json={"message": "x"})
    await p.call("not_owner", radar, "GET", "/api/members/probe/conversation")
    others = (await crew.escalate(probe, message="Probe's?"))["escalation_id"]
    reply = {"text": "yes", "escalation_id": others}
    await p.call("not_your_record", owner, "POST", "/api/members/radar/reply", json=reply)
    await p.call("session_key_required", owner, "GET", "/api/session")
    await p.call(
        "owner_token_required", radar, "POST", "/api/members/radar/reply", json={"text": "x"}
    )
    mcp = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Origin": "http://evil.example"}
    await p.call("origin_not_allowed", radar, "POST", "/mcp", json=mcp, headers=headers)
    await p.call(
        "host_not_allowed", radar, "POST", "/mcp", json=mcp, headers={"Host": "evil.example"}
    )
    await p.call("not_found", radar, "GET", "/api/nope")
    await p.call("unknown_member", radar, "POST", send, json={"target": "ghost", "message": "x"})
    await p.call("unknown_escalation", radar, "GET", "/api/session-control/escalations/nope")
    await p.call(
        "unknown_question", owner, "POST", "/api/questions/nope/answer", json={"answer": "x"}
    )
    await p.call("unknown_boundary", radar, "POST", "/api/session/boundaries/nope/ack")
    await p.call(
        "unknown_row", owner, "POST", boundaries, json={"kind": "rewind", "row_id": "nope"}
    )
    await p.call("no_webhook", radar, "GET", hook)
    await p.call("method_not_allowed", radar, "DELETE", "/api/session")

    # 409 --------------------------------------------------------------------------------------
    record = (await crew.escalate(radar, message="Ship?", options=["yes", "no"]))["escalation_id"]
    records = "/api/session-control/escalations"
    await p.call("not_defaulted", radar, "POST", f"{records}/{record}/default-applied")
    assert (await crew.call(radar, "POST", f"{records}/{record}/retract")).status_code == 200
    await p.call("already_settled", radar, "POST", f"{records}/{record}/retract")
    keyed = {"Idempotency-Key": "one-write"}
    first = await crew.call(radar, "POST", esc, json={"message": "a"}, headers=keyed)
    assert first.status_code == 200, first.text
    await p.call("idempotency_key_reused", radar, "POST", esc, json={"message": "b"}, headers=keyed)
    said = await crew.call(owner, "POST", "/api/members/radar/reply", json={"text": "my word"})
    assert said.status_code == 200, said.text
    await p.call("member_exists", owner, "POST", "/api/members/radar/forks", json={"slug": "probe"})
    rows = await crew.crewline.store.live_rows("radar")
    mine = next(r for r in rows if r.text == "my word")
    edit = {"kind": "edit", "row_id": mine.id, "text": "my word"}
    await p.call("unchanged", owner, "POST", boundaries, json=edit)
    last = {"kind": "rewind", "row_id": rows[-1].id}
    await p.call("nothing_to_rewind", owner, "POST", boundaries, json=last)
    turn = "/api/session/turn"
    crew.crewline.bot.boundaries.refuse_mid_turn = True
    assert (await crew.call(radar, "POST", turn, json={"state": "started"})).status_code == 200
    await p.call("boundary_mid_turn", owner, "POST", boundaries, json={"kind": "reset"})
    assert (await crew.call(radar, "POST", turn, json={"state": "ended"})).status_code == 200
    crew.crewline.bot.boundaries.refuse_mid_turn = False
    cursor = _last_cursor(await crew.events(radar))
    asked = asyncio.create_task(crew.call(owner, "POST", boundaries, json={"kind": "reset"}))
    boundary, cursor = await _next_boundary(crew, radar, cursor)
    await p.call("boundary_in_flight", owner, "POST", boundaries, json={"kind": "reset"})
    nacked = await crew.call(
        radar, "POST", f"/api/session/boundaries/{boundary}/nack", json={"reason": "busy"}
    )
    assert nacked.status_code == 200, nacked.text
    refused = await asyncio.wait_for(asked, WAIT)
    p.note("boundary_refused", refused.status_code, refused.text)
    await p.call("boundary_closed", radar, "POST", f"/api/session/boundaries/{boundary}/ack")
    crew.crewline.bot.boundaries.wait = 0.2  # nobody will answer the next one
    await p.call("boundary_unacknowledged", owner, "POST", boundaries, json={"kind": "reset"})

    # 413, 415, 429 ----------------------------------------------------------------------------
    huge = b"{" + b" " * (1024 * 1024 + 1) + b"}"
    await p.call("payload_too_large", radar, "POST", esc, content=huge, headers=JSON)
    await p.call("unsupported_media_type", radar, "POST", esc, content=b'{"message": "x"}')
    busy = await crew.add_member("busy", "Busy")
    for n in range(50):
        # a choice with no default: left to the human under any policy, so all 50 stay open
        await crew.escalate(
            busy, message=f"open {n}", options=["left", "right"], wait_for_delivery=False
        )
    await p.call("escalation_backlog_full", busy, "POST", esc, json={"message": "one more"})

    # the HTTP server's own: 431 (its 408s at the end) ---------------------------------------
    filler = b"X-Filler: " + b"a" * 4000 + b"\r\n"
    p.note("header_too_large", *await _raw(crew, b"GET /healthz HTTP/1.1\r\n" + filler * 20))

    # a key revoked while a long poll waits, then crewline stopping while one waits -----------
    temp = await crew.add_member("temp", "Temp")
    waiting = asyncio.create_task(
        crew.call(temp, "GET", "/api/session/events", params={"wait": 30})
    )
    await _readers(crew, 1)

    await crew_admin.remove_member(crew.crewline.store, "temp")
    revoked = await asyncio.wait_for(waiting, WAIT)
    p.note("key_revoked", revoked.status_code, revoked.text)
    polling = asyncio.create_task(
        crew.call(radar, "GET", "/api/session/events", params={"after": 10**6, "wait": 30})
    )
    await _readers(crew, 1)
    await crew.stop()
    stopped = await asyncio.wait_for(polling, WAIT)
    p.note("shutting_down", stopped.status_code, stopped.text)

    # the HTTP server's own 408s, each on a run with that one timeout short: a short head
    # deadline for every call refuses any call that a loaded machine keeps from sending its
    # head within it (the server's loop, and this client on it, starved of CPU), and a short
    # body deadline any call whose body is late
    shipped = crew.config
    crew.config = replace(shipped, http_body_timeout=SHORT)
    await crew.start()
    body = b"POST /api/session/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"
    p.note("body_timeout", *await _raw(crew, body))
    crew.config = replace(shipped, http_header_timeout=SHORT)
    await crew.restart()
    p.note("header_timeout", *await _raw(crew, b"GET /healthz HTTP/1.1\r\nHo"))

    expected = {code: (status, code) for code, status in table.items() if code not in ELSEWHERE}
    assert p.answers == expected


async def _readers(crew: Crew, count: int) -> None:
    """Wait (bounded) until ``count`` long polls wait on crewline."""
    feed = crew.crewline.hub.feed
    async with asyncio.timeout(WAIT):
        while sum(feed.open_readers(s) for s in feed.readers()) < count:  # noqa: ASYNC110
            await asyncio.sleep(0.01)


@pytest.mark.parametrize("code", sorted(ELSEWHERE))
def test_a_code_provoked_elsewhere_is_asserted_by_the_test_named(code: str) -> None:
    """The named test exists and asserts the code."""
    path, name = ELSEWHERE[code]
    tree = ast.parse((ROOT / path).read_text())
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef) and node.name == name
    ]
    assert found, f"{path} has no test {name}"
    literals = {n.value for n in ast.walk(found[0]) if isinstance(n, ast.Constant)}
    assert code in literals, f"{name} does not assert {code}"
    assert code in documented()
