"""Migrations: the schema is written once for both engines, a database at the last version
before the baseline is adopted as it is (its schema is the baseline's), and an older one is
refused before anything is changed. The migrations before the baseline are kept as
fixtures (``tests/fixtures/schema``) to make such databases."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from crewline.errors import ConfigError
from crewline.models import RowRole
from crewline.store import schema
from crewline.store.postgres import PostgresStore
from crewline.store.sqlite import SqliteStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "schema"


def _old_scripts(engine: str, through: int) -> list[str]:
    """The migrations of ``engine`` from before the baseline, 1 through ``through``."""
    found = sorted((FIXTURES / engine).glob("*.sql"))
    assert [int(p.name[:3]) for p in found] == list(range(1, len(found) + 1))
    return [p.read_text() for p in found[:through]]


def _normal(sql: str) -> str:
    return re.sub(r"\s*([(),])\s*", r"\1", re.sub(r"\s+", " ", sql)).strip()


# SQLite -------------------------------------------------------------------------------------
def _sqlite_at(path: Path, version: int) -> None:
    with sqlite3.connect(path) as raw:
        for script in _old_scripts("sqlite", version):
            raw.executescript(script)
        raw.execute(f"PRAGMA user_version = {version}")


def _sqlite_schema(path: Path) -> dict[str, Any]:
    """Everything SQLite keeps about the schema but the text of a table's statement (an
    ALTER TABLE appends to it): columns, keys, indexes, triggers, virtual tables."""
    with sqlite3.connect(path) as raw:
        found: dict[str, Any] = {}
        for kind, name, table, sql in raw.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
        ):
            if kind == "table" and not sql.startswith("CREATE VIRTUAL"):
                found[name] = (
                    raw.execute(f"PRAGMA table_xinfo({name})").fetchall(),
                    raw.execute(f"PRAGMA foreign_key_list({name})").fetchall(),
                    raw.execute(f"PRAGMA index_list({name})").fetchall(),
                    raw.execute(
                        "SELECT wr FROM pragma_table_list WHERE name = ?", (name,)
                    ).fetchall(),
                )
            elif kind == "index" and sql is None:  # a key's own index
                found[name] = (table, raw.execute(f"PRAGMA index_xinfo({name})").fetchall())
            else:
                found[name] = (kind, table, _normal(sql))
        found["user_version"] = raw.execute("PRAGMA user_version").fetchone()
    return found


async def test_a_sqlite_database_at_the_last_version_is_adopted_as_it_is(tmp_path: Path) -> None:
    """A file at SQLite's last version before the baseline opens at the baseline's version
    with nothing run: its schema was already the baseline's, and its rows are read as before."""
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    _sqlite_at(old, schema.ADOPTED["sqlite"])
    with sqlite3.connect(old) as raw:
        raw.executemany(
            "INSERT INTO rows (id, conversation, seq, generation, role, author, text, meta,"
            " created_at, record) VALUES (?, 'radar', ?, 1, ?, 'x', 't', '{}', 0, ?)",
            [("card", 1, "escalation", "e1"), ("chat", 2, "member", None)],
        )
    before = _sqlite_schema(old)
    async with SqliteStore(old) as store:
        assert await store.schema_version() == schema.BASELINE
        rows = await store.write(lambda tx: tx.record_rows("radar"))
        assert [r.id for r in rows] == ["card"]
        assert [r.id for r in await store.fleet_rows(["t"], excluding="probe")] == ["chat"]
    async with SqliteStore(new):
        pass
    adopted, fresh = _sqlite_schema(old), _sqlite_schema(new)
    assert before.pop("user_version") == (schema.ADOPTED["sqlite"],)
    assert adopted.pop("user_version") == fresh.pop("user_version") == (schema.BASELINE,)
    assert adopted == before  # nothing ran
    assert adopted == fresh


@pytest.mark.parametrize("version", [1, 7])
async def test_an_older_sqlite_database_is_refused_and_left_as_it_was(
    tmp_path: Path, version: int
) -> None:
    """A file at a version before the adopted one is refused with schema_too_old, unchanged."""
    old = tmp_path / "old.db"
    _sqlite_at(old, version)
    before = _sqlite_schema(old)
    with pytest.raises(ConfigError) as refused:
        async with SqliteStore(old):
            pass
    assert refused.value.code == "schema_too_old"
    assert f"schema version {version}" in refused.value.message
    assert _sqlite_schema(old) == before


# PostgreSQL ---------------------------------------------------------------------------------
def _postgresql_at(url: str, version: int) -> None:
    with psycopg.connect(url) as raw:
        for script in _old_scripts("postgresql", version):
            raw.execute(script.encode())
        raw.execute("UPDATE crewline_schema SET version = %s", (version,))


_CATALOG = {
    "columns": "SELECT table_name, ordinal_position, column_name, data_type, is_nullable,"
    " column_default FROM information_schema.columns WHERE table_schema = 'public'",
    "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
    " FROM pg_constraint WHERE connamespace = 'public'::regnamespace",
    "indexes": "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    "triggers": "SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid)"
    " FROM pg_trigger WHERE NOT tgisinternal",
    "functions": "SELECT proname, pg_get_functiondef(oid) FROM pg_proc"
    " WHERE pronamespace = 'public'::regnamespace AND prokind = 'f'",
    "sequences": "SELECT sequence_name, data_type, start_value, increment"
    " FROM information_schema.sequences WHERE sequence_schema = 'public'",
    "owned": "SELECT s.relname, d.refobjid::regclass::text, d.refobjsubid FROM pg_depend d"
    " JOIN pg_class s ON s.oid = d.objid WHERE s.relkind = 'S' AND d.deptype = 'a'",
    "statistics": "SELECT attrelid::regclass::text, attname, attstattarget FROM pg_attribute"
    " WHERE attstattarget > 0 AND attrelid::regclass::text NOT LIKE 'pg_%'",
    "text search": "SELECT c.cfgname, m.maptokentype, m.mapseqno, d.dictname, d.dictinitoption"
    " FROM pg_ts_config c JOIN pg_ts_config_map m ON m.mapcfg = c.oid"
    " JOIN pg_ts_dict d ON d.oid = m.mapdict WHERE c.cfgnamespace = 'public'::regnamespace",
    "extensions": "SELECT extname FROM pg_extension",
}


def _postgresql_schema(url: str) -> dict[str, Any]:
    with psycopg.connect(url) as raw:
        return {name: sorted(raw.execute(sql).fetchall()) for name, sql in _CATALOG.items()}


async def test_a_postgresql_database_at_the_last_version_is_adopted_as_it_is(
    postgres_empty_url: str, postgres_url: str
) -> None:
    """A database at PostgreSQL's last version before the baseline opens at the baseline's
    version with nothing run: its tables, keys, indexes, triggers, functions, sequences and
    text search configuration are the baseline's, and its rows are read as before."""
    old = postgres_empty_url
    _postgresql_at(old, schema.ADOPTED["postgresql"])
    with psycopg.connect(old) as raw:
        raw.execute(
            "INSERT INTO rows (id, conversation, seq, generation, role, author, text, meta,"
            " created_at, record) VALUES ('card', 'radar', 1, 1, %s, 'x', 't', '{}', 0, 'e1')",
            (RowRole.ESCALATION.value,),
        )
    before = _postgresql_schema(old)
    async with PostgresStore(old) as store:
        assert await store.schema_version() == schema.BASELINE
        rows = await store.write(lambda tx: tx.record_rows("radar"))
        assert [r.id for r in rows] == ["card"]
    assert _postgresql_schema(old) == before  # nothing ran
    assert _postgresql_schema(old) == _postgresql_schema(postgres_url)


async def test_an_older_postgresql_database_is_refused_and_left_as_it_was(
    postgres_empty_url: str,
) -> None:
    """A database at a version before the adopted one is refused with schema_too_old."""
    old = postgres_empty_url
    _postgresql_at(old, 10)
    before = _postgresql_schema(old)
    with pytest.raises(ConfigError) as refused:
        async with PostgresStore(old):
            pass
    assert refused.value.code == "schema_too_old"
    assert _postgresql_schema(old) == before
    with psycopg.connect(old) as raw:
        assert raw.execute("SELECT version FROM crewline_schema").fetchone() == (10,)


def test_the_migrations_are_written_once_numbered_from_the_baseline() -> None:
    """Both engines run the same migrations, numbered from the baseline without gaps or
    twins (two branches that each add one must not land the same number)."""
    sqlite, postgresql = schema.migrations("sqlite"), schema.migrations("postgresql")
    versions = [m.version for m in sqlite]
    assert versions == list(range(schema.BASELINE, schema.BASELINE + len(versions)))
    assert [(m.version, m.name) for m in postgresql] == [(m.version, m.name) for m in sqlite]
    assert all(v < schema.BASELINE for v in schema.ADOPTED.values())
