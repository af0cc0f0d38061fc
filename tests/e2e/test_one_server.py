"""One server per SQLite data directory, and a server that follows the command line.

A second ``crewline serve`` (or ``crewline demo``) on a directory a server holds is refused
at once, naming the first; a SIGKILLed server's lock is taken over by the next. And the
crew written by ``crewline member add`` / ``member remove`` in another process while a
server runs reaches that server — ``GET /api/members``, the inbox's roster, its bell and
the removed member's cards — without a restart (on SQLite and on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from crewline.app.server import Crewline
from crewline.config import Config
from crewline.transports.local import LocalTransport
from crewline.transports.local.render import state_json
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.serving import CREWLINE, crewline_serve

ESCALATE = "/api/session-control/escalate"


def env_for(data_dir: Path) -> dict[str, str]:
    """This machine's environment with only crewline's data directory (and store) set."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("CREWLINE_")}
    if os.environ.get("CREWLINE_DATABASE_URL"):
        kept["CREWLINE_DATABASE_URL"] = os.environ["CREWLINE_DATABASE_URL"]
    return {**kept, "CREWLINE_DATA_DIR": str(data_dir)}


def run(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CREWLINE, *args],
        capture_output=True,
        text=True,
        env=env_for(data_dir),
        check=False,
        timeout=WAIT,
    )


async def arun(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(run, *args, data_dir=data_dir)


async def ready(url: str) -> int:
    async with httpx.AsyncClient(base_url=url, timeout=HTTP_TIMEOUT) as client:
        return (await client.get("/readyz")).status_code


async def test_a_second_server_on_one_sqlite_directory_is_refused_and_a_killed_ones_lock_is_taken_over(  # noqa: E501
    tmp_path: Path,
) -> None:
    """serve B on A's directory exits 3 at once with one line naming A's PID and URL
    (``data_dir_in_use``), and so does a demo, which writes nothing there; once A is
    SIGKILLed, the next serve takes the directory and is ready."""
    env = env_for(tmp_path)
    env.pop("CREWLINE_DATABASE_URL", None)  # the rule is SQLite's: replicas share PostgreSQL
    async with crewline_serve(env=env) as (first, url):
        assert await ready(url) == 200
        refused = await asyncio.to_thread(
            subprocess.run,
            [*CREWLINE, "serve", "--port", "0"],
            capture_output=True, text=True, env=env, check=False, timeout=WAIT,
        )  # fmt: skip
        assert refused.returncode == 3, refused.stderr
        assert refused.stderr.splitlines()[-1] == (
            f"crewline: crewline is already serving from {tmp_path} (PID {first.pid}, {url}):"
            " one server per data directory. Stop it first, or give this one a data"
            " directory of its own (--data-dir) (data_dir_in_use)"
        )
        assert "Traceback" not in refused.stderr and refused.stdout == ""

        demo = await asyncio.to_thread(
            subprocess.run,
            [*CREWLINE, "demo", "--data-dir", str(tmp_path), "--port", "0", "--no-browser"],
            capture_output=True, text=True, env=env, check=False, timeout=WAIT,
        )  # fmt: skip
        assert demo.returncode == 3, demo.stderr
        assert "(data_dir_in_use)" in demo.stderr and str(first.pid) in demo.stderr
        listed = await asyncio.to_thread(
            subprocess.run,
            [*CREWLINE, "member", "list"],
            capture_output=True, text=True, env=env, check=True, timeout=WAIT,
        )  # fmt: skip
        assert "radar" not in listed.stdout, "the refused demo wrote its crew"

        first.send_signal(signal.SIGKILL)
        assert await first.wait() == -signal.SIGKILL
        async with crewline_serve(env=env) as (_, next_url):
            assert await ready(next_url) == 200


async def wait_for(condition: Callable[[], Any], what: str) -> None:
    """Until ``condition()`` (possibly a coroutine) is true, within the shared bound."""
    async with asyncio.timeout(WAIT):
        while True:
            result = condition()
            if asyncio.iscoroutine(result):
                result = await result
            if result:
                return
            await asyncio.sleep(0.05)  # a look, not a wait for time to pass: bounded above
    raise AssertionError(what)


async def test_member_add_and_remove_from_the_command_line_reach_a_running_server(
    tmp_path: Path, cli_store: str | None
) -> None:
    """While crewline serves (its outbox polling only once an hour, so nothing is found
    by luck), `crewline member add` shows the member in GET /api/members and on the
    inbox's roster; `member remove` takes it off both, takes its bell away, and leaves its
    open card settled without buttons."""
    config = Config(data_dir=tmp_path, port=0, database_url=cli_store)
    added = await arun(
        "member", "add", "radar", "--name", "Radar", "--owner", "local:owner",
        "--transport", "local", data_dir=tmp_path,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    token = (await arun("token", data_dir=tmp_path)).stdout.splitlines()[-1]
    async with (
        Crewline(config, outbox_poll_interval=3600) as running,
        httpx.AsyncClient(
            base_url=running.url,
            timeout=HTTP_TIMEOUT,
            headers={"Authorization": f"Bearer {token}"},
        ) as owner,
    ):
        inbox = running.transport("local")
        assert isinstance(inbox, LocalTransport)

        def page() -> dict[str, Any]:
            return state_json(inbox.view, user=inbox.user)

        def on_page() -> set[str]:
            return {m["slug"] for m in page()["members"]}

        async def listed() -> set[str]:
            response = await owner.get("/api/members")
            assert response.status_code == 200, response.text
            return {m["slug"] for m in response.json()["members"]}

        await wait_for(lambda: on_page() == {"radar"}, "radar is not on the roster")
        scout = await arun(
            "member", "add", "scout", "--name", "Scout", "--owner", "local:owner",
            "--transport", "local", data_dir=tmp_path,
        )  # fmt: skip
        assert scout.returncode == 0, scout.stderr
        assert await listed() == {"radar", "scout"}
        await wait_for(lambda: on_page() == {"radar", "scout"}, "scout never reached the roster")

        key = scout.stdout.splitlines()[-1]
        escalated = await owner.post(
            ESCALATE,
            json={"message": "Ship it?", "options": ["yes", "no"]},
            headers={"Authorization": f"Bearer {key}"},
        )
        assert escalated.status_code == 200, escalated.text

        def card() -> dict[str, Any] | None:
            shown = inbox.view.thread_messages("scout")
            return next(({"buttons": m.current.buttons} for m in shown if m.key), None)

        await wait_for(lambda: (c := card()) is not None and c["buttons"], "no live card")
        await wait_for(
            lambda: any(b["member"] == "scout" for b in page()["bells"]), "scout rang no bell"
        )

        removed = await arun("member", "remove", "scout", data_dir=tmp_path)
        assert removed.returncode == 0, removed.stderr
        assert await listed() == {"radar"}
        await wait_for(lambda: on_page() == {"radar"}, "scout stays on the roster")
        assert not [b for b in page()["bells"] if b["member"] == "scout"]
        await wait_for(lambda: card() == {"buttons": ()}, "scout's card keeps live buttons")
        assert any(
            "Withdrawn" in m.current.text for m in inbox.view.thread_messages("scout") if m.key
        )


@pytest.mark.sqlite_only("the inbox's journal is a file beside SQLite's; one start suffices")
async def test_a_member_removed_while_crewline_was_stopped_is_off_the_page_at_start(
    tmp_path: Path,
) -> None:
    """The inbox's journal still holds a removed member's thread: the next start takes it
    off the page."""
    config = Config(data_dir=tmp_path, port=0)
    for slug in ("radar", "scout"):
        added = await arun(
            "member", "add", slug, "--name", slug.title(), "--owner", "local:owner",
            "--transport", "local", data_dir=tmp_path,
        )  # fmt: skip
        assert added.returncode == 0, added.stderr
    async with Crewline(config) as running:
        inbox = running.transport("local")
        assert isinstance(inbox, LocalTransport)
        for slug in ("radar", "scout"):
            await inbox.open_thread(await running.hub.member(slug))
        shown = {m["slug"] for m in state_json(inbox.view, user=inbox.user)["members"]}
        assert shown == {"radar", "scout"}
    assert (await arun("member", "remove", "scout", data_dir=tmp_path)).returncode == 0
    async with Crewline(config) as running:
        inbox = running.transport("local")
        assert isinstance(inbox, LocalTransport)
        shown = {m["slug"] for m in state_json(inbox.view, user=inbox.user)["members"]}
        assert "scout" not in shown and "scout" in inbox.view.threads


def test_the_lock_file_names_the_serving_process(tmp_path: Path) -> None:
    """What a refused second server reads: JSON with the PID and the URL."""
    from crewline.serving_lock import ServingLock, holder_of

    with ServingLock(tmp_path) as lock:
        lock.announce("http://127.0.0.1:1")
        holder = holder_of(tmp_path)
        assert holder is not None
        assert (holder.role, holder.pid, holder.url) == ("serve", os.getpid(), "http://127.0.0.1:1")
    assert holder_of(tmp_path) is None, "a stopped server's words stay in the file"


async def test_keys_tokens_sessions_and_the_policy_from_the_command_line_reach_a_running_server(
    tmp_path: Path, cli_store: str | None
) -> None:
    """While crewline serves: `member key` — the new key works and the old one is refused;
    `session add` — its key works; `token` — the new owner token works and the old one is
    refused; `concierge answer routine` — the server's policy is routine."""
    config = Config(data_dir=tmp_path, port=0, database_url=cli_store)
    added = await arun(
        "member", "add", "radar", "--name", "Radar", "--owner", "local:owner",
        "--transport", "local", data_dir=tmp_path,
    )  # fmt: skip
    old_key = added.stdout.splitlines()[-1]
    old_token = (await arun("token", data_dir=tmp_path)).stdout.splitlines()[-1]
    async with (
        Crewline(config) as running,
        httpx.AsyncClient(base_url=running.url, timeout=HTTP_TIMEOUT) as client,
    ):

        async def status(path: str, key: str) -> int:
            answer = await client.get(path, headers={"Authorization": f"Bearer {key}"})
            return answer.status_code

        assert await status("/api/session", old_key) == 200, "precondition: the key works"
        new_key = (await arun("member", "key", "radar", data_dir=tmp_path)).stdout.splitlines()[-1]
        assert (await status("/api/session", new_key), await status("/api/session", old_key)) == (
            200,
            401,
        )
        worker = await arun(
            "session", "add", "--member", "radar", "--kind", "worker", data_dir=tmp_path
        )
        assert await status("/api/session", worker.stdout.splitlines()[-1]) == 200

        assert await status("/api/members", old_token) == 200, "precondition: the token works"
        new_token = (await arun("token", data_dir=tmp_path)).stdout.splitlines()[-1]
        assert (
            await status("/api/members", new_token),
            await status("/api/members", old_token),
        ) == (
            200,
            401,
        )
        policy = await client.get(
            "/api/concierge/policy", headers={"Authorization": f"Bearer {new_token}"}
        )
        assert policy.json()["answer"] == "never", "precondition: the default policy"
        assert (await arun("concierge", "answer", "routine", data_dir=tmp_path)).returncode == 0
        policy = await client.get(
            "/api/concierge/policy", headers={"Authorization": f"Bearer {new_token}"}
        )
        assert policy.json()["answer"] == "routine"
