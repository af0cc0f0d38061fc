"""The Slack transport's settings: the ``[slack]`` table of crewline.toml and the environment.

Environment variables win over the file (as everywhere in crewline), so secrets can stay out
of the file. A key crewline does not know, a token of the wrong kind or a missing secret is a
:class:`~crewline.errors.ConfigError` that names the key, never the secret's value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from crewline.config import transport_values
from crewline.errors import ConfigError

__all__ = ["DEFAULT_API_URL", "SlackSettings", "settings_from"]

DEFAULT_API_URL = "https://slack.com/api/"
DEFAULT_POST_INTERVAL = 1.0  # Slack: about one chat.postMessage per second per channel

# [slack] key -> the environment variable that overrides it
_ENV = {
    "bot_token": "SLACK_BOT_TOKEN",
    "signing_secret": "SLACK_SIGNING_SECRET",
    "app_token": "SLACK_APP_TOKEN",
    "api_url": "SLACK_API_URL",
}


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
    """Validate ``[slack]`` and the ``SLACK_*`` variables into settings."""
    values = transport_values("slack", section, env, variables=_ENV, other_keys=("post_interval",))
    bot_token = values["bot_token"]
    if not bot_token:
        raise ConfigError(
            "Slack needs a bot token: set SLACK_BOT_TOKEN or [slack] bot_token",
            key="slack.bot_token",
        )
    if not bot_token.startswith("xoxb-"):
        raise ConfigError(
            "the Slack bot token must be a bot token (it starts with xoxb-)", key="slack.bot_token"
        )
    app_token = values["app_token"]
    if app_token is not None and not app_token.startswith("xapp-"):
        raise ConfigError(
            "the Slack app token must be an app-level token (it starts with xapp-)",
            key="slack.app_token",
        )
    signing_secret = values["signing_secret"]
    if app_token is None and not signing_secret:
        raise ConfigError(
            "Slack in HTTP mode needs the signing secret: set SLACK_SIGNING_SECRET "
            "(or SLACK_APP_TOKEN for Socket Mode)",
            key="slack.signing_secret",
        )
    return SlackSettings(
        bot_token=bot_token,
        signing_secret=signing_secret,
        app_token=app_token,
        api_url=_api_url(values["api_url"]),
        post_interval=_interval(section.get("post_interval")),
    )


def _api_url(value: str | None) -> str:
    if value is None:
        return DEFAULT_API_URL
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"the Slack API URL must be an http(s) URL, got {value!r}", key="slack.api_url"
        )
    # slack-sdk joins method names onto the base: without the trailing slash the last path
    # segment would be replaced ("…/api" + "chat.postMessage" -> "…/chat.postMessage").
    return value if value.endswith("/") else value + "/"


def _interval(value: object) -> float:
    if value is None:
        return DEFAULT_POST_INTERVAL
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 60:
        raise ConfigError(
            f"[slack] post_interval must be 0..60 seconds, got {value!r}", key="slack.post_interval"
        )
    return float(value)
