"""Context boundaries (SPEC §5): rewind, edit-resend, regenerate, reset and fork, their
chat commands, the Regenerate button and edited messages."""

from crewline.bot.boundaries.fork import Forked, fork
from crewline.bot.boundaries.run import (
    DEFAULT_WAIT,
    DRAIN_PASSES,
    Boundaries,
    HookPoint,
    outcome_error,
)
from crewline.bot.boundaries.transactions import BoundaryKind, BoundaryRequest, Frozen, Outcome

__all__ = [
    "DEFAULT_WAIT",
    "DRAIN_PASSES",
    "Boundaries",
    "BoundaryKind",
    "BoundaryRequest",
    "Forked",
    "Frozen",
    "HookPoint",
    "Outcome",
    "fork",
    "outcome_error",
]
