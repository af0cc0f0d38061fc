"""The Discord transport's settings: the ``[discord]`` table of crewline.toml and the environment.

Environment variables win over the file (as everywhere in crewline), so the bot token can stay
out of the file. A key crewline does not know or a malformed value is a
:class:`~crewline.errors.ConfigError` that names the key, never the token's value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crewline.config_schema import section_values
from crewline.errors import ConfigError

__all__ = ["DEFAULT_API_URL", "DEFAULT_GATEWAY_URL", "DiscordSettings", "settings_from"]

DEFAULT_API_URL = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"


@dataclass(frozen=True, kw_only=True, slots=True)
class DiscordSettings:
    """Everything the Discord transport needs to connect; the token is kept out of ``repr``.

    ``api_url`` and ``gateway_url`` are None for Discord itself; set, they point discord.py at
    a proxy (or a test fake). The last three fields are tuning knobs for tests and are not
    read from the configuration.
    """

    bot_token: str
    guild_id: int  # the server
    channel_id: int  # the crew channel: member threads live under it, the bell and status too
    api_url: str | None = None  # REST base including the version, e.g. .../api/v10
    gateway_url: str | None = None
    ready_timeout: float = 30.0  # how long start() waits for the gateway's READY
    guild_ready_timeout: float = 2.0  # discord.py's wait for the guild after READY
    reidentify_delay: float = 5.0  # Discord allows one IDENTIFY per 5 s

    def __repr__(self) -> str:
        return (
            f"DiscordSettings(guild_id={self.guild_id}, channel_id={self.channel_id}, "
            f"api_url={self.api_url!r}, gateway_url={self.gateway_url!r})"
        )


def settings_from(section: Mapping[str, Any], env: Mapping[str, str]) -> DiscordSettings:
    """Validate ``[discord]`` and the ``DISCORD_*`` variables into settings: each value by
    the configuration's schema, then the ones it cannot do without."""
    values = section_values("discord", section, env)
    token = values["bot_token"]
    if not token:
        raise ConfigError(
            "Discord needs a bot token: set DISCORD_BOT_TOKEN or [discord] bot_token",
            key="discord.bot_token",
        )
    api_url = values["api_url"]
    return DiscordSettings(
        bot_token=token,
        guild_id=_required(values["guild_id"], "guild_id", "DISCORD_GUILD_ID"),
        channel_id=_required(values["channel_id"], "channel_id", "DISCORD_CHANNEL_ID"),
        api_url=api_url.rstrip("/") if api_url else None,
        gateway_url=values["gateway_url"],
    )


def _required(value: int | None, key: str, variable: str) -> int:
    if value is None:
        raise ConfigError(
            f"Discord needs {variable} (or [discord] {key}): in Discord, turn on "
            "Developer Mode and use Copy ID",
            key=f"discord.{key}",
        )
    return value
