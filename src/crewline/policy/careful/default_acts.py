"""A stated default that is itself a step: "Expired samples: dispose (default) or keep?".

Answering such a question with its default does the default: the concierge would dispose of
the samples. The default's verb stands alone in its option, so the act finders read no object
for it ("it disposes default") or none at all (a verb in backticks is a name); here the
default is read as the step it is, on the thing the question is about, and judged as that
step (``default_act``). Only ever careful: a default that is no act, or a question with no
thing to act on, is left to the other rules."""

from __future__ import annotations

import re

from crewline.policy.careful.finding import SPACES, find_act
from crewline.policy.careful.verdicts import Act

# A default option said as a verb, with what it may carry: "dispose (default)", "`purge`
# (default)", "dispose of them (default)", "chuck it out (default)", "destroy (our default)".
_MARKED_STEP = re.compile(
    r"(?P<step>`[a-z][\w-]*`|[a-z][\w-]*(?:\s+(?:them|it|those|these|all)(?=\s+(?:off|out|away|up|down)\b))?"
    r"(?:\s+(?:of|off|out|away|up|down))?"
    r"(?:\s+(?:them|it|those|these|all))?)"
    r"\s*\((?:the\s+|our\s+|my\s+)?default\)",
    re.IGNORECASE,
)
# What the question says it asks about, before the options: "what to do with X:", "what
# should I do with X —", "X:", "X ->".
_WHAT_TO_DO_WITH = re.compile(
    r"\bwhat\s+(?:[a-z']+\s+){0,3}?do\s+(?:with|about)\s+(?P<thing>[^:;?!,()\u2014\u2013>]+)",
    re.IGNORECASE,
)
_HEADING = re.compile(
    r"^\s*(?P<thing>[^:;?!,()\u2014\u2013>]{3,80}?)\s*(?::|\s-+>|\s[-\u2013\u2014]+\s|[\u2013\u2014]|\u2192)"
)
# The thing named after the other option: "Delete (default) or keep the old logs?".
_AFTER_THE_OTHER = re.compile(
    r"\(\s*(?:the\s+|our\s+|my\s+)?default\s*\)\s*(?:or|/)\s+[a-z][\w-]*\s+"
    r"(?P<thing>(?:the|our|all|these|those|last|this)\b[^,;:?!()]*)",
    re.IGNORECASE,
)
# The pronoun a step says its thing by, at its end or before its particle ("chuck it out").
_PRONOUN_END = re.compile(r"\s+(?:them|it|those|these|all)(?=\s+\w+$|$)", re.IGNORECASE)
_DETERMINED = re.compile(r"^(?:the|our|my|all|these|those|this|that|last|any)\b", re.IGNORECASE)
# The other option said as a step of keeping, holding or putting off: the pair is a choice of
# what to do with the thing, so the default is a verb, never a value ("release (default) or
# debug" is a build type, and stays the reader's).
_OTHER_STEP = re.compile(
    r"\(\s*(?:the\s+|our\s+|my\s+)?default\s*\)\s*(?:,\s*)?(?:or|/)\s+(?:`)?"
    r"(?:keep|retain|hold|store|archive|save|leave|skip|ignore|wait|freeze|return|reuse"
    r"|recycle|quarantine|park|shelve|pause|postpone|defer|delay|draft|review|check|move"
    r"|donate|sell|mark|flag|label|test)\b",
    re.IGNORECASE,
)
# A verb whose object follows "of" ("dispose of the samples").
_TAKES_OF = frozenset(["dispose"])


def _thing(text: str) -> str | None:
    """What the question asks to be done with, in its own words, or None."""
    for pattern in (_AFTER_THE_OTHER, _WHAT_TO_DO_WITH, _HEADING):
        m = pattern.search(text)
        if m is not None and m.group("thing").strip():
            thing = m.group("thing").strip()
            if not _DETERMINED.match(thing) and "'" not in thing.split()[0]:
                thing = f"the {thing[0].lower()}{thing[1:]}"
            return thing
    return None


def _as_a_step(step: str, thing: str) -> str:
    """The default said as the step it is, on the thing: "dispose" → "dispose of the expired
    samples", "`purge`" → "purge the old logs", "dispose of them" → "dispose of the …"."""
    verb = _PRONOUN_END.sub("", step.strip("`").strip())
    if verb.lower() in _TAKES_OF:
        verb = f"{verb} of"
    return f"{verb} {thing}"


def default_act(question: str) -> Act | None:
    """The act a default said as a verb does to the thing the question is about, or None."""
    text = SPACES.sub(" ", question).strip()
    marked = _MARKED_STEP.search(text)
    if marked is None or (
        _OTHER_STEP.search(text) is None and _WHAT_TO_DO_WITH.search(text) is None
    ):
        return None
    thing = _thing(text)
    if thing is None or find_act(thing) is not None:
        return None  # the thing's own act is the other rules' to read
    return find_act(_as_a_step(marked.group("step"), thing))


__all__ = ["default_act"]
