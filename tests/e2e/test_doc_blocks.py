"""Every block of README.md and docs/agents/*.md, taken from the files themselves, so the
docs cannot rot.

Every fenced block is either **run as written** (``RUN``) or **listed** with the reason it
cannot be (``NOT_RUN``: it needs Claude Code, pipx or Docker, it is the whole suite or a
server that runs until stopped, or it is a synopsis of placeholders);
``test_every_block_is_run_or_listed`` fails on a block that is neither, so a new block
cannot slip past.

- **Run as written**, in page order (README.md, then docs/agents/ alphabetically) against one
  real ``crewline serve`` on a fresh data directory whose ``crewline.toml`` is the webhook
  page's own ``[webhooks]`` block. Shell blocks run as steps of one terminal session (what a
  block exports, the later ones see); Python programs run as programs; the Claude Code
  page's ``.mcp.json`` servers and hook commands run as Claude Code would start them; the
  human answers through the owner's API. What a page shows as an answer (a JSON reply, a
  delivery) is compared with the answer the run got. The reader's substitutions are the
  only ones made: the docs' ``127.0.0.1:8765`` is the test server's address (tests never
  take a fixed port, so the receiver's ``--port 8900`` is ``--port 0``), the ``crw_s_…``
  placeholder is the key ``member add`` printed, and the variables a page names without
  setting (``$RADAR_KEY``, ``$WEBHOOK_SECRET``) hold what the page says they hold.
- **Checked** (every shell and Python block, the run ones too): shell blocks are parsed by
  ``bash -n``; every ``crewline`` command in them is parsed by crewline's own argument
  parser, or, written with placeholders (``…``, ``MESSAGE``, ``[--option A …]``), its
  subcommand must exist and every option it names must be one of that subcommand's;
  ``make`` targets must be in the Makefile. Python blocks are compiled.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import hmac
import io
import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from crewline.app.cli import _parser
from crewline.push.webhooks import sign
from crewline.store import Store
from crewline.store.open import open_store
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.e2e.agent_cli import finish, started
from tests.serving import crewline_serve

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs" / "agents").glob("*.md"))]
SHELL = frozenset({"sh", "bash", "shell"})
PYTHON = frozenset({"python", "py"})
DOCS_ADDRESS = "127.0.0.1:8765"
BIN = str(Path(sys.executable).parent)  # where `crewline` is installed beside this Python
FIXTURES = ROOT / "tests" / "fixtures" / "claude_code"  # Claude Code's hook events

# Blocks run as written, by their document and first line (each must match one block).
README_EXPORTS = ("README.md", "export CREWLINE_URL=http://127.0.0.1:8765")
README_PROGRAM = ("README.md", "import asyncio", "Migrations are ready. Deploy?")
README_ESCALATE = ("README.md", 'curl -s "$CREWLINE_URL/api/session-control/escalate" \\')
README_ESCALATED = ("README.md", '{"escalation_id": ', '"routed_to"')  # compared
README_EVENTS = ("README.md", 'curl -s "$CREWLINE_URL/api/session/events?after=0&wait=30"')
CLAUDE_EXPORTS = ("docs/agents/claude-code.md", "export CREWLINE_SESSION_KEY=crw_s_…")
CLAUDE_MCP_JSON = ("docs/agents/claude-code.md", "{", '"mcpServers"')
CLAUDE_PERMISSION_HOOK = ("docs/agents/claude-code.md", "{", '"PermissionRequest"')
CLAUDE_STOP_HOOK = ("docs/agents/claude-code.md", "{", '"Stop"')
PYTHON_PAGE_PROGRAM = ("docs/agents/python.md", "import asyncio", "Merge it?")
WEBHOOK_REGISTER = (
    "docs/agents/webhooks.md",
    "curl -s -X PUT http://127.0.0.1:8765/api/session/webhook",
)
WEBHOOK_REGISTERED = ("docs/agents/webhooks.md", '{"url": "https://agent.example.org/crewline"')
WEBHOOK_NETWORKS = ("docs/agents/webhooks.md", "[webhooks]")  # the server's crewline.toml
WEBHOOK_DELIVERY = ("docs/agents/webhooks.md", "POST /crewline HTTP/1.1")  # compared
WEBHOOK_VERIFY = ("docs/agents/webhooks.md", "expected = hmac.new(")
WEBHOOK_RECEIVER = ("docs/agents/webhooks.md", "export CREWLINE_URL=http://127.0.0.1:8765 ")
RUN = (
    README_EXPORTS, README_PROGRAM, README_ESCALATE, README_ESCALATED, README_EVENTS,
    CLAUDE_EXPORTS, CLAUDE_MCP_JSON, CLAUDE_PERMISSION_HOOK, CLAUDE_STOP_HOOK,
    PYTHON_PAGE_PROGRAM,
    WEBHOOK_REGISTER, WEBHOOK_REGISTERED, WEBHOOK_NETWORKS, WEBHOOK_DELIVERY, WEBHOOK_VERIFY,
    WEBHOOK_RECEIVER,
)  # fmt: skip

# Blocks that cannot run in a test, and why (each must match one block).
NEEDS_CLAUDE_CODE = (
    "needs Claude Code's `claude` command, which is no test dependency (and would change the"
    " user's Claude Code settings); the two servers it registers are the .mcp.json block's,"
    " which is run"
)
NOT_RUN = {
    ("README.md", "make demo"): (
        "`make demo` serves until stopped and `make test` is the whole suite; their targets"
        " are checked to exist, `crewline demo` is run by tests/e2e/test_demo.py"
    ),
    ("README.md", "pip wheel --no-deps -w dist ."): (
        "needs pipx, and a Docker daemon to build and start the image;"
        " tests/e2e/test_packaging.py builds the wheel and installs it in a clean virtualenv,"
        " and checks the Dockerfile and compose.yaml"
    ),
    ("README.md", "claude mcp add --transport stdio"): NEEDS_CLAUDE_CODE,
    ("docs/agents/claude-code.md", "claude mcp add --transport stdio"): NEEDS_CLAUDE_CODE,
    ("docs/agents/claude-code.md", "claude mcp add --transport http"): NEEDS_CLAUDE_CODE,
    ("docs/agents/shell.md", "crewline escalate MESSAGE"): (
        "a synopsis: MESSAGE, ID and the bracketed options are placeholders, not values;"
        " each command and option is checked against the parser, and the verbs are run by"
        " examples/shell_agent.sh (tests/e2e/test_recipes.py) and tests/e2e/test_shell.py"
    ),
}


@dataclass(frozen=True)
class Block:
    document: str  # relative to the repository
    line: int  # of its opening fence
    language: str
    text: str

    @property
    def name(self) -> str:
        return f"{self.document}:{self.line}"

    def matches(self, key: tuple[str, ...]) -> bool:
        document, first, *inside = key
        return (
            self.document == document
            and self.text.splitlines()[0].startswith(first)
            and all(words in self.text for words in inside)
        )


def every_block() -> list[Block]:
    """Every fenced block of the documents, whatever its language (none: ``""``)."""
    found = []
    for path in DOCUMENTS:
        text = path.read_text()
        for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
            line = text.count("\n", 0, match.start()) + 1
            found.append(Block(str(path.relative_to(ROOT)), line, match[1], match[2]))
    return found


def blocks() -> list[Block]:
    """The shell and Python blocks: the ones checked statically."""
    return [b for b in every_block() if b.language in SHELL | PYTHON]


def the(key: tuple[str, ...]) -> Block:
    """The one block ``key`` names (a block renamed in the docs fails here, loudly)."""
    (block,) = [b for b in every_block() if b.matches(key)]
    return block


# --- checked: every block ------------------------------------------------------------------------


def _without_comments(script: str) -> str:
    """The script with its comments cut (a ``#`` that starts a word, outside quotes)."""
    out: list[str] = []
    quote: str | None = None
    in_comment = False
    previous = "\n"
    for char in script:
        if in_comment:
            in_comment = char != "\n"
        elif quote is not None:
            quote = None if char == quote and previous != "\\" else quote
        elif char in "'\"" and previous != "\\":
            quote = char
        elif char == "#" and previous in " \t\n":
            in_comment = True
        if not in_comment:
            out.append(char)
        previous = char
    return "".join(out)


def _commands(script: str) -> Iterator[list[str]]:
    """The simple commands of a shell script, as words (operators and line ends split them;
    a quoted string spanning lines stays one word)."""
    lexer = shlex.shlex(
        _without_comments(script.replace("\\\n", " ")),
        posix=True,
        punctuation_chars="();<>|&\n",
    )
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    for token in lexer:
        if token and set(token) <= set("();<>|&\n"):
            if words:
                yield words
            words = []
        else:
            words.append(token)
    if words:
        yield words


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _crewline_invocations(words: list[str]) -> Iterator[list[str]]:
    """Each ``crewline …`` in a command's words: a ``crewline`` followed by one of its
    subcommands or ``--version``/``--help`` (``docker compose exec crewline crewline …``,
    ``claude mcp add … crewline -- crewline mcp``)."""
    known = _subcommands(_parser()).keys() | {"--version", "--help", "-h"}
    for index, word in enumerate(words[:-1]):
        if word.rsplit("/", 1)[-1] == "crewline" and words[index + 1] in known:
            yield words[index + 1 :]


PLACEHOLDER = re.compile(r"…|<|^\[|\]$|^[A-Z][A-Z_]+$")


def check_crewline(args: list[str]) -> None:
    """Parsed by crewline's parser; with placeholders, the subcommand and its options."""
    if not any(PLACEHOLDER.search(word) for word in args):
        stderr, status = io.StringIO(), 0
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(stderr):
                _parser().parse_args(args)
        except SystemExit as exit:  # --version and --help exit 0; a refusal exits 2
            status = int(exit.code or 0)
        assert status == 0, f"crewline {shlex.join(args)}: {stderr.getvalue()}"
        return
    parser, rest = _parser(), list(args)
    while rest and rest[0] in _subcommands(parser):
        parser = _subcommands(parser)[rest.pop(0)]
    assert len(rest) < len(args) and not _subcommands(parser), (
        f"crewline {shlex.join(args)}: no such command"
    )
    options = parser._option_string_actions
    named = [w.strip("[]") for w in rest if w.strip("[]").startswith("-")]
    unknown = [option for option in named if option.split("=")[0] not in options]
    assert not unknown, f"crewline {shlex.join(args)}: no option {unknown}"


def check_shell(block: Block) -> int:
    """``bash -n``, then each crewline command and make target; returns how many commands
    of crewline's were checked."""
    parsed = subprocess.run(
        ["bash", "-n"], input=block.text, capture_output=True, text=True, check=False
    )
    assert parsed.returncode == 0, f"{block.name}: {parsed.stderr}"
    makefile = (ROOT / "Makefile").read_text()
    checked = 0
    for words in _commands(block.text):
        for args in _crewline_invocations(words):
            check_crewline(args)
            checked += 1
        if words[0] == "make":
            for target in words[1:]:
                assert re.search(rf"^{re.escape(target)}:", makefile, re.MULTILINE), (
                    f"{block.name}: no make target {target!r}"
                )
    return checked


@pytest.mark.parametrize("block", blocks(), ids=lambda b: f"{b.name}-{b.language}")
def test_every_shell_and_python_block_is_valid(block: Block) -> None:
    """Shell blocks parse, and name crewline commands and options that exist; Python
    blocks compile (a top-level ``async with`` does not)."""
    if block.language in PYTHON:
        compile(block.text, block.name, "exec")
    else:
        check_shell(block)


def test_every_block_is_run_or_listed() -> None:
    """Each block of the documents is run (RUN) or listed with its reason (NOT_RUN), once;
    each of those names one block: a new or rewritten block is noticed here, not skipped.
    And checking finds crewline's commands in the docs."""
    keys = [*RUN, *NOT_RUN]
    for block in every_block():
        naming = [key for key in keys if block.matches(key)]
        assert len(naming) == 1, (
            f"{block.name} ({block.language or 'no language'}): run by {naming}"
        )
    for key in keys:
        assert len([b for b in every_block() if b.matches(key)]) == 1, f"{key} names no one block"
    assert sum(check_shell(b) for b in blocks() if b.language in SHELL) >= 10


def test_placeholder_commands_are_checked_against_the_parser() -> None:
    """The check catches what rots: an option a command lost, a command that is gone."""
    check_crewline(["escalate", "MESSAGE", "[--deadline", "PT30M]", "[--wait", "[SECONDS]]"])
    with pytest.raises(AssertionError, match="no option"):
        check_crewline(["escalate", "MESSAGE", "[--deadlines", "PT30M]"])
    with pytest.raises(AssertionError, match="no such command"):
        check_crewline(["frobnicate", "…"])
    with pytest.raises(AssertionError, match="crewline member add"):
        check_crewline(["member", "add", "radar", "--owner", "local:owner"])  # no --name


# --- run as written ------------------------------------------------------------------------------


def user_env(data_dir: Path, url: str) -> dict[str, str]:
    """A user's shell: crewline on the PATH, its data directory, nothing else of crewline's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREWLINE_")}
    return {
        **env,
        "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        "CREWLINE_DATA_DIR": str(data_dir),
        "CREWLINE_URL": url,
    }


@dataclass(frozen=True)
class Reader:
    """What the reader puts in place of the docs' placeholders: the server's address for
    ``127.0.0.1:8765`` and, once ``member add`` printed it, the key for ``crw_s_…``."""

    url: str
    key: str = ""

    def text(self, block: Block) -> str:
        text = block.text.replace(f"http://{DOCS_ADDRESS}", self.url)
        text = text.replace("--port 8900", "--port 0")  # tests never take a fixed port
        return text.replace("crw_s_…", self.key) if self.key else text


def _step(block: Block, reader: Reader, state: Path) -> str:
    """The block as one more step of the same terminal session: the variables exported by
    the blocks before it are set, and those it exports are kept."""
    quoted = shlex.quote(str(state))
    return f"set -e\n. {quoted}\n{reader.text(block)}\nexport -p > {quoted}\n"


async def run_shell(
    block: Block, *, reader: Reader, env: dict[str, str], state: Path
) -> subprocess.CompletedProcess[str]:
    """The block in bash, in the terminal's directory, to its end."""
    ran = await asyncio.to_thread(
        subprocess.run,
        ["bash", "-c", _step(block, reader, state)],
        capture_output=True, text=True, env=env, cwd=state.parent, check=False, timeout=WAIT,
    )  # fmt: skip
    assert ran.returncode == 0, f"{block.name}:\n{ran.stderr}"
    return ran


def exported(state: Path) -> dict[str, str]:
    """crewline's variables the terminal session exports now (``export -p``)."""
    return dict(re.findall(r'declare -x (CREWLINE_\w+)="([^"]*)"', state.read_text()))


async def answer_when_asked(owner: httpx.AsyncClient, message: str, answer: str) -> str:
    """The human: once the request shows in radar's record, answer it; returns its id."""
    async with asyncio.timeout(WAIT):
        while True:
            record = await owner.get("/api/members/radar/conversation")
            assert record.status_code == 200, record.text
            pending = [
                e
                for e in record.json()["escalations"]
                if e["message"] == message and e["state"] == "pending"
            ]
            if pending:
                break
            await asyncio.sleep(0.1)  # a look at the record, bounded by the timeout above
    escalation_id = str(pending[0]["escalation_id"])
    replied = await owner.post(
        "/api/members/radar/reply", json={"text": answer, "escalation_id": escalation_id}
    )
    assert replied.status_code == 200 and replied.json()["outcome"] == "answered", replied.text
    return escalation_id


async def answer_the_dialog(owner: httpx.AsyncClient, store: Store, answer: str) -> None:
    """The human: once radar's dialog card shows (the record the card is drawn from),
    press ``answer`` on it."""
    async with asyncio.timeout(WAIT):
        while not (waiting := await store.waiting_questions("radar")):  # noqa: ASYNC110
            await asyncio.sleep(0.1)  # a look at the record, bounded by the timeout above
    (question,) = waiting
    answered = await owner.post(f"/api/questions/{question.id}/answer", json={"answer": answer})
    assert answered.status_code == 200, answered.text


async def run_program(
    block: Block, *, env: dict[str, str], where: Path, owner: httpx.AsyncClient, answer: str
) -> str:
    """The Python block as a program of its own, answered by the human; its output."""
    program = _program(where, block.text)
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(program), env=env, cwd=where,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        message = re.search(r'"([^"]+\?)"', block.text)
        assert message is not None, f"{block.name}: no question in it"
        await answer_when_asked(owner, message[1], answer)
        async with asyncio.timeout(WAIT):
            out, err = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, f"{block.name}:\n{err.decode()}"
    return out.decode()


def _program(where: Path, text: str) -> Path:
    where.mkdir()
    program = where / "agent.py"
    program.write_text(text)
    return program


def shown_json(text: str) -> dict[str, Any]:
    """JSON a page shows (an answer, a file, a delivery's body) as data; ``…`` in a value
    stands for the rest of it."""
    data: dict[str, Any] = json.loads(text.replace("…", ""))
    return data


def _expand(value: Any, env: dict[str, str]) -> Any:
    """Claude Code's ``${VAR}`` and ``${VAR:-default}`` in .mcp.json, as it expands them."""
    if isinstance(value, dict):
        return {k: _expand(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v, env) for v in value]
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: env.get(m[1]) or (m[2] or ""), str(value))


async def run_mcp_servers(block: Block, env: dict[str, str]) -> None:
    """Both servers of the .mcp.json block, started as Claude Code starts them, each
    posting a line to the member's thread."""
    servers = _expand(shown_json(block.text)["mcpServers"], env)
    stdio = servers["crewline"]
    params = StdioServerParameters(
        command=stdio["command"], args=stdio["args"], env={**env, **stdio["env"]}
    )
    async with Client(params, read_timeout_seconds=WAIT) as client:
        over_stdio = await client.call_tool("session_post", {"text": "posted over stdio"})
    http = servers["crewline-http"]
    assert http["type"] == "http"
    async with (
        httpx2.AsyncClient(headers=http["headers"], timeout=WAIT) as session,
        Client(streamable_http_client(http["url"], http_client=session)) as client,
    ):
        over_http = await client.call_tool("session_post", {"text": "posted over HTTP"})
    assert not over_stdio.is_error and not over_http.is_error, (over_stdio, over_http)


def hook_command(block: Block, event: str) -> str:
    """The command of the settings.json block's hook for ``event``."""
    [group] = shown_json(block.text)["hooks"][event]
    [hook] = group["hooks"]
    assert hook["type"] == "command"
    command: str = hook["command"]
    return command


async def run_hook(command: str, *, env: dict[str, str], where: Path) -> asyncio.subprocess.Process:
    """A command hook started as Claude Code starts it: through a shell, its event on stdin."""
    return started(
        await asyncio.create_subprocess_exec(
            "sh",
            "-c",
            command,
            env=env,
            cwd=where,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    )


async def start_shell(
    block: Block, *, reader: Reader, env: dict[str, str], state: Path
) -> asyncio.subprocess.Process:
    """A block that runs until stopped (a receiver), started as the terminal's next step."""
    return started(
        await asyncio.create_subprocess_exec(
            "bash",
            "-c",
            _step(block, reader, state),
            env=env,
            cwd=state.parent,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    )


@pytest.mark.sqlite_only("the walkthrough is the docs'; the stores are tested elsewhere")
async def test_the_readme_and_the_agent_pages_run_as_written(tmp_path: Path) -> None:
    """On a fresh machine with crewline serving the local inbox (its crewline.toml the
    webhook page's block), page by page: the README's member is added and its key exported,
    its Python program escalates and prints the answer, its curl escalation is routed to the
    inbox as the page shows, and its event read lists the answers. The Claude Code page's
    exports set the key, both .mcp.json servers post, the permission hook relays a dialog
    the human allows, and the Stop hook posts its line. The Python page's program runs. The
    webhook page's registration answers as shown, its verification snippet accepts
    crewline's signature, and its receiver registers itself and prints a delivery shaped
    as the page shows."""
    data_dir = tmp_path / "crewline"
    data_dir.mkdir()
    (data_dir / "crewline.toml").write_text(the(WEBHOOK_NETWORKS).text)
    serve_env = {k: v for k, v in os.environ.items() if not k.startswith("CREWLINE_")}
    async with crewline_serve(env={**serve_env, "CREWLINE_DATA_DIR": str(data_dir)}) as (_, url):
        env = user_env(data_dir, url)
        reader = Reader(url)
        terminal = tmp_path / "checkout"  # the reader's shell, in their clone of crewline
        terminal.mkdir()
        (terminal / "examples").symlink_to(ROOT / "examples")
        state = terminal / ".state.sh"
        state.write_text("")

        # README.md
        await run_shell(the(README_EXPORTS), reader=reader, env=env, state=state)
        readme = exported(state)
        assert readme["CREWLINE_URL"] == url
        key = readme["CREWLINE_SESSION_KEY"]
        assert re.fullmatch(r"crw_s_[A-Za-z0-9_-]{43}", key)
        reader = Reader(url, key)
        token = await asyncio.to_thread(
            subprocess.run, ["crewline", "token"],
            capture_output=True, text=True, env=env, check=True, timeout=WAIT,
        )  # fmt: skip
        agent_env = {**env, **readme}
        async with (
            httpx.AsyncClient(
                base_url=url,
                timeout=HTTP_TIMEOUT,
                headers={"Authorization": f"Bearer {token.stdout.splitlines()[-1]}"},
            ) as owner,
            open_store(None, data_dir) as store,
        ):
            printed = await run_program(
                the(README_PROGRAM),
                env=agent_env, where=tmp_path / "readme-agent", owner=owner, answer="deploy",
            )  # fmt: skip
            assert printed == "escalation_answered deploy\n"

            escalated = await run_shell(the(README_ESCALATE), reader=reader, env=env, state=state)
            reply: dict[str, Any] = json.loads(escalated.stdout)
            shown = shown_json(the(README_ESCALATED).text)
            assert reply.keys() == shown.keys(), (reply, shown)
            assert (reply["state"], reply["routed_to"]) == (shown["state"], shown["routed_to"])
            assert reply["delivery"].keys() == shown["delivery"].keys()
            assert reply["escalation_id"] == await answer_when_asked(
                owner, "Migrations are ready. Deploy?", "wait"
            )
            events = await run_shell(the(README_EVENTS), reader=reader, env=env, state=state)
            answers = [
                (e["body"]["escalation_id"], e["body"]["answer"])
                for e in json.loads(events.stdout)["events"]
                if e["kind"] == "escalation_answered"
            ]
            assert answers[-1] == (reply["escalation_id"], "wait") and len(answers) == 2

            # docs/agents/claude-code.md, in the terminal Claude Code is started from
            claude_state = terminal / ".claude-state.sh"
            claude_state.write_text("")
            await run_shell(the(CLAUDE_EXPORTS), reader=reader, env=env, state=claude_state)
            claude_env = {**env, **exported(claude_state)}
            assert (claude_env["CREWLINE_SESSION_KEY"], claude_env["CREWLINE_URL"]) == (key, url)
            await run_mcp_servers(the(CLAUDE_MCP_JSON), claude_env)
            permission = await run_hook(
                hook_command(the(CLAUDE_PERMISSION_HOOK), "PermissionRequest"),
                env=claude_env, where=terminal,
            )  # fmt: skip
            deciding = asyncio.create_task(
                finish(permission, stdin=(FIXTURES / "permission_request_bash.json").read_bytes())
            )
            await answer_the_dialog(owner, store, "Allow")
            decided = await deciding
            assert decided.code == 0, decided.err
            assert json.loads(decided.out)["hookSpecificOutput"]["decision"] == {
                "behavior": "allow"
            }
            stop_event = {"hook_event_name": "Stop", "session_id": "s", "stop_hook_active": False}
            stop = await run_hook(
                hook_command(the(CLAUDE_STOP_HOOK), "Stop"),
                env=claude_env, where=terminal,
            )  # fmt: skip
            stopped = await finish(stop, stdin=json.dumps(stop_event).encode())
            assert (stopped.code, stopped.out) == (0, ""), stopped.err
            lines = ["posted over stdio", "posted over HTTP", "Claude Code finished its turn."]
            posted = [row.text for row in await store.live_rows("radar")]
            assert [text for text in posted if text in lines] == lines, posted

            # docs/agents/python.md
            printed = await run_program(
                the(PYTHON_PAGE_PROGRAM),
                env=agent_env, where=tmp_path / "python-page-agent", owner=owner, answer="merge",
            )  # fmt: skip
            assert printed.startswith("escalation_answered {") and "'answer': 'merge'" in printed

            # docs/agents/webhooks.md: the page names the member's key $RADAR_KEY and has the
            # reader make $WEBHOOK_SECRET with Python's secrets module.
            webhook_env = {**env, "RADAR_KEY": key, "WEBHOOK_SECRET": secrets.token_hex(32)}
            registered = await run_shell(
                the(WEBHOOK_REGISTER), reader=reader, env=webhook_env, state=state
            )
            answer = json.loads(registered.stdout)
            shown = shown_json(the(WEBHOOK_REGISTERED).text)
            assert answer.keys() == shown.keys(), (answer, shown)
            assert answer["url"] == shown["url"] and answer["attempts"] == 0, answer

            secret, body = webhook_env["WEBHOOK_SECRET"], b'{"cursor":42}'
            t, v1 = re.findall(r"t=(\d+),v1=(\w+)", sign(secret, int(time.time()), body))[0]
            for raw_body, valid in ((body, True), (body + b" ", False)):
                names: dict[str, Any] = {
                    "hmac": hmac, "hashlib": hashlib, "time": time,
                    "secret": secret, "t": t, "v1": v1, "raw_body": raw_body,
                }  # fmt: skip
                exec(the(WEBHOOK_VERIFY).text, names)
                assert names["ok"] is valid, raw_body

            receiver = await start_shell(
                the(WEBHOOK_RECEIVER), reader=reader, env=webhook_env, state=state
            )
            assert receiver.stderr is not None and receiver.stdout is not None
            async with asyncio.timeout(WAIT):
                while not (line := (await receiver.stderr.readline()).decode()).startswith(
                    "registered "
                ):
                    assert line, f"{the(WEBHOOK_RECEIVER).name}: the receiver stopped"
            said = await owner.post("/api/members/radar/reply", json={"text": "pushed to you"})
            assert said.json()["outcome"] == "no_open_request", said.text
            async with asyncio.timeout(WAIT):
                delivered = json.loads(await receiver.stdout.readline())
            assert (delivered["kind"], delivered["body"]["text"]) == (
                "human_message",
                "pushed to you",
            )
            sample = the(WEBHOOK_DELIVERY).text.split("\n\n", 1)[1]
            assert delivered.keys() == shown_json(sample).keys()
            assert (terminal / "radar.cursor").read_text() == str(delivered["cursor"])
