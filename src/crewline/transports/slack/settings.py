"""The Slack transport's settings: the ``[slack]`` table of crewline.toml and the environment.

Environment variables win over the file (as everywhere in crewline), so secrets can stay out
of the file. A key crewline does not know, a token of the wrong kind or a missing secret is a
:class:`~crewline.errors.ConfigError` that names the key, never the secret's value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crewline.config_schema import section_values
from crewline.errors import ConfigError

__all__ = ["DEFAULT_API_URL", "SlackSettings", "settings_from"]

DEFAULT_API_URL = "https://slack.com/api/"
DEFAULT_POST_INTERVAL = 1.0  # Slack: about one chat.postMessage per second per channel


@dataclass(frozen=True, kw_only=True, slots=True)
class SlackSettings:
    """Everything the Slack transport needs to connect; secrets are kept out of ``repr``."""

    bot_token: str
    signing_secret: str | None = None  # required in HTTP mode
    app_token: str | None = None  # set: Socket Mode
    api_url: str = DEFAULT_API_URL
    post_interval: float = DEFAULT_POST_INTERVAL  # seconds between posts into one channel

    @property
    def socket_mode(self) -> bool:
        return self.app_token is not None

    def __repr__(self) -> str:
        mode = "socket" if self.socket_mode else "http"
        return (
            f"SlackSettings(mode={mode}, api_url={self.api_url!r}, "
            f"post_interval={self.post_interval})"
        )


def settings_from(section: Mapping[str, Any], env: Mapping[str, str]) -> SlackSettings:
    """Validate ``[slack]`` and the ``SLACK_*`` variables into settings: each value by the
    configuration's schema, then the rules between them."""
    values = section_values("slack", section, env)
    bot_token = values["bot_token"]
    if not bot_token:
        raise ConfigError(
            "Slack needs a bot token: set SLACK_BOT_TOKEN or [slack] bot_token",
            key="slack.bot_token",
        )
    app_token = values["app_token"]
    signing_secret = values["signing_secret"]
    if app_token is None and not signing_secret:
        raise ConfigError(
            "Slack in HTTP mode needs the signing secret: set SLACK_SIGNING_SECRET "
            "(or SLACK_APP_TOKEN for Socket Mode)",
            key="slack.signing_secret",
        )
    interval = values["post_interval"]
    return SlackSettings(
        bot_token=bot_token,
        signing_secret=signing_secret,
        app_token=app_token,
        # slack-sdk joins method names onto the base, so the schema gives it its trailing
        # slash ("…/api" + "chat.postMessage" would replace the last segment).
        api_url=values["api_url"] or DEFAULT_API_URL,
        post_interval=DEFAULT_POST_INTERVAL if interval is None else interval,
    )
