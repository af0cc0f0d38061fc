"""Backup and restore of the SQLite database, and the lock that tells a restore a server runs.

A backup uses SQLite's online backup API in one step: it reads one consistent snapshot
under a WAL read lock, so a server may keep writing meanwhile. Everything committed before
the backup began is in the copy; what commits during it is not, and nothing is half in.

A restore must not pull the database from under a running server. Every server holds an
``flock`` on ``crewline.lock`` in the data directory for as long as it serves
(``crewline.serving_lock``); a restore takes the same lock exclusively, without waiting,
and refuses when it cannot. The kernel drops the lock when its holder dies, even by
SIGKILL, so a crash leaves no stale lock behind. While a restore holds it, a server refuses
to start.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path

from crewline.errors import ConfigError, Conflict, InvalidInput
from crewline.serving_lock import restore_lock
from crewline.store import schema
from crewline.store.sqlite import DATABASE_NAME, migrations

__all__ = ["BackupReport", "backup", "restore"]

_REQUIRED_TABLES = frozenset({"members", "escalations", "rows"})


@dataclass(frozen=True, kw_only=True, slots=True)
class BackupReport:
    """What was copied: the file, its schema version and how many escalations it holds."""

    path: Path
    schema_version: int
    escalations: int
    size: int


def backup(data_dir: Path, destination: Path) -> BackupReport:
    """Copy the live database to ``destination`` (a new file), consistent while serving."""
    source_path = data_dir / DATABASE_NAME
    if not source_path.is_file():
        raise InvalidInput(f"there is no database to back up at {source_path}", code="no_database")
    if destination.exists():
        raise Conflict(f"{destination} already exists; back up to a new file", code="backup_exists")
    if not destination.parent.is_dir():
        raise InvalidInput(f"{destination.parent} is not a directory", code="invalid_path")
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    try:
        source.execute("PRAGMA busy_timeout = 5000")
        target = sqlite3.connect(partial)
        try:
            source.backup(target)  # pages=-1: the whole database in one step, one snapshot
            target.execute("PRAGMA journal_mode = DELETE")  # a single file, nothing beside it
            report = _inspect(target, destination)
        finally:
            target.close()
    finally:
        source.close()
    os.replace(partial, destination)  # only a complete copy ever carries the name
    return replace(report, size=destination.stat().st_size)


def restore(data_dir: Path, source_path: Path) -> BackupReport:
    """Replace the database with a backup; refused while a server holds the data directory."""
    if not source_path.is_file():
        raise InvalidInput(f"there is no backup at {source_path}", code="no_backup")
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    try:
        report = _inspect(source, source_path)
        with restore_lock(data_dir):
            target = sqlite3.connect(data_dir / DATABASE_NAME)
            try:
                target.execute("PRAGMA busy_timeout = 5000")
                source.backup(target)  # through the target's own journal: its WAL stays valid
            finally:
                target.close()
    finally:
        source.close()
    return report


def _inspect(conn: sqlite3.Connection, path: Path) -> BackupReport:
    """A crewline database, whole, of a schema this version can open."""
    try:
        (check,) = conn.execute("PRAGMA quick_check").fetchone()
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        (version,) = conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise InvalidInput(
            f"{path} is not a crewline database ({error})", code="not_a_backup"
        ) from None
    if check != "ok" or not tables >= _REQUIRED_TABLES:
        raise InvalidInput(f"{path} is not a whole crewline database", code="not_a_backup")
    latest = migrations()[-1].version
    if version > latest:
        raise InvalidInput(
            f"{path} is at schema version {version}, newer than this crewline's {latest}",
            code="backup_too_new",
        )
    try:
        schema.adopt("sqlite", version, where=str(path))
    except ConfigError as error:  # crewline would refuse to open it
        raise InvalidInput(error.message, code=error.code) from None
    (escalations,) = conn.execute("SELECT count(*) FROM escalations").fetchone()
    size = path.stat().st_size if path.is_file() else 0
    return BackupReport(path=path, schema_version=version, escalations=escalations, size=size)
