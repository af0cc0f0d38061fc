"""``[concierge.llm]`` settings for the LLM brain, validated once (no network library here)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from crewline.errors import InvalidInput

__all__ = ["LlmSettings"]

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEYS = ("base_url", "model", "api_key_env", "timeout")
MAX_TIMEOUT = 120.0


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
        """The settings in a ``[concierge.llm]`` table; ``InvalidInput`` names the bad key."""
        for key in table:
            if key not in _KEYS:
                raise _refuse(str(key), f"unknown key (allowed: {', '.join(_KEYS)})")
        for key in ("base_url", "model", "api_key_env"):
            if key not in table:
                raise _refuse(key, "missing")
            value = table[key]
            if not isinstance(value, str) or not value.strip():
                raise _refuse(key, f"must be a non-empty string, got {value!r}")
        base_url = str(table["base_url"]).strip().rstrip("/")
        parts = urlsplit(base_url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise _refuse("base_url", f"must be an http(s) URL, got {base_url!r}")
        if parts.username or parts.password:
            raise _refuse("base_url", "must not carry credentials; use api_key_env")
        api_key_env = str(table["api_key_env"]).strip()
        if not _ENV_NAME.fullmatch(api_key_env):
            raise _refuse("api_key_env", f"must name an environment variable, got {api_key_env!r}")
        timeout = table.get("timeout", 10.0)
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, int | float)
            or not math.isfinite(timeout)
            or not 0 < timeout <= MAX_TIMEOUT
        ):
            raise _refuse("timeout", f"must be seconds in (0, {MAX_TIMEOUT:g}], got {timeout!r}")
        return cls(
            base_url=base_url,
            model=str(table["model"]).strip(),
            api_key_env=api_key_env,
            timeout=float(timeout),
        )
