"""How long a test waits for what should happen: one bound for the harnesses, fakes and
driver.

A bound only decides how long a real failure takes to report; it must never be what fails
a correct run. On a loaded 2-core machine (a few pytest workers, a CPU hog, a PostgreSQL
cluster per worker) a loopback connect, a subprocess's start or a card's first drawing can
take well over httpx's 5-second default or a 10-second wait, so every shared wait defaults
to this. A test that asserts something does *not* happen passes its own short bound.
"""

from __future__ import annotations

import asyncio
import socket

import httpx

__all__ = ["HTTP_TIMEOUT", "WAIT", "read_to_close"]

WAIT = 60.0  # seconds: any wait for a condition the test expects to come true
HTTP_TIMEOUT = httpx.Timeout(WAIT)  # every phase of a test's request: connect, read, write, pool


async def read_to_close(sock: socket.socket) -> bytes:
    """Everything the server sends on a raw non-blocking socket until it closes it, within
    ``WAIT``: the answer a test reads where an HTTP client would hide a reset."""
    loop = asyncio.get_running_loop()
    answer = b""
    async with asyncio.timeout(WAIT):
        while chunk := await loop.sock_recv(sock, 65536):
            answer += chunk
    return answer
