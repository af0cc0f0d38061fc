"""Pure decisions: who may do what. No I/O, no clock (time is passed in)."""

from crewline.policy.gates import Decision, authorize, granted
from crewline.policy.routine import Fact, Verdict, VerdictKind, fleet_terms, judge
from crewline.policy.verbs import VERB_GRANTS, Verb

__all__ = [
    "VERB_GRANTS",
    "Decision",
    "Fact",
    "Verb",
    "Verdict",
    "VerdictKind",
    "authorize",
    "fleet_terms",
    "granted",
    "judge",
]
