"""Every configuration key crewline reads, in one table: where it is set (a ``crewline.toml``
key, an environment variable, or both), what a good value is, and the check that reads it.

``load_config`` checks every key it finds in the file and the environment against this
table, the transports and the concierge's LLM brain read their own keys through it, and the
agent's commands read theirs: so a bad value is refused the same way wherever it is set,
naming the key, the value (never a secret's) and what is allowed.
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from crewline.errors import ConfigError, InvalidInput

__all__ = [
    "ACCEPTED_TRANSPORTS",
    "KEYS",
    "LOG_LEVELS",
    "TRANSPORT_NAMES",
    "Key",
    "env_value",
    "file_leaves",
    "key",
    "read",
    "section_values",
    "server_keys",
]

Reader = Callable[[Any], Any]  # the value, or ValueError / TypeError when it is not allowed


class NotAllowed(ValueError):
    """A value refused for a reason worth saying beside what is allowed (never a secret)."""


# The transports a person may name. ``memory`` (the in-process one, for tests and embedders)
# is accepted too but never offered: no message or page lists it.
TRANSPORT_NAMES = ("local", "slack", "telegram", "discord")
ACCEPTED_TRANSPORTS = (*TRANSPORT_NAMES, "memory")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
HIDDEN = "(a secret: not shown)"


@dataclass(frozen=True, kw_only=True, slots=True)
class Key:
    """One setting. ``name`` is its dotted path in crewline.toml (``*`` stands for a name the
    operator chooses); an environment-only setting has ``in_file`` False. ``agent``: read by
    the agent's commands (which read no crewline.toml), not by the server's."""

    name: str
    allowed: str  # what a good value is, in words: "one of text, json"
    read: Reader
    env: str | None = None
    in_file: bool = True
    secret: bool = False
    agent: bool = False
    from_env: Callable[[str], Any] = str  # the environment's text into the file's type
    shown: Callable[[Any], str] = repr  # the value in a message


# --- readers ----------------------------------------------------------------------------------


def _choice(*values: str, fold: Callable[[str], str] = str) -> Reader:
    def read(value: Any) -> str:
        if not isinstance(value, str) or fold(value.strip()) not in values:
            raise ValueError(value)
        return fold(value.strip())

    return read


def _number(low: float, high: float, *, above_low: bool = False) -> Reader:
    def read(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(value)
        if not math.isfinite(value) or value > high or value < low or (above_low and value == low):
            raise ValueError(value)
        return float(value)

    return read


def _port(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 65535:
        raise ValueError(value)
    return value


def _text(pattern: str | None = None, *, spaces: bool = True) -> Reader:
    shape = re.compile(pattern) if pattern else None

    def read(value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise ValueError(value)
        text = value.strip()
        if shape is not None and not shape.fullmatch(text):
            raise ValueError(value)
        if not spaces and any(c.isspace() for c in text):
            raise ValueError(value)
        return text

    return read


def _url(*schemes: str, credentials: bool = True, slash: bool = False) -> Reader:
    def read(value: Any) -> str:
        if not isinstance(value, str):
            raise TypeError(value)
        text = value.strip()
        parts = urlsplit(text)
        if parts.scheme not in schemes or not parts.hostname:
            raise ValueError(value)
        if not credentials and (parts.username or parts.password):
            raise ValueError(value)
        return text + "/" if slash and not text.endswith("/") else text

    return read


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(value)
    return value


def _flag_text(text: str) -> Any:
    return {"true": True, "false": False, "1": True, "0": False}.get(text.strip().lower(), text)


def _integer_text(text: str) -> Any:
    try:
        return int(text.strip())
    except ValueError:
        return text


def _number_text(text: str) -> Any:
    try:
        return float(text.strip())
    except ValueError:
        return text


def _comma_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def _host(value: Any) -> str:
    """An address or a host name to listen on (no scheme, no port)."""
    text = str(_text()(value))
    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?", text):
            raise ValueError(value) from None
    return text


def _transports(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise TypeError(value)
    names = [n.strip() for n in value]
    for name in names:
        if name not in ACCEPTED_TRANSPORTS:
            raise NotAllowed(f"unknown transport {name!r}")
    return tuple(dict.fromkeys(names))


def _networks(value: Any) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    if not isinstance(value, list):
        raise TypeError(value)
    return tuple(ipaddress.ip_network(str(item).strip(), strict=False) for item in value)


def _origins(value: Any) -> tuple[str, ...]:
    """Origins as browsers send them: ``scheme://host[:port]``, lower-case, nothing after."""
    if not isinstance(value, list):
        raise TypeError(value)
    origins = []
    for item in value:
        origin = str(item).strip().lower().rstrip("/")
        scheme, sep, rest = origin.partition("://")
        if scheme not in _HTTP or not sep or not rest or any(c in rest for c in "/?#@ "):
            raise NotAllowed(f"{item!r} is not an origin")
        origins.append(origin)
    return tuple(origins)


def _host_patterns(value: Any) -> tuple[str, ...]:
    """Host names (a bare name takes any port, ``name:port`` one port)."""
    if not isinstance(value, list):
        raise TypeError(value)
    hosts = []
    for item in value:
        host = str(item).strip().lower()
        if not host or any(c in host for c in "/?#@ "):
            raise NotAllowed(f"{item!r} is not a host")
        hosts.append(host)
    return tuple(hosts)


def _command(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError(value)
    if not all(isinstance(word, str) and word for word in value):
        raise ValueError(value)
    return tuple(value)


def _database_url(value: Any) -> str:
    text = str(_text()(value))
    scheme, sep, rest = text.partition("://")
    if not sep or not rest or scheme not in ("sqlite", "postgresql", "postgres"):
        raise ValueError(value)
    return text


def _replica_id(value: Any) -> str:
    from crewline.replication.replicas import valid_replica_name

    return valid_replica_name(_text()(value))


def _snowflake(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(value)
    text = str(value).strip()
    if not text.isdigit() or not 1 <= len(text) <= 20 or int(text) == 0:
        raise ValueError(value)
    return int(text)


def _chat_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(value)
    return int(str(value).strip())


def _redacted_url(value: Any) -> str:
    from crewline.store.open import redacted

    return repr(redacted(value)) if isinstance(value, str) else repr(value)


def _hidden(_: Any) -> str:
    return HIDDEN


_HTTP = ("http", "https")

KEYS: tuple[Key, ...] = (
    # --- where crewline keeps its data, and who it is among replicas
    Key(name="data_dir", env="CREWLINE_DATA_DIR", in_file=False, read=_text(),
        allowed="a directory path"),
    Key(name="database_url", env="CREWLINE_DATABASE_URL", in_file=False, read=_database_url,
        allowed="sqlite:///PATH or postgresql://…", shown=_redacted_url),
    Key(name="replica_id", env="CREWLINE_REPLICA_ID", in_file=False, read=_replica_id,
        allowed="1-54 letters, digits, '.', '_' or '-', starting with a letter or digit"),
    # --- the server
    Key(name="host", env="CREWLINE_HOST", read=_host,
        allowed="an address or host name to listen on, such as 127.0.0.1 or 0.0.0.0"
        " (no scheme, no port)"),
    Key(name="port", env="CREWLINE_PORT", read=_port, from_env=_integer_text,
        allowed="a port number 0..65535"),
    Key(name="transports", env="CREWLINE_TRANSPORTS", read=_transports, from_env=_comma_list,
        allowed=f"a list of transport names (known: {', '.join(TRANSPORT_NAMES)})"),
    Key(name="log_level", env="CREWLINE_LOG_LEVEL", read=_choice(*LOG_LEVELS, fold=str.upper),
        allowed=f"one of {', '.join(LOG_LEVELS)}"),
    Key(name="log_format", env="CREWLINE_LOG_FORMAT", read=_choice("text", "json"),
        allowed="one of text, json"),
    Key(name="boundary_wait", env="CREWLINE_BOUNDARY_WAIT", read=_number(0, 600),
        from_env=_number_text, allowed="seconds, 0..600"),
    Key(name="boundary_mid_turn", env="CREWLINE_BOUNDARY_MID_TURN", read=_choice("ask", "refuse"),
        allowed="one of ask, refuse"),
    Key(name="metrics_token", env="CREWLINE_METRICS_TOKEN", secret=True,
        read=_text(r"[\x21-\x7e]{16,256}"),
        allowed="16..256 visible ASCII characters, no spaces"),
    # --- the concierge
    Key(name="concierge.answer", read=_choice("never", "routine", "always"),
        allowed="one of never, routine, always"),
    Key(name="concierge.act", read=_flag, allowed="true or false"),
    Key(name="concierge.llm.base_url", read=_url(*_HTTP, credentials=False),
        allowed="an http(s) URL without user:password (the key comes from api_key_env)"),
    Key(name="concierge.llm.model", read=_text(), allowed="a model name (non-empty text)"),
    Key(name="concierge.llm.api_key_env", read=_text(r"[A-Za-z_][A-Za-z0-9_]*"),
        allowed="the name of an environment variable, such as CONCIERGE_LLM_KEY"),
    Key(name="concierge.llm.timeout", read=_number(0, 120, above_low=True),
        allowed="seconds, more than 0 and at most 120"),
    Key(name="launchers.*.command", read=_command,
        allowed='a non-empty list of non-empty strings, such as ["my-agent", "--role", "x"]'),
    Key(name="webhooks.allow_networks", env="CREWLINE_WEBHOOK_ALLOW_NETWORKS", read=_networks,
        from_env=_comma_list, allowed="a list of networks, such as 10.0.0.0/8 or ::1/128"),
    # --- how long a client may take to send a request (docs/operations.md)
    Key(name="http.header_timeout", env="CREWLINE_HTTP_HEADER_TIMEOUT",
        read=_number(0, 600, above_low=True), from_env=_number_text,
        allowed="seconds, more than 0 and at most 600"),
    Key(name="http.body_timeout", env="CREWLINE_HTTP_BODY_TIMEOUT",
        read=_number(0, 600, above_low=True), from_env=_number_text,
        allowed="seconds, more than 0 and at most 600"),
    # --- who /mcp answers besides agents (docs/security.md)
    Key(name="mcp.allowed_origins", env="CREWLINE_MCP_ALLOWED_ORIGINS", read=_origins,
        from_env=_comma_list, allowed="a list of origins, such as http://localhost:6274"),
    Key(name="mcp.allowed_hosts", env="CREWLINE_MCP_ALLOWED_HOSTS", read=_host_patterns,
        from_env=_comma_list,
        allowed="a list of host names, such as crewline.example or crewline.example:8765"),
    # --- the local inbox
    Key(name="local.user", read=_text(r"[A-Za-z0-9_.@-]{1,64}"),
        allowed="1..64 letters, digits, '_', '.', '@' or '-'"),
    Key(name="local.login_token", env="CREWLINE_LOCAL_TOKEN", in_file=False, secret=True,
        read=_text(r"[\x21-\x7e]{16,256}"),
        allowed="16..256 visible ASCII characters, no spaces"),
    # --- Slack
    Key(name="slack.bot_token", env="SLACK_BOT_TOKEN", secret=True, read=_text(r"xoxb-\S+"),
        from_env=str, allowed="a bot token (it starts with xoxb-)"),
    Key(name="slack.signing_secret", env="SLACK_SIGNING_SECRET", secret=True,
        read=_text(spaces=False), allowed="the app's signing secret (no spaces)"),
    Key(name="slack.app_token", env="SLACK_APP_TOKEN", secret=True, read=_text(r"xapp-\S+"),
        allowed="an app-level token (it starts with xapp-)"),
    Key(name="slack.api_url", env="SLACK_API_URL", read=_url(*_HTTP, slash=True),
        allowed="an http(s) URL"),
    Key(name="slack.post_interval", read=_number(0, 60), allowed="seconds, 0..60"),
    # --- Telegram
    Key(name="telegram.bot_token", env="TELEGRAM_BOT_TOKEN", secret=True,
        read=_text(r"\d+:[A-Za-z0-9_-]+"),
        allowed="the token from BotFather (it looks like 123456:ABC-…)"),
    Key(name="telegram.webhook_secret", env="TELEGRAM_WEBHOOK_SECRET", secret=True,
        read=_text(r"[A-Za-z0-9_-]{1,256}"), allowed="1..256 of A-Z a-z 0-9 _ -"),
    Key(name="telegram.webhook_url", env="TELEGRAM_WEBHOOK_URL", read=_url(*_HTTP),
        allowed="the public http(s) URL Telegram pushes to"),
    Key(name="telegram.forum_chat_id", env="TELEGRAM_FORUM_CHAT_ID", read=_chat_id,
        allowed="a chat id, a number such as -1001234567890"),
    Key(name="telegram.api_url", env="TELEGRAM_API_URL", read=_url(*_HTTP),
        allowed="an http(s) URL"),
    Key(name="telegram.threads", read=_choice("auto", "private-topics", "forum", "replies"),
        allowed="one of auto, private-topics, forum, replies"),
    Key(name="telegram.poll_timeout", read=_number(0, 600), allowed="seconds, 0..600"),
    Key(name="telegram.per_chat_interval", read=_number(0, 60), allowed="seconds, 0..60"),
    Key(name="telegram.global_per_second", read=_number(0, 1000),
        allowed="messages a second, 0..1000"),
    # --- Discord
    Key(name="discord.bot_token", env="DISCORD_BOT_TOKEN", secret=True,
        read=_text(spaces=False),
        allowed="the bot token from the Developer Portal (Bot > Reset Token), no spaces"),
    Key(name="discord.guild_id", env="DISCORD_GUILD_ID", read=_snowflake,
        allowed="a Discord id (1..20 digits; Developer Mode, then Copy ID)"),
    Key(name="discord.channel_id", env="DISCORD_CHANNEL_ID", read=_snowflake,
        allowed="a Discord id (1..20 digits; Developer Mode, then Copy ID)"),
    Key(name="discord.api_url", env="DISCORD_API_URL", read=_url(*_HTTP),
        allowed="an http(s) URL, with the API version (…/api/v10)"),
    Key(name="discord.gateway_url", env="DISCORD_GATEWAY_URL", read=_url("ws", "wss"),
        allowed="a ws:// or wss:// URL"),
    # --- the agent's commands (they read no crewline.toml)
    Key(name="agent.url", env="CREWLINE_URL", in_file=False, agent=True, read=_url(*_HTTP),
        allowed="crewline's http(s) URL, such as http://127.0.0.1:8765"),
    Key(name="agent.session_key", env="CREWLINE_SESSION_KEY", in_file=False, agent=True,
        secret=True, read=_text(r"crw_s_[A-Za-z0-9_-]+"),
        allowed="a session key (crw_s_…, from crewline member add or session add)"),
    Key(name="agent.hook_timeout", env="CREWLINE_HOOK_TIMEOUT", in_file=False, agent=True,
        read=_number(0, 86400, above_low=True), from_env=_number_text,
        allowed="seconds, more than 0 and less than 86400"),
    Key(name="agent.hook_fallback", env="CREWLINE_HOOK_FALLBACK", in_file=False, agent=True,
        read=_choice("deny", "ask"), allowed="one of deny, ask"),
)  # fmt: skip

_BY_NAME = {k.name: k for k in KEYS}
# Every table a key lives in ("concierge", "concierge.llm", "launchers", "launchers.*" …).
_TABLES = {
    ".".join(k.name.split(".")[:depth])
    for k in KEYS
    if k.in_file
    for depth in range(1, k.name.count(".") + 1)
}


def key(name: str) -> Key:
    """The setting named ``name`` (``launchers.tester.command`` finds ``launchers.*.command``)."""
    return _BY_NAME.get(name) or _BY_NAME[_pattern(name)]


def _pattern(path: str) -> str:
    parts = path.split(".")
    if parts[0] == "launchers" and len(parts) >= 2:
        parts[1] = "*"
    return ".".join(parts)


def _refuse(
    setting: Key, value: Any, *, name: str, source: str, written: str, reason: str | None
) -> ConfigError:
    shown = HIDDEN if setting.secret else setting.shown(value)
    said = f"{reason}; " if reason else ""
    return ConfigError(
        f"{written} = {shown} (in {source}): {said}expected {setting.allowed}",
        key=name,
        allowed=setting.allowed,
    )


def _toml_name(path: str) -> str:
    """``slack.post_interval`` as crewline.toml spells it: ``[slack] post_interval``."""
    table, _, leaf = path.rpartition(".")
    return f"[{table}] {leaf}" if table else leaf


def read(name: str, value: Any, *, source: str, written: str | None = None, raw: Any = None) -> Any:
    """``value`` of the setting at ``name`` (a dotted path) as crewline uses it; a
    ConfigError naming the key as it was ``written``, the value (``raw``, as it was written,
    when given) and what is allowed when it is not. ``source`` says where it was set: a
    file's path, or ``the environment``."""
    setting = key(name)
    try:
        return setting.read(value)
    except (ValueError, TypeError, InvalidInput) as error:
        raise _refuse(
            setting,
            value if raw is None else raw,
            name=name,
            source=source,
            written=written or _toml_name(name),
            reason=str(error) if isinstance(error, NotAllowed) else None,
        ) from None


def env_value(name: str, env: Mapping[str, str]) -> Any:
    """The setting's value from its environment variable, or None when it is unset or empty."""
    setting = key(name)
    assert setting.env is not None, f"{name} has no environment variable"
    text = env.get(setting.env)
    if not text:
        return None
    return read(
        name, setting.from_env(text), source="the environment", written=setting.env, raw=text
    )


def file_leaves(data: Mapping[str, Any], *, source: str) -> Iterator[tuple[str, Any]]:
    """Each setting in a parsed crewline.toml as (dotted path, value), checked against the
    table: an unknown key, or a value where a table belongs, is refused by name."""
    yield from _leaves(data, "", source=source)


def _leaves(table: Mapping[str, Any], prefix: str, *, source: str) -> Iterator[tuple[str, Any]]:
    for name, value in table.items():
        path = f"{prefix}{name}"
        pattern = _pattern(path)
        if pattern in _TABLES:
            if not isinstance(value, dict):
                raise ConfigError(
                    f"{source}: {path} must be a table ([{path}]), got {value!r}", key=path
                )
            yield from _leaves(value, f"{path}.", source=source)
        elif pattern in _BY_NAME and _BY_NAME[pattern].in_file:
            yield path, value
        else:
            parent = prefix.rstrip(".")
            known = ", ".join(_known_under(_pattern(parent) if parent else ""))
            raise ConfigError(
                f"{source}: {f'[{parent}] ' if parent else ''}unknown key {name!r}"
                f" (known: {known})",
                key=path,
            )


def _known_under(table: str) -> list[str]:
    depth = table.count(".") + 1 if table else 0
    names = {
        k.name.split(".")[depth]
        for k in KEYS
        if k.in_file and (not table or k.name.startswith(f"{table}."))
    }
    return sorted(names)


def section_values(
    section: str, table: Mapping[str, Any], env: Mapping[str, str]
) -> dict[str, Any]:
    """A transport's settings, each read from its environment variable (which wins) or its
    ``[section]`` table: ``{key: value or None}``. A table key it does not know is refused."""
    source = "crewline.toml"
    for _ in _leaves({section: dict(table)}, "", source=source):
        pass  # refuses an unknown key
    values: dict[str, Any] = {}
    for setting in KEYS:
        head, _, leaf = setting.name.partition(".")
        if head != section:
            continue
        value = env_value(setting.name, env) if setting.env else None
        if value is None and leaf in table:
            value = read(setting.name, table[leaf], source=source)
        values[leaf] = value
    return values


def server_keys() -> Sequence[Key]:
    """The settings the server reads (the agent's commands read the rest)."""
    return [k for k in KEYS if not k.agent]
