"""The owner's reading of the record from the console: ``crewline escalations``,
``crewline escalation ID`` and ``crewline audit``. Like the other administration commands
they open the database (``--data-dir``, ``--database``), so they work whether or not a
crewline is serving; they write nothing.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from dataclasses import fields as dc_fields
from datetime import UTC, datetime
from enum import Enum
from typing import Any

from crewline.config import Config
from crewline.errors import NotFound
from crewline.models import Escalation, EscalationState
from crewline.ops.audit import AuditEntry, audit_view, parse_since, read_audit
from crewline.store import Store

__all__ = ["COMMANDS", "add_commands", "table"]

MESSAGE_WIDTH = 60
NONE = "none"  # an empty column, said in a word


def add_commands(commands: Any, admin: argparse.ArgumentParser) -> None:
    """Add the record's commands to the ``crewline`` parser's subcommands; ``admin`` is the
    parent parser of the administration commands (data directory, database, -v)."""
    listed = commands.add_parser(
        "escalations", parents=[admin], help="list escalation records, oldest first"
    )
    listed.add_argument("--member", default=None, metavar="SLUG", help="only this member's")
    listed.add_argument(
        "--state",
        choices=[s.value for s in EscalationState],
        default=None,
        help="only records in this state (pending: waiting for the human)",
    )
    one = commands.add_parser(
        "escalation", parents=[admin], help="one escalation record, every field"
    )
    one.add_argument("escalation_id", metavar="ID")
    audit = commands.add_parser(
        "audit",
        parents=[admin],
        help="the audit log: security events, boundaries and the concierge's decisions",
    )
    audit.add_argument("--member", default=None, metavar="SLUG", help="only this member's")
    audit.add_argument(
        "--since",
        default=None,
        metavar="T",
        help="from this time on: 2026-12-01T09:00Z, 2026-12-01, or back from now (PT2H, P1D)",
    )
    audit.add_argument(
        "--kind",
        default=None,
        metavar="K",
        help="only this kind and those beneath it: boundary, escalate, ledger, ledger:answered …",
    )
    audit.add_argument("--json", action="store_true", help="one JSON object a line")


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Lines of aligned columns under a header, two spaces apart (the last one unpadded)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]


def _time(moment: datetime | None) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ") if moment else NONE


def _line(text: str) -> str:
    first = " ".join(text.split())
    return first if len(first) <= MESSAGE_WIDTH else first[: MESSAGE_WIDTH - 1] + "…"


async def _escalations(store: Store, args: argparse.Namespace) -> int:
    if args.member is not None:
        if await store.member(args.member) is None:
            raise NotFound(f"no member named {args.member!r}", code="unknown_member")
        slugs = [args.member]
    else:
        slugs = [m.slug for m in await store.members()]
    records: list[Escalation] = []
    for slug in slugs:
        found = await store.escalations(slug, pending_only=args.state == "pending")
        records += [r for r in found if args.state is None or r.state.value == args.state]
    if not records:
        print("no escalations" + (" in that state" if args.state else ""))
        return 0
    records.sort(key=lambda r: r.created_at)
    rows = [
        [
            r.id,
            r.member,
            r.state.value,
            _time(r.created_at),
            _time(r.deadline),
            _line(r.message),
        ]
        for r in records
    ]
    header = ["ID", "MEMBER", "STATE", "CREATED (UTC)", "DEADLINE (UTC)", "MESSAGE"]
    print("\n".join(table(header, rows)))
    return 0


def _value(value: object) -> str:
    """A field of a record in words: a time in UTC, yes/no, a list, or none."""
    if value is None or value == ():
        return NONE
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return _time(value)
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


async def _escalation(store: Store, args: argparse.Namespace) -> int:
    record = await store.escalation(args.escalation_id)
    if record is None:
        raise NotFound(f"no escalation {args.escalation_id!r}", code="unknown_escalation")
    # Every field the record has, so a field added to it is shown without a change here.
    fields = [
        (f.name.replace("_", " "), _value(getattr(record, f.name))) for f in dc_fields(record)
    ]
    width = max(len(name) for name, _ in fields) + 1
    for name, value in fields:  # a value of several lines goes on under its first
        print(f"{name + ':':<{width}} " + value.replace("\n", "\n" + " " * (width + 1)))
    return 0


async def _entries(store: Store, args: argparse.Namespace) -> AsyncIterator[AuditEntry]:
    since = parse_since(args.since, datetime.now(UTC)) if args.since else None
    cursor = None
    while True:
        page = await read_audit(
            store, after=cursor, limit=500, member=args.member, since=since, kind=args.kind
        )
        for entry in page.entries:
            yield entry
        if not page.more:
            return
        cursor = page.cursor


def _details(details: dict[str, Any]) -> str:
    return " ".join(
        f"{k}={json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v}"
        for k, v in details.items()
        if v is not None and v != []
    )


async def _audit(store: Store, args: argparse.Namespace) -> int:
    if args.json:
        async for entry in _entries(store, args):
            print(json.dumps(audit_view(entry), ensure_ascii=False))
        return 0
    rows = [
        [
            _time(entry.at),
            entry.id,
            entry.kind,
            entry.outcome or "",
            entry.member or "",
            entry.actor or "",
            _details(dict(entry.details)),
        ]
        async for entry in _entries(store, args)
    ]
    if not rows:
        print("no audit entries" + (" match" if args.member or args.since or args.kind else ""))
        return 0
    header = ["AT (UTC)", "ID", "KIND", "OUTCOME", "MEMBER", "ACTOR", "DETAILS"]
    print("\n".join(table(header, rows)))
    return 0


def _on_store(
    read: Callable[[Store, argparse.Namespace], Coroutine[Any, Any, int]],
) -> Callable[[Config, argparse.Namespace], Coroutine[Any, Any, int]]:
    async def command(config: Config, args: argparse.Namespace) -> int:
        from crewline.store.open import open_store

        async with open_store(config.database_url, config.data_dir) as store:
            return await read(store, args)

    return command


COMMANDS: dict[str, Callable[[Config, argparse.Namespace], Coroutine[Any, Any, int]]] = {
    "escalations": _on_store(_escalations),
    "escalation": _on_store(_escalation),
    "audit": _on_store(_audit),
}
