"""A first run, as a new user makes it: the CLI as a subprocess, crewline over HTTP.

With nothing configured crewline serves the local inbox and says where; a platform's token
alone enables it; a member bound to a transport that is not running is refused (or, with
--force, warned about at start); and an escalation's reply says per transport what really
became of its card. On each store (``cli_store``: SQLite in the data directory, then a fresh
PostgreSQL database through $CREWLINE_DATABASE_URL); what reads only the configuration runs
on SQLite alone.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.errors import TransientTransportError
from crewline.transports import MemoryTransport
from crewline.transports.outbox import BEHIND_POST_WAITERS, MAX_POST_WAITERS
from tests.fakes.slack import FakeSlack

CREWLINE = [sys.executable, "-m", "crewline"]
ESCALATE = "/api/session-control/escalate"
WAIT = 30.0
_PLATFORM_VARIABLES = ("CREWLINE_", "SLACK_", "TELEGRAM_", "DISCORD_")
_STORE = "CREWLINE_DATABASE_URL"  # set by cli_store on PostgreSQL

pytestmark = pytest.mark.usefixtures("cli_store")


def clean_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a machine where nothing of crewline is configured but the store
    the test runs on."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(_PLATFORM_VARIABLES) or k == _STORE
    }
    return {**env, "CREWLINE_DATA_DIR": str(data_dir), **extra}


def run(
    *args: str, data_dir: Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CREWLINE, *args],
        capture_output=True,
        text=True,
        env=dict(env or clean_env(data_dir)),
        check=False,
        timeout=60,
    )


def add_radar(data_dir: Path, *transport_args: str) -> subprocess.CompletedProcess[str]:
    return run(
        "member",
        "add",
        "radar",
        "--name",
        "Radar",
        "--owner",
        "local:owner",
        *transport_args,
        data_dir=data_dir,
    )


@dataclass
class Served:
    url: str
    lines: list[str]  # what `crewline serve` printed at start, after the URL line


@asynccontextmanager
async def serving(
    data_dir: Path, env: Mapping[str, str], *args: str, lines: int
) -> AsyncIterator[Served]:
    """``crewline serve --port 0 ARGS…`` until the block ends; ``lines``: how many it prints
    after its URL line at start (one per transport, one per warning)."""
    process = await asyncio.create_subprocess_exec(
        *CREWLINE,
        "serve",
        "--port",
        "0",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=dict(env),
    )
    try:
        assert process.stdout is not None
        async with asyncio.timeout(2 * WAIT):  # a start, on a loaded machine, is slow
            first = (await process.stdout.readline()).decode()
            said = [(await process.stdout.readline()).decode().rstrip() for _ in range(lines)]
        url = re.search(r"http://127\.0\.0\.1:\d+", first)
        assert url is not None, first
        yield Served(url=url.group(0), lines=said)
    finally:
        process.terminate()
        async with asyncio.timeout(WAIT):
            assert await process.wait() == 0


async def test_serve_with_nothing_configured_serves_the_local_inbox_and_says_where(
    tmp_path: Path,
) -> None:
    """No transports, no tokens: the inbox answers at the printed URL, and a local member's
    escalation reports its card on local (shown in the inbox when it says delivered)."""
    key = add_radar(tmp_path, "--transport", "local").stdout.splitlines()[-1]
    async with serving(tmp_path, clean_env(tmp_path), lines=1) as served:
        assert served.lines == [
            f"transport local at {served.url}/: enabled (built in; on while transports is not set)"
        ]
        async with httpx.AsyncClient(base_url=served.url, timeout=WAIT) as client:
            page = await client.get("/")
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
            reply = await client.post(
                ESCALATE,
                json={"message": "Ship it?", "options": ["yes", "no"]},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert reply.status_code == 200, reply.text
            body = reply.json()
            assert body["routed_to"] == {"member": "radar", "transports": ["local"]}
            assert body["delivery"]["local"] in ("queued", "delivered")
            assert not body["note"].startswith("Delivered")
            thread = await client.get("/inbox/threads/radar")
            assert thread.status_code == 200, thread.text
            if body["delivery"]["local"] == "delivered":  # then it is there already
                assert "Ship it?" in thread.text


async def test_a_platform_token_alone_enables_the_platform_and_start_says_why(
    tmp_path: Path,
) -> None:
    """SLACK_BOT_TOKEN (with its secret) and no transports list: Slack connects, and the
    start says it was enabled because the token is set."""
    async with FakeSlack() as fake:
        env = clean_env(
            tmp_path,
            SLACK_BOT_TOKEN=fake.bot_token,
            SLACK_SIGNING_SECRET=fake.signing_secret,
            SLACK_API_URL=fake.api_url,
        )
        async with serving(tmp_path, env, lines=2) as served:
            assert served.lines[1] == "transport slack: enabled (SLACK_BOT_TOKEN is set)"
            assert fake.calls_to("auth.test"), "Slack was not asked who the bot is"


@pytest.mark.sqlite_only("reads the environment, not the store")
def test_a_token_without_the_rest_of_its_settings_says_why_it_was_enabled(
    tmp_path: Path,
) -> None:
    """SLACK_BOT_TOKEN alone enables Slack, which then needs its signing secret: serve stops
    with exit 2, naming the token that enabled it and the setting that is missing."""
    result = run(
        "serve", "--port", "0", data_dir=tmp_path, env=clean_env(tmp_path, SLACK_BOT_TOKEN="xoxb-1")
    )
    assert result.returncode == 2
    assert result.stderr.startswith(
        "crewline: slack is enabled (SLACK_BOT_TOKEN is set), but: Slack in HTTP mode needs"
        " the signing secret"
    )


@pytest.mark.sqlite_only("reads the environment, not the store")
async def test_a_named_transports_list_still_decides(tmp_path: Path) -> None:
    """CREWLINE_TRANSPORTS=local with a Slack token set runs the inbox alone."""
    env = clean_env(tmp_path, SLACK_BOT_TOKEN="xoxb-unused", CREWLINE_TRANSPORTS="local")
    async with serving(tmp_path, env, lines=1) as served:
        assert served.lines == [
            f"transport local at {served.url}/: enabled (named in CREWLINE_TRANSPORTS)"
        ]


def test_member_add_refuses_an_unknown_transport_naming_the_known_ones(tmp_path: Path) -> None:
    """`--transport slak` exits 2 with the known names; nothing is written."""
    refused = add_radar(tmp_path, "--transport", "slak")
    assert refused.returncode == 2
    assert "unknown transport 'slak'" in refused.stderr
    assert "known: local, slack, telegram, discord)" in refused.stderr
    assert "(unknown_transport)" in refused.stderr
    assert run("member", "list", data_dir=tmp_path).stdout == ""


@pytest.mark.sqlite_only("reads the environment, not the store")
def test_an_unknown_transport_in_the_configuration_stops_every_command(tmp_path: Path) -> None:
    """A typo in CREWLINE_TRANSPORTS is refused by name before anything runs."""
    result = run(
        "member", "list", data_dir=tmp_path, env=clean_env(tmp_path, CREWLINE_TRANSPORTS="slak")
    )
    assert result.returncode == 2 and "unknown transport 'slak'" in result.stderr


async def test_binding_ahead_of_configuring_needs_force_and_is_warned_at_start(
    tmp_path: Path,
) -> None:
    """A member bound to an unconfigured transport is refused, listing the configured ones;
    --force binds it, and every start then warns, naming the member."""
    refused = add_radar(tmp_path, "--transport", "slack")
    assert refused.returncode == 2
    assert "slack is not configured here (configured: local)" in refused.stderr
    assert "(transport_not_configured)" in refused.stderr
    assert run("member", "list", data_dir=tmp_path).stdout == ""

    forced = add_radar(tmp_path, "--transport", "slack", "--force")
    assert forced.returncode == 0, forced.stderr
    assert "warning: slack not configured here yet" in forced.stdout
    async with serving(tmp_path, clean_env(tmp_path), lines=2) as served:
        assert served.lines[1] == (
            "warning: member radar is bound to slack, which is not configured here;"
            " its cards wait in the outbox until it is"
        )


# --- what an escalation's reply says about its card, per transport ------------------------------


@asynccontextmanager
async def running(
    tmp_path: Path, transport: MemoryTransport, *, delivery_wait: float, database: str | None
) -> AsyncIterator[tuple[Crewline, str]]:
    """crewline over ``transport`` with a member bound to it and to slack (not running), on
    the store ``database`` names (None: SQLite in the data directory)."""
    config = Config(data_dir=tmp_path / "data", port=0, transports=(), database_url=database)
    async with Crewline(config, transports=[transport], delivery_wait=delivery_wait) as crewline:
        created = await crew_admin.add_member(
            crewline.store,
            slug="radar",
            name="Radar",
            owners=["memory:alice"],
            transports=["memory", "slack"],
        )
        yield crewline, created.key


async def escalate(crewline: Crewline, key: str, **extra: object) -> dict[str, object]:
    async with httpx.AsyncClient(base_url=crewline.url, timeout=WAIT) as client:
        response = await client.post(
            ESCALATE,
            json={"message": "Deploy?", "deadline": "PT30M", "default_action": "deploy", **extra},
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


async def test_the_reply_says_delivered_once_the_platform_accepted_the_card(
    tmp_path: Path, cli_store: str | None
) -> None:
    """A card the platform took within the wait is `delivered`; a transport that is not
    running is `not_configured`, and the note says so in words."""
    transport = MemoryTransport("memory")
    async with running(tmp_path, transport, delivery_wait=WAIT, database=cli_store) as (
        crewline,
        key,
    ):
        body = await escalate(crewline, key)
    assert body["delivery"] == {"memory": "delivered", "slack": "not_configured"}
    assert transport.cards("radar"), "the platform has no card, yet the reply said delivered"
    note = str(body["note"])
    assert "shown on memory" in note and "not shown on slack" in note
    assert "Delivered" not in note


async def test_the_reply_says_queued_while_the_platform_has_not_accepted_it(
    tmp_path: Path, cli_store: str | None
) -> None:
    """A platform that keeps failing leaves the card `queued` (never `delivered`)."""
    transport = MemoryTransport("memory")
    transport.fail_next(TransientTransportError("platform down"), times=1000)
    async with running(tmp_path, transport, delivery_wait=0.2, database=cli_store) as (
        crewline,
        key,
    ):
        body = await escalate(crewline, key)
        assert transport.cards("radar") == []
    assert body["delivery"] == {"memory": "queued", "slack": "not_configured"}
    assert "queued for memory (not shown yet" in str(body["note"])


async def test_an_agent_that_asks_not_to_wait_is_told_queued_at_once(
    tmp_path: Path, cli_store: str | None
) -> None:
    """`wait_for_delivery: false`: the reply does not wait for the platform — here one that
    keeps failing, which would hold a waiting reply for the whole 30-s wait — and says
    `queued`, in words too."""
    transport = MemoryTransport("memory")
    transport.fail_next(TransientTransportError("platform down"), times=1000)
    async with running(tmp_path, transport, delivery_wait=WAIT, database=cli_store) as (
        crewline,
        key,
    ):
        async with asyncio.timeout(WAIT / 2):  # far less than the wait it did not take
            body = await escalate(crewline, key, wait_for_delivery=False)
        assert transport.cards("radar") == []
    assert body["delivery"] == {"memory": "queued", "slack": "not_configured"}
    assert "queued for memory (in its outbox; not waited for, as you asked)" in str(body["note"])


async def test_a_card_not_waited_for_is_sent_all_the_same(
    tmp_path: Path, cli_store: str | None
) -> None:
    """Not waiting changes the reply only: the outbox posts the card."""
    transport = MemoryTransport("memory")
    async with running(tmp_path, transport, delivery_wait=WAIT, database=cli_store) as (
        crewline,
        key,
    ):
        body = await escalate(crewline, key, wait_for_delivery=False)
        await crewline.outboxes["memory"].wait_idle(timeout=WAIT)
        assert ["Deploy?" in card.current.text for card in transport.cards("radar")] == [True]
    assert body["delivery"] == {"memory": "queued", "slack": "not_configured"}


# --- the edge of the command line -----------------------------------------------------------------


def test_a_busy_port_is_one_line_and_exit_status_3(tmp_path: Path) -> None:
    """serve on a port another process listens on says so in one line, no traceback."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--port", str(port), data_dir=tmp_path)
    assert result.returncode == 3
    assert result.stderr.splitlines()[-1] == (
        f"crewline: cannot listen on 127.0.0.1:{port}: the port is taken by another process"
        " (stop it, or choose another with --port or CREWLINE_PORT) (port_in_use)"
    )
    assert "Traceback" not in result.stderr


def test_admin_commands_are_quiet_unless_asked(
    tmp_path: Path, cli_store: str | None, request: pytest.FixtureRequest
) -> None:
    """member add logs nothing (its output is the answer); -v shows the INFO log (here: the
    migrations it applied to a new database)."""
    quiet = add_radar(tmp_path / "a", "--transport", "local")
    assert quiet.returncode == 0 and quiet.stderr == ""
    env, engine = clean_env(tmp_path / "b"), "sqlite"
    if cli_store is not None:  # a database of its own with nothing migrated yet
        env[_STORE], engine = request.getfixturevalue("postgres_empty_url"), "postgres"
    loud = run("member", "add", "pip", "--name", "Pip", "--owner", "local:owner",
               "--transport", "local", "-v", data_dir=tmp_path / "b", env=env)  # fmt: skip
    assert loud.returncode == 0, loud.stderr
    assert f"INFO crewline.store.{engine}: applying migration 013 baseline" in loud.stderr


@pytest.mark.sqlite_only("the outbox's waiters are in memory")
async def test_a_busy_outbox_answers_queued_at_once_instead_of_waiting(tmp_path: Path) -> None:
    """While MAX_POST_WAITERS replies already wait on a transport's posts, the next one is
    told `queued` without waiting: a busy outbox never slows every agent down. Only a
    caller that waits is told it does (``waiting``: the concierge then releases its card)."""
    transport = MemoryTransport("memory")
    transport.fail_next(TransientTransportError("platform down"), times=1000)
    told: list[str] = []
    async with running(tmp_path, transport, delivery_wait=WAIT, database=None) as (crewline, _):
        outbox = crewline.outboxes["memory"]
        waiting = [
            asyncio.create_task(
                outbox.wait_posted(
                    f"row:{n}", lane="radar", timeout=WAIT, waiting=partial(told.append, f"{n}")
                )
            )
            for n in range(MAX_POST_WAITERS)
        ]
        await asyncio.sleep(0)  # let each register: order, not timing
        assert not any(task.done() for task in waiting)
        assert told == [f"{n}" for n in range(MAX_POST_WAITERS)]
        async with asyncio.timeout(WAIT / 2):  # far less than the waiters' own wait
            late = partial(told.append, "late")
            assert (
                await outbox.wait_posted("row:late", lane="radar", timeout=WAIT, waiting=late)
                is False
            )
        assert "late" not in told
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)


async def test_an_outbox_behind_holds_one_reply_until_a_post_lands_again(
    tmp_path: Path, cli_store: str | None
) -> None:
    """A wait that ended without its post means the outbox is behind: then one reply waits
    (a probe) and the others are told `queued` at once, until a waited-for post lands."""
    transport = MemoryTransport("memory")
    async with running(tmp_path, transport, delivery_wait=WAIT, database=cli_store) as (
        crewline,
        key,
    ):
        outbox = crewline.outboxes["memory"]
        await outbox.wait_idle(timeout=WAIT)
        # The first two calls of each of the escalation's posts (its card among them) fail.
        transport.fail_next(TransientTransportError("platform down"), times=6)
        body = await escalate(crewline, key, wait_for_delivery=False)
        record = await crewline.store.escalation(str(body["escalation_id"]))
        assert record is not None
        card = f"row:{record.row_id}"
        # Its first attempt failed: a short wait ends without the post.
        assert await outbox.wait_posted(card, lane="radar", timeout=0.01) is False
        assert transport.cards("radar") == [], "precondition: the card is not posted yet"

        probe = asyncio.create_task(outbox.wait_posted(card, lane="radar", timeout=WAIT))
        await asyncio.sleep(0)  # let it register: order, not timing
        assert not probe.done() and BEHIND_POST_WAITERS == 1
        async with asyncio.timeout(WAIT / 2):  # far less than its own wait
            assert await outbox.wait_posted("row:other", lane="radar", timeout=WAIT) is False
        assert await probe is True  # the retry posted the card: keeping up again
        assert len(transport.cards("radar")) == 1

        waiting = [
            asyncio.create_task(outbox.wait_posted(f"row:{n}", lane="radar", timeout=WAIT))
            for n in range(2)
        ]
        await asyncio.sleep(0)
        assert not any(task.done() for task in waiting), "two may wait again"
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)


# --- owners that exist ----------------------------------------------------------------------------


@pytest.mark.sqlite_only("refused before the store is opened")
@pytest.mark.parametrize(
    ("owner", "extra", "code", "reason"),
    [
        ("slak:U1", (), "invalid_owner", "'slak' is not a platform crewline knows"),
        ("local:someoneelse", (), "invalid_owner", "is not the local inbox's user"),
        ("telegram:alice", ("--force",), "invalid_owner", "'alice' is not a telegram user id"),
        ("discord:42", ("--force",), "invalid_owner", "'42' is not a discord user id"),
        ("slack:u1", ("--force",), "invalid_owner", "'u1' is not a slack user id"),
        ("slack:U012ABCDEF", (), "owner_not_configured", "on slack, which is not configured"),
    ],
)
def test_an_owner_nobody_can_be_is_refused_listing_the_shapes(
    tmp_path: Path, owner: str, extra: tuple[str, ...], code: str, reason: str
) -> None:
    """A mistyped platform, another inbox user, or an id of the wrong shape (even with
    --force) exits 2 naming the owners crewline accepts; an unconfigured platform needs
    --force. Nothing is written."""
    refused = run(
        "member", "add", "scout", "--name", "Scout", "--owner", owner,
        "--transport", "local", *extra, data_dir=tmp_path,
    )  # fmt: skip
    assert refused.returncode == 2, refused.stdout
    assert reason in refused.stderr and f"({code})" in refused.stderr
    if code == "invalid_owner":
        assert "an owner is one of: local:owner (the local inbox's user); slack:U… or" in (
            refused.stderr
        )
        assert "telegram:<an integer>" in refused.stderr and "discord:<a snowflake>" in (
            refused.stderr
        )
    assert "Traceback" not in refused.stderr
    assert run("member", "list", data_dir=tmp_path).stdout == ""


@pytest.mark.sqlite_only("refused or warned before the store is read")
def test_force_names_an_owner_ahead_of_configuring_the_platform_and_warns(
    tmp_path: Path,
) -> None:
    """--force accepts slack:U… before Slack is configured; bound only to the inbox, where
    that owner is nobody, the member is added with a warning that nobody can answer it."""
    added = run(
        "member", "add", "scout", "--name", "Scout", "--owner", "slack:U012ABCDEF",
        "--transport", "local", "--force", data_dir=tmp_path,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert (
        "warning: scout: its owner (slack:U012ABCDEF) is known on none of its transports"
        " (local): its cards can be shown there but never answered" in added.stdout
    )
