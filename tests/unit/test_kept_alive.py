"""crewline lets an idle connection go before its own server closes it."""

from __future__ import annotations

from crewline.app.http_timeouts import KEEP_ALIVE
from crewline.kept_alive import KEEP_ALIVE_EXPIRY


def test_an_idle_connection_is_let_go_well_before_the_server_does() -> None:
    """A connection is reused only while the server surely keeps it: the client's expiry
    is at most half the server's keep-alive, the rest a margin for a loaded loop (the
    server's idle time starts when it has written an answer, the client's when it has
    read it)."""
    assert 0 < KEEP_ALIVE_EXPIRY <= KEEP_ALIVE / 2
