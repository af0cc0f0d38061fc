"""Chat surfaces behind one port, and the outbox that carries the core's changes to them."""

from crewline.transports.base import DeliveryLimits, HumanEventSink, Transport
from crewline.transports.memory import MemoryTransport
from crewline.transports.outbox import OutboxDispatcher, Renderer

__all__ = [
    "DeliveryLimits",
    "HumanEventSink",
    "MemoryTransport",
    "OutboxDispatcher",
    "Renderer",
    "Transport",
]
