"""Which browser origins and Host names ``/mcp`` answers (the MCP specification's DNS
rebinding defence: a server must validate ``Origin``).

A request with an ``Origin`` header comes from a web page; it is answered only when that
origin is listed (``[mcp] allowed_origins``). Agents are not web pages and send none. The
``Host`` header names the server the client meant: when crewline listens on a loopback
address it must be a loopback name (so a page that rebinds its own name to 127.0.0.1 is
refused even if it came by a key); ``[mcp] allowed_hosts`` lists the names to accept
instead (a bare name takes any port). Bound elsewhere with no list, any Host is accepted:
behind a proxy the names are the operator's.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from crewline.errors import Forbidden

__all__ = ["OriginPolicy", "is_loopback_bind", "is_loopback_host"]


def _name_of(host_header: str) -> str:
    """``127.0.0.1:8765`` → ``127.0.0.1``; ``[::1]:8765`` → ``::1``; lower-case."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


@functools.lru_cache(maxsize=256)
def is_loopback_host(host_header: str) -> bool:
    """Whether a ``Host`` header names this machine: localhost, ``*.localhost``, a loopback
    address. Kept by value: every ``/mcp`` request asks it of the same few names."""
    name = _name_of(host_header)
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_loopback_bind(address: str) -> bool:
    """Whether listening on ``address`` keeps the server on this machine."""
    return is_loopback_host(f"[{address}]" if ":" in address else address)


@dataclass(frozen=True, kw_only=True, slots=True)
class OriginPolicy:
    """``origins``: the allowed origins (``scheme://host[:port]``, lower-case); ``hosts``:
    the allowed Host names (``name`` or ``name:port``); ``loopback_only``: crewline listens
    on a loopback address, so with no ``hosts`` only loopback names are answered."""

    origins: Sequence[str] = ()
    hosts: Sequence[str] = ()
    loopback_only: bool = True

    def refusal(self, headers: Mapping[str, str]) -> Forbidden | None:
        """None when the request may be answered, else why not (403)."""
        origin = headers.get("origin")
        if origin is not None and origin.strip().lower().rstrip("/") not in self.origins:
            return Forbidden(
                f"requests from the web page origin {origin[:100]!r} are refused: /mcp answers"
                " agents, and the browser origins its operator lists ([mcp] allowed_origins)",
                code="origin_not_allowed",
            )
        host = headers.get("host", "")
        if not self._host_allowed(host):
            return Forbidden(
                f"this server does not answer to the host {host[:100]!r}"
                " ([mcp] allowed_hosts lists those it does)",
                code="host_not_allowed",
            )
        return None

    def _host_allowed(self, host: str) -> bool:
        if self.hosts:
            given = host.strip().lower()
            return given in self.hosts or _name_of(given) in self.hosts
        return not self.loopback_only or is_loopback_host(host)
