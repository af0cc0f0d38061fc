"""Running the ``crewline`` command as an agent's shell would, against a running crewline."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from dataclasses import dataclass

from tests.bounds import WAIT

CREWLINE = (sys.executable, "-m", "crewline")

# Every agent process started here, until its test ends: one a failing test leaves running
# is killed by ``reap`` (tests/e2e/conftest.py), not garbage-collected during a later test's
# set-up, where its unclosed pipes would be reported as that test's error.
_started: set[asyncio.subprocess.Process] = set()


def started(process: asyncio.subprocess.Process) -> asyncio.subprocess.Process:
    """``process`` (started with ``start_new_session=True``), to be killed with what it
    started and waited for when its test ends."""
    _started.add(process)
    return process


async def reap() -> None:
    """Kill every agent process started since the last reap, and its children (a shell
    script's ``crewline`` holds its pipes too), and wait until its pipes are closed."""
    processes = list(_started)
    _started.clear()
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # its own group: start_new_session
        await process.communicate()


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
    process = await asyncio.create_subprocess_exec(
        *CREWLINE,
        *args,
        env=env,
        stdin=asyncio.subprocess.PIPE if stdin else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    return started(process)


async def finish(
    process: asyncio.subprocess.Process, *, stdin: bytes | None = None, timeout: float = WAIT
) -> Ran:
    async with asyncio.timeout(timeout):
        out, err = await process.communicate(stdin)
    assert process.returncode is not None
    return Ran(code=process.returncode, out=out.decode(), err=err.decode())


async def run(*args: str, key: str | None, url: str, stdin: bytes | None = None) -> Ran:
    return await finish(await start(*args, key=key, url=url, stdin=stdin is not None), stdin=stdin)
