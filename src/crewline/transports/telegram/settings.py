"""The Telegram transport's settings: the ``[telegram]`` table of crewline.toml and the
environment.

Environment variables win over the file (as everywhere in crewline), so the token and the
webhook secret can stay out of the file. A key crewline does not know, a malformed token or
a webhook without its secret is a :class:`~crewline.errors.ConfigError` naming the key,
never the secret's value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from crewline.config import transport_values
from crewline.errors import ConfigError

__all__ = [
    "DEFAULT_API_URL",
    "THREAD_MODES",
    "ResolvedMode",
    "TelegramSettings",
    "ThreadMode",
    "resolve_mode",
    "settings_from",
]

DEFAULT_API_URL = "https://api.telegram.org/bot"
DEFAULT_PER_CHAT_INTERVAL = 1.0  # Telegram: about one message per second into one chat
DEFAULT_GLOBAL_PER_SECOND = 30.0  # Telegram: about 30 messages per second over all chats
DEFAULT_POLL_TIMEOUT = 30.0

ThreadMode = Literal["auto", "private-topics", "forum", "replies"]
ResolvedMode = Literal["private-topics", "forum", "replies"]
THREAD_MODES: tuple[ThreadMode, ...] = ("auto", "private-topics", "forum", "replies")

# [telegram] key -> the environment variable that overrides it
_ENV = {
    "bot_token": "TELEGRAM_BOT_TOKEN",
    "webhook_secret": "TELEGRAM_WEBHOOK_SECRET",
    "webhook_url": "TELEGRAM_WEBHOOK_URL",
    "forum_chat_id": "TELEGRAM_FORUM_CHAT_ID",
    "api_url": "TELEGRAM_API_URL",
}
_TOKEN = re.compile(r"\d+:[A-Za-z0-9_-]+")
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what setWebhook accepts as secret_token


@dataclass(frozen=True, kw_only=True, slots=True)
class TelegramSettings:
    """Everything the Telegram transport needs to connect; secrets are kept out of ``repr``."""

    bot_token: str
    api_url: str = DEFAULT_API_URL  # PTB's form: the token and the method are appended
    webhook_secret: str | None = None  # set: webhook mode
    webhook_url: str | None = None  # the public URL registered with setWebhook
    forum_chat_id: int | None = None  # a forum supergroup for member topics
    threads: ThreadMode = "auto"
    poll_timeout: float = DEFAULT_POLL_TIMEOUT
    per_chat_interval: float = DEFAULT_PER_CHAT_INTERVAL
    global_per_second: float = DEFAULT_GLOBAL_PER_SECOND

    @property
    def webhook(self) -> bool:
        return self.webhook_secret is not None

    def __repr__(self) -> str:
        mode = "webhook" if self.webhook else "polling"
        return (
            f"TelegramSettings(mode={mode}, api_url={self.api_url!r}, "
            f"webhook_url={self.webhook_url!r}, forum_chat_id={self.forum_chat_id}, "
            f"threads={self.threads!r})"
        )


def settings_from(section: Mapping[str, Any], env: Mapping[str, str]) -> TelegramSettings:
    """Validate ``[telegram]`` and the ``TELEGRAM_*`` variables into settings."""
    values = transport_values(
        "telegram",
        section,
        env,
        variables=_ENV,
        other_keys=("threads", "poll_timeout", "per_chat_interval", "global_per_second"),
    )
    token = values["bot_token"]
    if not token:
        raise ConfigError(
            "Telegram needs the bot token from BotFather: set TELEGRAM_BOT_TOKEN "
            "or [telegram] bot_token",
            key="telegram.bot_token",
        )
    if not _TOKEN.fullmatch(token):
        raise ConfigError(
            "the Telegram bot token is malformed (BotFather's tokens look like 123456:ABC-…)",
            key="telegram.bot_token",
        )
    secret, url = values["webhook_secret"], values["webhook_url"]
    if secret is not None and not _SECRET.fullmatch(secret):
        raise ConfigError(
            "the webhook secret must be 1..256 of A-Z a-z 0-9 _ -", key="telegram.webhook_secret"
        )
    if secret is not None and url is None:
        raise ConfigError(
            "webhook mode (TELEGRAM_WEBHOOK_SECRET is set) needs the public URL: "
            "set TELEGRAM_WEBHOOK_URL",
            key="telegram.webhook_url",
        )
    if url is not None and secret is None:
        raise ConfigError(
            "a webhook needs a secret so forged pushes are refused: set TELEGRAM_WEBHOOK_SECRET",
            key="telegram.webhook_secret",
        )
    forum_chat_id = _chat_id(values["forum_chat_id"])
    threads = _threads(section.get("threads"))
    if threads == "forum" and forum_chat_id is None:
        raise ConfigError(
            'threads = "forum" needs the forum supergroup: set TELEGRAM_FORUM_CHAT_ID',
            key="telegram.forum_chat_id",
        )
    return TelegramSettings(
        bot_token=token,
        api_url=_url(values["api_url"], "api_url") if values["api_url"] else DEFAULT_API_URL,
        webhook_secret=secret,
        webhook_url=_url(url, "webhook_url") if url else None,
        forum_chat_id=forum_chat_id,
        threads=threads,
        poll_timeout=_seconds(section, "poll_timeout", DEFAULT_POLL_TIMEOUT, 0, 600),
        per_chat_interval=_seconds(section, "per_chat_interval", DEFAULT_PER_CHAT_INTERVAL, 0, 60),
        global_per_second=_seconds(
            section, "global_per_second", DEFAULT_GLOBAL_PER_SECOND, 0, 1000
        ),
    )


def resolve_mode(
    threads: ThreadMode, *, has_topics: bool, forum_chat_id: int | None
) -> ResolvedMode:
    """Where member threads go: topics in the owner's private chat when the bot has topics
    enabled, else topics in the forum supergroup when one is configured, else reply chains
    in the owner's private chat; a mode set in the configuration wins."""
    if threads != "auto":
        return threads
    if has_topics:
        return "private-topics"
    return "forum" if forum_chat_id is not None else "replies"


def _url(value: str, key: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"[telegram] {key} must be an http(s) URL, got {value!r}", key=f"telegram.{key}"
        )
    return value


def _chat_id(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise ConfigError(
            f"the forum chat id must be a number like -1001234567890, got {value!r}",
            key="telegram.forum_chat_id",
        ) from None


def _threads(value: object) -> ThreadMode:
    if value is None:
        return "auto"
    if value not in THREAD_MODES:
        raise ConfigError(
            f"[telegram] threads must be one of {', '.join(THREAD_MODES)}, got {value!r}",
            key="telegram.threads",
        )
    return value


def _seconds(
    section: Mapping[str, Any], key: str, default: float, low: float, high: float
) -> float:
    value = section.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ConfigError(
            f"[telegram] {key} must be a number in {low:g}..{high:g}, got {value!r}",
            key=f"telegram.{key}",
        )
    return float(value)
