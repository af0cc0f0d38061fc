"""``[concierge.llm]`` settings for the LLM brain, validated once (no network library here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from crewline.errors import InvalidInput

__all__ = ["LlmSettings"]

_KEYS = ("base_url", "model", "api_key_env", "timeout")


def _refuse(key: str, message: str) -> InvalidInput:
    return InvalidInput(
        f"[concierge.llm] {key}: {message}", code="invalid_llm_setting", key=f"concierge.llm.{key}"
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class LlmSettings:
    """An OpenAI-compatible chat-completions endpoint: ``POST {base_url}/chat/completions``
    with ``model``, the key read from the environment variable ``api_key_env`` (the key itself
    is never in the config), each draft bounded by ``timeout`` seconds."""

    base_url: str
    model: str
    api_key_env: str
    timeout: float = 10.0

    @classmethod
    def from_table(cls, table: Mapping[str, object]) -> LlmSettings:
        """The settings in a ``[concierge.llm]`` table, each value checked by the
        configuration's schema; ``InvalidInput`` names the bad key."""
        from crewline.config_schema import key

        for name in table:
            if name not in _KEYS:
                raise _refuse(str(name), f"unknown key (allowed: {', '.join(_KEYS)})")
        values: dict[str, object] = {}
        for name in _KEYS:
            if name not in table:
                if name == "timeout":
                    continue
                raise _refuse(name, "missing")
            setting = key(f"concierge.llm.{name}")
            try:
                values[name] = setting.read(table[name])
            except (ValueError, TypeError):
                raise _refuse(name, f"expected {setting.allowed}, got {table[name]!r}") from None
        return cls(
            base_url=str(values["base_url"]).rstrip("/"),
            model=str(values["model"]),
            api_key_env=str(values["api_key_env"]),
            timeout=float(str(values.get("timeout", 10.0))),
        )
