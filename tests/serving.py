"""`crewline serve` as a separate process, for the tests that kill it or back it up."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import AsyncIterator, Sequence

import httpx

from tests.bounds import HTTP_TIMEOUT

__all__ = ["CREWLINE", "crewline_serve", "escalation_burst"]

CREWLINE = [sys.executable, "-m", "crewline"]


@contextlib.asynccontextmanager
async def crewline_serve(
    *args: str, env: dict[str, str] | None = None, start_within: float = 60.0
) -> AsyncIterator[tuple[asyncio.subprocess.Process, str]]:
    """Run ``crewline serve --port 0 ARGS…`` and yield the process and the URL it printed.

    On leaving, a process still running is killed (the tests that kill it have done so
    already; what matters is that none outlives its test)."""
    process = await asyncio.create_subprocess_exec(
        *CREWLINE, "serve", "--port", "0", *args,
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        async with asyncio.timeout(start_within):
            line = (await process.stdout.readline()).decode()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert found is not None, f"crewline did not start: {line!r}"
        yield process, found.group(0)
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


async def escalation_burst(
    url: str,
    key: str,
    acks: asyncio.Queue[str],
    *,
    agents: int = 4,
    options: Sequence[str] = ("ok",),
) -> None:
    """Escalate from ``agents`` concurrent agents until the server dies under them; each
    acknowledged escalation's id goes to ``acks``."""

    async def agent(client: httpx.AsyncClient) -> None:
        while True:
            try:
                response = await client.post(
                    "/api/session-control/escalate",
                    json={"message": "decide", "options": list(options)},
                )
            except httpx.HTTPError:
                return  # killed mid-request: not acknowledged, may or may not exist
            assert response.status_code == 200, response.text
            acks.put_nowait(response.json()["escalation_id"])

    async with httpx.AsyncClient(
        base_url=url, timeout=HTTP_TIMEOUT, headers={"Authorization": f"Bearer {key}"}
    ) as client:
        await asyncio.gather(*[agent(client) for _ in range(agents)])
