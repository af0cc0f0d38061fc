"""crewline backup, restore and doctor on a PostgreSQL database, run as a user runs them.

Backups are pg_dump's custom format of one exported snapshot; a restore replaces the data
with pg_restore in one transaction and refuses while anyone else is connected; without the
client tools both refuse with a code that says what to install. The doctor connects with a
bounded timeout and creates nothing.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from crewline.models import Escalation, RowRole
from crewline.store.postgres import PostgresStore
from crewline.store.postgres import migrations as pg_migrations

# Each test runs the CLI as processes of its own (backup, restore, status), each a Python
# start-up: seconds idle, a minute when the machine is loaded — past the default 120 s.
pytestmark = pytest.mark.timeout(600)

CREWLINE = [sys.executable, "-m", "crewline"]
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def run(
    *args: str, data_dir: Path, database: str, path: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "CREWLINE_DATA_DIR": str(data_dir),
        "CREWLINE_DATABASE_URL": database,
        "CREWLINE_LOG_LEVEL": "WARNING",
    }
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [*CREWLINE, *args], capture_output=True, text=True, env=env, check=False, timeout=120
    )


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    made = tmp_path / "data"
    made.mkdir(mode=0o700)
    return made


@pytest.fixture
def second_database(postgres_server: str) -> Iterator[str]:
    """Another empty database on the same cluster, to restore into."""
    name = f"restored{os.getpid()}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield postgres_server.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _members(data_dir: Path, database: str) -> list[str]:
    listed = run("member", "list", data_dir=data_dir, database=database)
    assert listed.returncode == 0, listed.stderr
    header, *rows = listed.stdout.splitlines() or [""]
    assert not rows or header.split()[0] == "MEMBER", listed.stdout
    return [row.split()[0] for row in rows]


def _add(data_dir: Path, database: str, slug: str) -> None:
    added = run("member", "add", slug, "--name", slug.title(), "--owner", "local:owner",
                data_dir=data_dir, database=database)  # fmt: skip
    assert added.returncode == 0, added.stderr


def test_a_backup_restores_the_database_as_it_was(
    data_dir: Path, postgres_url: str, tmp_path: Path
) -> None:
    """Backup, change, restore: the change is gone, and everything the concierge's search
    needs (its text-search configuration, its triggers) came back with the data."""
    _add(data_dir, postgres_url, "radar")
    dump = tmp_path / "crewline.dump"
    made = run("backup", str(dump), data_dir=data_dir, database=postgres_url)
    assert made.returncode == 0, made.stderr
    latest = pg_migrations()[-1].version
    assert f"with pg_dump: schema version {latest}, 0 escalations" in made.stdout
    assert dump.stat().st_mode & 0o077 == 0
    _add(data_dir, postgres_url, "probe")
    assert _members(data_dir, postgres_url) == ["radar", "probe"]

    restored = run("restore", str(dump), data_dir=data_dir, database=postgres_url)
    assert restored.returncode == 0, restored.stderr
    assert f"with pg_restore: schema version {latest}" in restored.stdout
    assert _members(data_dir, postgres_url) == ["radar"]

    async def search() -> list[str]:
        async with PostgresStore(postgres_url) as store:
            await store.write(
                lambda tx: tx.append_row(
                    conversation="radar",
                    role=RowRole.MEMBER,
                    author="Radar",
                    text="staging port 4321",
                    meta={},
                    now=NOW,
                )
            )
            return [r.text for r in await store.fleet_rows(["port"], excluding="probe")]

    assert asyncio.run(search()) == ["staging port 4321"]


async def test_a_backup_taken_under_writes_holds_exactly_what_it_reports(
    data_dir: Path, postgres_url: str, second_database: str, tmp_path: Path
) -> None:
    """Escalations keep committing while pg_dump runs; the dump restored elsewhere holds
    exactly the count the backup reported (one snapshot), and at least every escalation
    committed before the backup started."""
    await asyncio.to_thread(_add, data_dir, postgres_url, "radar")
    dump = tmp_path / "crewline.dump"
    record = Escalation(id="e", member="radar", row_id="r", session="s", message="?",
                        created_at=NOW)  # fmt: skip
    async with PostgresStore(postgres_url) as store:
        written = 0
        stop, started = asyncio.Event(), asyncio.Event()

        async def writer() -> None:
            nonlocal written
            while not stop.is_set():
                one = replace(record, id=f"e{written}", row_id=f"r{written}")
                await store.write(lambda tx, one=one: tx.put_escalation(one))
                written += 1
                if written == 20:
                    started.set()

        task = asyncio.create_task(writer())
        async with asyncio.timeout(60):  # the backup starts with records already committed
            await started.wait()
        before = written
        made = await asyncio.to_thread(
            run, "backup", str(dump), data_dir=data_dir, database=postgres_url
        )
        stop.set()
        await task
    assert made.returncode == 0, made.stderr
    reported = int(made.stdout.split(" escalations")[0].rsplit(" ", 1)[1])
    assert before <= reported <= written
    restored = await asyncio.to_thread(
        run, "restore", str(dump), data_dir=data_dir, database=second_database
    )
    assert restored.returncode == 0, restored.stderr
    with psycopg.connect(second_database) as conn:
        counted = conn.execute("SELECT count(*) FROM escalations").fetchone()
    assert counted is not None and counted[0] == reported
    assert f"{reported} escalations" in restored.stdout


async def test_a_restore_refuses_while_a_crewline_is_connected(
    data_dir: Path, postgres_url: str, tmp_path: Path
) -> None:
    """A serving store holds connections: the restore refuses and changes nothing."""
    await asyncio.to_thread(_add, data_dir, postgres_url, "radar")
    dump = tmp_path / "crewline.dump"
    made = await asyncio.to_thread(
        run, "backup", str(dump), data_dir=data_dir, database=postgres_url
    )
    assert made.returncode == 0, made.stderr
    await asyncio.to_thread(_add, data_dir, postgres_url, "probe")
    async with PostgresStore(postgres_url) as serving:
        refused = await asyncio.to_thread(
            run, "restore", str(dump), data_dir=data_dir, database=postgres_url
        )
        assert [m.slug for m in await serving.members()] == ["radar", "probe"]
    assert refused.returncode == 2
    assert "(database_in_use)" in refused.stderr and "stop crewline" in refused.stderr


def test_without_the_client_tools_backup_and_restore_refuse_and_say_what_to_install(
    data_dir: Path, postgres_url: str, tmp_path: Path
) -> None:
    """PATH without pg_dump/pg_restore: a clear code, the package to install, no file."""
    _add(data_dir, postgres_url, "radar")
    empty = tmp_path / "bin"
    empty.mkdir()
    dump = tmp_path / "crewline.dump"
    made = run("backup", str(dump), data_dir=data_dir, database=postgres_url, path=str(empty))
    assert made.returncode == 2
    assert "(pg_dump_missing)" in made.stderr and "postgresql-client" in made.stderr
    assert not dump.exists() and not dump.with_name("crewline.dump.partial").exists()
    dump.write_bytes(b"PGDMP")
    loaded = run("restore", str(dump), data_dir=data_dir, database=postgres_url, path=str(empty))
    assert loaded.returncode == 2
    assert "(pg_restore_missing)" in loaded.stderr and "postgresql-client" in loaded.stderr
    assert _members(data_dir, postgres_url) == ["radar"]


def test_a_backup_never_overwrites_and_a_restore_takes_only_a_crewline_dump(
    data_dir: Path, postgres_url: str, tmp_path: Path
) -> None:
    """An existing destination is refused; a file that is no dump is refused; nothing
    changes either time."""
    _add(data_dir, postgres_url, "radar")
    taken = tmp_path / "taken"
    taken.write_text("mine")
    made = run("backup", str(taken), data_dir=data_dir, database=postgres_url)
    assert (made.returncode, "(backup_exists)" in made.stderr) == (2, True)
    assert taken.read_text() == "mine"
    loaded = run("restore", str(taken), data_dir=data_dir, database=postgres_url)
    assert (loaded.returncode, "(not_a_backup)" in loaded.stderr) == (2, True)
    assert _members(data_dir, postgres_url) == ["radar"]


def test_doctor_names_an_unreachable_server_without_the_password(data_dir: Path) -> None:
    """A server that is not there is one failed line, fast, with the password masked."""
    unreachable = "postgresql://crewline:hunter2@127.0.0.1:1/crewline"
    report = run("doctor", data_dir=data_dir, database=unreachable)
    assert report.returncode == 1, report.stderr
    assert "BAD  database postgresql://crewline:***@127.0.0.1:1/crewline unreachable" in (
        report.stdout
    )
    assert report.stdout.rstrip().endswith("(database_unreachable)")
    assert "hunter2" not in report.stdout + report.stderr
    assert "Traceback" not in report.stderr


def test_doctor_finds_an_empty_database_and_leaves_it_empty(
    data_dir: Path, postgres_empty_url: str
) -> None:
    """No crewline data is a failed check, not a new installation: nothing is created."""
    report = run("doctor", data_dir=data_dir, database=postgres_empty_url)
    assert report.returncode == 1
    assert "BAD  no crewline data in postgresql://" in report.stdout
    assert "crewline backup can use pg_dump" in report.stdout
    with psycopg.connect(postgres_empty_url) as conn:
        found = conn.execute("SELECT to_regclass('crewline_schema')").fetchone()
    assert found is not None and found[0] is None
    _add(data_dir, postgres_empty_url, "radar")
    healthy = run("doctor", data_dir=data_dir, database=postgres_empty_url)
    assert "ok   database postgresql://" in healthy.stdout and "(PostgreSQL " in healthy.stdout
    latest = pg_migrations()[-1].version
    assert f"ok   database schema at version {latest} (latest {latest})" in healthy.stdout


def test_a_sqlite_url_naming_another_file_is_not_backed_up_from_the_data_directory(
    data_dir: Path, tmp_path: Path
) -> None:
    """backup copies the data directory's database: a --database naming another file is
    refused (it would copy a file the server does not use) and nothing is written."""
    elsewhere = f"sqlite://{tmp_path / 'other.db'}"
    _add(data_dir, elsewhere, "radar")
    made = run("backup", str(tmp_path / "b.db"), data_dir=data_dir, database=elsewhere)
    assert (made.returncode, "(invalid_config)" in made.stderr) == (2, True)
    assert "point --data-dir at its directory" in made.stderr
    assert not (tmp_path / "b.db").exists()
