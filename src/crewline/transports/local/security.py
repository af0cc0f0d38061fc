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
- **Nothing to evict.** A session is signed, not stored (:class:`Sessions`): no number of
  requests from a stranger's page can push the owner's session out.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
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
    """Browser sessions, signed rather than stored: a session id is a random nonce with its
    HMAC under this process's secret, and its CSRF token another HMAC of the id. Nothing is
    kept per session, so no number of requests can displace one: when the newest 256 were
    kept, a page the owner visited could log them out with 260 image requests. A restart
    makes a new secret and logs everyone out (on loopback the page simply opens a new
    session)."""

    def __init__(self, *, secret: bytes | None = None) -> None:
        self._secret = secret or secrets.token_bytes(32)

    def _mac(self, purpose: str, value: str) -> str:
        digest = hmac.new(self._secret, f"{purpose}:{value}".encode(), hashlib.sha256)
        return digest.hexdigest()

    def open(self) -> tuple[str, str]:
        """A new session: its id (for the cookie) and its CSRF token (for the page)."""
        nonce = secrets.token_urlsafe(32)
        session_id = f"{nonce}.{self._mac('session', nonce)}"
        return session_id, self._mac("csrf", session_id)

    def csrf(self, session_id: str | None) -> str | None:
        """The session's CSRF token, or None when the id is not one this process signed."""
        if not session_id:
            return None
        nonce, dot, mac = session_id.partition(".")
        if not dot or not hmac.compare_digest(mac, self._mac("session", nonce)):
            return None
        return self._mac("csrf", session_id)

    def check(self, session_id: str | None, csrf: str | None) -> bool:
        expected = self.csrf(session_id)
        return expected is not None and csrf is not None and hmac.compare_digest(expected, csrf)
