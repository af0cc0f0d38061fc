"""Where a row says a word of the question in another written form of the same word: a day as
an ordinal ("the 11th" / "11 Mar"), a number glued to its unit ("7d" / "7 days"), a percentile
in its short notation ("95th percentile" / "p95"), a cadence as a rate ("daily" / "per day"),
a name by its initials or its numeronym ("Google Ad Manager" / "GAM", "mean time to repair" /
"MTTR", "kubernetes" / "k8s", "manual review sweep" / "MR sweep"), a word by its consonants
("routing svc" / "routing service"), a compound by its head ("board" / "dashboard"); and a
phrasal verb's particle ("came *back*"), which names no thing. Each form is one of writing, not of
meaning: it holds in any domain, and it never lets a row lack a word (the word lacked is most
often what tells a thing from its sibling, docs/concierge-rounds.md)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence

from crewline.policy.fleet.asking import STOP
from crewline.policy.lemmas import Token, clipped, known, root, tokens
from crewline.policy.wording import code_form, word_set

_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_PERCENTILE = re.compile(r"p(\d{1,2})")
# A number glued to its unit ("7d", "30s", "12h") and the unit's words as a row writes them.
_GLUED_UNIT = re.compile(r"(\d+)(d|h|hr|hrs|w|wk|wks|m|min|mins|s|sec|secs|y|yr|yrs)")
_UNIT_WORDS = {
    "d": "days?",
    "h": "h(?:ours?|rs?)",
    "w": "w(?:eeks?|ks?)",
    "m": "min(?:utes?|s)?",
    "s": "s(?:econds?|ecs?)",
    "y": "y(?:ears?|rs?)",
}
# A cadence adjective and the rate a row says it as: "daily" is "per day", "a day", "/day".
_CADENCE_UNITS = {
    "daily": "day",
    "hourly": "hour",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
}


@functools.cache
def _cadences() -> dict[str, str]:
    """The cadences by root (built at first use: a root reads the lemmatiser's dictionary,
    which importing the server must not)."""
    return {root(word): unit for word, unit in _CADENCE_UNITS.items()}


# The words an initialism may take a letter from or skip ("mean time to repair": MTTR;
# "proof of delivery": POD; "requests per second": RPS).
_LINKS = word_set("of to per and for the a an in on at")
# Adverb particles of a phrasal verb ("came back", "went away"): the verb's, not a thing's;
# the reader's stop words hold the others ("up", "out", "off", "over").
_PARTICLES = word_set("back away")


def says_in_another_form(term: str, words: Sequence[Token], text: str) -> bool:
    """Does the row (its ``text`` as written and its ``words``) say the question's root
    ``term`` in another written form of it?"""
    if _ordinal_said(term, text) or _percentile_said(term, words):
        return True
    glued = _GLUED_UNIT.fullmatch(term)
    if glued is not None:
        unit = _UNIT_WORDS[glued.group(2)[0]]
        said = rf"(?<![\d.]){glued.group(1)}\s*-?\s*{unit}\b"
        return re.search(said, text, re.IGNORECASE) is not None
    if term in _cadences():
        unit = _cadences()[term]
        rate = rf"(?:\b(?:per|a|an|each|every)\s+|/\s*){unit}\b"
        return re.search(rate, text, re.IGNORECASE) is not None
    return _head_said(term, text)


def _ordinal_said(term: str, text: str) -> bool:
    """ "the 11th" by the day of a date the row writes ("11 Mar", "Dec 11", "2026-12-11"):
    a day's number elsewhere in the row ("11 turbines") is no ordinal of it."""
    ordinal = _ORDINAL.fullmatch(term)
    if ordinal is None:
        return False
    day = rf"0?{ordinal.group(1)}(?:st|nd|rd|th)?"
    dated = (
        rf"\b{_MONTHS}\.?\s+{day}\b(?!:)|(?<![\d.:]){day}\s+(?:of\s+)?{_MONTHS}\b"
        rf"|\b\d{{4}}-\d{{2}}-{day}\b"
    )
    return re.search(dated, text, re.IGNORECASE) is not None


_MONTHS = (
    "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    "|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)


def _percentile_said(term: str, words: Sequence[Token]) -> bool:
    """ "95th" and "percentile" of "the 95th percentile" by "p95"."""
    marks = [m.group(1) for w in words if (m := _PERCENTILE.fullmatch(w.text)) is not None]
    if term == root("percentile"):
        return bool(marks)
    ordinal = _ORDINAL.fullmatch(term)
    return ordinal is not None and ordinal.group(1) in marks


def _head_said(term: str, text: str) -> bool:
    """Is ``term`` the head of a compound the row writes as one word — a word of the
    dictionary or a camel-cased name — after a modifier that is a word of its own ("board"
    of "dashboard", "positions" of "VehiclePositions"; never "start" of "restart", nor
    "field" of the place "Brackenfield")?"""
    if len(term) < 4 or not term.isalpha():
        return False
    for found in _WORD.finditer(text):
        written = found.group(0)
        whole = root(written.lower())
        modifier = whole[: -len(term)]
        if not whole.endswith(term) or len(modifier) < 4 or not known(modifier):
            continue
        if modifier in STOP:
            continue  # a particle before a word makes another word: "download" is no load
        if known(written.lower()) or _CAMEL.fullmatch(written):
            return True
    return False


_WORD = re.compile(r"[A-Za-z]+")
_CAMEL = re.compile(r"[A-Z]?[a-z]+(?:[A-Z][a-z]+)+")


def said_in_question_forms(question: str, text: str) -> tuple[frozenset[str], frozenset[str]]:
    """What the row says of the question's words by their initials or numeronym (their
    roots, the row's "GAM" for "Google Ad Manager", "k8s" for "kubernetes", and the
    question's "POD" for the row's "proof-of-delivery"), and the roots of the question's
    words that are a phrasal verb's particle ("came *back*"), which name no thing."""
    asked = tokens(question)
    row = tokens(code_form(text))
    said: set[str] = set()
    for short in _initialisms(text):
        for span in _spans(asked, short):
            said |= {root(w.text) for w in span} | {root(w.lemma) for w in span}
    for word in asked:
        if not known(word.text) and _initialisms_of(word.text, row):
            said |= {root(word.text)}
    for word in asked:
        if word.text in STOP:
            continue
        if any(w.text not in STOP and clipped(word.text, w.text, both=True) for w in row):
            said |= {root(word.text), root(word.lemma)}
    said |= _short_forms_beside(asked, row)
    for word in row:
        numeronym = re.fullmatch(r"([a-z])(\d{1,2})([a-z])", word.text)
        if numeronym is None or int(numeronym.group(2)) < 3:
            continue  # "e2e", "b2b": a letter and a "to", no numeronym
        first, inside, last = numeronym.groups()
        said |= {
            root(w.text)
            for w in asked
            if w.text[0] == first and w.text[-1] == last and len(w.text) == int(inside) + 2
        }
    idle = {
        root(word.text)
        for before, word in itertools.pairwise(asked)
        if word.text in _PARTICLES and before.text not in STOP and before.text.isalpha()
    }
    return frozenset(said), frozenset(idle)


def _initialisms(text: str) -> set[str]:
    """The row's initialisms, lower case: its words of three to six capitals ("GAM",
    "MTTR"), and of two ("OD") where they label the row's thing, first in it or in a clause
    (two letters name a run of the question's words by chance more often: they must stand
    for exactly two content words, ``_spans``)."""
    out = {m.group(0).lower() for m in re.finditer(r"(?<![\w-])[A-Z]{3,6}(?![\w-])", text)}
    return out | {m.group(1).lower() for m in _LABEL_PAIR.finditer(text)}


# Two capitals that open the row or a clause and name its thing ("OD for EOS-07 converged",
# "…; TC queue on EOS-06"), never after a number ("3 PM") or inside a name ("SVL-2").
_LABEL_PAIR = re.compile(r"(?:^|[.;:!?]\s+|\s[-\u2013\u2014]\s+)([A-Z]{2})(?![\w-])")


def _spans(words: Sequence[Token], short: str) -> list[Sequence[Token]]:
    """The runs of two or more ``words`` of which ``short`` is the initials, a linking word
    ("of", "to", "per") giving its letter or none."""
    found = []
    for start in range(len(words)):
        for end in range(start + 2, min(len(words), start + 2 * len(short)) + 1):
            span = words[start:end]
            if span[0].text in _LINKS or span[-1].text in _LINKS:
                continue
            if len(short) == 2 and not _named_pair(span):
                continue
            if _initials_fit(short, [w.text for w in span]):
                found.append(span)
    return found


def _named_pair(span: Sequence[Token]) -> bool:
    """May two letters stand for these words? Two dictionary words of five letters or more,
    each in its own form ("orbit determination", "quality control"): a shorter word, an
    inflected one ("commit introduced", "tell customers") or a name ("hamburg") makes the
    pair a chance run of the question's words."""
    return len(span) == 2 and all(
        len(w.text) >= 5 and w.text.isalpha() and w.lemma == w.text and known(w.text) for w in span
    )


def _initials_fit(short: str, words: Sequence[str]) -> bool:
    """Are ``short``'s letters the initials of ``words`` in order, each word giving one, a
    linking word one or none?"""
    if not words:
        return not short
    first, rest = words[0], words[1:]
    if first in _LINKS:
        return _initials_fit(short, rest) or (
            bool(short) and first[0] == short[0] and _initials_fit(short[1:], rest)
        )
    if first in STOP or not first.isalpha():
        return False  # a run of the thing's words: "data pulled over" is no "DPO"
    return bool(short) and first[0] == short[0] and _initials_fit(short[1:], rest)


def _initialisms_of(word: str, row: Sequence[Token]) -> bool:
    """Is a question's word of three letters or more the initials of a run of the row's words
    ("pod" of "proof-of-delivery")?"""
    if len(word) < 3 or not word.isalpha():
        return False
    return any(
        _initials_fit(word, [w.text for w in row[start:end]])
        for start in range(len(row))
        for end in range(start + 2, min(len(row), start + 2 * len(word)) + 1)
        if row[start].text not in _LINKS and row[end - 1].text not in _LINKS
    )


def _short_forms_beside(asked: Sequence[Token], row: Sequence[Token]) -> set[str]:
    """The roots of the question's words the row says in a short form beside a word both
    say: a word by its consonants ("routing *svc*" of "routing service", "*cfg* file" of
    "configuration file", either way round), two words by their initials ("3 Mar *MR*
    sweep" of "3 Mar manual review sweep"). Letters this few fit many words by chance ("sms"
    of "submission", "CI" of "chunk interval"): the word beside must tie the two."""
    said: set[str] = set()
    for i, word in enumerate(asked):
        if word.text in STOP or not word.text.isalpha():
            continue
        beside = _beside(asked, i, i + 1)
        for j, other in enumerate(row):
            if other.text in STOP:
                continue
            if _consonants_fit(word, other) and beside & _beside(row, j, j + 1):
                said |= {root(word.text), root(word.lemma)}
            pair = row[j : j + 2]
            if (
                len(word.text) == 2
                and len(pair) == 2
                and word.text == pair[0].text[0] + pair[1].text[0]
                and _named_pair(pair)
                and beside & _beside(row, j, j + 2)
            ):
                said |= {root(word.text)}
    return said


def _beside(words: Sequence[Token], start: int, end: int) -> set[str]:
    """The roots of the words right before and after ``words[start:end]`` ("runway *27*" of
    "rwy *27*"), stop words aside."""
    near = (words[k] for k in (start - 1, end) if 0 <= k < len(words))
    return {r for t in near if t.text not in STOP for r in (root(t.text), root(t.lemma))}


_VOWELS = frozenset("aeiou")


def _consonants_fit(a: Token, b: Token) -> bool:
    """Is the shorter word the other's first letter and then consonants of it in their
    order ("svc" of "service", "cfg" of "configuration", "mgmt" of "management"): three
    letters or more and no word of the dictionary, the other a word of it in its own form
    ("tls" is no form of "tools", whose lemma has no "s"), two letters longer at least?"""
    short, long = (a.text, b.lemma) if len(a.text) <= len(b.text) else (b.text, a.lemma)
    if len(short) < 3 or not short.isalpha() or known(short) or short[0] != long[:1]:
        return False
    if not long.isalpha() or len(long) < len(short) + 2 or not known(long):
        return False
    if any(c in _VOWELS for c in short[1:]):
        return False
    rest = iter(long[1:])
    return all(c in rest for c in short[1:])
