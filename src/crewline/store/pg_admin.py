"""Backup, restore and the doctor's look at a PostgreSQL database.

A backup is PostgreSQL's own: ``pg_dump`` in its custom format, which ``pg_restore`` reads.
crewline exports a snapshot first and dumps exactly that snapshot, so the report (schema
version, escalations) describes what is in the file, and a server may keep writing
meanwhile. A restore refuses while any other session is connected to the database (a
serving crewline, on this machine or another, holds connections), and holds the
migration lock while ``pg_restore`` runs, so a replica starting meanwhile waits for it.

Both tools come with Debian's ``postgresql-client``; where one is missing, or older than
the server, the command refuses and says so. The password never goes on a command line
(the tools read it from their environment), and no message repeats it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewline.errors import ConfigError, Conflict, InvalidInput, Unavailable
from crewline.store.urls import redacted

if TYPE_CHECKING:
    from psycopg import Connection

__all__ = [
    "PgBackupReport",
    "ServerFacts",
    "backup",
    "is_postgresql",
    "reach",
    "restore",
    "schema_version",
    "server_facts",
    "shown",
]

CONNECT_TIMEOUT = 10  # seconds: an unreachable server is a finding, not a hang
_TOOL_TIMEOUT = 3600
_MIGRATION_LOCK = 0x637265776C696E65  # PostgresStore's: a server opening waits for a restore
_REQUIRED_TABLES = ("crewline_schema", "members", "escalations", "rows")
# What a replica appends to the URL it opens (postgres_coordination.with_application_name).
_OUR_APPLICATION_NAME = re.compile(r"[?&]application_name=[^&]*$")
_INSTALL = "install Debian's postgresql-client (apt-get install postgresql-client)"


@dataclass(frozen=True, kw_only=True, slots=True)
class PgBackupReport:
    """What the dump holds: its file, schema version and escalations, and its size."""

    path: Path
    schema_version: int
    escalations: int
    size: int


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerFacts:
    """What the doctor tells about the server: its version, crewline's schema in it
    (0: none yet), and whether this machine has a ``pg_dump`` able to back it up."""

    server_version: str
    server_major: int
    schema_version: int
    pg_dump: str | None  # why a backup would be refused, or None when it would run
    unaccent: str | None  # why a migration could not create the extension, None when it can


def is_postgresql(url: str | None) -> bool:
    return bool(url) and str(url).partition("://")[0] in ("postgresql", "postgres")


def shown(url: str) -> str:
    """``url`` for a message: its password masked, without the ``application_name`` a
    replica adds to it (the URL as the user gave it)."""
    return redacted(_OUR_APPLICATION_NAME.sub("", url))


def reach(url: str) -> None:
    """Connect once (bounded by CONNECT_TIMEOUT) and close: what a store checks before it
    opens its pool. Raises Unavailable(database_unreachable), naming the server with its
    password masked and libpq's reason, when the server cannot be reached, has no such
    database, or refuses the role: one line at once, rather than the pool's retries."""
    psycopg = _psycopg()

    try:
        psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT).close()
    except psycopg.OperationalError as error:
        raise Unavailable(
            f"cannot connect to the database {shown(url)}: {_first_line(str(error))}",
            code="database_unreachable",
        ) from None


def server_facts(url: str) -> ServerFacts:
    """Connect (bounded by CONNECT_TIMEOUT) and read what the doctor reports; raises
    Unavailable(database_unreachable) when the server cannot be reached or refuses."""
    psycopg = _psycopg()

    try:
        with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT, autocommit=True) as conn:
            major = conn.info.server_version // 10000
            shown = conn.execute("SHOW server_version").fetchone()
            version = schema_version(conn)
            unaccent = _unaccent_problem(conn)
    except psycopg.OperationalError as error:
        raise Unavailable(
            f"cannot connect to the database: {_first_line(str(error))}",
            code="database_unreachable",
        ) from None
    return ServerFacts(
        server_version=str(shown[0]) if shown else str(major),
        server_major=major,
        schema_version=version,
        pg_dump=_tool_problem("pg_dump", major),
        unaccent=unaccent,
    )


def _unaccent_problem(conn: Connection[Any]) -> str | None:
    """Why fleet search's ``unaccent`` extension is not in the database and the migrations
    could not create it, or None (it is there, or crewline's role may create it: it is a
    trusted extension, so CREATE on the database suffices)."""
    row = conn.execute(
        "SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'unaccent'),"
        " EXISTS (SELECT FROM pg_available_extensions WHERE name = 'unaccent'),"
        " has_database_privilege(current_database(), 'CREATE')"
        " OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"
    ).fetchone()
    installed, available, may_create = row if row else (False, False, False)
    if installed:
        return None
    if not available:
        return (
            "the server has no unaccent extension: install the PostgreSQL server's contrib"
            " modules (Debian's postgresql package has them)"
        )
    if not may_create:
        return (
            "crewline's role may not create the unaccent extension: a superuser runs"
            " `CREATE EXTENSION unaccent;` in this database"
        )
    return None


def backup(url: str, destination: Path) -> PgBackupReport:
    """Dump the database to ``destination`` (a new file) with ``pg_dump``, consistent while
    serving. Raises Unavailable(pg_dump_missing | pg_dump_too_old | pg_dump_failed),
    Conflict(backup_exists), InvalidInput(invalid_path | no_database)."""
    psycopg = _psycopg()

    if destination.exists():
        raise Conflict(f"{destination} already exists; back up to a new file", code="backup_exists")
    if not destination.parent.is_dir():
        raise InvalidInput(f"{destination.parent} is not a directory", code="invalid_path")
    tool = _tool("pg_dump")
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    with _connect(url) as conn:
        problem = _tool_problem("pg_dump", conn.info.server_version // 10000)
        if problem is not None:
            raise Unavailable(problem, code="pg_dump_too_old")
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        conn.read_only = True
        with conn.transaction():
            snapshot = conn.execute("SELECT pg_export_snapshot()").fetchone()
            version = schema_version(conn)
            if version == 0:
                raise InvalidInput("the database holds no crewline data", code="no_database")
            counted = conn.execute("SELECT count(*) FROM escalations").fetchone()
            assert snapshot is not None and counted is not None
            _run(
                [tool, "--format=custom", f"--snapshot={snapshot[0]}", f"--file={partial}"],
                url,
                failure="pg_dump_failed",
            )
    os.chmod(partial, 0o600)  # transcripts and key hashes: the owner's alone
    os.replace(partial, destination)  # only a complete dump ever carries the name
    return PgBackupReport(
        path=destination,
        schema_version=version,
        escalations=int(counted[0]),
        size=destination.stat().st_size,
    )


def restore(url: str, source: Path, *, latest: int) -> PgBackupReport:
    """Replace the database's crewline data by the dump at ``source`` with ``pg_restore``,
    in one transaction. Refused (nothing changed) when the file is not a crewline dump
    (InvalidInput not_a_backup | backup_too_new), when another session is connected
    (Conflict database_in_use), when the database is at a newer schema than the dump
    (Conflict database_newer), or when ``pg_restore`` is missing (Unavailable
    pg_restore_missing | restore_failed)."""
    if not source.is_file():
        raise InvalidInput(f"there is no backup at {source}", code="no_backup")
    tool = _tool("pg_restore")
    version = _dump_version(tool, source)
    if version > latest:
        raise InvalidInput(
            f"{source} is at schema version {version}, newer than this crewline's {latest}",
            code="backup_too_new",
        )
    with _connect(url) as conn:
        conn.autocommit = True
        conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
        others = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND backend_type = 'client backend'"
        ).fetchone()
        if others is not None and others[0]:
            raise Conflict(
                f"{others[0]} other session(s) are connected to the database: stop crewline"
                " (every replica) before restoring",
                code="database_in_use",
            )
        current = schema_version(conn)
        if current > version:
            raise Conflict(
                f"the database is at schema version {current}, newer than the backup's"
                f" {version}: restore into an empty database",
                code="database_newer",
            )
        _run(
            [tool, "--clean", "--if-exists", "--no-owner", "--no-privileges",
             "--single-transaction", "--exit-on-error", str(source)],
            url,
            failure="restore_failed",
        )  # fmt: skip
        counted = conn.execute("SELECT count(*) FROM escalations").fetchone()
    return PgBackupReport(
        path=source,
        schema_version=version,
        escalations=int(counted[0]) if counted else 0,
        size=source.stat().st_size,
    )


# ---------------------------------------------------------------------------------------
def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise Unavailable(
            f"backing up or restoring a PostgreSQL database needs {name}, which is not"
            f" installed here: {_INSTALL}",
            code=f"{name}_missing",
        )
    return found


def _tool_problem(name: str, server_major: int) -> str | None:
    """Why ``name`` cannot serve this server (missing, or older: it refuses newer
    servers), or None."""
    found = shutil.which(name)
    if found is None:
        return f"{name} is not installed: {_INSTALL}"
    try:
        done = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{name} does not run ({error})"
    match = re.search(r"(\d+)(?:\.\d+)?", done.stdout)
    if done.returncode != 0 or match is None:
        return f"{name} does not run: {_first_line(done.stderr or done.stdout)}"
    if int(match.group(1)) < server_major:
        return (
            f"{name} {match.group(1)} cannot dump a PostgreSQL {server_major} server: install"
            f" postgresql-client-{server_major}"
        )
    return None


@contextmanager
def _connect(url: str) -> Iterator[Connection[tuple[Any, ...]]]:
    psycopg = _psycopg()

    try:
        conn = psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.OperationalError as error:
        raise Unavailable(
            f"cannot connect to the database: {_first_line(str(error))}",
            code="database_unreachable",
        ) from None
    with conn:
        yield conn


def schema_version(conn: Connection[Any]) -> int:
    """The schema version a database records; 0 for one crewline has not created yet."""
    exists = conn.execute("SELECT to_regclass('crewline_schema')").fetchone()
    if exists is None or exists[0] is None:
        return 0
    row = conn.execute("SELECT version FROM crewline_schema").fetchone()
    return int(row[0]) if row else 0


def _dump_version(tool: str, source: Path) -> int:
    """The schema version inside a custom-format dump; InvalidInput(not_a_backup) when the
    file is not a whole crewline dump."""
    listed = subprocess.run(
        [tool, "--list", str(source)], capture_output=True, text=True, timeout=_TOOL_TIMEOUT
    )
    tables = set(re.findall(r" TABLE (?:DATA )?\S+ (\w+) ", listed.stdout))
    if listed.returncode != 0 or not tables >= set(_REQUIRED_TABLES):
        raise InvalidInput(f"{source} is not a crewline PostgreSQL backup", code="not_a_backup")
    data = subprocess.run(
        [tool, "--data-only", "--table=crewline_schema", "--file=-", str(source)],
        capture_output=True,
        text=True,
        timeout=_TOOL_TIMEOUT,
    )
    found = re.search(r"^COPY \S*crewline_schema .*?;\n(\d+)\n", data.stdout, re.M)
    if data.returncode != 0 or found is None:
        raise InvalidInput(f"{source} holds no crewline schema version", code="not_a_backup")
    return int(found.group(1))


def _run(command: list[str], url: str, *, failure: str) -> None:
    """Run a client tool against ``url``, the password in its environment only."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(url)
    password = params.pop("password", None)
    params.setdefault("connect_timeout", CONNECT_TIMEOUT)
    env = {**os.environ}
    if password is not None:
        env["PGPASSWORD"] = str(password)
    target = f"--dbname={make_conninfo('', **params)}"
    done = subprocess.run(
        [command[0], target, *command[1:]],
        capture_output=True,
        text=True,
        env=env,
        timeout=_TOOL_TIMEOUT,
    )
    if done.returncode != 0:
        detail = _first_line(done.stderr) if done.stderr else f"exit status {done.returncode}"
        if password:
            detail = detail.replace(str(password), "***")
        raise Unavailable(f"{Path(command[0]).name} failed: {detail}", code=failure)


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as error:  # the driver is an extra: say which, as open_store does
        raise ConfigError(
            "a postgresql:// database needs psycopg: pip install 'crewline[postgresql]'",
            key="database",
        ) from error
    return psycopg


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else text.strip()
