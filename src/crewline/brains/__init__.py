"""Brains: what drafts the concierge's text behind one port. The gate decides; a brain words.

``LlmBrain`` is imported on first use, so the core can import this package without loading
an HTTP client library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crewline.brains.base import MAX_DRAFT_CHARS, Brain, BrainAsk, Draft, plain_text
from crewline.brains.offline import OfflineBrain
from crewline.brains.settings import LlmSettings

if TYPE_CHECKING:
    from crewline.brains.llm import LlmBrain

__all__ = [
    "MAX_DRAFT_CHARS",
    "Brain",
    "BrainAsk",
    "Draft",
    "LlmBrain",
    "LlmSettings",
    "OfflineBrain",
    "plain_text",
]


def __getattr__(name: str) -> Any:
    if name == "LlmBrain":
        from crewline.brains.llm import LlmBrain

        return LlmBrain
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
