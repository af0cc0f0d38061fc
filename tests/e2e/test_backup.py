"""crewline backup and restore, run as a user runs them, against a serving crewline.

The server is a separate process (as in production) taking escalations over HTTP from
agents in this process. A backup taken in the middle of that load must hold every
escalation acknowledged before it started; a restore must refuse while the server runs,
and afterwards bring those escalations back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest

from crewline.errors import Unavailable
from crewline.serving_lock import ServingLock, restore_lock
from crewline.store.sqlite import SqliteStore
from tests.bounds import HTTP_TIMEOUT, WAIT

# Each test runs the CLI as processes of its own (backup, restore, status), each a Python
# start-up: seconds idle, a minute when the machine is loaded — past the default 120 s.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

CREWLINE = [sys.executable, "-m", "crewline"]
MEMBERS = 5


def run(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CREWLINE_DATA_DIR": str(data_dir), "CREWLINE_LOG_LEVEL": "WARNING"}
    return subprocess.run(
        [*CREWLINE, *args], capture_output=True, text=True, env=env, check=False, timeout=60
    )


def _add_member(data_dir: Path, slug: str) -> str:
    added = run(
        "member", "add", slug, "--name", slug.title(), "--owner", "local:owner",
        "--transport", "local", data_dir=data_dir,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    return added.stdout.splitlines()[-1]


@contextlib.asynccontextmanager
async def _server(data_dir: Path) -> AsyncIterator[tuple[asyncio.subprocess.Process, str]]:
    process = await asyncio.create_subprocess_exec(
        *CREWLINE, "serve", "--port", "0", "--data-dir", str(data_dir),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        async with asyncio.timeout(WAIT):
            line = (await process.stdout.readline()).decode()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert found is not None, f"crewline did not start: {line!r}"
        yield process, found.group(0)
    finally:
        if process.returncode is None:
            process.terminate()
        async with asyncio.timeout(WAIT):
            await process.wait()


async def _agent(
    url: str, key: str, acks: list[str], changed: asyncio.Condition, stop: asyncio.Event
) -> None:
    """Escalate until told to stop, recording each acknowledgement. Each escalation is
    withdrawn once acknowledged, so the member's backlog never fills: the load goes on for
    as long as the test needs it, however long the backup takes (it used to stop after 45
    escalations an agent, and a backup slower than the agents left the test waiting for
    escalations that could no longer come)."""
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT, headers=headers) as client:
        n = 0
        while not stop.is_set():
            response = await client.post(
                "/api/session-control/escalate", json={"message": f"decide {n}", "options": ["ok"]}
            )
            assert response.status_code == 200, response.text
            escalation_id = response.json()["escalation_id"]
            async with changed:
                acks.append(escalation_id)
                changed.notify_all()
            withdrawn = await client.post(
                f"/api/session-control/escalations/{escalation_id}/retract"
            )
            assert withdrawn.status_code == 200, withdrawn.text
            n += 1


async def _until(changed: asyncio.Condition, condition: Callable[[], bool], what: str) -> None:
    """Wait (bounded) until the agents' acknowledgements meet a condition."""
    try:
        async with asyncio.timeout(WAIT), changed:
            await changed.wait_for(condition)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def test_a_backup_mid_load_restores_everything_acknowledged_before_it(
    tmp_path: Path,
) -> None:
    """Backup while agents escalate; restore is refused while serving, then loses nothing."""
    live = tmp_path / "live"
    keys = [_add_member(live, f"member-{n}") for n in range(MEMBERS)]
    copy = tmp_path / "crewline-backup.db"
    acks: list[str] = []
    stop = asyncio.Event()
    changed = asyncio.Condition()
    async with _server(live) as (_, url):
        agents = [asyncio.create_task(_agent(url, key, acks, changed, stop)) for key in keys]
        await _until(changed, lambda: len(acks) >= 10, "ten acknowledged escalations")
        before = list(acks)
        backed_up = await asyncio.to_thread(run, "backup", str(copy), data_dir=live)
        during = len(acks) - len(before)
        assert backed_up.returncode == 0, backed_up.stderr
        # The load went on while the copy was made, and goes on after it.
        await _until(changed, lambda: len(acks) >= len(before) + during + 5, "more escalations")

        refused = await asyncio.to_thread(run, "restore", str(copy), data_dir=live)
        assert refused.returncode == 2
        assert "(database_in_use)" in refused.stderr
        stop.set()
        await asyncio.gather(*agents)
    after = list(acks)
    assert len(after) > len(before)

    with sqlite3.connect(live / "crewline.db") as conn:  # the refused restore wrote nothing
        (count,) = conn.execute("SELECT count(*) FROM escalations").fetchone()
    assert count == len(after)

    restored = run("restore", str(copy), data_dir=live)
    assert restored.returncode == 0, restored.stderr
    async with SqliteStore.in_directory(live) as store:
        missing = [e for e in before if await store.escalation(e) is None]
        present = [e for e in after if await store.escalation(e) is not None]
    assert missing == []
    assert set(before) <= set(present) and len(present) < len(after)

    async with (
        _server(live) as (_, url),
        httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT) as client,
    ):
        assert (await client.get("/healthz")).json() == {"status": "ok"}


def test_a_backup_never_overwrites_and_a_restore_checks_what_it_is_given(
    tmp_path: Path,
) -> None:
    """An existing destination, or a file that is not a crewline database: refused, exit 2."""
    _add_member(tmp_path, "radar")
    existing = tmp_path / "existing.db"
    existing.write_text("keep me")
    refused = run("backup", str(existing), data_dir=tmp_path)
    assert refused.returncode == 2 and "(backup_exists)" in refused.stderr
    assert existing.read_text() == "keep me"

    not_a_backup = run("restore", str(existing), data_dir=tmp_path)
    assert not_a_backup.returncode == 2 and "(not_a_backup)" in not_a_backup.stderr
    listed = run("member", "list", data_dir=tmp_path)
    assert listed.stdout.splitlines()[1].startswith("radar ")

    absent = run("backup", str(tmp_path / "x.db"), data_dir=tmp_path / "empty")
    assert absent.returncode == 2 and "(no_database)" in absent.stderr


def test_a_server_does_not_start_while_a_restore_holds_the_data_directory(
    tmp_path: Path,
) -> None:
    """The restore's exclusive lock keeps a server out; once released, it starts."""
    with restore_lock(tmp_path):
        with pytest.raises(Unavailable) as refused, ServingLock(tmp_path):
            pass
        assert refused.value.code == "restore_in_progress"
    with ServingLock(tmp_path):
        pass
