"""Durable storage: the Store port. The SQLite implementation is ``crewline.store.sqlite``
(imported only by the adapters that open it, so the core never loads a database driver)."""

from crewline.store.base import OutboxEntry, PlatformMessage, SelRecord, Store, Tx

__all__ = ["OutboxEntry", "PlatformMessage", "SelRecord", "Store", "Tx"]
