"""A running crewline's database, reached behind its store's back through the engine's own
driver (sqlite3 or psycopg): for tests that damage it, or read a table no port method reads."""

from __future__ import annotations

import sqlite3
from typing import Any

from crewline.config import Config
from crewline.store.sqlite import DATABASE_NAME

__all__ = ["raw_execute", "raw_query"]


def raw_query(config: Config, sql: str) -> list[tuple[Any, ...]]:
    """The rows ``sql`` selects. Blocking: call it off the loop while crewline serves."""
    if config.database_url:
        import psycopg

        with psycopg.connect(config.database_url, autocommit=True) as conn:
            return list(conn.execute(sql).fetchall())
    with sqlite3.connect(config.data_dir / DATABASE_NAME) as conn:
        return list(conn.execute(sql).fetchall())


def raw_execute(config: Config, sql: str) -> None:
    """Run one statement and commit it. Blocking: call it off the loop while crewline serves."""
    if config.database_url:
        import psycopg

        with psycopg.connect(config.database_url, autocommit=True) as conn:
            conn.execute(sql)
        return
    with sqlite3.connect(config.data_dir / DATABASE_NAME) as conn:
        conn.execute(sql)
