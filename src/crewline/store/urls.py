"""Database URLs as an operator may see them: never with the password."""

from __future__ import annotations

__all__ = ["redacted"]


def redacted(url: str) -> str:
    """The URL without its password, for logs and ``crewline doctor``."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"
