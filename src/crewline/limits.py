"""The limits of an escalation (SPEC §1.5), in one place: the core enforces them with its own
error codes, and the request models show them in /openapi.json and the MCP tool schemas."""

from __future__ import annotations

from datetime import timedelta

__all__ = [
    "MAX_DEADLINE_AHEAD",
    "MAX_MESSAGE",
    "MAX_OPTIONS",
    "MAX_OPTION_LENGTH",
    "MAX_PENDING",
]

MAX_PENDING = 50  # open escalations per member
MAX_MESSAGE = 4000  # characters
MAX_OPTIONS = 10
MAX_OPTION_LENGTH = 80  # characters
MAX_DEADLINE_AHEAD = timedelta(days=30)
