"""The Slack app manifest declares exactly what the transport uses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from crewline.transports.slack.payloads import COMMANDS

MANIFEST = Path(__file__).parents[2] / "slack-app-manifest.yml"


def _manifest() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(MANIFEST.read_text())
    return loaded


def test_every_url_is_the_one_events_endpoint() -> None:
    """Events, interactivity and every slash command go to /slack/events."""
    manifest = _manifest()
    urls = [
        manifest["settings"]["event_subscriptions"]["request_url"],
        manifest["settings"]["interactivity"]["request_url"],
        *(c["url"] for c in manifest["features"]["slash_commands"]),
    ]
    assert len(urls) == 5
    assert all(url.endswith("/slack/events") for url in urls)
    assert manifest["settings"]["interactivity"]["is_enabled"] is True


def test_commands_events_and_scopes_match_the_transport() -> None:
    """Declared commands are crewline's; events and scopes cover the calls it makes."""
    manifest = _manifest()
    commands = {c["command"] for c in manifest["features"]["slash_commands"]}
    assert commands == {"/crew", "/concierge", "/roster"}
    assert {c.removeprefix("/") for c in commands} - {"crew"} <= COMMANDS
    assert set(manifest["settings"]["event_subscriptions"]["bot_events"]) == {
        "message.im",
        "app_home_opened",
    }
    assert set(manifest["oauth_config"]["scopes"]["bot"]) == {
        "chat:write",
        "chat:write.customize",
        "commands",
        "im:history",
        "im:write",
    }
    app_home = manifest["features"]["app_home"]
    assert app_home["home_tab_enabled"] and app_home["messages_tab_enabled"]
    assert not app_home["messages_tab_read_only_enabled"]


def test_the_message_shortcuts_are_the_ones_the_transport_listens_for() -> None:
    """ "Rewind to here" and "Fork from here" are message shortcuts whose callback_ids the
    transport routes."""
    from crewline.transports.slack.payloads import FORK_SHORTCUT, REWIND_SHORTCUT

    shortcuts = _manifest()["features"]["shortcuts"]
    assert {s["type"] for s in shortcuts} == {"message"}
    assert {s["callback_id"]: s["name"] for s in shortcuts} == {
        REWIND_SHORTCUT: "Rewind to here",
        FORK_SHORTCUT: "Fork from here",
    }
