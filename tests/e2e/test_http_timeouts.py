"""A client that sends its request slowly is cut off, whatever else the server is doing:
a head not whole within the header timeout (a byte at a time, or nothing at all after
connecting) gets 408 ``header_timeout``, a body not whole within the body timeout 408
``body_timeout``, and meanwhile other clients are served."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from urllib.parse import urlsplit

import httpx
import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.bounds import WAIT, read_to_close
from tests.driver import Crew
from tests.harness import MemoryHarness

SHORT = 0.5  # seconds: the timeouts here, set small so the test is quick


@pytest.fixture
async def crew(config: Config, clock: FakeClock) -> AsyncIterator[Crew]:
    timed = replace(config, http_header_timeout=SHORT, http_body_timeout=SHORT)
    driver = Crew(timed, clock, [MemoryHarness()])
    await driver.start()
    yield driver
    await driver.stop()


async def _until_closed(crew: Crew, first: bytes) -> tuple[bytes, float]:
    """Connect, send ``first`` and nothing more; everything the server sends before it
    closes the connection, and how long that took (bounded)."""
    url = urlsplit(crew.url)
    loop = asyncio.get_running_loop()
    started = loop.time()  # before connecting: the server's deadline starts after this
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    try:
        if first:
            writer.write(first)
            await writer.drain()
        async with asyncio.timeout(WAIT):
            answer = await reader.read()  # to EOF: the server closed the connection
    finally:
        writer.close()
    return answer, loop.time() - started


def _error(answer: bytes) -> tuple[str, str]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode(), json.loads(body)["error"]["code"]


@pytest.mark.sqlite_only("the HTTP server is the same on both stores")
async def test_a_slow_head_or_body_is_cut_off_and_others_are_served(crew: Crew) -> None:
    """Three slow clients at once, each cut off after the timeout (a byte of a head, no
    byte at all, half a body); a normal request meanwhile is answered."""
    slow = [
        asyncio.create_task(_until_closed(crew, b"GET /healthz HTTP/1.1\r\nHo")),
        asyncio.create_task(_until_closed(crew, b"")),
        asyncio.create_task(
            _until_closed(
                crew,
                b"POST /api/session-control/escalate HTTP/1.1\r\nHost: x\r\n"
                b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mess',
            )
        ),
    ]
    async with httpx.AsyncClient(base_url=crew.url, timeout=WAIT) as client:
        served = await client.get("/healthz")  # while the three hold their connections
    assert served.status_code == 200
    (head, head_took), (silent, silent_took), (body, body_took) = await asyncio.gather(*slow)
    assert _error(head) == ("HTTP/1.1 408 Request Timeout", "header_timeout")
    assert _error(silent) == ("HTTP/1.1 408 Request Timeout", "header_timeout")
    assert _error(body) == ("HTTP/1.1 408 Request Timeout", "body_timeout")
    # the run's figures: each is cut off after its timeout, not by anything sooner
    print(f"cut off after {head_took:.2f} s, {silent_took:.2f} s and {body_took:.2f} s")
    assert min(head_took, silent_took, body_took) >= SHORT * 0.9


@pytest.mark.sqlite_only("the HTTP server is the same on both stores")
async def test_a_head_over_64_kib_is_refused_before_it_fills_memory(crew: Crew) -> None:
    """Headers sent fast but without end: 431 header_too_large, the connection closed."""
    header = b"X-Filler: " + b"a" * 4000 + b"\r\n"
    answer, _ = await _until_closed(crew, b"GET /healthz HTTP/1.1\r\n" + header * 20)
    assert _error(answer) == ("HTTP/1.1 431 Request Header Fields Too Large", "header_too_large")
    async with httpx.AsyncClient(base_url=crew.url, timeout=WAIT) as client:
        fine = await client.get("/healthz", headers={"X-Filler": "a" * 4000})
    assert fine.status_code == 200  # the precondition: a large but bounded head passes


@pytest.mark.sqlite_only("the HTTP server is the same on both stores")
async def test_a_head_landing_as_the_deadline_fires_still_reads_the_408(crew: Crew) -> None:
    """The interleaving a loaded machine makes, driven: the server's loop stalls until the
    head deadline is due, and the client's head lands in the same turn, after the loop
    polled its sockets, so the deadline fires with the head unread. The client reads the
    408; it used to get a reset (ECONNRESET), the server having closed a socket with unread
    bytes, which makes the kernel send RST and drop the 408 the client had not read."""
    url = urlsplit(crew.url)
    loop = asyncio.get_running_loop()
    server = crew.crewline.http._server
    assert server is not None
    before = set(server.server_state.connections)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, (url.hostname, url.port))
        async with asyncio.timeout(WAIT):
            while not (accepted := set(server.server_state.connections) - before):  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        (connection,) = accepted
        deadline = connection._head_timer.when()  # type: ignore[attr-defined]
        # the head is sent by the first callback of the turn the deadline fires in ...
        loop.call_at(deadline - 0.001, sock.send, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        # ... because the loop gets no CPU until both are due (a machine at load 20)
        time.sleep(max(0.0, deadline - loop.time()))  # noqa: ASYNC251
        answer = await read_to_close(sock)
    finally:
        sock.close()
    assert _error(answer) == ("HTTP/1.1 408 Request Timeout", "header_timeout")
