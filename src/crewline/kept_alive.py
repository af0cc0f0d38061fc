"""Requests on kept-alive connections, as crewline sends them (its Python client to
crewline, the webhook pusher to agents' receivers).

A server closes a connection left idle after a while (uvicorn and Node.js after 5 s, which
is also how long httpx keeps one for reuse). A request sent on it just as the server closes
it is reset unread: the request fails though the server never saw it. So a connection is
let go well before (``KEEP_ALIVE_EXPIRY``), and a request that fails all the same on a
reused connection before the head of any answer is sent once more on another — when it
is safe to repeat, since the client cannot tell it from a server that did the request and
went away before answering.
"""

from __future__ import annotations

from typing import Any

import httpx

__all__ = ["KEEP_ALIVE_EXPIRY", "send_with_one_resend"]

# Seconds an idle connection is kept for reuse: well under the 5 s crewline's own server
# keeps one (crewline.app.http_timeouts.KEEP_ALIVE; a unit test holds the two together),
# and uvicorn's and Node.js's defaults for a receiver.
KEEP_ALIVE_EXPIRY = 2.0


class _Wire:
    """What one request did on the wire, from httpcore's trace of it."""

    def __init__(self) -> None:
        self.connected = False  # it opened a connection of its own
        self.sent = False  # it began sending its head, over HTTP/1.1
        self.answered = False  # the head of an answer came back

    async def __call__(self, name: str, info: dict[str, Any]) -> None:
        if name == "connection.connect_tcp.started":
            self.connected = True
        elif name == "http11.send_request_headers.started":
            self.sent = True
        elif name == "http11.receive_response_headers.complete":
            self.answered = True

    def closed_on_reuse(self, error: httpx.TransportError) -> bool:
        """The kept-alive connection it was sent on closed before the answer's head."""
        closed = isinstance(error, httpx.ReadError | httpx.RemoteProtocolError)
        return closed and self.sent and not self.connected and not self.answered


async def send_with_one_resend(
    client: httpx.AsyncClient, request: httpx.Request, *, repeatable: bool
) -> httpx.Response:
    """``request``, sent once more when it is ``repeatable`` (safe to do twice: a read, a
    write with an idempotency key) and the kept-alive connection it went out on closed
    before the answer's head. Any other request is sent once: the server may have done it
    before the connection closed."""
    wire = _Wire()
    request.extensions = {**request.extensions, "trace": wire}
    try:
        return await client.send(request)
    except httpx.TransportError as error:
        if not (repeatable and wire.closed_on_reuse(error)):
            raise
    return await client.send(request)
