"""The Store port: what the core may ask of storage, whatever the engine.

The port is made of small role ports (``store/ports``: members and sessions, the
transcript, records, the outbox, session events, boundaries, receipts, the audit log,
webhooks, settings, the concierge, coordination), each with its contract. A change runs in
one :class:`Tx`, the roles' transaction parts composed; reads outside a transaction are
the async methods of :class:`Store`, the roles' read parts composed, and see committed data
only. The ordering guarantees the core pages and collapses by are written on their roles:
event cursors (events), lanes (outbox), the backlog ceiling (records), dedupe (receipts),
one change per member at a time (coordination).

Writes are whole transactions: a synchronous function that takes a :class:`Tx`, so it can
read its own writes and decide atomically (the backlog ceiling, dedupe of redelivered
events). A store may run it on the event loop (SqliteStore) or on a worker thread with a
connection of its own (PostgresStore); both batch concurrent transactions into one commit,
and may run it more than once (when the database asks to retry a lock conflict, or when a
neighbour in its batch failed and the batch runs again one transaction at a time). So a
transaction function touches nothing but its ``Tx``: no event loop, no transport or brain
call, no effect outside (after-commit effects run after ``write`` returns). Each caller
gets its own result or its own exception; a transaction that raises is rolled back alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TypeVar

import crewline.store.ports as ports

__all__ = ["Store", "Tx"]

T = TypeVar("T")


class Tx(
    ports.CoordinationTx,
    ports.MembersTx,
    ports.TranscriptTx,
    ports.RecordsTx,
    ports.OutboxTx,
    ports.EventsTx,
    ports.BoundariesTx,
    ports.ReceiptsTx,
    ports.AuditTx,
    ports.PushTx,
    ports.SettingsTx,
    ports.ConciergeTx,
    ABC,
):
    """Operations inside one write transaction; synchronous, on whatever thread the store
    runs the transaction (see the module docstring). They read the transaction's own writes.

    Any exception raised inside the transaction function (a method's documented Conflict,
    NotFound or Unavailable included) rolls back everything it did.
    """


class Store(
    ports.MembersReads,
    ports.TranscriptReads,
    ports.RecordsReads,
    ports.OutboxReads,
    ports.EventsReads,
    ports.ReceiptsReads,
    ports.AuditReads,
    ports.PushReads,
    ports.SettingsReads,
    ports.ConciergeReads,
    ABC,
):
    """Durable storage for one crewline. Open it with ``async with``."""

    @abstractmethod
    async def __aenter__(self) -> Store:
        """Open the database, applying the store's migrations; raises if it cannot."""

    @abstractmethod
    async def __aexit__(self, *exc_info: object) -> None:
        """Close: writes still queued are cancelled, committed ones stay."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of this database's last applied migration (in the store's own
        numbering)."""

    @abstractmethod
    async def data_version(self) -> int | None:
        """A number that moves whenever a transaction commits on another connection to the
        database (another process's, or this store's own writer's) and stays put otherwise,
        read without reading any table; None where the store cannot tell. What watches a
        value another process may write reads it only when this moved."""

    @abstractmethod
    def latest_schema_version(self) -> int:
        """The number of the newest migration this crewline ships for the store."""

    @abstractmethod
    async def write(
        self, transaction: Callable[[Tx], T], *, heavy: bool = False, lazy: bool = False
    ) -> T:
        """Run ``transaction`` atomically and durably; its result, or its exception.

        ``heavy``: it may read or write many rows (a reconciliation); the store keeps it
        from holding up everything else while it runs.
        ``lazy``: bookkeeping no one else waits for (an outbox entry's settle, a ledger
        record): a store that commits one batch at a time may hold it back a moment for
        another write to share its commit, so that it does not start a commit of its own
        just before a change somebody waits for arrives. It is as durable as any write when
        this returns.
        """

    @abstractmethod
    async def rebuild_index(self, refill: Callable[[Tx], T]) -> T | None:
        """Replace an escalation index that cannot be read by a new table, filled by
        ``refill``, in one transaction (heavy, as ``write``'s): a reader sees the torn index
        (Unavailable) until it commits, then the whole new one, never an empty or partial
        one. One rebuild at a time, on every replica: a rebuild that finds the index
        readable once its turn comes (another rebuilt it meanwhile) changes nothing and
        returns None; else ``refill``'s result.
        """
