"""authorize(caller, verb) -> Decision: pure, no I/O, no clock."""

from __future__ import annotations

from dataclasses import dataclass

from crewline.models import Session
from crewline.policy.verbs import VERB_GRANTS, Verb

__all__ = ["Decision", "authorize", "granted"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Decision:
    allowed: bool
    code: str | None = None
    reason: str | None = None


ALLOW = Decision(allowed=True)


def authorize(caller: Session, verb: Verb) -> Decision:
    """May ``caller`` use ``verb``? The caller acts on the decision (refuses, audits)."""
    granted = VERB_GRANTS.get(verb)
    if granted is None:
        return Decision(allowed=False, code="verb_unclassified", reason=f"{verb} is not classified")
    if caller.kind not in granted:
        return Decision(
            allowed=False,
            code="caller_blocked",
            reason=f"a {caller.kind.value} session may not use {verb.value}",
        )
    return ALLOW


def granted(caller: Session) -> frozenset[Verb]:
    """Every verb ``caller`` may use: what a surface lists for it (MCP's tools), so that a
    listing and a call are decided by the same table."""
    return frozenset(verb for verb in Verb if authorize(caller, verb).allowed)
