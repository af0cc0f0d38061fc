"""The core: transport- and storage-agnostic. One Hub, one actor per member."""

from crewline.bot.escalations import EscalationRequest
from crewline.bot.hub import EscalationReceipt, Hub
from crewline.bot.render import CoreRenderer

__all__ = ["CoreRenderer", "EscalationReceipt", "EscalationRequest", "Hub"]
