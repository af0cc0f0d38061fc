"""Running the ``crewline`` command as an agent's shell would, against a running crewline."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass

from tests.bounds import WAIT

CREWLINE = (sys.executable, "-m", "crewline")


@dataclass(frozen=True, kw_only=True, slots=True)
class Ran:
    code: int
    out: str
    err: str


async def start(
    *args: str, key: str | None, url: str, stdin: bool = False
) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREWLINE_")}
    env["CREWLINE_URL"] = url
    if key is not None:
        env["CREWLINE_SESSION_KEY"] = key
    return await asyncio.create_subprocess_exec(
        *CREWLINE,
        *args,
        env=env,
        stdin=asyncio.subprocess.PIPE if stdin else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def finish(
    process: asyncio.subprocess.Process, *, stdin: bytes | None = None, timeout: float = WAIT
) -> Ran:
    async with asyncio.timeout(timeout):
        out, err = await process.communicate(stdin)
    assert process.returncode is not None
    return Ran(code=process.returncode, out=out.decode(), err=err.decode())


async def run(*args: str, key: str | None, url: str, stdin: bytes | None = None) -> Ran:
    return await finish(await start(*args, key=key, url=url, stdin=stdin is not None), stdin=stdin)
