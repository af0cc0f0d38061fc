"""Every error crewline raises, with a stable code.

The tree::

    CrewlineError                      code: str, details: dict
    ├── CallerError                    the caller's mistake; never retried (4xx)
    │   ├── InvalidInput               malformed_json, unknown_field, invalid_* …
    │   │   └── PayloadTooLarge        payload_too_large (max_bytes)
    │   ├── Unauthenticated            missing_key, invalid_key
    │   ├── Forbidden                  caller_blocked, not_owner, not_your_record
    │   ├── NotFound                   unknown_member, unknown_escalation …
    │   ├── Conflict                   already_settled, already_exists
    │   └── BacklogFull                escalation_backlog_full (open_count)
    ├── Unavailable                    escalation_index_unavailable (retry later)
    ├── ConfigError                    a bad key in crewline.toml or the environment
    ├── CannotListen                   port_in_use, cannot_listen: the address is unusable
    ├── AlreadyServing                 data_dir_in_use: another crewline serves this directory
    └── TransportError                 a platform call failed
        ├── RateLimited                retry_after seconds
        ├── TransientTransportError    retry with back-off
        │   └── ThreadGone             the thread is gone (a deleted topic): reopen it
        └── PermanentTransportError    retrying cannot help

The HTTP layer maps each branch to a status in one table (``crewline.api.http``).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AlreadyServing",
    "BacklogFull",
    "CallerError",
    "CannotListen",
    "ConfigError",
    "Conflict",
    "CrewlineError",
    "Forbidden",
    "InvalidInput",
    "NotFound",
    "PayloadTooLarge",
    "PermanentTransportError",
    "RateLimited",
    "ThreadGone",
    "TransientTransportError",
    "TransportError",
    "Unauthenticated",
    "Unavailable",
]


class CrewlineError(Exception):
    """Base of every crewline error: a stable ``code`` and a message built from the value."""

    default_code = "error"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.details = details


class CallerError(CrewlineError):
    """The caller sent something crewline refuses; nothing was written."""


class InvalidInput(CallerError):
    default_code = "invalid_input"


class PayloadTooLarge(InvalidInput):
    """A request body over the size cap, refused before it is read to the end or parsed."""

    default_code = "payload_too_large"


class Unauthenticated(CallerError):
    default_code = "invalid_key"


class Forbidden(CallerError):
    default_code = "forbidden"


class NotFound(CallerError):
    default_code = "not_found"


class Conflict(CallerError):
    default_code = "conflict"


class BacklogFull(CallerError):
    default_code = "escalation_backlog_full"


class Unavailable(CrewlineError):
    """A part crewline needs is temporarily unusable; the caller may retry."""

    default_code = "unavailable"


class ConfigError(CrewlineError):
    default_code = "invalid_config"


class CannotListen(CrewlineError):
    """The HTTP server cannot bind its address (another process has the port, or no
    permission): said in one line, never as a traceback."""

    default_code = "cannot_listen"


class AlreadyServing(CrewlineError):
    """Another crewline serves from this data directory (SQLite allows one server per
    directory): said in one line naming it, never as a traceback."""

    default_code = "data_dir_in_use"


class TransportError(CrewlineError):
    default_code = "transport_error"


class RateLimited(TransportError):
    default_code = "rate_limited"

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message, retry_after=retry_after)
        self.retry_after = retry_after


class TransientTransportError(TransportError):
    default_code = "transport_transient"


class ThreadGone(TransientTransportError):
    """The platform no longer has the thread a message was posted to (a deleted or closed
    topic): the outbox opens the member's thread again and posts there."""

    default_code = "thread_gone"


class PermanentTransportError(TransportError):
    default_code = "transport_permanent"
