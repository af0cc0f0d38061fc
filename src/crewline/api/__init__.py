"""The agents' side: operations over the Hub, and their HTTP and MCP surfaces.

The surfaces are imported on first use, so ``crewline.api.models`` (what the Python client
shares with the server) loads without the web framework.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewline.api.http import create_app
    from crewline.api.operations import Caller, Operations
    from crewline.api.sse import EventStreams

__all__ = ["Caller", "EventStreams", "Operations", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from crewline.api.http import create_app

        return create_app
    if name in ("Caller", "Operations"):
        from crewline.api import operations

        return getattr(operations, name)
    if name == "EventStreams":
        from crewline.api.sse import EventStreams

        return EventStreams
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
