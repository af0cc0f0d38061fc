"""Durable storage: the Store port. The SQLite implementation is ``crewline.store.sqlite``
(imported only by the adapters that open it, so the core never loads a database driver)."""

from crewline.store.base import Store, Tx
from crewline.store.ports import (
    BoundaryRecord,
    CardRead,
    IdempotencyRecord,
    OutboxBacklog,
    OutboxEntry,
    PlatformMessage,
    PostContext,
    RedrawContext,
    SeenEvent,
    SelRecord,
    Webhook,
)

__all__ = [
    "BoundaryRecord",
    "CardRead",
    "IdempotencyRecord",
    "OutboxBacklog",
    "OutboxEntry",
    "PlatformMessage",
    "PostContext",
    "RedrawContext",
    "SeenEvent",
    "SelRecord",
    "Store",
    "Tx",
    "Webhook",
]
