"""A throwaway PostgreSQL cluster for tests and benchmarks: ``initdb`` in a temporary
directory, a free loopback port, its unix socket in that directory, stopped after: by the
``with`` block's end, or by a watchdog process when the process that started it dies first.

PostgreSQL refuses to run as root, so under root (CI) the cluster belongs to the
``postgres`` user that Debian's package creates, and is started through ``runuser``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

__all__ = ["PostgresUnavailable", "bindir", "cluster", "end_listening"]

SUPERUSER = "crewline"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine (or no user to run them as)."""


def bindir() -> Path:
    """Where ``initdb``, ``pg_ctl`` and ``postgres`` are: the real binaries, not a wrapper.

    Debian keeps them in ``/usr/lib/postgresql/<major>/bin`` and puts only wrappers on PATH;
    ``pg_config --bindir`` names the directory where a server is installed beside it.
    """
    candidates: list[Path] = []
    if (pg_config := shutil.which("pg_config")) is not None:
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if found.returncode == 0:
            candidates.append(Path(found.stdout.strip()))
    candidates += sorted(
        (Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    for candidate in candidates:
        if all((candidate / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return candidate
    raise PostgresUnavailable(
        "no PostgreSQL server found (initdb, pg_ctl, postgres); install Debian's"
        " `postgresql` package"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def cluster(*, durable: bool = False) -> Iterator[str]:
    """Run a fresh cluster; yields the URL of its ``postgres`` database.

    ``durable=False`` (tests) turns fsync off: nothing of a test's data must outlive it.
    Benchmarks pass ``durable=True`` so commits cost what they cost in production.
    """
    bin_dir = bindir()
    as_user: list[str] = []
    owner: pwd.struct_passwd | None = None
    if os.geteuid() == 0:  # initdb refuses root
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise PostgresUnavailable("running as root and there is no `postgres` user") from None
        as_user = ["runuser", "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="crewline-pg-"))
    if owner is not None:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    data, port = root / "data", _free_port()
    options = f"-c listen_addresses=127.0.0.1 -c port={port} -k {root} -c max_connections=200"
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "text": True}
    stop = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]
    try:
        _run([*as_user, str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER,
              "-A", "trust", "-E", "UTF8", "--no-sync"], quiet)  # fmt: skip
        with _watchdog(stop, root):
            _run([*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"),
                  "-o", options, "-w", "-t", "60", "start"], quiet)  # fmt: skip
            try:
                yield f"postgresql://{SUPERUSER}@127.0.0.1:{port}/postgres"
            finally:
                _run(stop, quiet)
    finally:
        shutil.rmtree(root, ignore_errors=True)


# Runs in its own session, so a Ctrl-C meant for the tests does not reach it: it blocks until
# its stdin closes, which happens however the process that started the cluster ends (even by
# SIGKILL), then stops the server (a no-op when it was stopped already) and removes its files.
_WATCHDOG = """
import shutil, subprocess, sys
sys.stdin.buffer.read()
subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
shutil.rmtree(sys.argv[1], ignore_errors=True)
"""


@contextmanager
def _watchdog(stop: list[str], root: Path) -> Iterator[None]:
    """Stop the cluster even if this process dies without running its ``finally`` blocks
    (a CI job killed at its time limit), so no server outlives its test run."""
    guard = subprocess.Popen(
        [sys.executable, "-c", _WATCHDOG, str(root), *stop],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield
    finally:
        assert guard.stdin is not None
        guard.stdin.close()
        guard.wait()


def _run(command: list[str], options: dict[str, object]) -> None:
    done = subprocess.run(command, check=False, **options)  # type: ignore[call-overload]
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr}")


def end_listening(conn: psycopg.Connection[Any], holder: str) -> None:
    """End the connection a replica (``holder``, its application name) LISTENs on, as a
    network drop would, and only that one."""
    ended = conn.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE application_name = %s AND query LIKE 'LISTEN%%'",
        (holder,),
    ).fetchall()
    assert ended == [(True,)], ended  # its listening connection, and only that one
