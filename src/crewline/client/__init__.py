"""crewline's Python client: every agent verb, typed, async (``Client``) or blocking
(``SyncClient``); refusals raise the exceptions of ``crewline.errors``.

    async with Client() as crewline:          # $CREWLINE_SESSION_KEY, $CREWLINE_URL
        sent = await crewline.escalate("Merge?", options=["yes", "no"])
        async for event in crewline.events(cursor_file="cursor"):
            ...
"""

from crewline.client.aio import DEFAULT_URL, Client, error_from
from crewline.client.cursor import CursorFile, CursorSink
from crewline.client.results import (
    Acted,
    Asked,
    Escalated,
    EscalationRecord,
    Event,
    EventPage,
    Posted,
    Replied,
    Sent,
    SessionInfo,
    Suggested,
)
from crewline.client.sync import SyncClient

__all__ = [
    "DEFAULT_URL",
    "Acted",
    "Asked",
    "Client",
    "CursorFile",
    "CursorSink",
    "Escalated",
    "EscalationRecord",
    "Event",
    "EventPage",
    "Posted",
    "Replied",
    "Sent",
    "SessionInfo",
    "Suggested",
    "SyncClient",
    "error_from",
]
