"""The concierge's hub_* verbs as MCP tools: listed only for the sessions crewline's gate
lets use them, decided by the service when called, refused exactly as over HTTP."""

from __future__ import annotations

import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from mcp.shared.exceptions import MCPError

from crewline.client import Client as CrewlineClient
from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.e2e.mcp_clients import SURFACES, call, in_memory, over_stdio
from tests.harness import Harness

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

AGENT_TOOLS = {
    "session_escalate",
    "session_send",
    "session_post",
    "ask_question",
    "check_events",
    "default_applied",
}
HUB_TOOLS = {"hub_suggest", "hub_reply", "hub_stop", "hub_respawn", "hub_dispatch"}


async def _listed(crew: Crew, surface: str, key: str) -> set[str]:
    async with SURFACES[surface](crew, key) as client:
        return {tool.name for tool in (await client.list_tools()).tools}


@pytest.mark.parametrize("surface", sorted(SURFACES))
async def test_only_a_concierge_session_is_listed_the_hub_tools(crew: Crew, surface: str) -> None:
    """In memory, over /mcp and over stdio: the gate's grants decide the listing."""
    member = await crew.add_member()
    concierge = await crew.add_session("concierge")
    assert await _listed(crew, surface, member) == AGENT_TOOLS
    assert await _listed(crew, surface, concierge) == AGENT_TOOLS | HUB_TOOLS


async def test_a_channel_session_is_listed_only_what_the_gate_grants_it(crew: Crew) -> None:
    """A channel agent may not reach the human: it sees check_events and session_post (its
    own transcript) alone, and a call of an unlisted tool is still refused by the service
    with the HTTP API's code."""
    await crew.add_member()
    channel = await crew.add_session("channel")
    assert await _listed(crew, "memory", channel) == {"check_events", "session_post"}
    async with in_memory(crew, channel) as client:
        failed, refused = await call(client, "session_escalate", message="Ship?")
    assert failed and refused["error"]["code"] == "caller_blocked"


@pytest.mark.parametrize("surface", sorted(SURFACES))
async def test_hub_reply_refuses_a_dialog_as_the_http_api_does(crew: Crew, surface: str) -> None:
    """Under always, a dialog is still the human's alone: bad_request, the question waits."""
    member = await crew.add_member()
    concierge = await crew.add_session("concierge")
    policy = await crew.call(
        await crew.owner_token(), "PUT", "/api/concierge/policy", json={"answer": "always"}
    )
    assert policy.json()["answer"] == "always"
    asked = await crew.call(
        member, "POST", "/api/session-control/ask", json={"question": "Allow?", "dialog": True}
    )
    question_id = asked.json()["question_id"]
    over_http = await crew.call(
        concierge,
        "POST",
        "/api/concierge/reply",
        json={"record_id": question_id, "text": "allow"},
    )
    async with SURFACES[surface](crew, concierge) as client:
        failed, refused = await call(client, "hub_reply", record_id=question_id, text="allow")
    assert failed
    assert refused["error"]["code"] == over_http.json()["error"]["code"] == "bad_request"
    question = await crew.crewline.store.question(question_id)
    assert question is not None and question.state.value == "waiting"


async def test_a_members_call_of_an_unlisted_hub_tool_is_refused_and_audited(crew: Crew) -> None:
    """Not listed is not the gate: the call reaches the service, which refuses it
    (caller_blocked, as over HTTP) and writes a SEL record."""
    member = await crew.add_member()
    escalated = await crew.escalate(member, message="Shall I proceed?")
    async with in_memory(crew, member) as client:
        failed, refused = await call(
            client, "hub_reply", record_id=escalated["escalation_id"], text="yes"
        )
    assert failed and refused["error"]["code"] == "caller_blocked"
    assert await crew.crewline.store.sel(action_prefix="hub_reply:caller_blocked")
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


async def test_hub_suggest_through_mcp_leaves_a_suggestion_and_answers_nothing(
    crew: Crew,
) -> None:
    """The concierge's suggestion lands on the waiting record; the record still waits."""
    member = await crew.add_member()
    concierge = await crew.add_session("concierge")
    escalated = await crew.escalate(member, message="What colour should the header be?")
    await crew.crewline.bot.concierge.idle()
    record = escalated["escalation_id"]
    before = await crew.crewline.store.suggestion(record)
    assert before is None or before.text != "teal"
    async with in_memory(crew, concierge) as client:
        failed, suggested = await call(
            client,
            "hub_suggest",
            record_id=escalated["escalation_id"],
            text="teal",
            why="the brand colour",
        )
    assert not failed, suggested
    assert suggested == {"suggested": True, "record_id": escalated["escalation_id"]}
    after = await crew.crewline.store.suggestion(record)
    assert after is not None and after.text == "teal" and after.brain.startswith("session:")
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


async def test_hub_acts_through_mcp_are_refused_while_act_is_off(crew: Crew) -> None:
    """hub_dispatch under act off: policy, as over HTTP."""
    await crew.add_member()
    concierge = await crew.add_session("concierge")
    async with over_stdio(crew, concierge) as client:
        failed, refused = await call(client, "hub_dispatch", launcher="worker", why="x")
    assert failed and refused["error"]["code"] == "policy"


async def test_the_listing_fails_closed_when_crewline_cannot_be_asked(crew: Crew) -> None:
    """``crewline mcp`` pointed at nothing lists no tool: the listing itself fails."""
    key = await crew.add_member()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with over_stdio(crew, key, url=f"http://127.0.0.1:{port}") as client:
        with pytest.raises(MCPError) as failed:
            await client.list_tools()
    assert "unreachable" in str(failed.value.error.data)


async def test_whoami_says_the_kind_and_the_granted_verbs(crew: Crew) -> None:
    """GET /api/session, through the client: what MCP's listing is built from."""
    await crew.add_member()
    concierge = await crew.add_session("concierge")
    async with CrewlineClient(concierge, url=crew.url) as client:
        info = await client.whoami()
    assert info.kind == "concierge" and info.member is None
    assert set(info.verbs) >= HUB_TOOLS
    owner = await crew.call(await crew.owner_token(), "GET", "/api/session")
    assert (owner.status_code, owner.json()["error"]["code"]) == (403, "session_key_required")


@pytest.fixture
async def launching(config: Config, clock: FakeClock, harness: Harness) -> AsyncIterator[Crew]:
    """crewline with a launcher the concierge may run (a process that exits at once)."""
    launchers = {"worker": (sys.executable, "-c", "pass")}
    driver = Crew(replace(config, launchers=launchers), clock, [harness])
    await driver.start()
    yield driver
    await driver.stop()


@pytest.mark.parametrize("surface", ["http", "stdio"])
async def test_every_hub_tool_through_the_mcp_servers(launching: Crew, surface: str) -> None:
    """With answer always and act on: suggest, reply, dispatch, respawn and stop, each as
    the HTTP route answers it, over /mcp and through the ``crewline mcp`` subprocess."""
    crew = launching
    member = await crew.add_member()
    concierge = await crew.add_session("concierge")
    policy = await crew.call(
        await crew.owner_token(),
        "PUT",
        "/api/concierge/policy",
        json={"answer": "always", "act": "on"},
    )
    assert policy.json() == {"answer": "always", "act": "on"}
    record = (await crew.escalate(member, message="What colour should the header be?"))[
        "escalation_id"
    ]
    await crew.crewline.bot.concierge.idle()
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    async with SURFACES[surface](crew, concierge) as client:
        failed, suggested = await call(client, "hub_suggest", record_id=record, text="teal")
        assert (failed, suggested) == (False, {"suggested": True, "record_id": record})
        failed, replied = await call(client, "hub_reply", record_id=record, text="teal")
        assert (failed, replied) == (False, {"answered": True, "record_id": record})
        failed, dispatched = await call(
            client, "hub_dispatch", launcher="worker", member="radar", why="a tester"
        )
        assert not failed and dispatched["done"] == "dispatched", dispatched
        assert isinstance(dispatched["pid"], int)
        failed, respawned = await call(
            client,
            "hub_respawn",
            session_id=dispatched["session_id"],
            launcher="worker",
            why="stuck",
        )
        assert not failed and respawned["done"] == "respawned", respawned
        assert respawned["session_id"] != dispatched["session_id"]
        failed, stopped = await call(
            client, "hub_stop", session_id=respawned["session_id"], why="done"
        )
        assert (failed, stopped) == (
            False,
            {"done": "stopped", "session_id": respawned["session_id"]},
        )
    assert await crew.crewline.launchers.wait_exited() == [0, 0]
    view = (await crew.conversation())["escalations"][0]
    assert (view["state"], view["answered_by"], view["answer"]) == ("answered", "concierge", "teal")
    acts = await crew.crewline.store.sel(action_prefix="concierge:act")
    assert [r.details["what"] for r in acts] == ["dispatched", "respawned", "stop"]
