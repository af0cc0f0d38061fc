"""The agents' side: operations over the Hub, and their HTTP surface."""

from crewline.api.http import create_app
from crewline.api.operations import Caller, Operations

__all__ = ["Caller", "Operations", "create_app"]
