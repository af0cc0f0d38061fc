"""The [slack] table and the SLACK_* variables: validated once, naming the bad key."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewline.config import Config
from crewline.errors import ConfigError
from crewline.transports.registry import build_transport
from crewline.transports.slack import SlackTransport
from crewline.transports.slack.settings import DEFAULT_API_URL, settings_from

BOT = "xoxb-1-HUSHBOT"
APP = "xapp-1-HUSHAPP"
SIGN = "HUSHSIGN"


def test_the_environment_wins_over_the_file_and_selects_socket_mode() -> None:
    """SLACK_APP_TOKEN set means Socket Mode; SLACK_API_URL gets its trailing slash."""
    settings = settings_from(
        {"bot_token": "xoxb-from-file", "post_interval": 0.5},
        {"SLACK_BOT_TOKEN": BOT, "SLACK_APP_TOKEN": APP, "SLACK_API_URL": "http://127.0.0.1:9/api"},
    )
    assert (settings.bot_token, settings.app_token) == (BOT, APP)
    assert settings.socket_mode
    assert settings.api_url == "http://127.0.0.1:9/api/"
    assert settings.post_interval == 0.5


def test_http_mode_needs_the_signing_secret() -> None:
    """Without an app token the signing secret is required; with it, HTTP mode is chosen."""
    with pytest.raises(ConfigError) as missing:
        settings_from({}, {"SLACK_BOT_TOKEN": BOT})
    assert missing.value.details["key"] == "slack.signing_secret"
    settings = settings_from({"signing_secret": "s3cret"}, {"SLACK_BOT_TOKEN": BOT})
    assert not settings.socket_mode
    assert settings.api_url == DEFAULT_API_URL


@pytest.mark.parametrize(
    ("section", "env", "key"),
    [
        ({"bot_tokn": BOT}, {"SLACK_SIGNING_SECRET": SIGN}, "slack.bot_tokn"),
        ({}, {"SLACK_SIGNING_SECRET": SIGN}, "slack.bot_token"),
        ({}, {"SLACK_BOT_TOKEN": APP, "SLACK_SIGNING_SECRET": SIGN}, "slack.bot_token"),
        ({}, {"SLACK_BOT_TOKEN": BOT, "SLACK_APP_TOKEN": BOT}, "slack.app_token"),
        (
            {"api_url": "slack.com/api"},
            {"SLACK_BOT_TOKEN": BOT, "SLACK_APP_TOKEN": APP},
            "slack.api_url",
        ),
        (
            {"post_interval": -1},
            {"SLACK_BOT_TOKEN": BOT, "SLACK_APP_TOKEN": APP},
            "slack.post_interval",
        ),
        ({"bot_token": 42}, {"SLACK_APP_TOKEN": APP}, "slack.bot_token"),
    ],
)
def test_a_bad_setting_is_refused_naming_its_key_never_the_secret(
    section: dict[str, object], env: dict[str, str], key: str
) -> None:
    """Typos, missing or swapped tokens, bad URLs and intervals name the key."""
    with pytest.raises(ConfigError) as refused:
        settings_from(section, env)
    assert refused.value.details["key"] == key
    assert "HUSH" not in refused.value.message


def test_settings_never_show_their_secrets() -> None:
    """repr() of the settings names the mode and URL only."""
    settings = settings_from({}, {"SLACK_BOT_TOKEN": BOT, "SLACK_APP_TOKEN": APP})
    assert "HUSH" not in repr(settings) and "socket" in repr(settings)


def test_the_registry_builds_the_slack_transport_from_config_and_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """crewline's factory table finds build() and reads [slack] plus SLACK_*."""
    monkeypatch.setenv("SLACK_BOT_TOKEN", BOT)
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "s3cret")
    monkeypatch.delenv("SLACK_APP_TOKEN", raising=False)
    monkeypatch.delenv("SLACK_API_URL", raising=False)
    config = Config(data_dir=tmp_path, sections={"slack": {"post_interval": 0.25}})
    transport = build_transport("slack", config)
    assert isinstance(transport, SlackTransport)
    assert transport.name == "slack"
    assert transport.limits.per_thread_interval == 0.25
    assert transport.limits.global_per_second == 4.0
    mount = transport.http_mount()
    assert mount is not None and mount[0] == "/slack"
