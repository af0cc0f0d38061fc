"""crewline's schema, written once for every engine, and the migrations after it.

Each migration is a numbered script, ``NNN_name.sql``, written once: its types are tokens
(``{real}``, ``{bigint}``, …; a literal brace is doubled) that :data:`TYPES` spells for each
engine, and a line whose comment says ``<engine> only`` is kept for that engine alone. What
only one engine has (SQLite's FTS5 table, PostgreSQL's sequences, text search and replicas'
tables) is in ``NNN_name.<engine>.sql`` beside it, run after it.

The first is the baseline (013): the whole schema as the migrations before it had left it on
both engines (SQLite's 1-9, PostgreSQL's 1-12, kept in ``tests/fixtures/schema`` to prove
it). A database at the last of those versions has exactly the baseline's schema, so it is
adopted as it is: its version becomes the baseline's and nothing runs. A database at an
earlier one is refused (``schema_too_old``): crewline was never released with those, and
what would upgrade them is gone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Literal

from crewline.errors import ConfigError

__all__ = [
    "ADOPTED",
    "BASELINE",
    "TYPES",
    "Engine",
    "Migration",
    "adopt",
    "migrations",
    "table_ddl",
]

Engine = Literal["sqlite", "postgresql"]
BASELINE = 13
# The last version of each engine before the baseline: its schema is the baseline's.
ADOPTED: dict[Engine, int] = {"sqlite": 9, "postgresql": 12}
TYPES: dict[Engine, dict[str, str]] = {
    "sqlite": {
        "real": "REAL",
        "bigint": "INTEGER",
        "rowid": "INTEGER PRIMARY KEY",  # the rowid: the next is one more than the largest
        "serial": "INTEGER PRIMARY KEY AUTOINCREMENT",  # never reused, even after a delete
        "stream_id": "INTEGER PRIMARY KEY AUTOINCREMENT",
        "without_rowid": " WITHOUT ROWID",
    },
    "postgresql": {
        "real": "DOUBLE PRECISION",
        "bigint": "BIGINT",
        "rowid": "BIGSERIAL PRIMARY KEY",
        "serial": "BIGSERIAL PRIMARY KEY",
        # Drawn from the stream's own sequence under its lock (the engine's part creates it).
        "stream_id": "BIGINT PRIMARY KEY",
        "without_rowid": "",
    },
}
_SCRIPT = re.compile(r"(\d+)_(\w+)\.sql")
_ONLY = re.compile(r"--\s*(sqlite|postgresql) only\b")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str  # for one engine: the shared script rendered, then the engine's own part


def migrations(engine: Engine) -> list[Migration]:
    """The migrations for ``engine``, in order, the baseline first."""
    files = {entry.name: entry for entry in resources.files(__name__).iterdir()}
    found = []
    for name, entry in files.items():
        if (numbered := _SCRIPT.fullmatch(name)) is None:
            continue
        sql = _for(engine, entry.read_text()).format_map(TYPES[engine])
        if (own := files.get(f"{numbered[1]}_{numbered[2]}.{engine}.sql")) is not None:
            sql = f"{sql}\n{own.read_text()}"
        found.append(Migration(int(numbered[1]), numbered[2], sql))
    return sorted(found, key=lambda m: m.version)


def _for(engine: Engine, script: str) -> str:
    """``script`` without the lines marked as another engine's only."""
    return "\n".join(
        line
        for line in script.splitlines()
        if (only := _ONLY.search(line)) is None or only[1] == engine
    )


def adopt(engine: Engine, version: int, *, where: str) -> int:
    """The version a database at ``version`` is migrated on from: 0 for a new one, the
    baseline for one at the last version before it (adopted). Raises
    ConfigError(schema_too_old) for one older than that, before anything is changed."""
    if version == ADOPTED[engine]:
        return BASELINE
    if 0 < version < BASELINE:
        raise ConfigError(
            f"the database {where} is at schema version {version}, from a development"
            f" version of crewline older than this one can open (it adopts version"
            f" {ADOPTED[engine]}, the last before the baseline {BASELINE}): open it once with"
            " a crewline from before the baseline, or start a new database",
            code="schema_too_old",
            key="database",
        )
    return version


def table_ddl(engine: Engine, table: str) -> list[str]:
    """The statements of the baseline that create ``table`` and its indexes, in order (for
    an index table rebuilt empty)."""
    about = re.compile(
        rf"^(?:CREATE TABLE {table} \(.*?\n\)[^;]*|ALTER TABLE {table} .*?|"
        rf"CREATE (?:UNIQUE )?INDEX \w+ ON {table}\b.*?)(?:;|\Z)",
        re.M | re.S,
    )
    return [found.rstrip(";") for found in about.findall(migrations(engine)[0].sql)]
