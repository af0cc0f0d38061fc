"""Chat surfaces behind one port, and the outbox that carries the core's changes to them."""

from crewline.transports.base import Connection, DeliveryLimits, HumanEventSink, Transport
from crewline.transports.memory import MemoryTransport
from crewline.transports.outbox import OutboxDispatcher, Renderer

__all__ = [
    "Connection",
    "DeliveryLimits",
    "HumanEventSink",
    "MemoryTransport",
    "OutboxDispatcher",
    "Renderer",
    "Transport",
]
