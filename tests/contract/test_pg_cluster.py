"""The throwaway PostgreSQL cluster the store tests run on (tests/pg_cluster.py) never
outlives its run: stopped and removed when its block raises, and when the process that
started it is killed outright (a CI job at its time limit)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from tests.pg_cluster import cluster

ROOT = Path(__file__).resolve().parents[2]

_OWNER = """
import sys
import psycopg
from tests.pg_cluster import cluster
with cluster() as url:
    with psycopg.connect(url) as conn:
        data = conn.execute("SHOW data_directory").fetchone()[0]
    print(url, data, flush=True)
    sys.stdin.read()
"""


def _refuses(url: str) -> bool:
    try:
        psycopg.connect(url, connect_timeout=2).close()
    except psycopg.OperationalError:
        return True
    return False


def _within(seconds: float, condition: Callable[[], bool]) -> bool:
    """Whether ``condition`` holds within ``seconds`` (a process outside ours does the work)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _fail_inside(seen: list[str]) -> None:
    with cluster() as url, psycopg.connect(url) as conn:
        data = conn.execute("SHOW data_directory").fetchone()
        assert data is not None and Path(data[0]).is_dir()
        seen += [url, data[0]]
        raise RuntimeError("boom")


def test_a_cluster_is_stopped_and_removed_when_its_block_raises(postgres_server: str) -> None:
    """An exception inside the block (a failing session) still stops the server."""
    seen: list[str] = []
    with pytest.raises(RuntimeError, match="boom"):
        _fail_inside(seen)
    url, data = seen
    assert _refuses(url)
    assert not Path(data).parent.exists()


def test_a_cluster_whose_owner_is_killed_is_stopped_and_removed(postgres_server: str) -> None:
    """SIGKILL runs no ``finally``: the watchdog stops the server and removes its files."""
    with subprocess.Popen(
        [sys.executable, "-c", _OWNER],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as owner:
        try:
            assert owner.stdout is not None
            url, data = owner.stdout.readline().split()
            assert not _refuses(url) and Path(data).is_dir()
            os.kill(owner.pid, signal.SIGKILL)
            assert owner.wait(timeout=30) == -signal.SIGKILL
        finally:
            if owner.poll() is None:
                owner.kill()
    assert _within(60, lambda: _refuses(url) and not Path(data).parent.exists())
