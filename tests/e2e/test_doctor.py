"""`crewline doctor` asks the real world: each platform's fake is asked as the platform
would be, over loopback at the transport's configured API base URL; the CLI runs as a
separate process. What involves the database runs on each store (``cli_store``: SQLite, then
PostgreSQL through $CREWLINE_DATABASE_URL); the platform checks on SQLite alone."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from crewline.models import Escalation
from crewline.store.open import open_store
from tests.fakes.discord import FakeDiscord
from tests.fakes.slack import FakeSlack
from tests.fakes.telegram import FakeTelegram

CREWLINE = [sys.executable, "-m", "crewline"]
_PLATFORM_VARIABLES = ("CREWLINE_", "SLACK_", "TELEGRAM_", "DISCORD_")
_STORE = "CREWLINE_DATABASE_URL"  # set by cli_store on PostgreSQL
_PLATFORM_ONLY = "asks the platform; the store is the SQLite run's"

pytestmark = pytest.mark.usefixtures("cli_store")


@dataclass
class Ran:
    status: int
    stdout: str
    stderr: str

    def checks(self) -> dict[str, dict[str, Any]]:
        return {c["check"]: c for c in json.loads(self.stdout)["checks"]}


async def crewline(data_dir: Path, *args: str, **env: str) -> Ran:
    """Run the CLI without blocking the loop the platform fakes answer on."""
    base = {
        k: v for k, v in os.environ.items() if not k.startswith(_PLATFORM_VARIABLES) or k == _STORE
    }
    process = await asyncio.create_subprocess_exec(
        *CREWLINE,
        *args,
        "--data-dir",
        str(data_dir),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**base, **env},
    )
    async with asyncio.timeout(60):
        out, err = await process.communicate()
    assert process.returncode is not None
    return Ran(status=process.returncode, stdout=out.decode(), stderr=err.decode())


@asynccontextmanager
async def installed(tmp_path: Path) -> AsyncIterator[Path]:
    """A data directory with a database and one member, as `member add` leaves it."""
    data_dir = tmp_path / "data"
    added = await crewline(
        data_dir, "member", "add", "radar", "--name", "Radar", "--owner", "local:owner"
    )
    assert added.status == 0, added.stderr
    yield data_dir


async def test_a_missing_data_directory_is_an_error_and_nothing_is_created(
    tmp_path: Path,
) -> None:
    """doctor --data-dir /typo exits 1 naming the directory, and does not create it."""
    typo = tmp_path / "typo"
    ran = await crewline(typo, "doctor")
    assert ran.status == 1
    assert f"BAD  the data directory {typo} does not exist" in ran.stdout
    assert not typo.exists()
    assert (await crewline(typo, "doctor", "--json")).checks()["data_dir"]["status"] == "fail"


@pytest.mark.sqlite_only(_PLATFORM_ONLY)
async def test_doctor_asks_slack_and_fails_on_a_token_slack_refuses(tmp_path: Path) -> None:
    """A well-formed but unknown Slack token passes configuration yet fails auth.test; the
    real token passes, with the workspace and the latency."""
    async with installed(tmp_path) as data_dir, FakeSlack() as fake:
        slack = {"SLACK_SIGNING_SECRET": fake.signing_secret, "SLACK_API_URL": fake.api_url}
        fake_token = await crewline(
            data_dir, "doctor", SLACK_BOT_TOKEN="xoxb-0000-not-a-real-token", **slack
        )
        assert fake_token.status == 1
        assert "BAD  slack refused the bot token: invalid_auth (auth.test)" in fake_token.stdout
        assert "xoxb-0000-not-a-real-token" not in fake_token.stdout + fake_token.stderr
        real = await crewline(data_dir, "doctor", "--json", SLACK_BOT_TOKEN=fake.bot_token, **slack)
        assert real.status == 0, real.stdout
        probe = real.checks()["transport:slack"]
        assert (probe["status"], probe["team"]) == ("ok", "Crewline Fake")
        assert isinstance(probe["latency_ms"], int)
        assert real.checks()["enabled:slack"]["detail"] == (
            "transport slack enabled (SLACK_BOT_TOKEN is set)"
        )
        assert len(fake.calls_to("auth.test")) == 2


@pytest.mark.sqlite_only(_PLATFORM_ONLY)
async def test_doctor_asks_telegram_for_the_bot(tmp_path: Path) -> None:
    """getMe with the configured token: the bot's name when known, 401 refused otherwise."""
    async with installed(tmp_path) as data_dir, FakeTelegram() as fake:
        real = await crewline(
            data_dir, "doctor", TELEGRAM_BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url
        )
        assert real.status == 0, real.stdout
        assert "ok   telegram: bot @" in real.stdout
        wrong = await crewline(
            data_dir, "doctor", TELEGRAM_BOT_TOKEN="123:wrong", TELEGRAM_API_URL=fake.base_url
        )
        assert wrong.status == 1
        assert "BAD  telegram refused the bot token: Unauthorized (getMe)" in wrong.stdout
        assert "123:wrong" not in wrong.stdout


@pytest.mark.sqlite_only(_PLATFORM_ONLY)
async def test_doctor_asks_discord_for_the_application_and_the_crew_channel(
    tmp_path: Path,
) -> None:
    """The application answers to the token, and the crew channel must be in the server."""
    async with installed(tmp_path) as data_dir, FakeDiscord() as fake:
        discord = {
            "DISCORD_BOT_TOKEN": fake.token,
            "DISCORD_GUILD_ID": str(fake.guild_id),
            "DISCORD_API_URL": fake.api_base,
        }
        real = await crewline(
            data_dir, "doctor", "--json", DISCORD_CHANNEL_ID=str(fake.crew_channel_id), **discord
        )
        assert real.status == 0, real.stdout
        checks = real.checks()
        assert checks["transport:discord"]["application"] == "crewline"
        assert checks["transport:discord:channel"]["channel"] == "crew"
        missing = await crewline(
            data_dir, "doctor", DISCORD_CHANNEL_ID="123456789012345678", **discord
        )
        assert missing.status == 1
        assert "BAD  discord: the crew channel 123456789012345678 cannot be read" in missing.stdout
        bad_token = await crewline(
            data_dir,
            "doctor",
            **{**discord, "DISCORD_BOT_TOKEN": "not-the-token"},
            DISCORD_CHANNEL_ID=str(fake.crew_channel_id),
        )
        assert bad_token.status == 1
        assert "BAD  discord refused the bot token" in bad_token.stdout


@pytest.mark.sqlite_only(_PLATFORM_ONLY)
async def test_an_unreachable_platform_fails_with_where_it_was_looked_for(
    tmp_path: Path,
) -> None:
    """A Slack API URL where nothing listens is reported unreachable, naming the URL."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    async with installed(tmp_path) as data_dir:
        ran = await crewline(
            data_dir,
            "doctor",
            SLACK_BOT_TOKEN="xoxb-1",
            SLACK_SIGNING_SECRET="s",
            SLACK_API_URL=f"http://127.0.0.1:{port}/api/",
        )
    assert ran.status == 1
    assert f"BAD  slack unreachable at http://127.0.0.1:{port}/api/auth.test" in ran.stdout


async def test_doctor_reports_the_outbox_dead_letters_late_windows_and_loose_files(
    tmp_path: Path, cli_store: str | None
) -> None:
    """An entry waiting an hour, a dead letter, a window past due and (on SQLite) a
    world-readable database are each reported as warnings (they do not fail the check)."""
    async with installed(tmp_path) as data_dir:
        long_ago = datetime.now(UTC) - timedelta(hours=1)
        async with open_store(cli_store, data_dir) as store:

            def fill(tx: Any) -> None:
                tx.enqueue(
                    transport="local", lane="radar", op="post", object_key="row:x", now=long_ago
                )
                dead = tx.enqueue(
                    transport="local", lane="radar", op="post", object_key="row:y", now=long_ago
                )
                tx.bury_outbox(dead, error="forbidden", now=long_ago)
                tx.put_escalation(
                    Escalation(
                        id="e" * 16,
                        member="radar",
                        row_id="r1",
                        session="s",
                        message="Deploy?",
                        deadline=long_ago,
                        created_at=long_ago - timedelta(minutes=5),
                    )
                )

            await store.write(fill)
        if cli_store is None:
            (data_dir / "crewline.db").chmod(0o644)
        ran = await crewline(data_dir, "doctor", "--json")
    assert ran.status == 0, ran.stdout
    checks = ran.checks()
    assert json.loads(ran.stdout)["ok"] is True
    assert (checks["outbox:local"]["status"], checks["outbox:local"]["pending"]) == ("warn", 1)
    assert checks["outbox:local"]["oldest_seconds"] >= 3600
    assert (checks["dead_letters:local"]["status"], checks["dead_letters:local"]["dead"]) == (
        "warn",
        1,
    )
    assert (checks["windows"]["status"], checks["windows"]["past_due"]) == ("warn", 1)
    if cli_store is None:
        assert checks["permissions"]["status"] == "warn"
        assert f"{data_dir / 'crewline.db'} (chmod 600)" in checks["permissions"]["loose"]
    else:  # the data in PostgreSQL, and the data directory as member add made it
        assert checks["permissions"]["status"] == "ok"
        assert checks["database"]["detail"].startswith("database postgresql://")


async def test_doctor_flags_a_member_whose_owner_can_never_answer(tmp_path: Path) -> None:
    """A member bound to the inbox but owned by a Slack user (added with --force) is one
    failed line naming it and why; the member owned by the inbox's user is fine."""
    async with installed(tmp_path) as data_dir:
        forced = await crewline(
            data_dir, "member", "add", "scout", "--name", "Scout", "--owner",
            "slack:U012ABCDEF", "--transport", "local", "--force",
        )  # fmt: skip
        assert forced.status == 0, forced.stderr
        ran = await crewline(data_dir, "doctor", "--json")
    assert ran.status == 1, ran.stdout
    checks = ran.checks()
    assert "owner:radar" not in checks, "radar has no transport, so nothing waits on it"
    assert checks["owner:scout"]["status"] == "fail"
    assert checks["owner:scout"]["detail"].startswith(
        "member scout: its owner (slack:U012ABCDEF) is known on none of its transports (local)"
    )
