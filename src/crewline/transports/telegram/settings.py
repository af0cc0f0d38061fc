"""The Telegram transport's settings: the ``[telegram]`` table of crewline.toml and the
environment.

Environment variables win over the file (as everywhere in crewline), so the token and the
webhook secret can stay out of the file. A key crewline does not know, a malformed token or
a webhook without its secret is a :class:`~crewline.errors.ConfigError` naming the key,
never the secret's value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from crewline.config_schema import section_values
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
    """Validate ``[telegram]`` and the ``TELEGRAM_*`` variables into settings: each value by
    the configuration's schema, then the rules between them."""
    values = section_values("telegram", section, env)
    token = values["bot_token"]
    if not token:
        raise ConfigError(
            "Telegram needs the bot token from BotFather: set TELEGRAM_BOT_TOKEN "
            "or [telegram] bot_token",
            key="telegram.bot_token",
        )
    secret, url = values["webhook_secret"], values["webhook_url"]
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
    forum_chat_id = values["forum_chat_id"]
    threads: ThreadMode = values["threads"] or "auto"
    if threads == "forum" and forum_chat_id is None:
        raise ConfigError(
            'threads = "forum" needs the forum supergroup: set TELEGRAM_FORUM_CHAT_ID',
            key="telegram.forum_chat_id",
        )
    return TelegramSettings(
        bot_token=token,
        api_url=values["api_url"] or DEFAULT_API_URL,
        webhook_secret=secret,
        webhook_url=url,
        forum_chat_id=forum_chat_id,
        threads=threads,
        poll_timeout=_or(values["poll_timeout"], DEFAULT_POLL_TIMEOUT),
        per_chat_interval=_or(values["per_chat_interval"], DEFAULT_PER_CHAT_INTERVAL),
        global_per_second=_or(values["global_per_second"], DEFAULT_GLOBAL_PER_SECOND),
    )


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


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
