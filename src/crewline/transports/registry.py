"""Which transport names crewline knows, and where each one's factory lives.

Factories are imported only when a transport is configured, so a platform's SDK is loaded
only by the installations that use it (``pip install crewline[slack]`` …).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from crewline.errors import ConfigError

if TYPE_CHECKING:
    from crewline.config import Config
    from crewline.transports.base import Transport

__all__ = ["FACTORIES", "build_transport"]

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
        raise ConfigError(
            f"unknown transport {name!r} (known: {', '.join(FACTORIES)})", key="transports"
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
