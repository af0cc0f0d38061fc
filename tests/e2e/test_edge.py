"""The HTTP edge: oversized bodies refused before parsing, 401s that name their scheme, and
files on disk that only their owner can read."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from crewline.api.edge import MAX_BODY_BYTES
from tests.bounds import read_to_close
from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

ESCALATE = "/api/session-control/escalate"


def _oversized() -> bytes:
    body = json.dumps({"message": "x" * (MAX_BODY_BYTES + 1)}).encode()
    assert len(body) > MAX_BODY_BYTES
    return body


async def test_a_body_over_the_cap_is_refused_with_413_and_nothing_written(crew: Crew) -> None:
    """A Content-Length over the cap gets 413 payload_too_large; no row is written."""
    key = await crew.add_member()
    response = await crew.call(
        key, "POST", ESCALATE, content=_oversized(), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    error = response.json()["error"]
    assert (error["code"], error["max_bytes"]) == ("payload_too_large", MAX_BODY_BYTES)
    assert await crew.crewline.store.live_rows("radar") == []


async def test_a_chunked_body_over_the_cap_is_refused_as_it_streams(crew: Crew) -> None:
    """Without Content-Length the body is counted as it arrives."""
    key = await crew.add_member()
    whole = _oversized()

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(whole), 64 * 1024):
            yield whole[start : start + 64 * 1024]

    async with crew.client(key) as client:
        request = client.build_request(
            "POST", ESCALATE, content=chunks(), headers={"Content-Type": "application/json"}
        )
        assert "content-length" not in request.headers
        assert request.headers["transfer-encoding"] == "chunked"
        response = await client.send(request)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"
    assert await crew.crewline.store.live_rows("radar") == []


async def test_a_chunked_body_under_the_cap_is_served_as_usual(crew: Crew) -> None:
    """The cap hands a body within it on whole: a chunked escalation is accepted."""
    key = await crew.add_member()

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"message": "chunked '
        yield b'and fine"}'

    async with crew.client(key) as client:
        response = await client.post(
            ESCALATE, content=chunks(), headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 200, response.text
    assert response.json()["state"] == "pending"


async def test_a_401_names_the_bearer_scheme(crew: Crew) -> None:
    """A missing key and a wrong key are both answered with WWW-Authenticate: Bearer."""
    missing = await crew.call(None, "GET", "/api/session/events")
    wrong = await crew.call("not-a-key", "GET", "/api/session/events")
    assert (missing.status_code, wrong.status_code) == (401, 401)
    assert missing.headers["www-authenticate"] == 'Bearer realm="crewline"'
    assert wrong.headers["www-authenticate"] == 'Bearer realm="crewline", error="invalid_token"'


def _modes(data_dir: Path) -> dict[str, int]:
    """The permission bits of the data directory ('.') and of the database's files."""
    files = [p for p in data_dir.iterdir() if p.name.startswith("crewline.db")]
    return {".": stat.S_IMODE(data_dir.stat().st_mode)} | {
        p.name: stat.S_IMODE(p.stat().st_mode) for p in files
    }


@pytest.mark.sqlite_only("the modes of SQLite's database files")
async def test_the_data_directory_and_database_are_private(crew: Crew) -> None:
    """A data directory crewline creates is 0700; the database and its WAL are 0600."""
    await crew.add_member()
    modes = _modes(Path(crew.config.data_dir))
    assert "crewline.db-wal" in modes
    assert modes == {".": 0o700} | {name: 0o600 for name in modes if name != "."}


async def test_a_413_reaches_a_client_still_sending_its_body(crew: Crew) -> None:
    """A client still uploading a body over the cap reads the 413: the server answers
    before it reads the body, and closing with the rest of the body unread made the kernel
    send a reset, which destroyed the answer (the client read ECONNRESET, not the 413)."""
    key = await crew.add_member()
    url = urlsplit(crew.url)
    loop = asyncio.get_running_loop()
    claimed = 2 * MAX_BODY_BYTES
    head = (
        f"POST {ESCALATE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {claimed}\r\n\r\n"
    ).encode()
    upload = head + b" " * claimed
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, (url.hostname, url.port))
        # As much of the upload as the kernel takes, all before the server (on this loop)
        # reads a byte of it: more than the one read (asyncio's 256 KiB) it answers after.
        sent = 0
        with contextlib.suppress(BlockingIOError):
            while sent < len(upload):
                sent += sock.send(upload[sent : sent + 65536])
        assert sent > len(head) + 256 * 1024  # the precondition: body left unread
        answer = await read_to_close(sock)
    finally:
        sock.close()
    status, _, body = answer.partition(b"\r\n\r\n")
    assert status.split(b"\r\n")[0] == b"HTTP/1.1 413 Request Entity Too Large"
    assert json.loads(body)["error"]["code"] == "payload_too_large"
