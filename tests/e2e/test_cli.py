"""The crewline command, run as a user runs it: a separate process per command, on each
store (``cli_store``: SQLite, then PostgreSQL through $CREWLINE_DATABASE_URL)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest

from crewline.store import postgres, sqlite
from tests.bounds import HTTP_TIMEOUT, WAIT

CREWLINE = [sys.executable, "-m", "crewline"]

pytestmark = pytest.mark.usefixtures("cli_store")


def run(*args: str, data_dir: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CREWLINE_DATA_DIR": str(data_dir)}
    return subprocess.run(
        [*CREWLINE, *args], capture_output=True, text=True, env=env, check=check, timeout=60
    )


def test_member_add_prints_the_key_alone_on_the_last_line(tmp_path: Path) -> None:
    """A script can take the key with tail -n 1; member list shows the member."""
    added = run(
        "member",
        "add",
        "radar",
        "--name",
        "Radar",
        "--owner",
        "local:owner",
        "--transport",
        "local",
        data_dir=tmp_path,
    )
    key = added.stdout.splitlines()[-1]
    assert re.fullmatch(r"crw_s_[A-Za-z0-9_-]{43}", key)
    listed = run("member", "list", data_dir=tmp_path).stdout.splitlines()
    assert listed[0].split() == ["MEMBER", "NAME", "NEEDS", "YOU", "OPEN", "TRANSPORTS"]
    assert listed[1].split() == ["radar", "Radar", "no", "0", "local"]


def test_sessions_and_the_owner_token_are_issued_once_each(tmp_path: Path) -> None:
    """session add and token print fresh secrets; a second token replaces the first."""
    run("member", "add", "radar", "--name", "Radar", "--owner", "local:owner", data_dir=tmp_path)
    worker = run("session", "add", "--member", "radar", "--kind", "worker", data_dir=tmp_path)
    assert worker.stdout.splitlines()[-1].startswith("crw_s_")
    first = run("token", data_dir=tmp_path).stdout.splitlines()[-1]
    second = run("token", data_dir=tmp_path).stdout.splitlines()[-1]
    assert first.startswith("crw_o_") and first != second


def test_bad_input_is_refused_with_a_message_and_code(tmp_path: Path) -> None:
    """A malformed slug or owner exits 2 with the reason in words; nothing is written."""
    bad_slug = run(
        "member",
        "add",
        "Not A Slug",
        "--name",
        "X",
        "--owner",
        "local:owner",
        data_dir=tmp_path,
        check=False,
    )
    assert bad_slug.returncode == 2 and "invalid_member_slug" in bad_slug.stderr
    bad_owner = run(
        "member", "add", "radar", "--name", "X", "--owner", "U1", data_dir=tmp_path, check=False
    )
    assert bad_owner.returncode == 2 and "PLATFORM:USER_ID" in bad_owner.stderr
    assert run("member", "list", data_dir=tmp_path).stdout == ""


@pytest.mark.sqlite_only("reads crewline.toml, not the store")
def test_a_bad_config_key_is_named_at_start(tmp_path: Path) -> None:
    """crewline.toml with a typo stops every command, naming the key."""
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "crewline.toml").write_text("prot = 8080\n")
    result = run("member", "list", data_dir=tmp_path, check=False)
    assert result.returncode == 2 and "'prot'" in result.stderr


def test_doctor_checks_and_reconciles(tmp_path: Path, cli_store: str | None) -> None:
    """doctor reports the schema, the index and the members; --reconcile re-derives."""
    run(
        "member",
        "add",
        "radar",
        "--name",
        "Radar",
        "--owner",
        "local:owner",
        "--transport",
        "local",
        data_dir=tmp_path,
    )
    report = run("doctor", "--reconcile", data_dir=tmp_path)
    latest = (sqlite if cli_store is None else postgres).migrations()[-1].version
    assert f"ok   database schema at version {latest} (latest {latest})" in report.stdout
    assert "ok   escalation index readable" in report.stdout
    assert "reconciled radar" in report.stdout


@pytest.mark.sqlite_only("passes --database itself, beside the SQLite default")
def test_doctor_checks_and_reconciles_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    """--database postgresql://… chooses PostgresStore for every command, doctor included."""
    database = ("--database", postgres_url)
    run("member", "add", "radar", "--name", "Radar", "--owner", "local:owner", *database,
        data_dir=tmp_path)  # fmt: skip
    assert not (tmp_path / "crewline.db").exists()
    report = run("doctor", "--reconcile", *database, data_dir=tmp_path)
    latest = postgres.migrations()[-1].version
    assert "ok   database postgresql://" in report.stdout
    assert f"ok   database schema at version {latest} (latest {latest})" in report.stdout
    assert "reconciled radar" in report.stdout
    listed = run("member", "list", data_dir=tmp_path).stdout  # the SQLite default: empty
    assert listed == ""


@pytest.mark.sqlite_only("makes a PostgreSQL role of its own")
def test_doctor_says_what_to_run_when_the_role_may_not_create_unaccent(
    tmp_path: Path, postgres_url: str
) -> None:
    """A database without the unaccent extension (which the baseline creates, where the
    role may) and a role without CREATE on it: doctor fails, naming the SQL a superuser
    runs; once it has run, the finding is gone."""
    import psycopg

    # A role is the cluster's, not the database's: a name of its own, dropped after, so no
    # other test of this worker's cluster finds it taken.
    role = f"doctor_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute("DROP EXTENSION unaccent")
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"GRANT SELECT ON crewline_schema TO {role}")
    try:
        as_role = ("--database", postgres_url.replace("://crewline@", f"://{role}@"))
        refused = run("doctor", *as_role, data_dir=tmp_path, check=False)
        assert refused.returncode == 1
        assert "may not create the unaccent extension" in refused.stdout
        assert "`CREATE EXTENSION unaccent;`" in refused.stdout
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("CREATE EXTENSION unaccent")
        assert "unaccent" not in run("doctor", *as_role, data_dir=tmp_path, check=False).stdout
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f"DROP OWNED BY {role}")  # its grant here, so the role can go
            admin.execute(f"DROP ROLE {role}")


async def test_serve_listens_on_loopback_and_answers_healthz(tmp_path: Path) -> None:
    """crewline serve --port 0 prints its URL on 127.0.0.1 and serves the API."""
    process = await asyncio.create_subprocess_exec(
        *CREWLINE,
        "serve",
        "--port",
        "0",
        "--data-dir",
        str(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        assert process.stdout is not None
        async with asyncio.timeout(WAIT):
            line = (await process.stdout.readline()).decode()
        url = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert url is not None, line
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
            response = await client.get(f"{url.group(0)}/healthz")
        assert response.json() == {"status": "ok"}
    finally:
        process.terminate()
        async with asyncio.timeout(WAIT):
            assert await process.wait() == 0


async def test_a_member_added_while_stopped_is_shown_at_start_without_a_failed_send(
    tmp_path: Path,
) -> None:
    """The roster queued by `member add` is sent once the inbox has started, so a start logs
    no failed send (it used to try the stopped transport first: "roster failed")."""
    (tmp_path / "crewline.toml").write_text('transports = ["local"]\n')
    for slug in ("quill", "pip"):
        run(
            "member", "add", slug, "--name", slug.title(), "--owner", "local:owner",
            "--transport", "local", data_dir=tmp_path,
        )  # fmt: skip
        shown, logged = await _serve_until_the_roster_shows(tmp_path, slug.title())
        assert slug.title() in shown
        assert "failed" not in logged and "WARNING" not in logged, logged


async def _serve_until_the_roster_shows(data_dir: Path, name: str) -> tuple[list[str], str]:
    """Run `crewline serve` until the inbox's roster names ``name``; its names and its log."""
    process = await asyncio.create_subprocess_exec(
        *CREWLINE,
        "serve",
        "--port",
        "0",
        "--data-dir",
        str(data_dir),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        async with asyncio.timeout(WAIT):
            line = (await process.stdout.readline()).decode()
        url = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert url is not None, line
        async with httpx.AsyncClient(base_url=url.group(0)) as client:
            await client.get("/")  # opens the inbox session
            async with asyncio.timeout(WAIT):
                while True:
                    names = [
                        m["name"] for m in (await client.get("/inbox/state")).json()["members"]
                    ]
                    if name in names:
                        break
                    await asyncio.sleep(0.05)
    finally:
        process.terminate()
        async with asyncio.timeout(WAIT):
            assert await process.wait() == 0
    assert process.stderr is not None
    return names, (await process.stderr.read()).decode()


def test_member_key_issues_a_new_key_for_a_member(tmp_path: Path) -> None:
    """`member key` prints a new key alone on the last line; an unknown member is refused."""
    added = run(
        "member", "add", "radar", "--name", "Radar", "--owner", "local:owner", data_dir=tmp_path
    )
    first = added.stdout.strip().splitlines()[-1]
    issued = run("member", "key", "radar", data_dir=tmp_path)
    second = issued.stdout.strip().splitlines()[-1]
    assert second != first and len(second) == len(first)
    unknown = run("member", "key", "ghost", data_dir=tmp_path, check=False)
    assert unknown.returncode != 0 and "ghost" in unknown.stderr
