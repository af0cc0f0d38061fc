"""The one SQL implementation of the Store's roles, over a small dialect per engine."""

from crewline.store.sql.dialect import Dialect, Statements
from crewline.store.sql.store import SqlStore, SqlTx

__all__ = ["Dialect", "SqlStore", "SqlTx", "Statements"]
