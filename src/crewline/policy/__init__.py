"""Pure decisions: who may do what. No I/O, no clock (time is passed in)."""

from crewline.policy.gates import Decision, authorize, granted
from crewline.policy.routine import Fact, Verdict, VerdictKind, fts_query, judge
from crewline.policy.verbs import VERB_GRANTS, Verb

__all__ = [
    "VERB_GRANTS",
    "Decision",
    "Fact",
    "Verb",
    "Verdict",
    "VerdictKind",
    "authorize",
    "fts_query",
    "granted",
    "judge",
]
