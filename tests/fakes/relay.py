"""A byte relay on loopback in front of crewline that closes a kept-alive connection just as
the next request arrives on it, on demand: the race of a server's keep-alive timeout firing
as a client reuses its idle connection, made without waiting for any timeout.

``close_next_reuse(reached=False)``: the next request on a connection that has already
carried an answer is dropped unread and the connection reset, as uvicorn resets a
connection its keep-alive timer closes with a request just landed. ``reached=True``: the
request is passed on to crewline, which does it, and the connection closed before the first
byte of the answer (a server gone between doing and answering). The client sees the same in
both: a reused connection closed with no answer.

Each request goes to crewline on a connection of its own, so crewline's own keep-alive
timeout never closes a client's connection here: a test's connection stays open until the
test or the client closes it, however long a loaded machine takes between two requests.
The relay parses no HTTP: requests on a connection come one after another, so bytes from
the client after bytes of an answer are the next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from urllib.parse import urlsplit

__all__ = ["KeepAliveRelay"]


class _Exchange:
    """One request passed on to crewline, on its own connection, and its answer."""

    def __init__(self, writer: asyncio.StreamWriter, *, drop_answer: bool) -> None:
        self.writer = writer
        self.drop_answer = drop_answer
        self.answered = False  # a byte of the answer came back from crewline
        self.pump: asyncio.Task[None] | None = None

    async def close(self) -> None:
        if self.pump is not None:
            self.pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.pump
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


class KeepAliveRelay:
    """``async with KeepAliveRelay(crewline_url) as relay``; clients use ``relay.url``."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        assert parts.hostname is not None and parts.port is not None
        self._upstream = (parts.hostname, parts.port)
        self.url = ""
        self.connections = 0  # client connections accepted
        self.requests = 0  # requests passed on to crewline
        self.closed_at_reuse: list[str] = []  # "unread" or "answer_lost", one per close made
        self._fault: str | None = None
        self._server: asyncio.Server | None = None
        self._serving: set[asyncio.Task[None]] = set()

    def close_next_reuse(self, *, reached: bool) -> None:
        """Close the next connection reused, as its request arrives (``reached``: after
        crewline has done it, before any of its answer is passed back)."""
        self._fault = "answer_lost" if reached else "unread"

    async def __aenter__(self) -> KeepAliveRelay:
        self._server = await asyncio.start_server(self._accepted, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._serving):
            task.cancel()
        await asyncio.gather(*self._serving, return_exceptions=True)
        await self._server.wait_closed()

    def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.create_task(self._serve(reader, writer))
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        exchange: _Exchange | None = None
        try:
            while chunk := await reader.read(65536):
                if exchange is None or exchange.answered:  # the first bytes of a request
                    reused = exchange is not None
                    if exchange is not None:
                        await exchange.close()
                    fault, self._fault = (self._fault, None) if reused else (None, self._fault)
                    if fault == "unread":
                        self.closed_at_reuse.append(fault)
                        _reset(writer)
                        return
                    exchange = await self._pass_on(writer, drop_answer=fault is not None)
                exchange.writer.write(chunk)
                await exchange.writer.drain()
        finally:
            if exchange is not None:
                await exchange.close()
            writer.close()

    async def _pass_on(self, client: asyncio.StreamWriter, *, drop_answer: bool) -> _Exchange:
        reader, writer = await asyncio.open_connection(*self._upstream)
        self.requests += 1
        exchange = _Exchange(writer, drop_answer=drop_answer)
        exchange.pump = asyncio.create_task(self._answer(reader, client, exchange))
        return exchange

    async def _answer(
        self, reader: asyncio.StreamReader, client: asyncio.StreamWriter, exchange: _Exchange
    ) -> None:
        """crewline's answer back to the client as it comes; crewline closing its side
        after answering ends nothing for the client, whose connection stays kept alive."""
        while chunk := await reader.read(65536):
            exchange.answered = True
            if exchange.drop_answer:
                self.closed_at_reuse.append("answer_lost")
                client.close()
                return
            client.write(chunk)
            await client.drain()


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with RST, not FIN: what the kernel does to a socket closed with bytes unread."""
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()
