"""The ``crewline`` command: serve, administer the crew, and check the installation.

Commands that print a key print it alone on the last line of their output, so a script
can take it with ``tail -n 1``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from crewline import __version__, crew
from crewline.config import Config, load_config
from crewline.errors import CrewlineError
from crewline.logs import configure_logging
from crewline.models import CallerKind

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where crewline keeps its database (default: $CREWLINE_DATA_DIR or ~/.crewline)",
    )
    common.add_argument(
        "--config",
        type=Path,
        default=None,
        help="a crewline.toml (default: the one in the data directory)",
    )

    parser = argparse.ArgumentParser(prog="crewline", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"crewline {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", parents=[common], help="run crewline")
    serve.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port (default 8765)")

    member = commands.add_parser("member", help="add, list or remove members")
    member_commands = member.add_subparsers(dest="member_command", required=True)
    add = member_commands.add_parser("add", parents=[common], help="add a member; prints its key")
    add.add_argument("slug")
    add.add_argument("--name", required=True)
    add.add_argument(
        "--owner",
        action="append",
        required=True,
        help="PLATFORM:USER_ID of the human who owns it (repeat for each platform)",
    )
    add.add_argument(
        "--transport",
        action="append",
        default=[],
        help="a transport its thread lives on (repeatable)",
    )
    add.add_argument(
        "--stateless",
        action="store_true",
        help="its session re-reads its transcript every turn: a rewind need not wait for it",
    )
    key = member_commands.add_parser(
        "key", parents=[common], help="issue a member's session key (replaces the previous one)"
    )
    key.add_argument("slug")
    key.add_argument(
        "--stateless", action="store_true", help="the session re-reads its transcript every turn"
    )
    member_commands.add_parser("list", parents=[common], help="list members")
    remove = member_commands.add_parser("remove", parents=[common], help="remove a member")
    remove.add_argument("slug")

    session = commands.add_parser("session", help="add sessions")
    session_commands = session.add_subparsers(dest="session_command", required=True)
    session_add = session_commands.add_parser(
        "add", parents=[common], help="add a session; prints its key"
    )
    session_add.add_argument("--member", default=None)
    session_add.add_argument(
        "--kind", required=True, choices=["worker", "channel", "conductor", "plain"]
    )

    token = commands.add_parser(
        "token", parents=[common], help="issue the owner's token (replaces the previous one)"
    )
    token.add_argument("--owner", default=None, help="PLATFORM:USER_ID when several humans")

    demo = commands.add_parser(
        "demo", parents=[common], help="the local inbox with a demo crew, on 127.0.0.1"
    )
    demo.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    demo.add_argument("--port", type=int, default=None, help="port (default 8765, or any free)")
    demo.add_argument(
        "--no-browser", action="store_true", help="print the URL without opening a browser"
    )

    doctor = commands.add_parser("doctor", parents=[common], help="check the installation")
    doctor.add_argument(
        "--reconcile",
        action="store_true",
        help="also re-derive every member's index from its transcript",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = load_config(args.data_dir, path=args.config)
        configure_logging(config.log_level, json_lines=config.log_format == "json")
        return asyncio.run(_COMMANDS[_command_name(args)](config, args))
    except CrewlineError as error:
        print(f"crewline: {error.message} ({error.code})", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _command_name(args: argparse.Namespace) -> str:
    sub = getattr(args, f"{args.command}_command", None)
    return f"{args.command} {sub}" if sub else args.command


async def _serve(config: Config, args: argparse.Namespace) -> int:
    from dataclasses import replace

    from crewline.server import Crewline

    config = replace(
        config, host=args.host or config.host, port=config.port if args.port is None else args.port
    )
    async with Crewline(config) as crewline:
        print(f"crewline {__version__} serving on {crewline.url}", flush=True)
        await _until_signalled()
    return 0


async def _until_signalled() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


def _open_store(config: Config):  # type: ignore[no-untyped-def]
    from crewline.store.sqlite import SqliteStore

    return SqliteStore.in_directory(config.data_dir)


async def _member_add(config: Config, args: argparse.Namespace) -> int:
    async with _open_store(config) as store:
        created = await crew.add_member(
            store,
            slug=args.slug,
            name=args.name,
            owners=args.owner,
            transports=args.transport,
            stateless=args.stateless,
        )
    transports = ", ".join(args.transport) or "none yet"
    print(f"added member {args.slug} ({args.name}), transports: {transports}")
    print("its session key (shown once; keep it secret):")
    print(created.key)
    return 0


async def _member_key(config: Config, args: argparse.Namespace) -> int:
    async with _open_store(config) as store:
        created = await crew.issue_member_key(store, args.slug, stateless=args.stateless)
    print(f"a new session key for member {args.slug} (the previous one no longer works);")
    print("shown once, keep it secret:")
    print(created.key)
    return 0


async def _member_list(config: Config, args: argparse.Namespace) -> int:
    from crewline.bot.render import roster

    async with _open_store(config) as store:
        members = {m.slug: m for m in await store.members()}
        for entry in await roster(store):
            member = members[entry.slug]
            print(
                f"{entry.slug}\t{entry.name}\t{'needs you' if entry.needs_you else '-'}\t"
                f"{entry.open_count} open\t{','.join(member.transports) or '-'}"
            )
    return 0


async def _member_remove(config: Config, args: argparse.Namespace) -> int:
    async with _open_store(config) as store:
        await crew.remove_member(store, args.slug)
    print(f"removed member {args.slug}")
    return 0


async def _session_add(config: Config, args: argparse.Namespace) -> int:
    async with _open_store(config) as store:
        created = await crew.add_session(store, kind=CallerKind(args.kind), member=args.member)
    print(
        f"added {args.kind} session {created.session.id}"
        + (f" for member {args.member}" if args.member else "")
    )
    print("its session key (shown once; keep it secret):")
    print(created.key)
    return 0


async def _token(config: Config, args: argparse.Namespace) -> int:
    async with _open_store(config) as store:
        token = await crew.issue_owner_token(store, owner=args.owner)
    print("the owner's token (shown once; the previous one no longer works):")
    print(token)
    return 0


async def _demo(config: Config, args: argparse.Namespace) -> int:
    from crewline.demo import run_demo

    return await run_demo(
        config,
        data_dir=args.data_dir,
        host=args.host,
        port=args.port,
        browser=not args.no_browser,
        until=_until_signalled,
    )


async def _doctor(config: Config, args: argparse.Namespace) -> int:
    from crewline.doctor import run_doctor

    return await run_doctor(config, reconcile=args.reconcile)


_COMMANDS: dict[str, Callable[[Config, argparse.Namespace], Coroutine[Any, Any, int]]] = {
    "serve": _serve,
    "member add": _member_add,
    "member key": _member_key,
    "member list": _member_list,
    "member remove": _member_remove,
    "session add": _session_add,
    "token": _token,
    "demo": _demo,
    "doctor": _doctor,
}


if __name__ == "__main__":
    raise SystemExit(main())
