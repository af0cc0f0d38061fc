"""Slack over Socket Mode: envelopes through the fake's ``apps.connections.open`` websocket.

The transport is configured the way a user configures it (``SLACK_APP_TOKEN`` set), serves
no HTTP endpoint, acknowledges every envelope it handled, drops redeliveries, refuses a
foreign workspace without making Slack redeliver, and keeps working after the socket drops.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from crewline.app.server import Crewline
from crewline.config import Config
from crewline.transports.slack import SlackTransport
from tests.driver import Crew
from tests.harnesses.slack import SlackHarness


@pytest.fixture
async def harness() -> AsyncIterator[SlackHarness]:
    async with SlackHarness(socket_mode=True).running() as running:
        assert isinstance(running, SlackHarness)
        yield running


async def test_the_environment_configures_socket_mode_and_no_endpoint(
    harness: SlackHarness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SLACK_APP_TOKEN set, crewline connects a socket and mounts no /slack/events."""
    fake = harness.fake
    monkeypatch.setenv("SLACK_BOT_TOKEN", fake.bot_token)
    monkeypatch.setenv("SLACK_APP_TOKEN", fake.app_token)
    monkeypatch.setenv("SLACK_API_URL", fake.api_url.rstrip("/"))
    monkeypatch.delenv("SLACK_SIGNING_SECRET", raising=False)
    config = Config(data_dir=tmp_path / "data", port=0, transports=("slack",))
    async with Crewline(config) as running:
        (transport,) = running.transports
        assert isinstance(transport, SlackTransport) and transport.settings.socket_mode
        await fake.wait_for_socket()
        assert transport.http_mount() is None
        assert transport.team == fake.team_id
        assert [c.token for c in fake.calls_to("apps.connections.open")] == [fake.app_token]
        assert harness._http is not None
        missing = await harness._http.post(f"{running.url}/slack/events", content=b"{}")
        assert missing.status_code == 404


async def test_a_reply_a_click_and_a_command_are_acknowledged_and_answered(
    crew: Crew, harness: SlackHarness
) -> None:
    """Each envelope kind is acked; the click answers its card; /roster answers privately."""
    key = await crew.add_member()
    await crew.escalate(key, message="Ship?", options=["yes", "no"])
    await crew.escalate(key, message="Port?")
    await harness.wait_until(lambda: len(harness.cards("radar")) == 2)
    assert await harness.press("radar", harness.cards("radar")[0], 1) == "Answered: no"
    receipt = await harness.say("radar", "8080")
    assert receipt is not None and receipt.accepted
    roster = await harness.command("roster")
    assert roster is not None and "Radar (radar): all clear" in roster
    answers = [
        e["body"]["answer"] for e in await crew.events(key) if e["kind"] == "escalation_answered"
    ]
    assert answers == ["no", "8080"]
    assert len(harness.fake.socket_acks) == 3


async def test_a_foreign_workspace_envelope_is_acked_refused_and_audited(
    crew: Crew, harness: SlackHarness
) -> None:
    """An envelope naming another team is acknowledged (no redelivery) but changes nothing."""
    key = await crew.add_member()
    await crew.escalate(key, message="Proceed?")
    await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
    root = harness.root("radar")
    assert root is not None
    envelope = harness.fake.event_callback(
        harness.fake.thread_reply(root, "yes"), team_id="T0EVIL0001"
    )
    acked = await harness.fake.wait_for_ack(
        await harness.fake.push_socket_event("events_api", envelope)
    )
    assert acked.payload is None
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    audit = await crew.crewline.store.sel(action_prefix="request:")
    assert [(r.action, r.details["mode"]) for r in audit] == [
        ("request:unknown_team", "socket_mode")
    ]


async def test_events_still_arrive_after_the_socket_drops_or_is_refreshed(
    crew: Crew, harness: SlackHarness
) -> None:
    """After an unannounced drop and a disconnect refresh, the transport reconnects and answers."""
    key = await crew.add_member()
    await crew.escalate(key, message="First?")
    await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
    fake = harness.fake
    assert await fake.drop_socket() == 1
    await fake.wait_for_socket(connections=2)
    assert (await harness.say("radar", "one")) is not None
    await crew.escalate(key, message="Second?")
    await harness.wait_until(lambda: len(harness.cards("radar")) == 2)
    assert await fake.disconnect_socket() == 1
    await fake.wait_for_socket(connections=3)
    assert (await harness.say("radar", "two")) is not None
    answers = [
        e["body"]["answer"] for e in await crew.events(key) if e["kind"] == "escalation_answered"
    ]
    assert answers == ["one", "two"]
