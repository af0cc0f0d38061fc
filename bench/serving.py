"""Running crewline for a benchmark: the real server on a free loopback port, a crew of
members, and the helper processes (load generator, listening agents) beside it."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from crewline import crew
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.store import Store
from crewline.transports.base import Transport
from crewline.transports.memory import MemoryTransport

__all__ = ["add_members", "helper_process", "serving"]

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
