"""Reads on the event loop must stay lookups: every one is an index search, never a scan.

SqliteStore answers reads of a few rows by key on the event loop itself (see its module
docstring). A query that lost its index would turn into a table scan that blocks the loop
as the tables grow, and nothing else would notice: the answers stay right.
"""

from __future__ import annotations

import inspect
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from crewline.store.sqlite import SqliteStore

LOOKUPS: dict[str, Callable[[SqliteStore], Awaitable[Any]]] = {
    "member": lambda s: s.member("scout"),
    "session_by_key_hash": lambda s: s.session_by_key_hash("0" * 64),
    "session_and_member": lambda s: s.session_and_member("0" * 64),
    "human_by_token_hash": lambda s: s.human_by_token_hash("0" * 64),
    "human_of": lambda s: s.human_of("slack", "U1"),
    "thread_ref": lambda s: s.thread_ref("scout", "slack"),
    "member_for_thread": lambda s: s.member_for_thread("slack", "C1/1.0"),
    "row": lambda s: s.row("r1", include_rewound=False),
    "escalation": lambda s: s.escalation("e1"),
    "escalations": lambda s: s.escalations("scout", pending_only=True),
    "card_read": lambda s: s.card_read("r1"),
    "bell_lines": lambda s: s.bell_lines("scout", ""),
    "question": lambda s: s.question("q1"),
    "outbox_head": lambda s: s.outbox_head("slack", "scout"),
    "outbox_last_id": lambda s: s.outbox_last_id(),
    "outbox_object_ids": lambda s: s.outbox_object_ids("memory", "L", "update", "card:x"),
    "platform_message": lambda s: s.platform_message("slack", "row:r1"),
    "post_context": lambda s: s.post_context("memory", "L", "row:r1"),
    "redraw_context": lambda s: s.redraw_context("memory", "L", "update", "row:r1"),
    "object_for_message": lambda s: s.object_for_message("slack", "C1/1.0"),
    "setting": lambda s: s.setting("generation"),
    "has_events_after": lambda s: s.has_events_after("s1", 0),
    "idempotency_record": lambda s: s.idempotency_record("s1", "key-1"),
    "webhook": lambda s: s.webhook("s1"),
    "suggestion": lambda s: s.suggestion("e1"),
}


def scans(conn: sqlite3.Connection, sql: str) -> list[str]:
    """The steps of ``sql``'s query plan that read a whole table or index."""
    plan = conn.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
    return [step[3] for step in plan if step[3].startswith("SCAN")]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(tmp_path / "crewline.db") as opened:
        yield opened


def test_every_read_that_runs_on_the_loop_is_listed_here() -> None:
    source = {
        name: inspect.getsource(member)
        for name, member in inspect.getmembers(SqliteStore, inspect.iscoroutinefunction)
    }
    on_the_loop = {
        name for name, code in source.items() if not name.startswith("_") and "lookup=" in code
    }
    assert on_the_loop == set(LOOKUPS)


async def test_every_lookup_is_an_index_search(store: SqliteStore) -> None:
    conn = store._lookups
    assert conn is not None
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        for read in LOOKUPS.values():
            await read(store)
    finally:
        conn.set_trace_callback(None)
    assert len(statements) == len(LOOKUPS)  # each ran on the loop's connection, once
    assert {sql: scans(conn, sql) for sql in statements if scans(conn, sql)} == {}


async def test_the_plan_check_sees_a_scan(store: SqliteStore) -> None:
    conn = store._lookups
    assert conn is not None
    assert scans(conn, "SELECT id FROM rows WHERE text = 'x'") != []
    assert scans(conn, "SELECT id FROM rows WHERE id = 'x'") == []
