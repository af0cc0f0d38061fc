"""The Discord transport's configuration: [discord] and the DISCORD_* variables."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewline.config import Config
from crewline.errors import ConfigError
from crewline.transports.discord import DiscordTransport, build, settings_from

TOKEN = "MTA1.secret-token-value.xyz"
ENV = {"DISCORD_BOT_TOKEN": TOKEN, "DISCORD_GUILD_ID": "111", "DISCORD_CHANNEL_ID": "222"}


def test_the_environment_alone_configures_discord() -> None:
    """Token, server and channel from the environment; Discord's own URLs by default."""
    settings = settings_from({}, ENV)
    assert (settings.bot_token, settings.guild_id, settings.channel_id) == (TOKEN, 111, 222)
    assert (settings.api_url, settings.gateway_url) == (None, None)


def test_the_environment_wins_over_the_file() -> None:
    """[discord] sets values; a DISCORD_* variable overrides the same key."""
    section = {"guild_id": "999", "channel_id": 888, "api_url": "http://proxy:8080/api/v10/"}
    settings = settings_from(section, {**ENV, "DISCORD_GATEWAY_URL": "ws://proxy:8081/gw"})
    assert (settings.guild_id, settings.channel_id) == (111, 222)
    assert settings.api_url == "http://proxy:8080/api/v10"
    assert settings.gateway_url == "ws://proxy:8081/gw"


@pytest.mark.parametrize(
    ("section", "env", "key"),
    [
        ({"token": "x"}, ENV, "discord.token"),
        ({}, {**ENV, "DISCORD_BOT_TOKEN": ""}, "discord.bot_token"),
        ({}, {**ENV, "DISCORD_BOT_TOKEN": "two words"}, "discord.bot_token"),
        ({}, {k: v for k, v in ENV.items() if k != "DISCORD_GUILD_ID"}, "discord.guild_id"),
        ({}, {**ENV, "DISCORD_CHANNEL_ID": "#crew"}, "discord.channel_id"),
        ({}, {**ENV, "DISCORD_CHANNEL_ID": "0"}, "discord.channel_id"),
        ({}, {**ENV, "DISCORD_API_URL": "discord.com/api"}, "discord.api_url"),
        ({}, {**ENV, "DISCORD_GATEWAY_URL": "https://gateway.discord.gg"}, "discord.gateway_url"),
        (
            {"guild_id": True},
            {k: v for k, v in ENV.items() if k != "DISCORD_GUILD_ID"},
            "discord.guild_id",
        ),
    ],
)
def test_a_bad_setting_is_refused_naming_its_key(
    section: dict[str, object], env: dict[str, str], key: str
) -> None:
    """Unknown keys, missing or malformed values name the key; the token never shows."""
    with pytest.raises(ConfigError) as raised:
        settings_from(section, env)
    assert raised.value.details["key"] == key
    assert TOKEN not in str(raised.value)


def test_the_token_stays_out_of_the_settings_repr() -> None:
    """Logging the settings never logs the token."""
    assert TOKEN not in repr(settings_from({}, ENV))


def test_build_reads_the_discord_section_and_the_environment(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """The registry's factory makes a DiscordTransport from [discord] and DISCORD_*."""
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("DISCORD_API_URL", raising=False)
    monkeypatch.delenv("DISCORD_GATEWAY_URL", raising=False)
    config = Config(data_dir=tmp_path, sections={"discord": {"api_url": "https://p.example/v10"}})
    transport = build(config)
    assert isinstance(transport, DiscordTransport)
    assert transport.name == "discord"
    assert transport.settings.api_url == "https://p.example/v10"
    assert transport.settings.channel_id == 222
