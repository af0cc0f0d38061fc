"""Fleet facts: which value another member's row gives for a "which/what …?" question.

The core retrieves candidate rows by full-text search for ``fleet_terms`` and passes them
to ``judge`` as ``Fact`` values; this module reads them. It answers only when a fact states the
asked-for thing next to a value of the expected shape ("port 4321", "url https://…"); when
members disagree it says so, and the gate sends the question to the human.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from crewline.policy.wording import tokens, word_set, words_form

__all__ = [
    "Fact",
    "FleetReading",
    "fleet_terms",
    "named_members",
    "names_a_source",
    "read_fleet",
    "wh_target",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Fact:
    """One fleet row retrieved for the question (the core retrieves them by FTS)."""

    row_id: str
    member: str
    text: str
    at: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class FleetReading:
    """What the facts say: one value per member (the latest of its facts that gives one)."""

    values: tuple[tuple[str, Fact], ...]

    @property
    def agreed(self) -> tuple[str, Fact] | None:
        """The value and its latest source when every member gives the same value."""
        if not self.values:
            return None
        distinct = {value.casefold() for value, _ in self.values}
        if len(distinct) != 1:
            return None
        return max(self.values, key=lambda pair: pair[1].at)


_STOPWORDS = word_set(
    """a an the and or but if then so of to in on at by for with from into onto about as is
    are was were be been being am do does did doing done has have had having i me my we our
    you your he she it its they them their this that these those there here what which who
    whom whose where when why how whats s t d ll ve re shall should will would can could may
    might must please ok okay yes no not session sessions member agent found find finds say
    said says tell told report reported use used using get got any some just now still also
    """
)
_QUESTION_HEAD = re.compile(
    r"\b(?:which|what|whats|what s|how many|how much)\b(?: (?:is|was|are|were|s))?"
    r"(?: (?:the|a|an|our|its|their|this|that))?((?: [a-z0-9]+){1,4})"
)
_PHRASE_STOP = word_set(
    """did does do is was are were has have had should shall will would can could may might
    must for of on in at to that which the a an by from with did we i you it they per
    according as said says reported found"""
)

_NUMBER = r"\d+(?:[.,]\d+)?"
_SHAPES_URL = r"https?://[^\s,;)\"'>]+"
_PATH = r"[~.]?/?[\w.-]+(?:/[\w.-]+)+/?"
_FILE = rf"(?:{_PATH}|[\w-]+\.[a-z0-9]{{1,5}})"
_SHAPES: dict[str, str] = {
    "port": r"\d{2,5}",
    "version": r"v?\d+(?:\.\d+)*(?:[-+.][0-9a-z]+)*",
    "release": r"v?\d+(?:\.\d+)*(?:[-+.][0-9a-z]+)*",
    "sha": r"[0-9a-f]{7,40}",
    "commit": r"[0-9a-f]{7,40}",
    "hash": r"[0-9a-f]{7,40}",
    "url": r"https?://[^\s,;)\"'>]+",
    "link": r"https?://[^\s,;)\"'>]+",
    "endpoint": r"(?:https?://)?[^\s,;)\"'>]+",
    "ip": r"\d{1,3}(?:\.\d{1,3}){3}",
    "address": r"\d{1,3}(?:\.\d{1,3}){3}(?::\d{2,5})?|https?://[^\s,;)\"'>]+",
    "count": _NUMBER,
    "number": _NUMBER,
    "pid": r"\d+",
    "timeout": _NUMBER + r"\s*(?:ms|s|sec|seconds|minutes|min|m)?",
    "path": _PATH,
    "file": _FILE,
    "directory": _PATH,
    "dir": _PATH,
    "folder": _PATH,
}
# Shapes distinctive enough to be read without the noun next to them, in a fact of the member
# the question names: "What version did the migration session create?" → "Created schema v2".
_DISTINCT: dict[str, str] = {
    "version": r"v\d+(?:\.\d+)*|\d+\.\d+\.\d+",
    "url": _SHAPES_URL,
    "link": _SHAPES_URL,
    "sha": r"[0-9a-f]*\d[0-9a-f]*[a-f][0-9a-f]*|[0-9a-f]*[a-f][0-9a-f]*\d[0-9a-f]*",
    "commit": r"[0-9a-f]*\d[0-9a-f]*[a-f][0-9a-f]*|[0-9a-f]*[a-f][0-9a-f]*\d[0-9a-f]*",
    "ip": r"\d{1,3}(?:\.\d{1,3}){3}",
    "path": _PATH,
    "file": _FILE,
    "directory": _PATH,
    "folder": _PATH,
}
_GENERIC_VALUE = r"[\w./:@+-]*\w"
_LINKING = (
    r"(?:\s+(?:is|was|are|were|=|:|number|no\.?|of|at|on|to|became|now|set to|changed to"
    r"|moved to|called|named|went to|answered on|listening on|bound to|pinned to))*\s*[:=]?\s*"
)


def wh_target(question_words: str) -> tuple[str, tuple[str, ...]] | None:
    """The asked-for noun of a "which/what/how many …" question and its modifiers."""
    found = _QUESTION_HEAD.search(question_words)
    if found is None:
        return None
    phrase: list[str] = []
    for token in found.group(1).split():
        if token in _PHRASE_STOP:
            break
        phrase.append(token)
    if not phrase:
        return None
    head = phrase[-1]
    if head.endswith("s") and head[:-1] in _SHAPES:
        head = head[:-1]
    return head, tuple(t for t in phrase[:-1] if t not in _STOPWORDS)


@functools.lru_cache(maxsize=1024)
def _said_as(member: str) -> str:
    """A member's slug as the words form spells it, padded ("api-fix" → " api fix ")."""
    words = words_form(member.lower())
    return f" {words} " if words else ""


_SOURCE = re.compile(
    r"\bthe ((?:[a-z0-9]+ ){0,2}[a-z0-9]+) (?:session|member|agent|bot)\b"
    r"|\b(?:according to|per) (?:the )?((?:[a-z0-9]+ ){0,2}[a-z0-9]+)"
    r"|\bdid (?:the )?((?:[a-z0-9]+ ){0,2}[a-z0-9]+) (?:find|report|say|write|create|measure|see"
    r"|get|use|generate|produce|build|pick|choose|pass|run|note|log)\b"
    r"|\b(?!(?:i|we|you|they|he|she|it|that|this|what|which|who|as|was|is)\b)"
    r"((?:[a-z0-9]+ ){0,2}[a-z0-9]+) (?:said|says|found|reported|wrote|measured)\b"
)


def _sources(question_words: str) -> list[str]:
    """The words that say whose finding the question wants ("the probe session" → probe)."""
    return [
        f" {next(g for g in found.groups() if g)} " for found in _SOURCE.finditer(question_words)
    ]


def names_a_source(question_words: str) -> bool:
    """Does the question say whose finding it wants ("the radar session", "per radar")?"""
    return bool(_sources(question_words))


def named_members(question_words: str, facts: Sequence[Fact]) -> frozenset[str]:
    """The members of ``facts`` the question names: those it asks the finding of ("did the
    probe session find"), else any it mentions."""
    members = {fact.member for fact in facts if _said_as(fact.member)}
    if not members:
        return frozenset()  # nobody to name (no facts: the question needs none, or found none)
    sources = _sources(question_words)
    asked_of = frozenset(m for m in members if any(_said_as(m) in s for s in sources))
    if asked_of:
        return asked_of
    padded = f" {question_words} "
    return frozenset(m for m in members if _said_as(m) in padded)


def _value_in(text: str, head: str, *, counting: bool) -> str | None:
    shape = _SHAPES.get(head, _GENERIC_VALUE)
    noun = rf"\b{re.escape(head)}(?:s|es)?\b"
    if counting:
        before = re.search(rf"\b({_NUMBER})\s+(?:[a-z-]+\s+){{0,2}}{noun}", text, re.IGNORECASE)
        if before:
            return before.group(1)
    for after in re.finditer(rf"{noun}{_LINKING}[\"'`]?({shape})(?!\w)", text, re.IGNORECASE):
        value = after.group(1).rstrip(".")
        if value and value.lower() not in _STOPWORDS and value.lower() != head:
            return value
    return None


def _distinct_value_in(text: str, head: str) -> str | None:
    """The one value of the head's distinctive shape in ``text`` (None for none or several)."""
    shape = _DISTINCT.get(head)
    if shape is None:
        return None
    found = {
        m.group(0).rstrip(".")
        for m in re.finditer(rf"(?<![\w/.-])(?:{shape})(?![\w/-])", text, re.IGNORECASE)
    }
    return found.pop() if len(found) == 1 else None


def read_fleet(
    question_words: str, facts: Sequence[Fact], *, only: frozenset[str] = frozenset()
) -> FleetReading | None:
    """What the facts (those of the ``only`` members, when given) say about the asked noun.

    None when the question asks for no noun; an empty reading when no fact gives a value.
    """
    target = wh_target(question_words)
    if target is None:
        return None
    head, modifiers = target
    counting = "how many" in question_words or "how much" in question_words
    latest: dict[str, tuple[str, Fact]] = {}
    for fact in facts:
        if only and fact.member not in only:
            continue
        text = unicodedata.normalize("NFKC", fact.text)
        fact_words = set(tokens(text.lower())) | set(tokens(fact.member.lower()))
        if any(m not in fact_words for m in modifiers):
            continue
        value = _value_in(text, head, counting=counting)
        if value is None and only:
            value = _distinct_value_in(text, head)
        if value is None:
            continue
        held = latest.get(fact.member)
        if held is None or fact.at >= held[1].at:
            latest[fact.member] = (value, fact)
    return FleetReading(values=tuple(latest[m] for m in sorted(latest)))


def fleet_terms(question_words: str) -> list[str]:
    """The words fleet retrieval looks for: a question's content tokens, the first twelve."""
    seen: list[str] = []
    for token in question_words.split():
        if token in _STOPWORDS or len(token) < 2 or token in seen:
            continue
        seen.append(token)
    return seen[:12]
