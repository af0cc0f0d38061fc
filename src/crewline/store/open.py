"""Which Store a crewline opens: ``sqlite:///path`` (the default, in the data directory) or
``postgresql://…``. The drivers are imported only for the store chosen."""

from __future__ import annotations

import sys
from pathlib import Path

from crewline.errors import ConfigError
from crewline.store.base import Store
from crewline.store.urls import redacted

__all__ = ["is_postgres_url", "open_store", "redacted", "shared_database_url"]


def open_store(url: str | None, data_dir: Path) -> Store:
    """The store named by ``url`` (not yet open: enter it with ``async with``).

    ``None`` is SQLite in ``data_dir``. Raises ConfigError for any other scheme.
    """
    if not url:
        from crewline.store.sqlite import SqliteStore

        return SqliteStore.in_directory(data_dir)
    scheme, sep, rest = url.partition("://")
    if sep and scheme == "sqlite":
        from crewline.store.sqlite import SqliteStore

        return SqliteStore(Path(rest))  # sqlite:///abs/path, or sqlite://relative/path
    if sep and scheme in ("postgresql", "postgres"):
        try:
            from crewline.store.postgres import PostgresStore
        except ImportError as error:
            raise ConfigError(
                "a postgresql:// database needs psycopg: pip install 'crewline[postgresql]'",
                key="database",
            ) from error
        return PostgresStore(url)
    raise ConfigError(
        f"database {redacted(url)!r} is neither sqlite:///PATH nor postgresql://…",
        key="database",
    )


def is_postgres_url(url: str | None) -> bool:
    """Whether ``url`` names a PostgreSQL database (one several replicas may share)."""
    scheme, sep, _ = (url or "").partition("://")
    return bool(sep) and scheme in ("postgresql", "postgres")


def shared_database_url(store: Store) -> str | None:
    """The URL of ``store`` when it is a PostgresStore (None for any other store)."""
    module = sys.modules.get("crewline.store.postgres")  # loaded if such a store exists
    if module is not None and isinstance(store, module.PostgresStore):
        return str(store.url)
    return None
