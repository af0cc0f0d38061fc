"""The [telegram] section and the TELEGRAM_* environment: validated once, keys named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crewline.config import Config
from crewline.errors import ConfigError
from crewline.transports.registry import build_transport
from crewline.transports.telegram import TelegramTransport
from crewline.transports.telegram.settings import (
    DEFAULT_API_URL,
    resolve_mode,
    settings_from,
)

TOKEN = "123456:ABC-def_ghi"


def test_the_environment_configures_a_polling_bot() -> None:
    """The token alone is enough: polling, Telegram's own API, one message a second a chat."""
    settings = settings_from({}, {"TELEGRAM_BOT_TOKEN": TOKEN})
    assert (settings.bot_token, settings.api_url, settings.webhook) == (
        TOKEN,
        DEFAULT_API_URL,
        False,
    )
    assert (settings.per_chat_interval, settings.global_per_second) == (1.0, 30.0)
    assert TOKEN not in repr(settings)


def test_the_environment_wins_over_the_file() -> None:
    """As everywhere in crewline: TELEGRAM_* beats [telegram]."""
    section = {
        "bot_token": "999:file",
        "api_url": "http://file.example/bot",
        "forum_chat_id": -1001,
        "threads": "forum",
    }
    env = {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": "http://127.0.0.1:8081/bot",
        "TELEGRAM_FORUM_CHAT_ID": "-1002",
    }
    settings = settings_from(section, env)
    assert (settings.bot_token, settings.api_url, settings.forum_chat_id, settings.threads) == (
        TOKEN,
        "http://127.0.0.1:8081/bot",
        -1002,
        "forum",
    )


def test_a_webhook_secret_means_webhook_mode_at_the_public_url() -> None:
    """TELEGRAM_WEBHOOK_SECRET with TELEGRAM_WEBHOOK_URL: webhook mode; the secret stays hidden."""
    settings = settings_from(
        {},
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_WEBHOOK_SECRET": "s3cret_-X",
            "TELEGRAM_WEBHOOK_URL": "https://bot.example/telegram/webhook",
        },
    )
    assert settings.webhook and settings.webhook_url == "https://bot.example/telegram/webhook"
    assert "s3cret" not in repr(settings)


@pytest.mark.parametrize(
    ("section", "env", "key"),
    [
        ({}, {}, "telegram.bot_token"),
        ({}, {"TELEGRAM_BOT_TOKEN": "not-a-token"}, "telegram.bot_token"),
        ({"bot_tokn": TOKEN}, {}, "telegram.bot_tokn"),
        ({}, {"TELEGRAM_WEBHOOK_SECRET": "abc"}, "telegram.webhook_url"),
        ({}, {"TELEGRAM_WEBHOOK_URL": "https://x.example/hook"}, "telegram.webhook_secret"),
        (
            {},
            {"TELEGRAM_WEBHOOK_SECRET": "has spaces", "TELEGRAM_WEBHOOK_URL": "https://x.example"},
            "telegram.webhook_secret",
        ),
        (
            {},
            {"TELEGRAM_WEBHOOK_SECRET": "abc", "TELEGRAM_WEBHOOK_URL": "ftp://x"},
            "telegram.webhook_url",
        ),
        ({}, {"TELEGRAM_API_URL": "api.telegram.org"}, "telegram.api_url"),
        ({}, {"TELEGRAM_FORUM_CHAT_ID": "crew"}, "telegram.forum_chat_id"),
        ({"threads": "topics"}, {}, "telegram.threads"),
        ({"threads": "forum"}, {}, "telegram.forum_chat_id"),
        ({"per_chat_interval": -1}, {}, "telegram.per_chat_interval"),
        ({"poll_timeout": True}, {}, "telegram.poll_timeout"),
    ],
)
def test_a_bad_setting_is_refused_naming_its_key(
    section: dict[str, Any], env: dict[str, str], key: str
) -> None:
    """Every mistake names the key to fix and never echoes a secret."""
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, **env} if key != "telegram.bot_token" else env
    with pytest.raises(ConfigError) as refused:
        settings_from(section, env)
    assert refused.value.details["key"] == key
    assert "s3cret" not in refused.value.message


@pytest.mark.parametrize(
    ("threads", "topics", "forum", "expected"),
    [
        ("auto", True, None, "private-topics"),
        ("auto", True, -100, "private-topics"),
        ("auto", False, -100, "forum"),
        ("auto", False, None, "replies"),
        ("replies", True, -100, "replies"),
    ],
)
def test_threads_go_where_topics_work(
    threads: Any, topics: bool, forum: int | None, expected: str
) -> None:
    """Private topics first, then the forum, then reply chains; a configured mode wins."""
    assert resolve_mode(threads, has_topics=topics, forum_chat_id=forum) == expected


def test_build_reads_the_section_and_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The registry's factory makes a TelegramTransport named telegram, paced per chat."""
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    config = Config(data_dir=tmp_path, sections={"telegram": {"per_chat_interval": 1.5}})
    transport = build_transport("telegram", config)
    assert isinstance(transport, TelegramTransport)
    assert transport.name == "telegram"
    assert (transport.limits.per_thread_interval, transport.limits.global_per_second) == (1.5, 30.0)
    assert transport.http_mount() is None
