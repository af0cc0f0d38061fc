"""The crewline command: serve, administer the crew, and check the installation.

Commands that print a key print it alone on the last line of their output, so a script
can take it with ``tail -n 1``. Exit status: 0 done; 1 ``doctor`` found a problem; 2 bad
input or configuration (a database that cannot be reached, or that refuses crewline's role,
included); 3 the server cannot start beside another (the port is taken, or another server
holds the SQLite data directory); 130 interrupted.
Administration commands log only warnings unless ``-v``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import signal
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from crewline import __version__, crew
from crewline.app import cli_agent, cli_record
from crewline.config import Config, load_config
from crewline.errors import (
    AlreadyServing,
    CannotListen,
    ConfigError,
    CrewlineError,
    InvalidInput,
)
from crewline.models import CallerKind
from crewline.ops.logs import configure_logging
from crewline.store import Store

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
        "--database",
        default=None,
        metavar="URL",
        help="sqlite:///PATH or postgresql://… (default: $CREWLINE_DATABASE_URL, or SQLite in"
        " the data directory)",
    )
    common.add_argument(
        "--config",
        type=Path,
        default=None,
        help="a crewline.toml (default: the one in the data directory)",
    )

    # Administration commands are quiet: what they did is their output, not their log.
    admin = argparse.ArgumentParser(add_help=False, parents=[common])
    admin.add_argument(
        "-v", "--verbose", action="store_true", help="log at INFO (default: warnings only)"
    )

    parser = argparse.ArgumentParser(prog="crewline", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"crewline {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", parents=[common], help="run crewline")
    serve.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port (default 8765)")
    serve.add_argument(
        "--replica-id",
        default=None,
        metavar="NAME",
        help="this replica's name among several on one postgresql:// database"
        " (default: $CREWLINE_REPLICA_ID, or the host name and process id)",
    )

    member = commands.add_parser("member", help="add, list or remove members")
    member_commands = member.add_subparsers(dest="member_command", required=True)
    add = member_commands.add_parser("add", parents=[admin], help="add a member; prints its key")
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
        help="a transport its thread lives on (repeatable); it must be configured here",
    )
    add.add_argument(
        "--force",
        action="store_true",
        help="bind to a transport that is not configured yet (its cards wait until it is)",
    )
    add.add_argument(
        "--stateless",
        action="store_true",
        help="its session re-reads its transcript every turn: a rewind need not wait for it",
    )
    key = member_commands.add_parser(
        "key", parents=[admin], help="issue a member's session key (replaces the previous one)"
    )
    key.add_argument("slug")
    key.add_argument(
        "--stateless", action="store_true", help="the session re-reads its transcript every turn"
    )
    member_commands.add_parser("list", parents=[admin], help="list members")
    remove = member_commands.add_parser("remove", parents=[admin], help="remove a member")
    remove.add_argument("slug")

    session = commands.add_parser("session", help="add sessions")
    session_commands = session.add_subparsers(dest="session_command", required=True)
    session_add = session_commands.add_parser(
        "add", parents=[admin], help="add a session; prints its key"
    )
    session_add.add_argument("--member", default=None)
    session_add.add_argument(
        "--kind", required=True, choices=["worker", "channel", "conductor", "plain", "concierge"]
    )

    token = commands.add_parser(
        "token", parents=[admin], help="issue the owner's token (replaces the previous one)"
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

    concierge = commands.add_parser("concierge", help="the concierge's policy, and undo")
    concierge_commands = concierge.add_subparsers(dest="concierge_command", required=True)
    concierge_commands.add_parser("status", parents=[admin], help="the policy in force")
    answer = concierge_commands.add_parser(
        "answer", parents=[admin], help="may it answer by itself: never, routine or always"
    )
    answer.add_argument("policy", choices=["never", "routine", "always"])
    act = concierge_commands.add_parser(
        "act", parents=[admin], help="may it stop, restart and dispatch sessions"
    )
    act.add_argument("state", choices=["on", "off"])
    concierge_commands.add_parser("undo", parents=[admin], help="withdraw the last answer it gave")

    evaluate = commands.add_parser("eval", help="run an evaluation")
    eval_commands = evaluate.add_subparsers(dest="eval_command", required=True)
    eval_concierge = eval_commands.add_parser(
        "concierge", help="run eval files through a real crewline in a temporary directory"
    )
    eval_concierge.add_argument(
        "--questions",
        type=Path,
        action="append",
        help="a YAML file; repeat for several (default: evals/concierge/dev.yaml and test.yaml)",
    )
    eval_concierge.add_argument(
        "--policy",
        choices=["never", "routine", "always"],
        action="append",
        help="repeat for several (default: each of never, routine, always)",
    )
    eval_concierge.add_argument(
        "--llm",
        choices=["off", "right", "hostile", "confused"],
        action="append",
        help="the LLM brain against a scripted loopback endpoint answering right, hostile or"
        " confused (citing a wrong row); repeat for several (default: off, the offline path"
        " alone)",
    )
    eval_concierge.add_argument("--runs", type=int, default=1, help="how many runs (default 1)")
    eval_concierge.add_argument("--json", action="store_true", help="print JSON")
    eval_concierge.add_argument(
        "--summary",
        action="store_true",
        help="print the summaries only, not each question (how a held-out set is read)",
    )

    cli_agent.add_commands(commands)
    cli_record.add_commands(commands, admin)
    backup = commands.add_parser(
        "backup", parents=[admin], help="copy the database to PATH (safe while serving)"
    )
    backup.add_argument("path", type=Path, help="a new file for the copy")
    restore = commands.add_parser(
        "restore", parents=[admin], help="replace the database with a backup (crewline stopped)"
    )
    restore.add_argument("path", type=Path, help="a file made by crewline backup")

    doctor = commands.add_parser("doctor", parents=[admin], help="check the installation")
    doctor.add_argument(
        "--reconcile",
        action="store_true",
        help="also re-derive every member's index from its transcript",
    )
    doctor.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in cli_agent.COMMANDS:
        return cli_agent.run(args)
    try:
        config = load_config(getattr(args, "data_dir", None), path=getattr(args, "config", None))
        if getattr(args, "database", None):
            config = dataclasses.replace(config, database_url=args.database)
        level = config.log_level
        if "verbose" in args:
            level = "INFO" if args.verbose else "WARNING"
        configure_logging(level, json_lines=config.log_format == "json")
        return asyncio.run(_COMMANDS[_command_name(args)](config, args))
    except (CannotListen, AlreadyServing) as error:
        print(f"crewline: {error.message} ({error.code})", file=sys.stderr)
        return 3
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

    from crewline.app.server import Crewline

    config = replace(
        config,
        host=args.host or config.host,
        port=config.port if args.port is None else args.port,
        replica_id=args.replica_id or config.replica_id,
    )
    stop = _stop_on_signals()  # before the first line: whoever reads it may signal at once
    async with Crewline(config) as crewline:
        print(f"crewline {__version__} serving on {crewline.url}", flush=True)
        for enabled in crewline.enabled:
            where = f" at {crewline.url}/" if enabled.name == "local" else ""
            print(f"transport {enabled.name}{where}: enabled ({enabled.reason})")
        if not crewline.enabled:
            print("no transport is enabled: no human sees any card (transports = [])")
        for slug, missing in crewline.stranded.items():
            print(
                f"warning: member {slug} is bound to {', '.join(missing)}, which is not"
                " configured here; its cards wait in the outbox until it is"
            )
        sys.stdout.flush()
        await stop.wait()
    return 0


def _stop_on_signals() -> asyncio.Event:
    """An event set by SIGINT or SIGTERM (from now on)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    return stop


async def _until_signalled() -> None:
    await _stop_on_signals().wait()


@contextlib.asynccontextmanager
async def _open_store(config: Config) -> AsyncIterator[Store]:
    """The store, open; and the data directory, made on every store as SQLite makes it (on
    PostgreSQL it holds crewline.toml and the inbox's journal, and doctor looks for it)."""
    from crewline.files import private_directory
    from crewline.store.open import open_store

    async with open_store(config.database_url, config.data_dir) as store:
        private_directory(config.data_dir)
        yield store


async def _member_add(config: Config, args: argparse.Namespace) -> int:
    from crewline.ops import owners
    from crewline.transports.registry import enabled_transports

    configured = [e.name for e in enabled_transports(config)]
    missing = [t for t in dict.fromkeys(args.transport) if t not in configured]
    crew.check_transports(args.transport)
    if missing and not args.force:
        raise InvalidInput(
            f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not configured here"
            f" (configured: {', '.join(configured) or 'none'}); configure it first, or pass"
            " --force to bind ahead of configuring it",
            code="transport_not_configured",
        )
    inbox_user = owners.local_user(config)
    identities = [
        owners.check_owner(o, configured=configured, local_user=inbox_user, force=args.force)
        for o in args.owner
    ]
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
    if missing:
        print(
            f"warning: {', '.join(missing)} not configured here yet; {args.slug}'s cards"
            " wait in the outbox until it is"
        )
    unanswered = owners.unanswerable(identities, args.transport, local_user=inbox_user)
    if unanswered:
        print(f"warning: {args.slug}: {unanswered} (crewline doctor reports it too)")
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
    from crewline.models import SystemClock

    async with _open_store(config) as store:
        members = {m.slug: m for m in await store.members()}
        rows = [
            [
                entry.slug,
                entry.name,
                "yes" if entry.needs_you else "no",
                str(entry.open_count),
                ", ".join(members[entry.slug].transports) or "none",
            ]
            for entry in await roster(store, now=SystemClock().now())
        ]
    if not rows:  # said on stderr: a script reading the roster reads nothing
        print(
            "no members yet: add one with crewline member add SLUG --name NAME --owner …",
            file=sys.stderr,
        )
        return 0
    header = ["MEMBER", "NAME", "NEEDS YOU", "OPEN", "TRANSPORTS"]
    print("\n".join(cli_record.table(header, rows)))
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
    from crewline.ops.demo import run_demo

    return await run_demo(
        config,
        data_dir=args.data_dir,
        host=args.host,
        port=args.port,
        browser=not args.no_browser,
        until=_until_signalled,
    )


async def _backup(config: Config, args: argparse.Namespace) -> int:
    from crewline.store import pg_admin
    from crewline.store.backup import backup

    if pg_admin.is_postgresql(config.database_url):
        from crewline.store.open import redacted

        assert config.database_url is not None
        dumped = await asyncio.to_thread(pg_admin.backup, config.database_url, args.path)
        print(
            f"backed up {redacted(config.database_url)} to {dumped.path} with pg_dump: schema"
            f" version {dumped.schema_version}, {dumped.escalations} escalations,"
            f" {dumped.size} bytes"
        )
        return 0
    _sqlite_only(config, "backup")
    report = await asyncio.to_thread(backup, config.data_dir, args.path)
    print(
        f"backed up {config.data_dir} to {report.path}: schema version {report.schema_version}, "
        f"{report.escalations} escalations, {report.size} bytes"
    )
    return 0


async def _restore(config: Config, args: argparse.Namespace) -> int:
    from crewline.store import pg_admin
    from crewline.store.backup import restore

    if pg_admin.is_postgresql(config.database_url):
        from crewline.store.open import redacted
        from crewline.store.postgres import migrations as pg_migrations

        assert config.database_url is not None
        latest = pg_migrations()[-1].version
        loaded = await asyncio.to_thread(
            lambda: pg_admin.restore(config.database_url or "", args.path, latest=latest)
        )
        print(
            f"restored {redacted(config.database_url)} from {loaded.path} with pg_restore:"
            f" schema version {loaded.schema_version}, {loaded.escalations} escalations"
        )
        return 0
    _sqlite_only(config, "restore")
    report = await asyncio.to_thread(restore, config.data_dir, args.path)
    print(
        f"restored {config.data_dir} from {report.path}: schema version "
        f"{report.schema_version}, {report.escalations} escalations"
    )
    return 0


def _sqlite_only(config: Config, verb: str) -> None:
    """SQLite's backup and restore work on the data directory's database file: refuse a
    database URL naming another one rather than copy a file the server does not use."""
    if not config.database_url:
        return
    from crewline.store.open import redacted
    from crewline.store.sqlite import DATABASE_NAME

    scheme, _, rest = config.database_url.partition("://")
    own = (config.data_dir / DATABASE_NAME).resolve()
    if scheme != "sqlite" or Path(rest).resolve() != own:
        raise ConfigError(
            f"crewline {verb} works on a postgresql:// database or on {own}, not on"
            f" {redacted(config.database_url)!r}: point --data-dir at its directory",
            key="database",
        )


async def _doctor(config: Config, args: argparse.Namespace) -> int:
    from crewline.ops.doctor import run_doctor

    return await run_doctor(config, reconcile=args.reconcile, as_json=args.json)


async def _concierge(config: Config, args: argparse.Namespace) -> int:
    """The owner at the console: the same policy and undo as /concierge on a transport."""
    from crewline.app.server import concierge_settings
    from crewline.bot import Hub
    from crewline.bot.concierge import Concierge, undo_notice
    from crewline.transports.registry import enabled_transports

    actor = "cli"
    async with _open_store(config) as store:
        hub = Hub(
            store,
            # The transports a server here runs: what the undo redraws is queued for them.
            transports=[e.name for e in enabled_transports(config)],
        )
        concierge = Concierge(hub, concierge_settings(config, launchers=None))
        try:
            match args.concierge_command:
                case "answer":
                    policy = await concierge.set_policy(actor=actor, answer=args.policy)
                    await store.write(crew.mark_changed)
                case "act":
                    policy = await concierge.set_policy(actor=actor, act=args.state)
                    await store.write(crew.mark_changed)
                case "undo":
                    undone = await concierge.undo(actor=actor)
                    await store.write(crew.mark_changed)  # a running server wakes its readers
                    print(undo_notice(undone.answer.text, undone.outcome))
                    return 0
                case _:
                    policy = await concierge.policy()
            print(f"concierge: {policy.describe()}")
        finally:
            await hub.domain.drain()
            await hub.domain.aclose()
    return 0


async def _eval_concierge(config: Config, args: argparse.Namespace) -> int:
    import json

    from crewline.models import AnswerPolicy
    from crewline.ops.evals import lines_of, run_eval
    from crewline.policy.eval_file import load_eval

    if args.runs < 1:
        print("crewline: --runs must be at least 1", file=sys.stderr)
        return 2
    files = args.questions or [Path("evals/concierge/dev.yaml"), Path("evals/concierge/test.yaml")]
    loaded = [(str(path), load_eval(path)) for path in files]  # every file read before a run
    policies = [
        AnswerPolicy(p) for p in dict.fromkeys(args.policy or ["never", "routine", "always"])
    ]
    modes = list(dict.fromkeys(args.llm or ["off"]))
    results = [
        await run_eval(file, policy=policy, runs=args.runs, name=name, llm=llm)
        for name, file in loaded
        for llm in modes
        for policy in policies
    ]
    questions = not args.summary
    if args.json:
        print(json.dumps({"results": [r.as_json(questions=questions) for r in results]}, indent=2))
    else:
        print("\n".join(lines_of(results, questions=questions)).rstrip())
    return 0


_COMMANDS: dict[str, Callable[[Config, argparse.Namespace], Coroutine[Any, Any, int]]] = {
    "serve": _serve,
    "member add": _member_add,
    "member key": _member_key,
    "member list": _member_list,
    "member remove": _member_remove,
    "session add": _session_add,
    "token": _token,
    "demo": _demo,
    "backup": _backup,
    "restore": _restore,
    "doctor": _doctor,
    "concierge status": _concierge,
    "concierge answer": _concierge,
    "concierge act": _concierge,
    "concierge undo": _concierge,
    "eval concierge": _eval_concierge,
    **cli_record.COMMANDS,
}


if __name__ == "__main__":
    raise SystemExit(main())
