"""Settings from ``crewline.toml`` and the environment, validated once at start.

Precedence: command-line flags, then environment variables, then the file, then defaults.
Every key is checked against one table, ``crewline.config_schema``: a key crewline does not
know, or a value it does not allow, is a ConfigError naming the key, the value and what is
allowed (the command line exits 2). A typo never silently falls back to a default.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from crewline.brains.settings import LlmSettings
from crewline.config_schema import (
    TRANSPORT_NAMES,
    env_value,
    file_leaves,
    read,
    server_keys,
)
from crewline.errors import ConfigError, InvalidInput

__all__ = [
    "CONFIG_NAME",
    "TRANSPORT_NAMES",
    "Config",
    "default_data_dir",
    "load_config",
]

CONFIG_NAME = "crewline.toml"
DEFAULT_PORT = 8765
TRANSPORT_SECTIONS = ("slack", "telegram", "discord", "local")
# A setting's dotted name -> the Config field it sets (the transports read their own tables).
_FIELDS = {
    "database_url": "database_url",
    "replica_id": "replica_id",
    "host": "host",
    "port": "port",
    "transports": "transports",
    "log_level": "log_level",
    "log_format": "log_format",
    "boundary_wait": "boundary_wait",
    "boundary_mid_turn": "boundary_mid_turn",
    "metrics_token": "metrics_token",
    "concierge.answer": "concierge_answer",
    "concierge.act": "concierge_act",
    "webhooks.allow_networks": "webhook_networks",
    "mcp.allowed_origins": "mcp_allowed_origins",
    "mcp.allowed_hosts": "mcp_allowed_hosts",
    "http.header_timeout": "http_header_timeout",
    "http.body_timeout": "http_body_timeout",
}


def default_data_dir() -> Path:
    return Path(os.environ.get("CREWLINE_DATA_DIR") or Path.home() / ".crewline")


@dataclass(frozen=True, kw_only=True, slots=True)
class Config:
    data_dir: Path
    database_url: str | None = None  # None: SQLite in data_dir; or postgresql://…
    # This replica's name among several on one PostgreSQL (docs/replicas.md); None: the
    # host name and process id, on PostgreSQL only.
    replica_id: str | None = None
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    # None: not named anywhere, so the local inbox and every platform whose credentials are
    # given run (crewline.transports.registry.enabled_transports); named, the list decides.
    transports: tuple[str, ...] | None = None
    transports_source: str | None = None  # where the list was named, for start-up's words
    log_level: str = "INFO"
    log_format: str = "text"
    boundary_wait: float = 30.0  # seconds a rewind waits for the member's session to let go
    # A boundary while a session of the member says it is mid-turn: "ask" it anyway (it may
    # nack), or "refuse" it before anything is sent (409 boundary_mid_turn).
    boundary_mid_turn: str = "ask"
    sections: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    concierge_answer: str = "never"  # the start while the owner has kept no policy
    concierge_act: bool = False
    concierge_llm: LlmSettings | None = None  # [concierge.llm]: the LLM brain
    launchers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # [webhooks] allow_networks: where sessions' webhooks may post beyond public addresses
    webhook_networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    # Bearer token for /metrics; without one, /metrics answers only on a loopback bind.
    metrics_token: str | None = None
    # [mcp]: the browser origins /mcp answers (none: a request with an Origin is refused),
    # and the Host names it answers to (none: loopback names when bound to loopback, else any)
    mcp_allowed_origins: tuple[str, ...] = ()
    mcp_allowed_hosts: tuple[str, ...] = ()
    # [http]: seconds a client has to send a request's head, and then its body
    http_header_timeout: float = 10.0
    http_body_timeout: float = 30.0

    def section(self, name: str) -> Mapping[str, Any]:
        """A transport's own table (``[slack]`` …); the transport validates its keys."""
        return self.sections.get(name, {})


def load_config(
    data_dir: Path | None = None, *, path: Path | None = None, env: Mapping[str, str] | None = None
) -> Config:
    """The configuration: defaults, then the file, then the environment, every key checked
    against ``crewline.config_schema`` (a bad value is a ConfigError naming it)."""
    env = os.environ if env is None else env
    data_dir = Path(data_dir or env_value("data_dir", env) or default_data_dir())
    config = Config(data_dir=data_dir)
    file = path or data_dir / CONFIG_NAME
    if path is not None and not file.exists():
        raise ConfigError(f"config file {file} does not exist", key="config")
    if file.exists():
        config = _apply_file(config, file)
    return _apply_env(config, env)


def _apply_file(config: Config, file: Path) -> Config:
    try:
        data = tomllib.loads(file.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{file} is not valid TOML: {error}", key=str(file)) from None
    values = {name: read(name, value, source=str(file)) for name, value in file_leaves(
        data, source=str(file)
    )}  # fmt: skip
    changes: dict[str, Any] = {
        _FIELDS[name]: value for name, value in values.items() if name in _FIELDS
    }
    if "transports" in values:
        changes["transports_source"] = f"transports in {file.name}"
    concierge = data.get("concierge", {})
    if "llm" in concierge:
        try:
            changes["concierge_llm"] = LlmSettings.from_table(concierge["llm"])
        except InvalidInput as error:
            raise ConfigError(
                f"{file}: {error.message}", key=str(error.details.get("key"))
            ) from None
    if "launchers" in data:
        changes["launchers"] = _launchers(data["launchers"], values, file)
    sections = {name: data[name] for name in TRANSPORT_SECTIONS if name in data}
    return replace(config, **changes, sections=sections)


def _launchers(
    tables: Mapping[str, Any], values: Mapping[str, Any], file: Path
) -> dict[str, tuple[str, ...]]:
    """``[launchers.NAME] command = ["prog", "arg", …]``: what restart and dispatch run."""
    launchers: dict[str, tuple[str, ...]] = {}
    for name in tables:
        command = values.get(f"launchers.{name}.command")
        if command is None:
            raise ConfigError(
                f"{file}: [launchers.{name}] needs its command, such as"
                ' command = ["my-agent", "--role", "tester"]',
                key=f"launchers.{name}.command",
            )
        launchers[name] = command
    return launchers


def _apply_env(config: Config, env: Mapping[str, str]) -> Config:
    changes: dict[str, Any] = {}
    for setting in server_keys():
        if setting.env is None:
            continue
        value = env_value(setting.name, env)  # every one is checked, the platforms' too
        if value is not None and setting.name in _FIELDS:
            changes[_FIELDS[setting.name]] = value
    if "transports" in changes:
        changes["transports_source"] = "CREWLINE_TRANSPORTS"
    return replace(config, **changes)
