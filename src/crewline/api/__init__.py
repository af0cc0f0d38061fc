"""The agents' side: operations over the Hub, and their HTTP surface."""

from crewline.api.http import create_app
from crewline.api.operations import Caller, Operations
from crewline.api.sse import EventStreams

__all__ = ["Caller", "EventStreams", "Operations", "create_app"]
