"""The one SQL implementation of the Store's roles, over a small dialect per engine."""

from crewline.store.sql.dialect import Dialect, QueuedEntry, Statements
from crewline.store.sql.store import SqlStore, SqlTx

__all__ = ["Dialect", "QueuedEntry", "SqlStore", "SqlTx", "Statements"]
