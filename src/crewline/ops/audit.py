"""The audit log as the owner reads it: the security event log (SEL: refusals, boundaries,
the concierge's acts …) and the concierge's ledger (each decision about a question), as one
list in time order, paged by a cursor and narrowed by member, time and kind.

``crewline audit`` and ``GET /api/audit`` both read it here. An entry's ``kind`` is the SEL
record's action (``boundary:rewind``, ``escalate:caller_blocked`` …) or, for the ledger,
``ledger:<decision>`` (``ledger:answered``); a kind filter finds that kind and every kind
beneath it, so ``boundary`` finds every boundary and ``ledger`` the whole ledger.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from crewline.errors import InvalidInput
from crewline.models import LedgerEntry
from crewline.store import SelRecord, Store

__all__ = [
    "MAX_LIMIT",
    "AuditEntry",
    "AuditPage",
    "audit_view",
    "parse_since",
    "read_audit",
]

MAX_LIMIT = 1000
LEDGER = "ledger"
_CURSOR = re.compile(r"(\d{1,18})-(\d{1,18})")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, kw_only=True, slots=True)
class AuditEntry:
    """One entry: ``id`` is ``sel:N`` or ``ledger:N``; ``outcome`` is the SEL's (ok,
    denied, error, allowed), None for the ledger, whose decision is in its kind."""

    id: str
    at: datetime
    kind: str
    outcome: str | None
    member: str | None
    actor: str | None
    details: Mapping[str, Any]


@dataclass(frozen=True, kw_only=True, slots=True)
class AuditPage:
    """Entries oldest first; ``cursor`` resumes after the last of them (``after=``), and
    ``more`` says whether entries beyond this page matched when it was read."""

    entries: tuple[AuditEntry, ...]
    cursor: str
    more: bool


def _sel_entry(record: SelRecord) -> AuditEntry:
    return AuditEntry(
        id=f"sel:{record.id}",
        at=record.at,
        kind=record.action,
        outcome=record.outcome,
        member=record.member,
        actor=record.actor,
        details=record.details,
    )


def _ledger_entry(entry: LedgerEntry) -> AuditEntry:
    return AuditEntry(
        id=f"ledger:{entry.id}",
        at=entry.at,
        kind=f"{LEDGER}:{entry.decision}",
        outcome=None,
        member=entry.member,
        actor=entry.actor,
        details={
            "record_id": entry.record_id,
            "verdict": entry.verdict,
            "policy": entry.policy,
            "brain": entry.brain,
            "rationale": entry.rationale,
            "evidence": list(entry.evidence),
        },
    )


def _cursor(after: str | None) -> tuple[int, int]:
    if after is None or after == "":
        return 0, 0
    match = _CURSOR.fullmatch(after)
    if match is None:
        raise InvalidInput(
            f"after {after[:40]!r} is not an audit cursor: pass the cursor a page returned"
            " (such as 12-3), or leave it out to start at the beginning",
            code="invalid_cursor",
            field="after",
        )
    return int(match[1]), int(match[2])


def parse_since(text: str, now: datetime) -> datetime:
    """``--since``: a time with its zone (``2026-12-01T09:00Z``), a date (midnight UTC), or
    a duration back from ``now`` (``PT2H``, ``P1D``)."""
    from crewline.bot.escalations import parse_deadline

    text = text.strip()
    try:
        if text.startswith("P"):
            return now - (parse_deadline(text, now) - now)
        if _DATE.fullmatch(text):
            return datetime.fromisoformat(text).replace(tzinfo=UTC)
        return parse_deadline(text, now)
    except (InvalidInput, OverflowError):  # OverflowError: a duration back past year 1
        raise InvalidInput(
            f"since {text[:40]!r} is neither a time with a zone (2026-12-01T09:00Z), a date"
            " (2026-12-01) nor a duration back from now (PT2H, P1D)",
            code="invalid_since",
            field="since",
        ) from None


async def read_audit(
    store: Store,
    *,
    after: str | None = None,
    limit: int = 100,
    member: str | None = None,
    since: datetime | None = None,
    kind: str | None = None,
) -> AuditPage:
    """One page of at most ``limit`` entries after the cursor ``after``, oldest first."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(
            f"limit must be 1..{MAX_LIMIT}, got {limit}", code="invalid_limit", field="limit"
        )
    sel_after, ledger_after = _cursor(after)
    ledger_only = kind is not None and (kind == LEDGER or kind.startswith(f"{LEDGER}:"))
    entries: list[tuple[AuditEntry, int]] = []  # each with its id within its own source
    if not ledger_only:
        records = await store.sel_after(
            sel_after, limit=limit + 1, member=member, since=since, action=kind
        )
        entries += [(_sel_entry(r), r.id) for r in records]
    if kind is None or ledger_only:
        decision = (kind.partition(":")[2] or None) if kind else None
        found = await store.ledger_after(
            ledger_after, limit=limit + 1, member=member, since=since, decision=decision
        )
        entries += [(_ledger_entry(e), e.id) for e in found]
    # In time order; at the same moment the SEL first: the cursor holds each source's place.
    entries.sort(key=lambda pair: (pair[0].at, pair[0].id.startswith(LEDGER), pair[1]))
    page = entries[:limit]
    for entry, number in page:
        if entry.id.startswith(LEDGER):
            ledger_after = max(ledger_after, number)
        else:
            sel_after = max(sel_after, number)
    return AuditPage(
        entries=tuple(entry for entry, _ in page),
        cursor=f"{sel_after}-{ledger_after}",
        more=len(entries) > limit,
    )


def audit_view(entry: AuditEntry) -> dict[str, Any]:
    """An entry as the API and ``crewline audit --json`` show it."""
    return {
        "id": entry.id,
        "at": entry.at.isoformat(),
        "kind": entry.kind,
        "outcome": entry.outcome,
        "member": entry.member,
        "actor": entry.actor,
        "details": dict(entry.details),
    }
