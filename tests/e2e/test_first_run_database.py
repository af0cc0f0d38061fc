"""A first run on PostgreSQL, as a new user makes it: ``--database postgresql://…`` on each
command, the CLI as a subprocess. A server that cannot be reached, a database that is not
there and a role the server refuses each stop every command in one line with a stable code
(exit 2, no traceback, the password masked, nothing created); a role that may connect but
not create crewline's tables is refused the same way, naming what the server said.
"""

from __future__ import annotations

import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.e2e.test_first_run import ESCALATE, WAIT, clean_env, run, serving


@pytest.fixture
def nowhere() -> str:
    """A PostgreSQL URL, with a password, on a loopback port where nothing listens."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    return f"postgresql://crewline:hunter2@127.0.0.1:{port}/crewline"


def _refused(result: subprocess.CompletedProcess[str], code: str) -> str:
    """The line a refused command ended with, after checking how it ended (serve logs at
    INFO before it: the migrations it began)."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    assert "psycopg.pool" not in result.stderr, result.stderr  # no retries, each a warning
    line = result.stderr.splitlines()[-1]
    assert line.startswith("crewline: ") and line.endswith(f" ({code})"), line
    return line


def test_a_database_that_cannot_be_reached_is_one_line_with_its_code(
    tmp_path: Path, nowhere: str, postgres_server: str
) -> None:
    """serve and member add on a server that is not there, member list on a database the
    server does not have: exit 2 with `database_unreachable` and libpq's reason, the
    password masked, and no data directory made; doctor says the same in its JSON."""
    data_dir = tmp_path / "data"
    masked = nowhere.replace(":hunter2@", ":***@")
    for command in (("serve", "--port", "0"), ("member", "add", "radar", "--name", "Radar",
                                              "--owner", "local:owner")):  # fmt: skip
        line = _refused(run(*command, "--database", nowhere, data_dir=data_dir),
                        "database_unreachable")  # fmt: skip
        assert line.startswith(f"crewline: cannot connect to the database {masked}: ")
        assert "Connection refused" in line and "hunter2" not in line
    missing = postgres_server.rsplit("/", 1)[0] + "/no_such_database"
    line = _refused(run("member", "list", "--database", missing, data_dir=data_dir),
                    "database_unreachable")  # fmt: skip
    assert 'database "no_such_database" does not exist' in line
    assert not (data_dir / "crewline.db").exists()
    data_dir.mkdir(exist_ok=True)  # serve made it, to hold its lock: doctor looks further
    doctor = run("doctor", "--json", "--database", missing, data_dir=data_dir)
    assert doctor.returncode == 1 and "Traceback" not in doctor.stderr
    assert '"code": "database_unreachable"' in doctor.stdout


@pytest.fixture
def plain_role(postgres_server: str) -> Iterator[str]:
    """A role that may log in and nothing more (its name). Asked for before the test's
    database, so it is dropped after that database is, with what was granted to it there."""
    name = f"plain_{uuid.uuid4().hex[:12]}"  # a role is the cluster's: a name of its own
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {name} LOGIN")
    yield name
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"DROP ROLE {name}")


def test_a_role_that_may_not_create_the_tables_is_refused_in_one_line(
    tmp_path: Path, plain_role: str, postgres_empty_url: str
) -> None:
    """A database crewline's role does not own (PostgreSQL 15: no CREATE on `public`): member
    add says what the server refused (`migration_refused`, exit 2); nothing is created."""
    as_role = postgres_empty_url.replace("://crewline@", f"://{plain_role}@")
    line = _refused(
        run("member", "add", "radar", "--name", "Radar", "--owner", "local:owner",
            "--database", as_role, data_dir=tmp_path / "data"),
        "migration_refused",
    )  # fmt: skip
    assert f"the database {as_role} refused crewline's role: permission denied" in line
    with psycopg.connect(postgres_empty_url) as conn:
        found = conn.execute("SELECT to_regclass('crewline_schema')").fetchone()
    assert found is not None and found[0] is None


def test_a_role_that_may_not_create_unaccent_is_told_what_a_superuser_runs(
    tmp_path: Path, plain_role: str, postgres_empty_url: str
) -> None:
    """A new database where crewline's role may create tables but not extensions: serve
    stops with `migration_refused` naming the SQL a superuser runs, and applies nothing."""
    with psycopg.connect(postgres_empty_url, autocommit=True) as admin:
        admin.execute(f"GRANT CREATE ON SCHEMA public TO {plain_role}")
    as_role = postgres_empty_url.replace("://crewline@", f"://{plain_role}@")
    line = _refused(
        run("serve", "--port", "0", "--database", as_role, data_dir=tmp_path / "data"),
        "migration_refused",
    )
    assert "crewline needs the unaccent extension" in line
    assert "a superuser runs CREATE EXTENSION unaccent;" in line
    with psycopg.connect(postgres_empty_url) as conn:
        found = conn.execute("SELECT to_regclass('crewline_schema')").fetchone()
    assert found is not None and found[0] is None


async def test_a_new_user_adds_checks_and_serves_with_database_on_each_command(
    tmp_path: Path, postgres_empty_url: str
) -> None:
    """On a data directory that does not exist yet: member add creates crewline's tables
    (and the data directory, as on SQLite), doctor then finds nothing wrong, and serve
    answers an escalation with the truth about its card."""
    data_dir, database = tmp_path / "data", ("--database", postgres_empty_url)
    added = run("member", "add", "radar", "--name", "Radar", "--owner", "local:owner",
                "--transport", "local", *database, data_dir=data_dir)  # fmt: skip
    assert added.returncode == 0, added.stderr
    key = added.stdout.splitlines()[-1]
    assert data_dir.is_dir() and not (data_dir / "crewline.db").exists()
    doctor = run("doctor", *database, data_dir=data_dir)
    assert doctor.returncode == 0, doctor.stdout
    assert "ok   database postgresql://" in doctor.stdout
    async with (
        serving(data_dir, clean_env(data_dir), *database, lines=1) as served,
        httpx.AsyncClient(base_url=served.url, timeout=WAIT) as client,
    ):
        reply = await client.post(
            ESCALATE,
            json={"message": "Ship it?", "options": ["yes", "no"]},
            headers={"Authorization": f"Bearer {key}"},
        )
    assert reply.status_code == 200, reply.text
    assert reply.json()["delivery"]["local"] in ("queued", "delivered")
    assert not reply.json()["note"].startswith("Delivered")
