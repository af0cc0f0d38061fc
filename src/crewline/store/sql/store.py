"""The one SQL implementation of the Store port: ``SqlTx``, the roles' transaction parts over
a transaction's ``Statements``, and ``SqlStore``, the roles' reads over an engine's fetch.

An engine (``SqliteStore``, ``PostgresStore``) adds what only it knows: its dialect, where
its transactions run and how they commit, where its reads run, and its migrations.
"""

from __future__ import annotations

from crewline.store.base import Store, Tx
from crewline.store.sql.audit import SqlAuditReads, SqlAuditTx
from crewline.store.sql.boundaries import SqlBoundariesTx
from crewline.store.sql.concierge import SqlConciergeReads, SqlConciergeTx
from crewline.store.sql.dialect import MEMBER_LOCKS, Statements
from crewline.store.sql.events import SqlEventsReads, SqlEventsTx
from crewline.store.sql.members import SqlMembersReads, SqlMembersTx
from crewline.store.sql.outbox import SqlOutboxReads, SqlOutboxTx
from crewline.store.sql.push import SqlPushReads, SqlPushTx
from crewline.store.sql.receipts import SqlReceiptsReads, SqlReceiptsTx
from crewline.store.sql.records import SqlRecordsReads, SqlRecordsTx
from crewline.store.sql.settings import SqlSettingsReads, SqlSettingsTx
from crewline.store.sql.transcript import SqlTranscriptReads, SqlTranscriptTx

__all__ = ["SqlStore", "SqlTx"]


class SqlTx(
    SqlMembersTx,
    SqlTranscriptTx,
    SqlRecordsTx,
    SqlOutboxTx,
    SqlEventsTx,
    SqlBoundariesTx,
    SqlReceiptsTx,
    SqlAuditTx,
    SqlPushTx,
    SqlSettingsTx,
    SqlConciergeTx,
    Tx,
):
    """One transaction's ``Tx``, whichever engine runs it."""

    def __init__(self, statements: Statements) -> None:
        self._s = statements
        self._d = statements.dialect
        self.index_written = False

    def serialize(self, key: str) -> None:
        # Taken first in its transaction: one key per transaction, or several in sorted
        # order (the concierge's batch) before anything else. Every other lock is taken
        # after these, so no cycle can form.
        self._s.lock(key, MEMBER_LOCKS)

    def finish(self) -> None:
        """Send what the transaction still holds back; whoever runs it calls this last."""
        self._s.finish()


class SqlStore(
    SqlMembersReads,
    SqlTranscriptReads,
    SqlRecordsReads,
    SqlOutboxReads,
    SqlEventsReads,
    SqlReceiptsReads,
    SqlAuditReads,
    SqlPushReads,
    SqlSettingsReads,
    SqlConciergeReads,
    Store,
):
    """The Store's reads, once; an engine provides ``dialect``, ``_fetch`` and the rest."""
