"""The Store's role ports, each a small ABC with its contract; ``store/base.py`` composes
them into the one ``Tx`` a change runs in and the ``Store``'s reads."""

from crewline.store.ports.audit import AuditReads, AuditTx, SelRecord
from crewline.store.ports.boundaries import BoundariesTx, BoundaryRecord
from crewline.store.ports.concierge import ConciergeReads, ConciergeTx
from crewline.store.ports.coordination import CoordinationTx
from crewline.store.ports.events import EventsReads, EventsTx
from crewline.store.ports.members import MembersReads, MembersTx
from crewline.store.ports.outbox import (
    OutboxBacklog,
    OutboxEntry,
    OutboxReads,
    OutboxTx,
    PlatformMessage,
    PostContext,
    RedrawContext,
)
from crewline.store.ports.push import PushReads, PushTx, Webhook
from crewline.store.ports.receipts import IdempotencyRecord, ReceiptsReads, ReceiptsTx, SeenEvent
from crewline.store.ports.records import CardRead, RecordsReads, RecordsTx
from crewline.store.ports.settings import SettingsReads, SettingsTx
from crewline.store.ports.transcript import TranscriptReads, TranscriptTx

__all__ = [
    "AuditReads",
    "AuditTx",
    "BoundariesTx",
    "BoundaryRecord",
    "CardRead",
    "ConciergeReads",
    "ConciergeTx",
    "CoordinationTx",
    "EventsReads",
    "EventsTx",
    "IdempotencyRecord",
    "MembersReads",
    "MembersTx",
    "OutboxBacklog",
    "OutboxEntry",
    "OutboxReads",
    "OutboxTx",
    "PlatformMessage",
    "PostContext",
    "PushReads",
    "PushTx",
    "ReceiptsReads",
    "ReceiptsTx",
    "RecordsReads",
    "RecordsTx",
    "RedrawContext",
    "SeenEvent",
    "SelRecord",
    "SettingsReads",
    "SettingsTx",
    "TranscriptReads",
    "TranscriptTx",
    "Webhook",
]
