"""The agent's side of the ``crewline`` command: the verbs from a shell, the MCP server over
stdio, and Claude Code's permission hook.

These commands talk to a running crewline over HTTP as one session: the key comes from
``--key`` or ``$CREWLINE_SESSION_KEY``, the server from ``--url`` or ``$CREWLINE_URL``
(default http://127.0.0.1:8765). They read no crewline.toml and open no database.

Exit status: 0 done (with ``--wait``: answered), 2 refused (the reason and its code on
stderr), 3 the window closed unanswered, 4 ``--wait`` timed out, 5 the request was withdrawn.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Callable, Coroutine
from typing import Any, Literal

from crewline.client import Client, Event
from crewline.config_schema import env_value
from crewline.errors import CrewlineError

__all__ = ["COMMANDS", "add_commands", "run"]

ANSWERED, REFUSED, CLOSED, TIMED_OUT, WITHDRAWN = 0, 2, 3, 4, 5
HOOK_TIMEOUT = 240.0


def add_commands(commands: Any) -> None:
    """Add the agent's commands to the ``crewline`` parser's subcommands."""
    session = argparse.ArgumentParser(add_help=False)
    session.add_argument("--key", default=None, help="session key (default $CREWLINE_SESSION_KEY)")
    session.add_argument("--url", default=None, help="crewline's URL (default $CREWLINE_URL)")

    commands.add_parser(
        "mcp", parents=[session], help="serve the MCP tools over stdio (for Claude Code and others)"
    )

    escalate = commands.add_parser(
        "escalate", parents=[session], help="raise a decision to your human; prints its id"
    )
    escalate.add_argument("message")
    escalate.add_argument("--deadline", default=None, help="PT30M, or an ISO time with a zone")
    escalate.add_argument(
        "--default", dest="default_action", default=None, help="what you do if nobody answers"
    )
    escalate.add_argument("--option", action="append", dest="options", help="a button (repeat)")
    escalate.add_argument("--goal", default=None, help="stack escalations of one goal")
    _wait_argument(escalate, "wait for the answer and print it")

    ask = commands.add_parser("ask", parents=[session], help="ask a question card; prints its id")
    ask.add_argument("question")
    ask.add_argument("--option", action="append", dest="options", help="a button (repeat)")
    ask.add_argument("--dialog", action="store_true", help="only the human may answer")
    _wait_argument(ask, "wait for the answer and print it")

    send = commands.add_parser(
        "send", parents=[session], help="a message in another member's thread"
    )
    send.add_argument("target", help="the member's slug")
    send.add_argument("message")

    post = commands.add_parser("post", parents=[session], help="a message in your own thread")
    post.add_argument("text")

    events = commands.add_parser(
        "events", parents=[session], help="print your events as JSON lines"
    )
    events.add_argument("--after", type=int, default=None, help="start after this cursor")
    events.add_argument("--follow", action="store_true", help="keep waiting for more")
    events.add_argument(
        "--cursor-file", default=None, help="resume from, and save the cursor to, this file"
    )

    applied = commands.add_parser(
        "default-applied",
        parents=[session],
        help="confirm you ran the default of an escalation whose window closed (defaulted)",
    )
    applied.add_argument("escalation_id", metavar="ID")

    hook = commands.add_parser("hook", help="hooks for coding agents")
    hooks = hook.add_subparsers(dest="hook_command", required=True)
    claude = hooks.add_parser(
        "claude-code",
        parents=[session],
        help="relay Claude Code's permission prompts (PermissionRequest, PreToolUse) as a dialog",
    )
    # Their environment defaults are read when the hook runs, through the configuration's
    # schema: a bad value then refuses the hook, never another command.
    claude.add_argument(
        "--timeout",
        type=float,
        default=None,
        help=f"seconds to wait for the human (default $CREWLINE_HOOK_TIMEOUT or {HOOK_TIMEOUT:g})",
    )
    claude.add_argument(
        "--fallback",
        choices=["deny", "ask"],
        default=None,
        help="with no answer: deny (default, or $CREWLINE_HOOK_FALLBACK), or leave it to"
        " Claude Code's own prompt",
    )


def _wait_argument(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--wait",
        nargs="?",
        type=float,
        const=float("inf"),
        default=None,
        metavar="SECONDS",
        help=f"{what} (at most SECONDS; without, until it comes)",
    )


def run(args: argparse.Namespace) -> int:
    """Run one agent command; refusals print ``crewline: message (code)`` and exit 2."""
    try:
        return asyncio.run(_COMMANDS[args.command](args))
    except CrewlineError as error:
        print(f"crewline: {_reason(error)} ({error.code})", file=sys.stderr)
        return REFUSED
    except KeyboardInterrupt:
        return 130


def _reason(error: CrewlineError) -> str:
    """The refusal in words; a server that does not answer gets the likely cause."""
    url = error.details.get("url")
    if error.code == "unreachable" and url:
        return (
            f"nothing answers at {url} ({error.details.get('cause', 'no connection')}):"
            f" is `crewline serve` running at {url}? (--url or $CREWLINE_URL names another)"
        )
    return error.message


def _client(args: argparse.Namespace) -> Client:
    key = args.key or env_value("agent.session_key", os.environ)
    return Client(key, url=args.url or env_value("agent.url", os.environ))


async def _mcp(args: argparse.Namespace) -> int:
    from crewline.api.mcp_stdio import serve_stdio

    async with _client(args) as client:
        await serve_stdio(client)
    return 0


async def _escalate(args: argparse.Namespace) -> int:
    async with _client(args) as client:
        escalated = await client.escalate(
            args.message,
            deadline=args.deadline,
            default_action=args.default_action,
            options=args.options,
            goal=args.goal,
        )
        if args.wait is None:
            print(escalated.escalation_id)
            return 0
        print(escalated.escalation_id, file=sys.stderr)
        return await _await_settled(client, "escalation_id", escalated.escalation_id, args.wait)


async def _ask(args: argparse.Namespace) -> int:
    async with _client(args) as client:
        asked = await client.ask(args.question, options=args.options, dialog=args.dialog)
        if args.wait is None:
            print(asked.question_id)
            return 0
        print(asked.question_id, file=sys.stderr)
        return await _await_settled(client, "question_id", asked.question_id, args.wait)


async def _await_settled(client: Client, field: str, record_id: str, seconds: float) -> int:
    """Read the stream from its start until the record settles, or ``seconds`` pass."""
    settled = await client.wait_settled(**{field: record_id}, timeout=seconds)
    if settled is None:
        print(f"crewline: no answer within {seconds:g} s", file=sys.stderr)
        return TIMED_OUT
    if settled.kind in ("escalation_answered", "question_answered"):
        print(settled.body["answer"])
        return ANSWERED
    if settled.kind == "window_closed":
        print(f"window closed: {settled.body['state']}", file=sys.stderr)
        return CLOSED
    print("the request was withdrawn", file=sys.stderr)
    return WITHDRAWN


async def _send(args: argparse.Namespace) -> int:
    async with _client(args) as client:
        sent = await client.send(args.target, args.message)
    print(sent.row_id)
    return 0


async def _post(args: argparse.Namespace) -> int:
    async with _client(args) as client:
        posted = await client.post(args.text)
    print(posted.row_id)
    return 0


async def _events(args: argparse.Namespace) -> int:
    async with _client(args) as client:
        if args.follow:
            async for event in client.events(after=args.after, cursor_file=args.cursor_file):
                _print_event(event)
            return 0
        after = args.after if args.after is not None else 0
        if args.cursor_file is not None and args.after is None:
            from crewline.client import CursorFile

            after = CursorFile(args.cursor_file).load()
        page = await client.poll(after=after)
        for event in page.events:
            _print_event(event)
        if args.cursor_file is not None and page.events:
            from crewline.client import CursorFile

            CursorFile(args.cursor_file).save(page.cursor)
    return 0


async def _default_applied(args: argparse.Namespace) -> int:
    """The default of a closed window ran: the card says so from now on."""
    async with _client(args) as client:
        record = await client.default_applied(args.escalation_id)
    print(f"escalation {record.escalation_id}: default applied ({record.default_action})")
    return 0


async def _hook(args: argparse.Namespace) -> int:
    """Claude Code's hook: malformed stdin exits 1 (no decision: Claude Code goes on as if
    there were no hook); otherwise the decision JSON, which is printed even when crewline
    could not be reached (deny, or the fallback)."""
    from crewline.app import claude_code

    try:
        prompt = claude_code.parse_prompt(sys.stdin.read())
    except CrewlineError as error:
        print(f"crewline hook: {error.message} ({error.code}); no decision made", file=sys.stderr)
        return 1
    try:
        timeout = args.timeout
        if timeout is None:
            timeout = env_value("agent.hook_timeout", os.environ) or HOOK_TIMEOUT
        fallback: Literal["deny", "ask"] = (
            args.fallback or env_value("agent.hook_fallback", os.environ) or "deny"
        )
    except CrewlineError as error:
        print(f"crewline hook: {error.message}; no decision made", file=sys.stderr)
        return 1
    if not 0 < timeout < 86400:
        print(
            "crewline hook: --timeout must be 0..86400 seconds; no decision made", file=sys.stderr
        )
        return 1
    try:
        client = _client(args)
    except CrewlineError as error:
        decided = claude_code.decision_json(
            prompt, fallback, f"crewline could not relay the prompt: {error.message}"
        )
    else:
        async with client:
            decided = await claude_code.relay(client, prompt, timeout=timeout, fallback=fallback)
    if decided is not None:
        print(json.dumps(decided), flush=True)
    return 0


def _print_event(event: Event) -> None:
    print(json.dumps(event.model_dump(), ensure_ascii=False), flush=True)


_COMMANDS: dict[str, Callable[[argparse.Namespace], Coroutine[Any, Any, int]]] = {
    "mcp": _mcp,
    "escalate": _escalate,
    "ask": _ask,
    "send": _send,
    "post": _post,
    "events": _events,
    "default-applied": _default_applied,
    "hook": _hook,
}
COMMANDS = frozenset(_COMMANDS)
