"""Which transport names crewline knows, which of them a configuration enables (and why),
and where each one's factory lives.

Factories are imported only when a transport is configured, so a platform's SDK is loaded
only by the installations that use it (``pip install crewline[slack]`` …).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewline.errors import ConfigError

if TYPE_CHECKING:
    from crewline.config import Config
    from crewline.transports.base import Transport

__all__ = ["CREDENTIALS", "FACTORIES", "EnabledTransport", "build_transport", "enabled_transports"]

# A platform whose credential is given runs without being named in ``transports``.
CREDENTIALS: dict[str, str] = {
    "slack": "SLACK_BOT_TOKEN",
    "telegram": "TELEGRAM_BOT_TOKEN",
    "discord": "DISCORD_BOT_TOKEN",
}


@dataclass(frozen=True, kw_only=True, slots=True)
class EnabledTransport:
    """A transport that runs, and the reason in words (start-up and doctor say it)."""

    name: str
    reason: str


def enabled_transports(
    config: Config, env: Mapping[str, str] | None = None
) -> list[EnabledTransport]:
    """What runs: the ``transports`` list when it is named (it decides); otherwise the local
    inbox and every platform whose credentials are given, in the environment or its table."""
    if config.transports is not None:
        source = config.transports_source or "the configuration"
        return [EnabledTransport(name=n, reason=f"named in {source}") for n in config.transports]
    env = os.environ if env is None else env
    enabled = [EnabledTransport(name="local", reason="built in; on while transports is not set")]
    for name, variable in CREDENTIALS.items():
        if env.get(variable):
            enabled.append(EnabledTransport(name=name, reason=f"{variable} is set"))
        elif config.section(name):
            enabled.append(EnabledTransport(name=name, reason=f"[{name}] is in crewline.toml"))
    return enabled


# name -> (module, factory function, the extra that installs its SDK)
FACTORIES: dict[str, tuple[str, str, str | None]] = {
    "memory": ("crewline.transports.memory", "build", None),
    "local": ("crewline.transports.local", "build", None),
    "slack": ("crewline.transports.slack", "build", "slack"),
    "telegram": ("crewline.transports.telegram", "build", "telegram"),
    "discord": ("crewline.transports.discord", "build", "discord"),
}


def build_transport(name: str, config: Config) -> Transport:
    """Build the transport ``name`` from ``config`` (its own section, and the environment)."""
    if name not in FACTORIES:
        from crewline.config_schema import TRANSPORT_NAMES

        raise ConfigError(
            f"unknown transport {name!r} (known: {', '.join(TRANSPORT_NAMES)})", key="transports"
        )
    module_name, factory_name, extra = FACTORIES[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        hint = f"; install it with pip install 'crewline[{extra}]'" if extra else ""
        raise ConfigError(
            f"transport {name!r} cannot be loaded ({error.name} is missing){hint}", key="transports"
        ) from None
    factory: Callable[[Config], Transport] = getattr(module, factory_name)
    return factory(config)
