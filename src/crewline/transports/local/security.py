"""Who may use the local inbox, and how its requests are protected.

- **Loopback by default.** Bound to 127.0.0.1 / ::1 / localhost, everyone who can reach the
  port is on this machine and is the owner; requests must also *name* a loopback host, so
  a web page that rebinds its own DNS name to 127.0.0.1 is refused (DNS rebinding).
- **A login token elsewhere.** Bound to any other address, the page asks for a token the
  server printed at start. Only its SHA-256 is kept: it carries 256 random bits, so there is
  nothing a slow hash would protect.
- **CSRF.** A session is a random id in an ``HttpOnly; SameSite=Strict`` cookie; every
  state-changing request must carry the session's own CSRF token in a header, send JSON,
  and, when the browser says where it comes from (``Origin``, ``Sec-Fetch-Site``), come
  from this very origin. A cross-site form can neither set the header nor send JSON
  without a CORS preflight the inbox never answers.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from urllib.parse import urlsplit

__all__ = [
    "CSRF_HEADER",
    "LoginToken",
    "Sessions",
    "cookie_name",
    "is_loopback_address",
    "is_loopback_name",
    "new_login_token",
    "same_origin",
]

CSRF_HEADER = "x-crewline-csrf"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_login_token() -> str:
    return "crw_l_" + secrets.token_urlsafe(32)


def is_loopback_address(host: str) -> bool:
    """Whether binding to ``host`` keeps the inbox on this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to any interface


def _host_name(host_header: str) -> str:
    """``127.0.0.1:8765`` → ``127.0.0.1``; ``[::1]:8765`` → ``::1``."""
    if host_header.startswith("["):
        return host_header[1:].partition("]")[0]
    return host_header.rpartition(":")[0] if host_header.count(":") == 1 else host_header


def is_loopback_name(host_header: str) -> bool:
    """Whether a request's ``Host`` names this machine (not a rebound public name)."""
    name = _host_name(host_header).lower()
    return name == "localhost" or name.endswith(".localhost") or is_loopback_address(name)


def same_origin(headers: Mapping[str, str]) -> bool:
    """False when the browser says the request comes from another site."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return False
    origin = headers.get("origin")
    if origin is None:
        return True  # not a browser's cross-site request: the CSRF header still decides
    parts = urlsplit(origin)
    host = headers.get("host", "")
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def cookie_name(port: int | None) -> str:
    """Cookies ignore ports: two crewlines on one host keep apart by naming theirs."""
    return f"crewline_inbox_{port}" if port else "crewline_inbox"


class LoginToken:
    """The login token's hash; :meth:`matches` compares in constant time."""

    def __init__(self, token: str) -> None:
        self._hash = _digest(token)

    def matches(self, candidate: str) -> bool:
        return hmac.compare_digest(_digest(candidate), self._hash)


class Sessions:
    """Browser sessions, in memory: session-id hash → its CSRF token. A restart logs
    everyone out (on loopback the page simply opens a new session)."""

    def __init__(self, *, limit: int = 256) -> None:
        self.limit = limit
        self._csrf: OrderedDict[str, str] = OrderedDict()

    def open(self) -> tuple[str, str]:
        """A new session: its id (for the cookie) and its CSRF token (for the page)."""
        session_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        self._csrf[_digest(session_id)] = csrf
        while len(self._csrf) > self.limit:
            self._csrf.popitem(last=False)
        return session_id, csrf

    def csrf(self, session_id: str | None) -> str | None:
        """The session's CSRF token, or None when the id is unknown."""
        if not session_id:
            return None
        key = _digest(session_id)
        csrf = self._csrf.get(key)
        if csrf is not None:
            self._csrf.move_to_end(key)
        return csrf

    def check(self, session_id: str | None, csrf: str | None) -> bool:
        expected = self.csrf(session_id)
        return expected is not None and csrf is not None and hmac.compare_digest(expected, csrf)
