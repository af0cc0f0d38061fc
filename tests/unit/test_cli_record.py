"""The owner reads the record from the console, in-process on SQLite: ``crewline
escalations``, ``crewline escalation ID`` and ``crewline audit``."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from crewline.app.cli import main
from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    Escalation,
    EscalationState,
    Identity,
    LedgerEntry,
    Member,
)
from crewline.store import Tx
from crewline.store.sqlite import SqliteStore
from tests.inprocess import logging_kept  # noqa: F401 (an autouse fixture)

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _record(n: int, member: str, **changes: object) -> Escalation:
    base = Escalation(
        id=f"{n:016x}",
        member=member,
        row_id=f"row{n}",
        session="s1",
        message=f"Question {n}?",
        created_at=NOW + timedelta(minutes=n),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def _crew(tx: Tx) -> None:
    human = tx.ensure_human([Identity(platform="local", user_id="owner")], NOW)
    for slug in ("radar", "scout"):
        tx.add_member(Member(slug=slug, name=slug.title(), owner=human, transports=()), NOW)
    tx.put_escalation(
        _record(
            1,
            "radar",
            message="Run the orders migration tonight at 02:00 UTC,\nas planned?",
            deadline=NOW + timedelta(hours=1),
            default_action="run it",
            options=("Run tonight", "Postpone"),
        )
    )
    tx.put_escalation(
        _record(
            2,
            "scout",
            state=EscalationState.ANSWERED,
            answer="yes",
            choice=0,
            answered_by=AnsweredBy.USER,
            answered_via=AnsweredVia.CHIP,
            settled_at=NOW + timedelta(minutes=3),
        )
    )
    tx.put_escalation(_record(3, "radar", state=EscalationState.DEFAULTED))
    tx.audit("boundary:rewind", "ok", NOW, actor="owner:1", member="radar", details={"steps": 1})
    tx.audit("escalate:caller_blocked", "denied", NOW + timedelta(minutes=1), member="scout")
    tx.add_ledger(
        LedgerEntry(
            at=NOW + timedelta(minutes=2),
            member="radar",
            record_id=f"{1:016x}",
            decision="suggested",
            verdict="routine",
            policy="never",
            brain="offline",
            rationale="the default is stated",
        )
    )


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    async def fill() -> None:
        async with SqliteStore.in_directory(tmp_path) as store:
            await store.write(_crew)

    asyncio.run(fill())
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--data-dir", str(data_dir)])
    said = capsys.readouterr()
    return code, said.out, said.err


def test_escalations_lists_the_records_under_a_header(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every record, oldest first, in aligned columns with a header; a missing deadline says
    none; --member and --state narrow the list."""
    code, out, err = _run(capsys, data_dir, "escalations")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split("  ")[0] == "ID"
    assert [line.split()[:3] for line in lines[1:]] == [
        ["0000000000000001", "radar", "pending"],
        ["0000000000000002", "scout", "answered"],
        ["0000000000000003", "radar", "defaulted"],
    ]
    assert "2026-11-30 10:00:00Z" in lines[1]  # the deadline, in UTC
    assert "Run the orders migration tonight at 02:00 UTC, as planned?" in lines[1]
    assert " none " in lines[2]  # no deadline
    assert [line.split()[0] for line in lines[1:]] == sorted(line.split()[0] for line in lines[1:])
    _, pending, _ = _run(capsys, data_dir, "escalations", "--state", "pending")
    assert [line.split()[0] for line in pending.splitlines()[1:]] == ["0000000000000001"]
    _, radar, _ = _run(capsys, data_dir, "escalations", "--member", "radar")
    assert [line.split()[1] for line in radar.splitlines()[1:]] == ["radar", "radar"]
    _, none, _ = _run(capsys, data_dir, "escalations", "--state", "retracted")
    assert none == "no escalations in that state\n"
    code, _, err = _run(capsys, data_dir, "escalations", "--member", "hawk")
    assert (code, err) == (2, "crewline: no member named 'hawk' (unknown_member)\n")


def test_escalation_shows_one_record_whole(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every field of the record, one a line in words (times in UTC, yes/no, none); an
    unknown id exits 2 with its code."""
    code, out, _ = _run(capsys, data_dir, "escalation", f"{2:016x}")
    assert code == 0
    fields = dict(line.split(":", 1) for line in out.splitlines())
    assert {k: v.strip() for k, v in fields.items()} == {
        "id": "0000000000000002",
        "member": "scout",
        "row id": "row2",
        "session": "s1",
        "message": "Question 2?",
        "deadline": "none",
        "default action": "none",
        "options": "none",
        "goal": "none",
        "state": "answered",
        "answer": "yes",
        "choice": "0",
        "answered by": "user",
        "answered via": "chip",
        "answer row id": "none",
        "default applied": "no",
        "window held": "no",
        "created at": "2026-11-30 09:02:00Z",
        "settled at": "2026-11-30 09:03:00Z",
    }
    _, first, _ = _run(capsys, data_dir, "escalation", f"{1:016x}")
    assert "options:" in first and "Run tonight, Postpone" in first
    assert "\n                 as planned?\n" in first  # the message's second line, aligned
    code, _, err = _run(capsys, data_dir, "escalation", "nope")
    assert (code, err) == (2, "crewline: no escalation 'nope' (unknown_escalation)\n")


def test_audit_reads_the_sel_and_the_ledger_in_time_order(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The SEL and the concierge's ledger as one list under a header, oldest first;
    --kind, --member and --since narrow it; --json prints one object a line."""
    code, out, err = _run(capsys, data_dir, "audit")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == [
        "AT", "(UTC)", "ID", "KIND", "OUTCOME", "MEMBER", "ACTOR", "DETAILS",
    ]  # fmt: skip
    assert [line.split()[2:4] for line in lines[1:]] == [
        ["sel:1", "boundary:rewind"],
        ["sel:2", "escalate:caller_blocked"],
        ["ledger:1", "ledger:suggested"],
    ]
    assert "steps=1" in lines[1] and "rationale=the default is stated" in lines[3]
    _, ledger, _ = _run(capsys, data_dir, "audit", "--kind", "ledger")
    assert [line.split()[2] for line in ledger.splitlines()[1:]] == ["ledger:1"]
    _, boundaries, _ = _run(capsys, data_dir, "audit", "--kind", "boundary", "--member", "radar")
    assert [line.split()[2] for line in boundaries.splitlines()[1:]] == ["sel:1"]
    _, since, _ = _run(capsys, data_dir, "audit", "--since", "2026-11-30T09:01:00Z")
    assert [line.split()[2] for line in since.splitlines()[1:]] == ["sel:2", "ledger:1"]
    _, as_json, _ = _run(capsys, data_dir, "audit", "--json", "--member", "scout")
    assert [json.loads(line) for line in as_json.splitlines()] == [
        {
            "id": "sel:2",
            "at": "2026-11-30T09:01:00+00:00",
            "kind": "escalate:caller_blocked",
            "outcome": "denied",
            "member": "scout",
            "actor": None,
            "details": {},
        }
    ]
    _, nothing, _ = _run(capsys, data_dir, "audit", "--kind", "webhook")
    assert nothing == "no audit entries match\n"
    code, _, err = _run(capsys, data_dir, "audit", "--since", "yesterday")
    assert code == 2 and err.endswith("(invalid_since)\n")
