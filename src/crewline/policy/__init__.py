"""Pure decisions: who may do what. No I/O, no clock (time is passed in)."""

from crewline.policy.careful import careful
from crewline.policy.gates import Decision, authorize, granted
from crewline.policy.routine import (
    Fact,
    Placement,
    Verdict,
    VerdictKind,
    check_placement,
    judge,
    needs_facts,
    search_terms,
)
from crewline.policy.verbs import VERB_GRANTS, Verb

__all__ = [
    "VERB_GRANTS",
    "Decision",
    "Fact",
    "Placement",
    "Verb",
    "Verdict",
    "VerdictKind",
    "authorize",
    "careful",
    "check_placement",
    "granted",
    "judge",
    "needs_facts",
    "search_terms",
]
