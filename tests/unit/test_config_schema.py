"""Every configuration key, each with a bad value: the command names the key as it was
written, the value (never a secret's) and what is allowed, exits 2 (a Claude Code hook: 1,
its "no decision"), and shows no traceback. The keys come from the schema, so a key added
without a row here fails."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from crewline.app.cli import main
from crewline.config_schema import HIDDEN, KEYS, Key
from tests.inprocess import logging_kept  # noqa: F401 (an autouse fixture)

# key -> (the bad value, a fragment of what the message says is allowed). Keys with an
# environment variable are set there (the text it holds); the others in crewline.toml.
ROWS: dict[str, tuple[Any, str]] = {
    "data_dir": ("   ", "a directory path"),
    "database_url": ("mysql://db/crewline", "sqlite:///PATH or postgresql://"),
    "replica_id": ("bad name!", "1-54 letters, digits"),
    "host": ("http://0.0.0.0", "no scheme, no port"),
    "port": ("eighty", "a port number 0..65535"),
    "transports": ("slack,carrier-pigeon", "known: local, slack, telegram, discord)"),
    "log_level": ("verbose", "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
    "log_format": ("xml", "one of text, json"),
    "boundary_wait": ("700", "seconds, 0..600"),
    "boundary_mid_turn": ("never", "one of ask, refuse"),
    "metrics_token": ("short-HUSH", "16..256 visible ASCII characters"),
    "concierge.answer": ("sometimes", "one of never, routine, always"),
    "concierge.act": ("yes", "true or false"),
    "concierge.llm.base_url": ("ftp://llm.example/v1", "an http(s) URL without user:password"),
    "concierge.llm.model": ("", "a model name"),
    "concierge.llm.api_key_env": ("sk-live-123", "the name of an environment variable"),
    "concierge.llm.timeout": (0, "more than 0 and at most 120"),
    "launchers.*.command": ([], "a non-empty list of non-empty strings"),
    "webhooks.allow_networks": ("10.0.0.0/33", "a list of networks"),
    "http.header_timeout": ("0", "seconds, more than 0 and at most 600"),
    "http.body_timeout": ("soon", "seconds, more than 0 and at most 600"),
    "mcp.allowed_origins": ("evil.example", "a list of origins, such as http://localhost:6274"),
    "mcp.allowed_hosts": ("a b", "a list of host names"),
    "local.user": ("the owner", "1..64 letters, digits"),
    "local.login_token": ("short-HUSH", "16..256 visible ASCII characters"),
    "slack.bot_token": ("xapp-1-HUSH", "a bot token (it starts with xoxb-)"),
    "slack.signing_secret": ("HUSH HUSH", "signing secret (no spaces)"),
    "slack.app_token": ("xoxb-1-HUSH", "an app-level token (it starts with xapp-)"),
    "slack.api_url": ("slack.com/api", "an http(s) URL"),
    "slack.post_interval": (-1, "seconds, 0..60"),
    "telegram.bot_token": ("HUSH-not-a-token", "the token from BotFather"),
    "telegram.webhook_secret": ("HUSH HUSH", "1..256 of A-Z a-z 0-9 _ -"),
    "telegram.webhook_url": ("ftp://bot.example/hook", "the public http(s) URL"),
    "telegram.forum_chat_id": ("forum", "a chat id, a number"),
    "telegram.api_url": ("api.telegram.org", "an http(s) URL"),
    "telegram.threads": ("topics", "one of auto, private-topics, forum, replies"),
    "telegram.poll_timeout": (601, "seconds, 0..600"),
    "telegram.per_chat_interval": (61, "seconds, 0..60"),
    "telegram.global_per_second": (1001, "messages a second, 0..1000"),
    "discord.bot_token": ("HUSH HUSH", "the bot token from the Developer Portal"),
    "discord.guild_id": ("guild", "a Discord id (1..20 digits"),
    "discord.channel_id": ("0", "a Discord id (1..20 digits"),
    "discord.api_url": ("discord.com/api/v10", "an http(s) URL, with the API version"),
    "discord.gateway_url": ("https://gateway.discord.gg", "a ws:// or wss:// URL"),
    "agent.url": ("127.0.0.1:8765", "crewline's http(s) URL"),
    "agent.session_key": ("crw_o_HUSH", "a session key (crw_s_…"),
    "agent.hook_timeout": ("soon", "more than 0 and less than 86400"),
    "agent.hook_fallback": ("allow", "one of deny, ask"),
}

PROMPT = {"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {}}


def test_every_key_has_a_row() -> None:
    """The table below covers the schema exactly: a new key needs its row."""
    assert set(ROWS) == {k.name for k in KEYS}


def _toml(path: str, value: Any) -> str:
    table, _, leaf = path.replace("*", "tester").rpartition(".")
    return (f"[{table}]\n" if table else "") + f"{leaf} = {json.dumps(value)}\n"


def _run(setting: Key, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    if setting.name.startswith("agent.hook"):
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(PROMPT)))
        return main(["hook", "claude-code"])
    if setting.agent:
        return main(["post", "hello"])
    return main(["member", "list"])


@pytest.mark.parametrize("setting", KEYS, ids=[k.name for k in KEYS])
def test_a_bad_value_names_the_key_the_value_and_what_is_allowed(
    setting: Key,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One bad value per key, set where the key lives: exit 2 (a hook: 1), one line naming
    it, its value (a secret's hidden), what is allowed; nothing written, no traceback."""
    bad, allowed = ROWS[setting.name]
    for other in KEYS:
        if other.env:
            monkeypatch.delenv(other.env, raising=False)
    monkeypatch.setenv("CREWLINE_DATA_DIR", str(tmp_path))
    if setting.name.startswith("agent."):
        monkeypatch.setenv("CREWLINE_SESSION_KEY", "crw_s_valid-shape")
        monkeypatch.setenv("CREWLINE_URL", "http://127.0.0.1:1")
    if setting.env:
        monkeypatch.setenv(setting.env, str(bad))
        written = f"{setting.env} = "
    else:
        (tmp_path / "crewline.toml").write_text(_toml(setting.name, bad))
        table, _, leaf = setting.name.replace("*", "tester").rpartition(".")
        written = f"[{table}] {leaf} = " if table else f"{leaf} = "
    code = _run(setting, tmp_path, monkeypatch)
    err = capsys.readouterr().err
    assert code == (1 if setting.name.startswith("agent.hook") else 2), err
    assert allowed in setting.allowed  # the row names what the schema says
    assert f"{written}{HIDDEN if setting.secret else repr(bad)}" in err, err
    assert f"expected {setting.allowed}" in err
    assert "Traceback" not in err and "HUSH" not in err
    assert not (tmp_path / "crewline.db").exists()  # refused before the database is opened


def test_a_loud_log_level_in_the_file_exits_2_without_a_traceback(tmp_path: Path) -> None:
    """The real command, as a person runs it: `crewline serve` (which logs at log_level)
    with log_level = "LOUD" in crewline.toml is one line naming the file, the key, the value
    and the levels, and exit status 2, before anything listens."""
    (tmp_path / "crewline.toml").write_text('log_level = "LOUD"\n')
    ran = subprocess.run(
        [sys.executable, "-m", "crewline", "serve", "--port", "0", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr == (
        f"crewline: log_level = 'LOUD' (in {tmp_path / 'crewline.toml'}): expected one of"
        " DEBUG, INFO, WARNING, ERROR, CRITICAL (invalid_config)\n"
    )
