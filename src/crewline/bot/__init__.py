"""The core, transport- and storage-agnostic: one Hub, one actor per member, which names no
feature; and the features in their folders (escalations, questions, boundaries, the
concierge), each registering what it handles (``bot/ports.py``)."""

from crewline.bot.hub import Hub
from crewline.bot.render import CoreRenderer

__all__ = ["CoreRenderer", "Hub"]
