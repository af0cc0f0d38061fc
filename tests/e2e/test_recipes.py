"""The recipes in docs/agents/ run: each example in examples/ against a real crewline, the
way its doc says to run it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.driver import Crew
from tests.e2e.agent_cli import finish, started
from tests.harness import Shown

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures" / "claude_code"
BIN = str(Path(sys.executable).parent)


def agent_env(crew: Crew, key: str) -> dict[str, str]:
    """The environment the docs set: the key and URL, and ``crewline`` on the PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREWLINE_")}
    return {
        **env,
        "CREWLINE_SESSION_KEY": key,
        "CREWLINE_URL": crew.url,
        "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
    }


async def spawn(*command: str, env: dict[str, str], stdin: bool = False) -> Any:
    process = await asyncio.create_subprocess_exec(
        *command,
        env=env,
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE if stdin else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    return started(process)


async def card(crew: Crew, text: str) -> Shown:
    harness = crew.harness

    def found() -> list[Shown]:
        return [m for m in harness.messages("radar") if text in m.text and m.buttons]

    await harness.wait_until(lambda: bool(found()))
    return found()[0]


async def rows(crew: Crew) -> list[str]:
    return [r.text for r in await crew.crewline.store.live_rows("radar")]


async def test_the_python_example_escalates_and_hears_the_answer(
    crew: Crew, tmp_path: Path
) -> None:
    """examples/python_agent.py: escalate, read events from a cursor file, post the answer."""
    key = await crew.add_member()
    cursor = tmp_path / "cursor"
    agent = await spawn(
        sys.executable, str(EXAMPLES / "python_agent.py"), str(cursor), env=agent_env(crew, key)
    )
    await crew.harness.press("radar", await card(crew, "Merge it?"), 0)
    ran = await finish(agent)
    assert ran.code == 0, ran.err
    assert ran.out.splitlines()[-1] == "answer: merge"
    assert (await rows(crew))[-1] == "Got it: merge."
    assert int(cursor.read_text()) > 0


async def test_the_shell_example_waits_for_the_answer(crew: Crew) -> None:
    """examples/shell_agent.sh: post, escalate --wait, act on the answer."""
    key = await crew.add_member()
    agent = await spawn("sh", str(EXAMPLES / "shell_agent.sh"), env=agent_env(crew, key))
    await crew.harness.press("radar", await card(crew, "Retry it?"), 0)
    ran = await finish(agent)
    assert (ran.code, ran.out) == (0, "retry\n"), ran.err
    thread = await rows(crew)
    assert thread[0] == "Nightly build: the integration tests failed on arm64."
    assert thread[-1] == "Understood: retry."


def _settings_command(event: str) -> str:
    settings = json.loads((EXAMPLES / "claude-code" / "settings.json").read_text())
    [group] = settings["hooks"][event]
    [hook] = group["hooks"]
    assert hook["type"] == "command"
    command: str = hook["command"]
    return command


async def test_the_claude_code_permission_hook_from_settings_json(crew: Crew) -> None:
    """The PermissionRequest hook as settings.json declares it, run through a shell."""
    key = await crew.add_member()
    hook = await spawn(
        "sh", "-c", _settings_command("PermissionRequest"), env=agent_env(crew, key), stdin=True
    )
    stdin = (FIXTURES / "permission_request_bash.json").read_bytes()
    finishing = asyncio.create_task(finish(hook, stdin=stdin))
    await crew.harness.press("radar", await card(crew, "Claude Code asks to use Bash."), 0)
    ran = await finishing
    decided = json.loads(ran.out)["hookSpecificOutput"]
    assert decided["decision"] == {"behavior": "allow"}


async def test_the_claude_code_stop_hook_posts_done(crew: Crew) -> None:
    """The Stop hook of settings.json posts its line to the member's thread."""
    key = await crew.add_member()
    stop = json.dumps({"hook_event_name": "Stop", "session_id": "s", "stop_hook_active": False})
    hook = await spawn("sh", "-c", _settings_command("Stop"), env=agent_env(crew, key), stdin=True)
    ran = await finish(hook, stdin=stop.encode())
    assert ran.code == 0, ran.err
    assert await rows(crew) == ["Claude Code finished its turn."]


def _expand(value: Any, env: dict[str, str]) -> Any:
    """Claude Code's ${VAR} and ${VAR:-default} expansion in .mcp.json."""
    if isinstance(value, dict):
        return {k: _expand(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v, env) for v in value]
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: env.get(m[1]) or (m[2] or ""), str(value))


async def test_both_servers_of_the_mcp_json_answer(crew: Crew) -> None:
    """The stdio entry (crewline mcp) and the HTTP entry (/mcp) each escalate."""
    key = await crew.add_member()
    env = agent_env(crew, key)
    servers = _expand(
        json.loads((EXAMPLES / "claude-code" / ".mcp.json").read_text())["mcpServers"], env
    )
    stdio = servers["crewline"]
    params = StdioServerParameters(
        command=stdio["command"], args=stdio["args"], env={**env, **stdio["env"]}
    )
    async with Client(params, read_timeout_seconds=30) as client:
        over_stdio = await client.call_tool("session_escalate", {"message": "from stdio"})
    http = servers["crewline-http"]
    async with (
        httpx2.AsyncClient(headers=http["headers"], timeout=30) as session,
        Client(streamable_http_client(http["url"], http_client=session)) as client,
    ):
        over_http = await client.call_tool("session_escalate", {"message": "from http"})
    assert not over_stdio.is_error and not over_http.is_error
    assert await rows(crew) == ["from stdio", "from http"]
