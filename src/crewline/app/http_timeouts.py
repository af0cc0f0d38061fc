"""How long a client may take to send a request's head, and how large it may be: uvicorn's
HTTP protocol with a deadline and a cap on the head.

uvicorn bounds the wait between two requests on a kept-alive connection
(``timeout_keep_alive``), but neither the time a head takes nor, with httptools, its size:
a client sending a byte a second, or connecting and sending nothing, held its connection
(and a file descriptor) for as long as it liked, and one sending headers fast could fill
the memory. Here a head must be complete within ``header_timeout`` seconds of its first
byte (or of the connection, for the first request), else 408 ``header_timeout``, and at
most ``MAX_HEAD`` bytes of request line and headers, else 431 ``header_too_large``; either
way the connection is closed. The body has its own limits, kept where bodies are read
(``crewline.api.edge.BodyLimit``).

A connection closed while the client is still sending (a refused head, or an answer such
as BodyLimit's 413 given before the request's body was read) is closed lingering: the
answer, an end of writing, then the client's bytes read and dropped until it closes, for
at most ``LINGER`` seconds. Closed at once, with bytes of the client's unread, the kernel
resets the connection, and the reset destroys the answer before the client reads it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

__all__ = ["HEADER_TIMEOUT", "KEEP_ALIVE", "LINGER", "MAX_HEAD", "head_deadline_protocol"]

HEADER_TIMEOUT = 10.0  # seconds from a request's first byte to the end of its head
KEEP_ALIVE = 5  # seconds an idle kept-alive connection stays open (uvicorn's default)
MAX_HEAD = 64 * 1024  # bytes of request line and headers (h11's own default is 16 KiB)
LINGER = 2.0  # seconds a refused client's bytes are read and dropped, so its answer survives


def _response(status: str, code: str, message: str) -> bytes:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


_TOO_LARGE = _response(
    "431 Request Header Fields Too Large",
    "header_too_large",
    f"the request's line and headers are larger than {MAX_HEAD} bytes",
)


def head_deadline_protocol(header_timeout: float) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol, refusing a head that takes over ``header_timeout`` s
    or holds over ``MAX_HEAD`` bytes, and closing lingering while the client still sends."""
    too_slow = _response(
        "408 Request Timeout",
        "header_timeout",
        f"the request's head did not arrive within {header_timeout:g} s",
    )

    class HeadDeadlineProtocol(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None
        _head_size = 0
        _refused = False  # the connection is being closed: read nothing more of it
        _linger_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._head_size = 0
            self._arm()

        def data_received(self, data: bytes) -> None:
            if not self._refused:
                super().data_received(data)

        def on_url(self, url: bytes) -> None:
            self._count(len(url))
            if not self._refused:
                super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count(len(name) + len(value))
            if not self._refused:
                super().on_header(name, value)

        def _count(self, size: int) -> None:
            self._head_size += size
            if self._head_size > MAX_HEAD:
                self._refuse(_TOO_LARGE)

        def on_headers_complete(self) -> None:
            self._disarm()
            if not self._refused:
                super().on_headers_complete()
                cycle = self.cycle
                if cycle is not None and not isinstance(cycle.transport, _CycleTransport):
                    cycle.transport = _CycleTransport(self.transport, cycle, self._linger)

        def on_body(self, body: bytes) -> None:
            if not self._refused:
                super().on_body(body)

        def on_message_complete(self) -> None:
            if not self._refused:
                super().on_message_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._linger_timer is not None:
                self._linger_timer.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(header_timeout, self._timed_out)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _timed_out(self) -> None:
            self._head_timer = None
            self._refuse(too_slow)

        def _refuse(self, response: bytes) -> None:
            self._disarm()
            already = self._refused or self.transport.is_closing()
            self._refused = True
            if already:
                return
            # A response of an earlier request may still be streaming on this connection:
            # then closing is all that can be said.
            if self.cycle is not None and not self.cycle.response_complete:
                self.transport.close()
                return
            # Bytes of the client's may be unread: its head landing as the deadline fires,
            # the rest of a head over the cap.
            self.transport.write(response)
            self._linger()

        def _linger(self) -> None:
            """End the connection once the client stops sending, or in LINGER seconds:
            the answer written is read, not destroyed by a reset (the module's doc)."""
            self._refused = True
            self.transport.write_eof()
            self.transport.resume_reading()
            self._linger_timer = self.loop.call_later(LINGER, self.transport.close)

    return HeadDeadlineProtocol


class _CycleTransport(asyncio.Transport):
    """The connection as one request's cycle sees it: closed after a complete answer while
    the request's body is still arriving (BodyLimit's 413, a body's 408), it lingers."""

    def __init__(
        self,
        transport: asyncio.Transport,
        cycle: RequestResponseCycle,
        linger: Callable[[], None],
    ) -> None:
        super().__init__()
        self._transport = transport
        self._cycle = cycle
        self._linger = linger

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._transport.write(data)

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def close(self) -> None:
        if self._cycle.response_complete and self._cycle.more_body:
            self._linger()
        else:
            self._transport.close()
