"""Launchers: the commands ``crewline.toml`` declares for the concierge's restart and
dispatch (``[launchers.NAME] command = [...]``).

A launched process gets ``CREWLINE_URL`` and a fresh session key (``CREWLINE_SESSION_KEY``)
in its environment; its output is appended to ``launchers.log`` in the data directory.
crewline starts it and does not wait for it: the process is the agent, it lives on its own.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from crewline.errors import InvalidInput, Unavailable

__all__ = ["LOG_NAME", "Launchers"]

log = logging.getLogger(__name__)
LOG_NAME = "launchers.log"


class Launchers:
    def __init__(self, commands: Mapping[str, tuple[str, ...]], *, data_dir: Path) -> None:
        self.commands = dict(commands)
        self.log_path = data_dir / LOG_NAME
        self.url: str | None = None  # told by the server once it listens
        self._running: set[asyncio.subprocess.Process] = set()

    def check(self, name: str) -> tuple[str, ...]:
        """The command of launcher ``name``; InvalidInput(unknown_launcher) if none."""
        command = self.commands.get(name)
        if command is None:
            known = ", ".join(sorted(self.commands)) or "none are declared"
            raise InvalidInput(
                f"no launcher named {name!r} (known: {known})", code="unknown_launcher"
            )
        return command

    async def launch(self, name: str, *, session_key: str) -> int:
        """Start launcher ``name`` with the session's key; returns the process id."""
        command = self.check(name)
        if self.url is None:
            raise Unavailable("crewline is not serving yet", code="not_serving")
        env = {**os.environ, "CREWLINE_URL": self.url, "CREWLINE_SESSION_KEY": session_key}
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as output:
            try:
                process = await asyncio.create_subprocess_exec(
                    *command,
                    env=env,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=output,
                    stderr=output,
                )
            except OSError as error:
                raise InvalidInput(
                    f"launcher {name!r} could not start: {error}", code="launcher_failed"
                ) from None
        self._running.add(process)
        log.info("launcher %s started (pid %s)", name, process.pid)
        return process.pid

    async def wait_exited(self) -> list[int]:
        """Wait for every process started so far to end; their exit codes (tests, the eval)."""
        codes = [await process.wait() for process in list(self._running)]
        self._running.clear()
        return codes

    async def aclose(self) -> None:
        """Forget the processes that ended; the ones still running are left to run."""
        for process in list(self._running):
            if process.returncode is not None:
                self._running.discard(process)
