"""Migrations: a database written by an older crewline opens, upgraded, with its data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from crewline.store.sqlite import SqliteStore, migrations


async def test_a_version_1_database_is_upgraded_and_its_rows_name_their_records(
    tmp_path: Path,
) -> None:
    """Opening a v1 file applies the later migrations; rows about records are found again."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as raw:
        raw.executescript(migrations()[0].sql + "; PRAGMA user_version = 1;")
        raw.executemany(
            "INSERT INTO rows (id, conversation, seq, generation, role, author, text, meta,"
            " created_at) VALUES (?, 'radar', ?, 1, ?, 'x', 't', ?, 0)",
            [
                ("card", 1, "escalation", '{"escalation_id": "e1"}'),
                ("chat", 2, "member", "{}"),
                ("reply", 3, "human", '{"escalation_id": "e1", "choice": 0}'),
                ("closed", 4, "system", '{"silent": true, "window_closed": "e2"}'),
            ],
        )
    async with SqliteStore(path) as store:
        assert await store.schema_version() == migrations()[-1].version
        rows = await store.write(lambda tx: tx.record_rows("radar"))
    assert [r.id for r in rows] == ["card", "reply", "closed"]


def test_the_migrations_are_numbered_one_to_n_without_gaps_or_twins() -> None:
    """Two branches that each add a migration must not land the same number twice."""
    versions = [m.version for m in migrations()]
    assert versions, "no migrations found"
    assert versions == list(range(1, len(versions) + 1))
