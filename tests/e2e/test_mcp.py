"""The MCP tools, driven by the official SDK's own client: in memory, over streamable HTTP
at /mcp, and over stdio through the ``crewline mcp`` subprocess; and their input schemas
against the OpenAPI schema, field by field."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from crewline.api.mcp import TOOLS
from tests.bounds import WAIT
from tests.driver import Crew
from tests.e2e.mcp_clients import call, in_memory, over_http, over_stdio

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

TOOL_NAMES = {
    "session_escalate",
    "session_send",
    "session_post",
    "ask_question",
    "check_events",
    "default_applied",
}


async def _every_tool(crew: Crew, client: Client, key: str) -> None:
    """Each tool once, as an agent would use them: nothing waits on the human."""
    await crew.add_member("hawk", "Hawk")
    assert {t.name for t in (await client.list_tools()).tools} == TOOL_NAMES
    failed, escalated = await call(
        client,
        "session_escalate",
        message="Ship?",
        options=["yes", "no"],
        deadline="PT5M",
        default_action="ship it",
    )
    assert not failed and escalated["state"] == "pending"
    failed, asked = await call(client, "ask_question", question="Pick a DB", options=["a", "b"])
    assert not failed and asked["state"] == "waiting"
    failed, sent = await call(client, "session_send", target="hawk", message="ping")
    assert not failed and sent["member"] == "hawk"
    failed, posted = await call(client, "session_post", text="Halfway through the plan.")
    assert not failed and posted["conversation"] == "radar"
    harness = crew.harness
    await harness.wait_until(
        lambda: any("Pick a DB" in m.text and m.buttons for m in harness.messages("radar"))
    )
    question = next(m for m in harness.messages("radar") if "Pick a DB" in m.text)
    await harness.press("radar", question, 1)
    failed, page = await call(client, "check_events", after=0, wait=10)
    assert not failed
    assert [e["kind"] for e in page["events"]] == ["question_answered"]
    assert page["events"][0]["body"]["answer"] == "b"
    failed, early = await call(client, "default_applied", escalation_id=escalated["escalation_id"])
    assert failed and early["error"]["code"] == "not_defaulted"
    failed, unknown = await call(
        client, "session_send", target="hawk", message="x", deadline="PT1M"
    )
    assert failed and (unknown["error"]["code"], unknown["error"]["field"]) == (
        "unknown_field",
        "deadline",
    )
    assert [r.text for r in await crew.crewline.store.live_rows("hawk")] == ["ping"]


async def test_every_tool_in_memory_with_the_sdks_client(crew: Crew) -> None:
    """The SDK's in-memory client, declaring no optional capability, uses every tool."""
    key = await crew.add_member()
    async with in_memory(crew, key) as client:
        assert client.session is not None
        await _every_tool(crew, client, key)


async def test_every_tool_over_streamable_http_at_mcp(crew: Crew) -> None:
    """/mcp on crewline's own server answers the SDK's streamable-HTTP client."""
    key = await crew.add_member()
    async with over_http(crew, key) as client:
        await _every_tool(crew, client, key)


async def test_every_tool_over_stdio_through_the_crewline_mcp_command(crew: Crew) -> None:
    """``crewline mcp`` as a subprocess relays each tool to crewline's HTTP API."""
    key = await crew.add_member()
    async with over_stdio(crew, key) as client:
        await _every_tool(crew, client, key)


async def test_crewline_mcp_takes_the_key_and_url_as_options(crew: Crew) -> None:
    """``crewline mcp --key K --url U``: the options serve, and win over a wrong
    $CREWLINE_URL, with no key in the environment."""
    key = await crew.add_member()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREWLINE_")}
    env["CREWLINE_URL"] = "http://127.0.0.1:1"  # nothing listens there
    options = ["-m", "crewline", "mcp", "--key", key, "--url", crew.url]
    params = StdioServerParameters(command=sys.executable, args=options, env=env)
    async with Client(params, read_timeout_seconds=WAIT) as client:
        assert {t.name for t in (await client.list_tools()).tools} == TOOL_NAMES
        failed, escalated = await call(client, "session_escalate", message="From the options")
    assert not failed and escalated["state"] == "pending", escalated
    assert [r.text for r in await crew.crewline.store.live_rows("radar")] == ["From the options"]


async def test_mcp_without_a_session_key_is_refused_before_the_sdk(crew: Crew) -> None:
    """No key, a bad key, or the owner's token: 401/403 in crewline's error shape."""
    await crew.add_member()
    token = await crew.owner_token()
    async with httpx2.AsyncClient(base_url=crew.url, timeout=WAIT) as http:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        missing = await http.post("/mcp", json=body)
        wrong = await http.post("/mcp", json=body, headers={"Authorization": "Bearer crw_s_x"})
        owner = await http.post("/mcp", json=body, headers={"Authorization": f"Bearer {token}"})
    assert (missing.status_code, missing.json()["error"]["code"]) == (401, "missing_key")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "invalid_key")
    assert (owner.status_code, owner.json()["error"]["code"]) == (403, "session_key_required")


async def test_mcp_refuses_a_foreign_origin_or_host_even_with_a_key(crew: Crew) -> None:
    """The MCP specification's DNS rebinding defence: a web page's Origin is refused unless
    listed, and on a loopback bind a Host that is not a loopback name too, with a valid
    key, before the SDK reads anything; a listed origin and an agent without one pass."""
    key = await crew.add_member()
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    auth = {"Authorization": f"Bearer {key}", "Accept": "application/json, text/event-stream"}
    async with httpx2.AsyncClient(base_url=crew.url, timeout=WAIT) as http:
        evil = await http.post(
            "/mcp",
            json=body,
            headers={**auth, "Origin": "http://evil.example", "Host": "evil.example"},
        )
        assert (evil.status_code, evil.json()["error"]["code"]) == (403, "origin_not_allowed")
        rebound = await http.post("/mcp", json=body, headers={**auth, "Host": "evil.example"})
        assert (rebound.status_code, rebound.json()["error"]["code"]) == (403, "host_not_allowed")
        page = {**auth, "Origin": "http://localhost:6274"}
        refused = await http.post("/mcp", json=body, headers=page)
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "origin_not_allowed")
        agent = await http.post("/mcp", json=body, headers=auth)
        crew.crewline.mcp.origins = replace(
            crew.crewline.mcp.origins, origins=("http://localhost:6274",)
        )
        listed = await http.post("/mcp", json=body, headers=page)
    assert (agent.status_code, listed.status_code) == (200, 200), (agent.text, listed.text)
    assert "tools" in listed.json()["result"]


async def test_check_events_waits_at_most_twenty_seconds(crew: Crew) -> None:
    """A longer wait is refused with the API's invalid_wait, nothing held open."""
    key = await crew.add_member()
    async with in_memory(crew, key) as client:
        failed, refused = await call(client, "check_events", after=0, wait=21)
        unknown = await client.call_tool("no_such_tool", {})
    assert failed and refused["error"]["code"] == "invalid_wait"
    assert unknown.is_error


async def test_tool_descriptions_say_what_waits_and_what_does_not(crew: Crew) -> None:
    """Each description says it returns at once, or how long it may wait: the member's
    tools as listed, and the concierge's hub_* tools as a concierge session lists them."""
    key = await crew.add_member()
    concierge = await crew.add_session("concierge")
    async with in_memory(crew, key) as client:
        tools = {t.name: t.description or "" for t in (await client.list_tools()).tools}
    async with in_memory(crew, concierge) as client:
        hub = {
            t.name: t.description or ""
            for t in (await client.list_tools()).tools
            if t.name.startswith("hub_")
        }
    assert set(hub) == {"hub_suggest", "hub_reply", "hub_stop", "hub_respawn", "hub_dispatch"}
    for name, description in {**tools, **hub}.items():
        if name != "check_events":
            assert "at once" in description.lower(), name
    assert "nothing wakes you" in tools["session_escalate"]
    assert "wait_for_delivery=false answers at once" in tools["session_escalate"]
    assert "at most 'wait' seconds (0..20)" in tools["check_events"]


def _shapes(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each field's schema; FastAPI leaves out a null default, which says nothing more."""
    return {
        name: {k: v for k, v in field.items() if not (k == "default" and v is None)}
        for name, field in schema["properties"].items()
    }


def _without(schema: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in keys}


async def test_openapi_and_mcp_tool_schemas_agree_field_by_field(crew: Crew) -> None:
    """Each tool's input schema is the HTTP request's: same fields, types, required set; a
    write's Idempotency-Key header is its idempotency_key argument."""
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    components = schema["components"]["schemas"]
    paths = schema["paths"]
    tools = {tool.name: tool.listed().input_schema for tool in TOOLS}
    bodies = (
        ("session_escalate", "/api/session-control/escalate"),
        ("session_send", "/api/session-control/send"),
        ("session_post", "/api/session/messages"),
        ("ask_question", "/api/session-control/ask"),
        ("hub_suggest", "/api/concierge/suggest"),
        ("hub_reply", "/api/concierge/reply"),
        ("hub_stop", "/api/concierge/stop"),
        ("hub_respawn", "/api/concierge/respawn"),
        ("hub_dispatch", "/api/concierge/dispatch"),
    )
    assert {tool for tool, _ in bodies} | {"check_events", "default_applied"} == set(tools)
    for tool, route in bodies:
        operation = paths[route]["post"]
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        http, mcp = components[body["$ref"].rsplit("/", 1)[-1]], tools[tool]
        shapes = _shapes(mcp)
        # The Idempotency-Key header is the argument idempotency_key, where HTTP takes it.
        headers = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "header"}
        if "Idempotency-Key" in headers:
            header = headers["Idempotency-Key"]
            key = shapes.pop("idempotency_key")
            assert key["description"] == header["description"], tool
            plain = {"title", "description"}  # the name and the words, compared above
            assert _without(key, plain) == _without(header["schema"], plain), tool
            assert not header.get("required", False)
        assert "idempotency_key" not in shapes, tool
        assert _shapes(http) == shapes, tool
        assert set(http.get("required", [])) == set(mcp.get("required", [])), tool
        assert http["additionalProperties"] is mcp["additionalProperties"] is False
    events = {p["name"]: p for p in paths["/api/session/events"]["get"]["parameters"]}
    assert set(tools["check_events"]["properties"]) == set(events)
    for name, parameter in events.items():
        assert parameter["schema"]["type"] == tools["check_events"]["properties"][name]["type"]
    confirm = paths["/api/session-control/escalations/{escalation_id}/default-applied"]["post"]
    [path_parameter] = confirm["parameters"]
    assert tools["default_applied"]["required"] == [path_parameter["name"]]
    assert (
        tools["default_applied"]["properties"]["escalation_id"]["maxLength"]
        == (path_parameter["schema"]["maxLength"])
    )
