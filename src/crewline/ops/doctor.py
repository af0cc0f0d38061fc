"""``crewline doctor``: check the installation against the real world and say what is wrong
in words (or, with ``--json``, as one JSON object).

It asks each configured platform whether the credentials work (crewline.ops.probes), reads the
database (schema, index, members bound to transports that do not run, members whose owner
can never answer them), what the crewline serving the directory says of itself (its
``/readyz``: a transport degraded there), the outbox (what
waits, since when; dead letters), the veto windows past due, and the permissions of the
files that hold secrets. On PostgreSQL it first connects with a bounded timeout, names the
server's version, and says whether ``crewline backup`` would find a fitting ``pg_dump``.
It never creates anything: a missing data directory or database is an error, not a new
installation.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from crewline.app.assembly import Bot
from crewline.config import CONFIG_NAME, Config
from crewline.errors import Unavailable
from crewline.models import Identity
from crewline.ops.owners import local_user, unanswerable
from crewline.ops.probes import PROBE_TIMEOUT, Finding, probe_transport
from crewline.serving_lock import holder_of
from crewline.store import Store, pg_admin
from crewline.store.open import open_store, redacted
from crewline.store.sqlite import DATABASE_NAME
from crewline.transports.registry import enabled_transports

__all__ = ["run_doctor"]

LABELS = {"ok": "ok  ", "warn": "warn", "fail": "BAD "}
STUCK_AFTER = timedelta(minutes=5)  # an outbox entry waiting longer is worth a look
LATE_AFTER = timedelta(minutes=1)  # a veto window this far past due has not been closed
_PRIVATE_FILES = (DATABASE_NAME, f"{DATABASE_NAME}-wal", CONFIG_NAME, "local-inbox.jsonl")


async def run_doctor(config: Config, *, reconcile: bool = False, as_json: bool = False) -> int:
    """Print the findings; returns 0 when none failed, 1 otherwise."""
    findings = await examine(config, reconcile=reconcile)
    failed = any(f.failed for f in findings)
    if as_json:
        print(
            json.dumps(
                {
                    "ok": not failed,
                    "checks": [
                        {"check": f.check, "status": f.status, "detail": f.detail, **f.facts}
                        for f in findings
                    ],
                },
                indent=2,
            )
        )
    else:
        for finding in findings:
            print(f"{LABELS[finding.status]} {finding.detail}")
    return 1 if failed else 0


async def examine(config: Config, *, reconcile: bool = False) -> list[Finding]:
    found = [_ok("config", f"configuration read (data directory {config.data_dir})")]
    database = config.data_dir / DATABASE_NAME
    if not config.data_dir.is_dir():
        return [
            *found,
            _fail(
                "data_dir",
                f"the data directory {config.data_dir} does not exist: check --data-dir or"
                " CREWLINE_DATA_DIR (crewline serve or member add creates it)",
            ),
        ]
    if not config.database_url and not database.is_file():
        return [
            *found,
            _fail(
                "database",
                f"no database in {config.data_dir} ({DATABASE_NAME}): check --data-dir or"
                " CREWLINE_DATA_DIR (crewline serve or member add creates it)",
            ),
        ]
    enabled = enabled_transports(config)
    found += [_ok(f"enabled:{e.name}", f"transport {e.name} enabled ({e.reason})") for e in enabled]
    if not enabled:
        found.append(_fail("enabled", "no transport is enabled: no human sees any card"))
    async with httpx.AsyncClient(timeout=PROBE_TIMEOUT) as client:
        probed = await asyncio.gather(*[probe_transport(e.name, config, client) for e in enabled])
        found += [f for findings in probed for f in findings]
        if not pg_admin.is_postgresql(config.database_url):
            found += await _running_server(config.data_dir, client)
    found += _permissions(config.data_dir)
    names = [e.name for e in enabled]
    if pg_admin.is_postgresql(config.database_url):
        assert config.database_url is not None
        server = await _postgresql(config.database_url)
        found += server
        if any(f.failed for f in server):
            return found
    async with open_store(config.database_url, config.data_dir) as store:
        if config.database_url and not pg_admin.is_postgresql(config.database_url):
            found.append(_ok("database", f"database {redacted(config.database_url)} reachable"))
        found += await _database(store, names, local_user=local_user(config))
        if config.database_url and pg_admin.is_postgresql(config.database_url):
            found += await _replicas(config.database_url)
        found += await _outbox(store)
        found += await _windows(store)
        if reconcile:
            async with Bot(store, transports=names) as bot:  # entering reconciles every member
                reports = await bot.escalations.reconcile_all()
            found += [
                _ok(
                    f"reconcile:{r.member}",
                    f"reconciled {r.member}: rebuilt {len(r.rebuilt)}, applied"
                    f" {len(r.applied)}, reopened {len(r.reopened)}, retracted"
                    f" {len(r.retracted)}",
                )
                for r in reports
            ]
            found.append(_ok("reconcile", "index re-derived from the transcripts"))
    return found


async def _running_server(data_dir: Path, client: httpx.AsyncClient) -> list[Finding]:
    """What the crewline serving this data directory says of itself (its ``/readyz``): a
    transport it could not start is degraded there even when the platform answers now."""
    holder = holder_of(data_dir)
    if holder is None or holder.url is None or holder.pid is None or not _alive(holder.pid):
        return [_ok("server", "no crewline serves from this data directory now")]
    who = f"the crewline serving here (PID {holder.pid}, {holder.url})"
    try:
        answer = await client.get(f"{holder.url}/readyz")
        body = answer.json()
        failed, checks = list(body["failed"]), dict(body["checks"])
    except (httpx.HTTPError, ValueError, KeyError, TypeError) as error:
        return [_fail("server", f"{who} does not answer /readyz: {error!r}")]
    if not failed:
        return [_ok("server", f"{who} is ready")]
    return [
        _fail("server", f"{who} is not ready: {', '.join(failed)}"),
        *(
            _fail(f"server:{name}", f"{who}: {name}: {checks.get(name, {}).get('detail', '')}")
            for name in failed
        ),
    ]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True


async def _postgresql(url: str) -> list[Finding]:
    """The server before the store is opened: reachable (within a bounded time), holding
    crewline's data (the doctor creates nothing, so an empty database is a finding), and
    whether ``crewline backup`` would find a ``pg_dump`` able to dump it."""
    from crewline.store.postgres import migrations as pg_migrations

    where = redacted(url)
    try:
        facts = await asyncio.to_thread(pg_admin.server_facts, url)
    except Unavailable as error:
        return [
            Finding(
                check="database",
                status="fail",
                detail=f"database {where} unreachable: {error.message} ({error.code})",
                facts={"code": error.code},
            )
        ]
    found = [
        Finding(
            check="database",
            status="ok",
            detail=f"database {where} reachable (PostgreSQL {facts.server_version})",
            facts={"server_version": facts.server_version},
        )
    ]
    latest = pg_migrations()[-1].version
    if facts.schema_version == 0:
        found.append(
            _fail(
                "schema",
                f"no crewline data in {where}: check --database or CREWLINE_DATABASE_URL"
                " (crewline serve or member add creates it)",
            )
        )
    elif facts.schema_version > latest:
        found.append(
            _fail(
                "schema",
                f"database schema at version {facts.schema_version}, newer than this"
                f" crewline's {latest}: upgrade crewline",
            )
        )
    if facts.unaccent is not None:  # opening the store would fail in the migration
        found.append(_fail("unaccent", f"fleet search needs unaccent; {facts.unaccent}"))
    if facts.pg_dump is None:
        found.append(_ok("backup", "crewline backup can use pg_dump"))
    else:
        found.append(
            Finding(
                check="backup",
                status="warn",
                detail=f"crewline backup would refuse: {facts.pg_dump}",
                facts={"pg_dump": facts.pg_dump},
            )
        )
    return found


async def _database(store: Store, names: list[str], *, local_user: str) -> list[Finding]:
    latest = store.latest_schema_version()
    version = await store.schema_version()
    found = [
        Finding(
            check="schema",
            status="ok" if version == latest else "fail",
            detail=f"database schema at version {version} (latest {latest})",
            facts={"version": version, "latest": latest},
        )
    ]
    try:
        await store.check_index()
        found.append(_ok("index", "escalation index readable"))
    except Unavailable as error:
        found.append(
            _fail("index", f"{error.message} (run `crewline doctor --reconcile` to rebuild it)")
        )
    members = await store.members()
    found.append(_ok("members", f"{len(members)} member(s)"))
    identities: dict[int, list[Identity]] = {}
    for member in members:
        unknown = [t for t in member.transports if t not in names]
        if unknown:
            found.append(
                _fail(
                    f"member:{member.slug}",
                    f"member {member.slug} is bound to {', '.join(unknown)}, which is"
                    " not configured: its cards wait in the outbox until it is",
                )
            )
        if member.owner not in identities:  # one read per human, not per member
            identities[member.owner] = await store.identities(member.owner)
        owners = identities[member.owner]
        why = unanswerable(owners, member.transports, local_user=local_user)
        if why:
            found.append(
                Finding(
                    check=f"owner:{member.slug}",
                    status="fail",
                    detail=f"member {member.slug}: {why} (remove it and add it again with an"
                    " --owner on one of its transports)",
                    facts={"owners": [str(o) for o in owners]},
                )
            )
    return found


async def _replicas(url: str) -> list[Finding]:
    """Who holds each single-connection transport (Telegram polling, Discord's gateway)
    among the replicas on this database, and any replica name two processes run under
    (docs/replicas.md)."""
    from crewline.store.postgres_coordination import lease_views, names_run_twice

    found = []
    for name, (current, runs) in (await names_run_twice(url)).items():
        earlier = ", ".join(r for r in runs if r != current)
        found.append(
            _fail(
                f"replica:{name}",
                f"{len(runs)} processes run as replica {name}: {current} (started last, it"
                f" takes the lanes) and {earlier}; stop all but one",
            )
        )
    for view in await lease_views(url, "transport:"):
        transport = view.name.removeprefix("transport:")
        if view.holder is not None and view.expires_in > 0:
            found.append(
                _ok(
                    f"lease:{transport}",
                    f"transport {transport} is run by replica {view.holder} (lease epoch"
                    f" {view.epoch}, renewed within the last few seconds)",
                )
            )
        else:
            found.append(
                Finding(
                    check=f"lease:{transport}",
                    status="warn",
                    detail=f"no replica runs transport {transport} now (its lease is free or"
                    " expired: a serving replica takes it within the lease's time)",
                    facts={"holder": view.holder, "epoch": view.epoch},
                )
            )
    return found


async def _outbox(store: Store) -> list[Finding]:
    backlog = await store.outbox_backlog()
    now = datetime.now(UTC)
    waiting = sum(b.pending for b in backlog)
    found = [_ok("outbox", f"{waiting} platform call(s) waiting in the outbox")]
    for b in backlog:
        if b.oldest is not None:
            age = now - b.oldest
            why = f"; last error: {b.oldest_error}" if b.oldest_error else ""
            found.append(
                Finding(
                    check=f"outbox:{b.transport}",
                    status="warn" if age > STUCK_AFTER else "ok",
                    detail=f"{b.transport} outbox: {b.pending} waiting, the oldest for"
                    f" {_ago(age)}{why}",
                    facts={"pending": b.pending, "oldest_seconds": round(age.total_seconds())},
                )
            )
        if b.dead:
            found.append(
                Finding(
                    check=f"dead_letters:{b.transport}",
                    status="warn",
                    detail=f"{b.transport}: {b.dead} platform call(s) given up as dead letters"
                    " (a permanent failure: those messages never reached anyone)",
                    facts={"dead": b.dead},
                )
            )
    return found


async def _windows(store: Store) -> list[Finding]:
    now = datetime.now(UTC)
    late = await store.due_windows(now - LATE_AFTER)
    if not late:
        return [_ok("windows", "no veto window is past due")]
    oldest = min(deadline for _, _, deadline in late)
    return [
        Finding(
            check="windows",
            status="warn",
            detail=f"{len(late)} veto window(s) past due, the oldest by {_ago(now - oldest)}:"
            " a running crewline closes them at once, so it is down or its scheduler is stuck",
            facts={"past_due": len(late)},
        )
    ]


def _permissions(data_dir: Path) -> list[Finding]:
    """The database holds transcripts and key hashes, the config file tokens: only their
    owner should read them."""
    loose = []
    if stat.S_IMODE(data_dir.stat().st_mode) & 0o077:
        loose.append(f"{data_dir} (chmod 700)")
    for name in _PRIVATE_FILES:
        path = data_dir / name
        if path.is_file() and stat.S_IMODE(path.stat().st_mode) & 0o077:
            loose.append(f"{path} (chmod 600)")
    if not loose:
        return [_ok("permissions", "the data directory and its files are private")]
    return [
        Finding(
            check="permissions",
            status="warn",
            detail="readable by others: " + ", ".join(loose),
            facts={"loose": loose},
        )
    ]


def _ago(age: timedelta) -> str:
    seconds = max(0, int(age.total_seconds()))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"


def _ok(check: str, detail: str) -> Finding:
    return Finding(check=check, status="ok", detail=detail)


def _fail(check: str, detail: str) -> Finding:
    return Finding(check=check, status="fail", detail=detail)
