"""A minimal HTTP/1.1 keep-alive client on asyncio streams, for load generation.

The benchmarks' client must cost far less than the server it measures, and the same for the
subject and its baseline: a request is a few bytes written and a response read by its
Content-Length (or chunks), with no pooling, redirects, cookies or decoding beyond that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

__all__ = ["HttpConnection"]


class HttpConnection:
    """One persistent connection; requests on it are sequential."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> HttpConnection:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(ConnectionError):
                await self._writer.wait_closed()

    async def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, bytes]:
        """Send one request and read the whole response: ``(status, body)``."""
        assert self._reader is not None and self._writer is not None, "not connected"
        payload = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if token:
            head.append(f"Authorization: Bearer {token}")
        if body is not None:
            head.append("Content-Type: application/json")
        head.extend(f"{name}: {value}" for name, value in (headers or {}).items())
        if payload or method != "GET":
            head.append(f"Content-Length: {len(payload)}")
        self._writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        return await self._response()

    async def _response(self) -> tuple[int, bytes]:
        assert self._reader is not None
        raw = await self._reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            return status, await self._chunks()
        length = int(headers.get("content-length", "0"))
        return status, await self._reader.readexactly(length) if length else b""

    async def _chunks(self) -> bytes:
        assert self._reader is not None
        body = bytearray()
        while True:
            size = int((await self._reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self._reader.readuntil(b"\r\n")
                return bytes(body)
            body += await self._reader.readexactly(size)
            await self._reader.readexactly(2)
