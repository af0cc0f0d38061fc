"""Every shell and Python block of README.md and docs/agents/*.md, taken from the files
themselves, so the docs cannot rot.

Two ways of checking, decided per block:

- **Run as written** (``RUN``): the README's agent walkthrough — the member added on the local
  inbox and its key exported, the Python program, the HTTP escalation and the event read —
  and the Python page's program, each against a real ``crewline serve`` on a fresh data
  directory, the human answering through the owner's API. The one substitution: the docs'
  ``127.0.0.1:8765`` is the test server's port (tests never take a fixed port).
- **Checked** (every block, the run ones too): shell blocks are parsed by ``bash -n``; every
  ``crewline`` command in them is parsed by crewline's own argument parser, or, written with
  placeholders (``…``, ``MESSAGE``, ``[--option A …]``), its subcommand must exist and every
  option it names must be one of that subcommand's; ``make`` targets must be in the
  Makefile. Python blocks are compiled. Blocks that need a platform account, Claude Code,
  pipx or Docker, or reach a host outside this machine (the webhook page's
  ``agent.example.org``) are checked only: running them would test those tools, not the
  docs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from crewline.app.cli import _parser
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.serving import crewline_serve

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs" / "agents").glob("*.md"))]
SHELL = frozenset({"sh", "bash", "shell"})
PYTHON = frozenset({"python", "py"})
DOCS_ADDRESS = "127.0.0.1:8765"
BIN = str(Path(sys.executable).parent)  # where `crewline` is installed beside this Python

# Blocks run as written, by their document and first line (each must match one block).
README_EXPORTS = ("README.md", "export CREWLINE_URL=http://127.0.0.1:8765")
README_PROGRAM = ("README.md", "import asyncio", "Migrations are ready. Deploy?")
README_ESCALATE = ("README.md", 'curl -s "$CREWLINE_URL/api/session-control/escalate" \\')
README_EVENTS = ("README.md", 'curl -s "$CREWLINE_URL/api/session/events?after=0&wait=30"')
PYTHON_PAGE_PROGRAM = ("docs/agents/python.md", "import asyncio", "Merge it?")
RUN = (README_EXPORTS, README_PROGRAM, README_ESCALATE, README_EVENTS, PYTHON_PAGE_PROGRAM)


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


def blocks() -> list[Block]:
    found = []
    for path in DOCUMENTS:
        text = path.read_text()
        for match in re.finditer(r"^```(\w+)\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
            if match[1] in SHELL | PYTHON:
                line = text.count("\n", 0, match.start()) + 1
                found.append(Block(str(path.relative_to(ROOT)), line, match[1], match[2]))
    return found


def the(key: tuple[str, ...]) -> Block:
    """The one block ``key`` names (a block renamed in the docs fails here, loudly)."""
    (block,) = [b for b in blocks() if b.matches(key)]
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


def test_the_blocks_run_as_written_are_where_the_test_says() -> None:
    """Each block this test runs is found exactly once: a block rewritten in the docs is
    noticed here, not skipped. And checking finds crewline's commands in the docs."""
    for key in RUN:
        the(key)
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


def as_here(block: Block, url: str) -> str:
    return block.text.replace(f"http://{DOCS_ADDRESS}", url)


async def run_shell(
    block: Block, *, url: str, env: dict[str, str], state: Path
) -> subprocess.CompletedProcess[str]:
    """The block in bash, as one more step of the same terminal session: the variables
    exported by the blocks before it are set, and those it exports are kept."""
    script = f"set -e\n. {shlex.quote(str(state))}\n{as_here(block, url)}\nexport -p > {shlex.quote(str(state))}\n"  # noqa: E501
    ran = await asyncio.to_thread(
        subprocess.run,
        ["bash", "-c", script],
        capture_output=True, text=True, env=env, cwd=state.parent, check=False, timeout=WAIT,
    )  # fmt: skip
    assert ran.returncode == 0, f"{block.name}:\n{ran.stderr}"
    return ran


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


@pytest.mark.sqlite_only("the walkthrough is the docs'; the stores are tested elsewhere")
async def test_the_readme_agent_walkthrough_runs_as_written(tmp_path: Path) -> None:
    """On a fresh machine with crewline serving the local inbox: the README's member is
    added and its key exported, its Python program escalates and prints the answer, its
    curl escalation is routed to the inbox, and its event read lists the answers. Then the
    Python page's program runs the same way."""
    data_dir = tmp_path / "crewline"
    serve_env = {k: v for k, v in os.environ.items() if not k.startswith("CREWLINE_")}
    async with crewline_serve(env={**serve_env, "CREWLINE_DATA_DIR": str(data_dir)}) as (_, url):
        env = user_env(data_dir, url)
        state = tmp_path / "terminal" / "state.sh"
        state.parent.mkdir()
        state.write_text("")
        await run_shell(the(README_EXPORTS), url=url, env=env, state=state)
        exported = dict(re.findall(r'declare -x (CREWLINE_\w+)="([^"]*)"', state.read_text()))
        assert exported["CREWLINE_URL"] == url
        assert re.fullmatch(r"crw_s_[A-Za-z0-9_-]{43}", exported["CREWLINE_SESSION_KEY"])
        token = await asyncio.to_thread(
            subprocess.run, ["crewline", "token"],
            capture_output=True, text=True, env=env, check=True, timeout=WAIT,
        )  # fmt: skip
        agent_env = {**env, **exported}
        async with httpx.AsyncClient(
            base_url=url,
            timeout=HTTP_TIMEOUT,
            headers={"Authorization": f"Bearer {token.stdout.splitlines()[-1]}"},
        ) as owner:
            printed = await run_program(
                the(README_PROGRAM),
                env=agent_env, where=tmp_path / "readme-agent", owner=owner, answer="deploy",
            )  # fmt: skip
            assert printed == "escalation_answered deploy\n"

            escalated = await run_shell(the(README_ESCALATE), url=url, env=agent_env, state=state)
            reply: dict[str, Any] = json.loads(escalated.stdout)
            assert reply["routed_to"] == {"member": "radar", "transports": ["local"]}
            assert reply["state"] == "pending"
            assert reply["escalation_id"] == await answer_when_asked(
                owner, "Migrations are ready. Deploy?", "wait"
            )
            events = await run_shell(the(README_EVENTS), url=url, env=agent_env, state=state)
            answers = [
                (e["body"]["escalation_id"], e["body"]["answer"])
                for e in json.loads(events.stdout)["events"]
                if e["kind"] == "escalation_answered"
            ]
            assert answers[-1] == (reply["escalation_id"], "wait") and len(answers) == 2

            printed = await run_program(
                the(PYTHON_PAGE_PROGRAM),
                env=agent_env, where=tmp_path / "python-page-agent", owner=owner, answer="merge",
            )  # fmt: skip
            assert printed.startswith("escalation_answered {") and "'answer': 'merge'" in printed
