"""Settings from ``crewline.toml`` and the environment, validated once at start.

Precedence: command-line flags, then environment variables, then the file, then defaults.
A key crewline does not know is an error that names the key: a typo never silently falls
back to a default.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from crewline.brains.settings import LlmSettings
from crewline.errors import ConfigError, InvalidInput

__all__ = [
    "CONFIG_NAME",
    "TRANSPORT_NAMES",
    "Config",
    "check_transport_names",
    "default_data_dir",
    "load_config",
    "transport_values",
]

CONFIG_NAME = "crewline.toml"
DEFAULT_PORT = 8765
TRANSPORT_SECTIONS = ("slack", "telegram", "discord", "local")
# Every transport crewline knows (its factory is in crewline.transports.registry); memory
# is the in-process one for tests and embedders.
TRANSPORT_NAMES = ("local", "slack", "telegram", "discord", "memory")
_TOP_KEYS = {
    "host",
    "port",
    "transports",
    "log_level",
    "log_format",
    "boundary_wait",
    "boundary_mid_turn",
    "concierge",
    "launchers",
    "webhooks",
    *TRANSPORT_SECTIONS,
}
_CONCIERGE_KEYS = {"answer", "act", "llm"}
MAX_BOUNDARY_WAIT = 600.0
MID_TURN = ("ask", "refuse")  # boundary_mid_turn: ask a session mid-turn, or refuse
LOG_FORMATS = ("text", "json")


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

    def section(self, name: str) -> Mapping[str, Any]:
        """A transport's own table (``[slack]`` …); the transport validates its keys."""
        return self.sections.get(name, {})


def load_config(
    data_dir: Path | None = None, *, path: Path | None = None, env: Mapping[str, str] | None = None
) -> Config:
    env = os.environ if env is None else env
    data_dir = Path(data_dir or env.get("CREWLINE_DATA_DIR") or default_data_dir())
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
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise ConfigError(
            f"{file}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})",
            key=unknown[0],
        )
    changes: dict[str, Any] = {}
    if "host" in data:
        changes["host"] = _typed(data, "host", str)
    if "port" in data:
        changes["port"] = _port(data["port"], "port")
    if "log_level" in data:
        changes["log_level"] = _typed(data, "log_level", str).upper()
    if "log_format" in data:
        changes["log_format"] = _log_format(_typed(data, "log_format", str), "log_format")
    if "boundary_wait" in data:
        changes["boundary_wait"] = _seconds(data["boundary_wait"], "boundary_wait")
    if "boundary_mid_turn" in data:
        changes["boundary_mid_turn"] = _mid_turn(data["boundary_mid_turn"], "boundary_mid_turn")
    if "transports" in data:
        names = data["transports"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ConfigError("transports must be a list of names", key="transports")
        changes["transports"] = check_transport_names(names, f"{file.name}: transports")
        changes["transports_source"] = f"transports in {file.name}"
    sections = {name: data[name] for name in TRANSPORT_SECTIONS if name in data}
    for name, table in sections.items():
        if not isinstance(table, dict):
            raise ConfigError(f"[{name}] must be a table", key=name)
    if "concierge" in data:
        changes.update(_concierge(data["concierge"]))
    if "launchers" in data:
        changes["launchers"] = _launchers(data["launchers"])
    if "webhooks" in data:
        changes["webhook_networks"] = _webhooks(data["webhooks"])
    return replace(config, **changes, sections=sections)


def _webhooks(table: object) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``[webhooks] allow_networks = ["10.0.0.0/8", …]``: non-public networks webhooks may
    reach (by default only public addresses are posted to)."""
    if not isinstance(table, dict) or set(table) - {"allow_networks"}:
        raise ConfigError("[webhooks] must be a table with one key, allow_networks", key="webhooks")
    networks = table.get("allow_networks", [])
    if not isinstance(networks, list):
        raise ConfigError(
            "[webhooks] allow_networks must be a list of networks", key="webhooks.allow_networks"
        )
    return _networks(networks, "webhooks.allow_networks")


def _networks(
    values: Iterable[object], key: str
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(str(value).strip(), strict=False))
        except ValueError:
            raise ConfigError(
                f"{key}: {value!r} is not a network such as 10.0.0.0/8 or ::1/128", key=key
            ) from None
    return tuple(networks)


def _concierge(table: object) -> dict[str, Any]:
    """``[concierge]``: the policy's start (answer, act) and the optional ``[concierge.llm]``."""
    if not isinstance(table, dict):
        raise ConfigError("[concierge] must be a table", key="concierge")
    unknown = sorted(set(table) - _CONCIERGE_KEYS)
    if unknown:
        raise ConfigError(
            f"[concierge]: unknown key {unknown[0]!r}"
            f" (known: {', '.join(sorted(_CONCIERGE_KEYS))})",
            key=f"concierge.{unknown[0]}",
        )
    changes: dict[str, Any] = {}
    if "answer" in table:
        answer = table["answer"]
        if answer not in ("never", "routine", "always"):
            raise ConfigError(
                f"[concierge] answer must be never, routine or always, got {answer!r}",
                key="concierge.answer",
            )
        changes["concierge_answer"] = answer
    if "act" in table:
        act = table["act"]
        if not isinstance(act, bool):
            raise ConfigError(
                f"[concierge] act must be true or false, got {act!r}", key="concierge.act"
            )
        changes["concierge_act"] = act
    if "llm" in table:
        if not isinstance(table["llm"], dict):
            raise ConfigError("[concierge.llm] must be a table", key="concierge.llm")
        try:
            changes["concierge_llm"] = LlmSettings.from_table(table["llm"])
        except InvalidInput as error:
            raise ConfigError(error.message, key=str(error.details.get("key"))) from None
    return changes


def _launchers(table: object) -> dict[str, tuple[str, ...]]:
    """``[launchers.NAME] command = ["prog", "arg", …]``: what restart and dispatch run."""
    if not isinstance(table, dict):
        raise ConfigError("[launchers] must be a table of launchers", key="launchers")
    launchers: dict[str, tuple[str, ...]] = {}
    for name, launcher in table.items():
        key = f"launchers.{name}"
        if not isinstance(launcher, dict) or set(launcher) != {"command"}:
            raise ConfigError(f"[{key}] must have exactly one key, command", key=key)
        command = launcher["command"]
        if (
            not isinstance(command, list)
            or not command
            or not all(isinstance(word, str) and word for word in command)
        ):
            raise ConfigError(
                f"[{key}] command must be a non-empty list of strings", key=f"{key}.command"
            )
        launchers[name] = tuple(command)
    return launchers


def _apply_env(config: Config, env: Mapping[str, str]) -> Config:
    changes: dict[str, Any] = {}
    if env.get("CREWLINE_DATABASE_URL"):
        changes["database_url"] = env["CREWLINE_DATABASE_URL"]
    if env.get("CREWLINE_REPLICA_ID"):
        changes["replica_id"] = env["CREWLINE_REPLICA_ID"]
    if env.get("CREWLINE_HOST"):
        changes["host"] = env["CREWLINE_HOST"]
    if env.get("CREWLINE_PORT"):
        changes["port"] = _port(env["CREWLINE_PORT"], "CREWLINE_PORT")
    if env.get("CREWLINE_TRANSPORTS"):
        changes["transports"] = check_transport_names(
            [n.strip() for n in env["CREWLINE_TRANSPORTS"].split(",") if n.strip()],
            "CREWLINE_TRANSPORTS",
        )
        changes["transports_source"] = "CREWLINE_TRANSPORTS"
    if env.get("CREWLINE_LOG_LEVEL"):
        changes["log_level"] = env["CREWLINE_LOG_LEVEL"].upper()
    if env.get("CREWLINE_BOUNDARY_WAIT"):
        changes["boundary_wait"] = _seconds(env["CREWLINE_BOUNDARY_WAIT"], "CREWLINE_BOUNDARY_WAIT")
    if env.get("CREWLINE_WEBHOOK_ALLOW_NETWORKS"):
        changes["webhook_networks"] = _networks(
            [n for n in env["CREWLINE_WEBHOOK_ALLOW_NETWORKS"].split(",") if n.strip()],
            "CREWLINE_WEBHOOK_ALLOW_NETWORKS",
        )
    if env.get("CREWLINE_BOUNDARY_MID_TURN"):
        changes["boundary_mid_turn"] = _mid_turn(
            env["CREWLINE_BOUNDARY_MID_TURN"], "CREWLINE_BOUNDARY_MID_TURN"
        )
    if env.get("CREWLINE_LOG_FORMAT"):
        changes["log_format"] = _log_format(env["CREWLINE_LOG_FORMAT"], "CREWLINE_LOG_FORMAT")
    return replace(config, **changes)


def check_transport_names(names: Iterable[str], where: str) -> tuple[str, ...]:
    """``names`` without repeats; an unknown one is refused, naming the known ones."""
    for name in names:
        if name not in TRANSPORT_NAMES:
            raise ConfigError(
                f"{where}: unknown transport {name!r} (known: {', '.join(TRANSPORT_NAMES)})",
                key="transports",
                known=list(TRANSPORT_NAMES),
            )
    return tuple(dict.fromkeys(names))


def _typed(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data[key]
    if not isinstance(value, kind):
        raise ConfigError(f"{key} must be a {kind.__name__}, got {value!r}", key=key)
    return value


def _log_format(value: str, key: str) -> str:
    if value not in LOG_FORMATS:
        raise ConfigError(f"{key} must be one of {', '.join(LOG_FORMATS)}, got {value!r}", key=key)
    return value


def _mid_turn(value: object, key: str) -> str:
    if value not in MID_TURN:
        raise ConfigError(f"{key} must be one of {', '.join(MID_TURN)}, got {value!r}", key=key)
    return str(value)


def _seconds(value: object, key: str) -> float:
    try:
        seconds = float(str(value))
    except ValueError:
        raise ConfigError(f"{key} must be a number of seconds, got {value!r}", key=key) from None
    if isinstance(value, bool) or not 0 <= seconds <= MAX_BOUNDARY_WAIT:
        raise ConfigError(f"{key} must be 0..{MAX_BOUNDARY_WAIT:g} seconds", key=key)
    return seconds


def _port(value: object, key: str) -> int:
    try:
        port = int(str(value))
    except ValueError:
        raise ConfigError(f"{key} must be a port number, got {value!r}", key=key) from None
    if not 0 <= port <= 65535:
        raise ConfigError(f"{key} must be 0..65535, got {port}", key=key)
    return port


def transport_values(
    name: str,
    section: Mapping[str, Any],
    env: Mapping[str, str],
    *,
    variables: Mapping[str, str],
    other_keys: Iterable[str] = (),
) -> dict[str, str | None]:
    """A transport's text settings, each from its environment variable (which wins) or its
    ``[name]`` table; a table key the transport does not know is refused by name."""
    known = {*variables, *other_keys}
    unknown = sorted(set(section) - known)
    if unknown:
        raise ConfigError(
            f"[{name}]: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})",
            key=f"{name}.{unknown[0]}",
        )
    values: dict[str, str | None] = {}
    for key, variable in variables.items():
        value = env.get(variable) or section.get(key)
        if isinstance(value, bool) or not isinstance(value, str | int | None):
            raise ConfigError(f"[{name}] {key} must be a string", key=f"{name}.{key}")
        values[key] = None if value is None or value == "" else str(value).strip()
    return values
