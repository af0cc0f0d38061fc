"""Running crewline for a benchmark: the real server on a free loopback port, a crew of
members, and the helper processes (load generator, listening agents) beside it."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crewline import crew
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.ops.logs import configure_logging
from crewline.store import Store
from crewline.transports.base import Transport
from crewline.transports.memory import MemoryTransport

__all__ = ["ServerProcess", "add_members", "helper_process", "server_process", "serving"]

ROOT = Path(__file__).resolve().parent.parent


@asynccontextmanager
async def serving(
    data_dir: Path,
    *,
    transports: Sequence[Transport] | None = None,
    concierge: str | None = "never",
    database_url: str | None = None,
    replica_id: str | None = None,
    webhook_networks: Sequence[str] = (),
) -> AsyncIterator[Crewline]:
    """crewline serving its HTTP API on 127.0.0.1 (a free port), with the memory transport
    unless told otherwise, on SQLite in ``data_dir`` unless ``database_url`` names a store;
    ``concierge`` is its answer policy, None for no concierge. As an operator would set
    them: ``replica_id`` names a replica among several on one PostgreSQL (each needs its
    own), ``webhook_networks`` the networks sessions' webhooks may post to
    (``[webhooks] allow_networks``)."""
    config = Config(
        data_dir=data_dir,
        port=0,
        transports=(),
        log_level="WARNING",
        database_url=database_url,
        replica_id=replica_id,
        concierge_answer=concierge or "never",
        webhook_networks=tuple(ipaddress.ip_network(n) for n in webhook_networks),
    )
    chosen = list(transports) if transports is not None else [MemoryTransport("memory")]
    async with Crewline(config, transports=chosen, concierge=concierge is not None) as running:
        yield running


async def add_members(
    store: Store, count: int, *, prefix: str = "m", owner: str = "alice", transports: Sequence[str]
) -> list[crew.NewSession]:
    """``count`` members bound to ``transports``, owned by one human; their own sessions."""
    created = await asyncio.gather(
        *[
            crew.add_member(
                store,
                slug=f"{prefix}{n}",
                name=f"Member {n}",
                owners=[f"{t}:{owner}" for t in transports] or [f"memory:{owner}"],
                transports=transports,
            )
            for n in range(count)
        ]
    )
    return list(created)


async def helper_process(module: str, spec: dict[str, Any], *, timeout: float) -> dict[str, Any]:
    """Run ``python -m bench.<module> SPEC`` in its own process; its last line is JSON."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(spec, file)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        f"bench.{module}",
        file.name,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(timeout):
            out, err = await process.communicate()
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(file.name)
    if process.returncode != 0:
        raise RuntimeError(f"bench.{module} failed ({process.returncode}): {err.decode()[-2000:]}")
    result: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return result


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerProcess:
    """crewline serving in a process of its own (``server_process``)."""

    pid: int
    url: str

    def cpu(self) -> float:
        """Seconds of CPU the process has used so far, every thread's, user and system."""
        with open(f"/proc/{self.pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@asynccontextmanager
async def server_process(
    data_dir: Path,
    *,
    database_url: str,
    replica_id: str,
    env: dict[str, str] | None = None,
    start_within: float = 120.0,
) -> AsyncIterator[ServerProcess]:
    """``serving(data_dir, concierge=None, database_url=…, replica_id=…)`` run in a process
    of its own (``python -m bench.serving``), as each replica runs in production; stopped
    with SIGTERM, as an operator stops ``crewline serve``. ``env``: the process's
    environment (default: this one's)."""
    spec = {"data_dir": str(data_dir), "database_url": database_url, "replica_id": replica_id}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.serving",
        json.dumps(spec),
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        async with asyncio.timeout(start_within):
            line = (await process.stdout.readline()).decode().strip()
        if not line.startswith("http://"):
            raise RuntimeError(f"the replica {replica_id} did not start: {line!r}")
        yield ServerProcess(pid=process.pid, url=line)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(30):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()


async def _serve_until_stopped(spec: dict[str, str]) -> None:
    configure_logging("WARNING")  # as `crewline serve` logs by default
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with serving(
        Path(spec["data_dir"]),
        concierge=None,
        database_url=spec["database_url"],
        replica_id=spec["replica_id"],
    ) as running:
        print(running.url, flush=True)
        await stop.wait()


if __name__ == "__main__":
    asyncio.run(_serve_until_stopped(json.loads(sys.argv[1])))
