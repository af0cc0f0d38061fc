"""Words as the gate reads them: each token with its lemma and its stem.

The gate recognises questions by their structure over *lemmas* ("deleting", "deleted" and
"deletes" are all ``delete``; "took" is ``take``), and matches a question to what the fleet
said over *stems* ("migration", "migrated" and "migrator" share ``migrat``). Two kept
libraries do the work, each for what it measured best at on the development set (see
docs/concierge.md, "Lemmas"): simplemma's English dictionary for lemmas (irregular forms
included; 141 of 144 inflections right together with the stemmer, against 113 for a stemmer
alone) and the Snowball English stemmer for derived forms (13 of 21 pairs, against 5 for
lemmas alone). Both ship their data; nothing is fetched. Results are cached per word, so a
question costs dictionary look-ups only for words not seen before.

simplemma reads its dictionary on first use (about 0.7 s): ``preload`` does that up front, off
the event loop.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import simplemma
import snowballstemmer

__all__ = ["Token", "clipped", "known", "lemma", "preload", "root", "stem", "tokens"]

# Where the dictionary's entry is not the word a reader of agents' questions means (simplemma
# keeps "fixed" as an adjective "fixe", "gone" as "gan"): the verb, as the gate needs it.
_OVERRIDES = {
    "fixed": "fix",
    "gone": "go",
    "cancelled": "cancel",
    "canceled": "cancel",
    "cancelling": "cancel",
    "writing": "write",
    "left": "leave",
    "bound": "bind",
    "broke": "break",
    "ok": "ok",
    "data": "data",
    "ms": "ms",
    "os": "os",
    "dns": "dns",
    "redis": "redis",
    "postgres": "postgres",
    "kubernetes": "kubernetes",
    "is": "be",
    "s": "s",
}
_STEMMER = snowballstemmer.stemmer("english")
_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, kw_only=True, slots=True)
class Token:
    """One word of a text: as written (lower case), its lemma and stem, where it starts."""

    text: str
    lemma: str
    stem: str
    start: int
    end: int


@functools.lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """The dictionary form of a lower-case word ("took" → "take"); the word when unknown."""
    if word in _OVERRIDES:
        return _OVERRIDES[word]
    if not word.isalpha() or len(word) < 3:
        return word
    return str(simplemma.lemmatize(word, lang="en")).lower()


@functools.lru_cache(maxsize=65536)
def known(word: str) -> bool:
    """Is the word one of the dictionary's ("Cloud", "Monitoring"), as a person's name
    mostly is not ("Okafor")?"""
    return bool(simplemma.is_known(word.lower(), lang="en"))


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem of a word's lemma ("migrator" → "migrat"): what matching compares."""
    base = lemma(word)
    if not base.isalpha():
        return base
    return str(_STEMMER.stemWord(base))


@functools.lru_cache(maxsize=65536)
def root(word: str) -> str:
    """The stem with an agent's ending taken off, to match a member's name to what it does
    ("scanner" and "scan", "builder" and "build", "prober" and "probe" share a root)."""
    base = stem(word)
    if len(base) >= 6 and base.endswith(("er", "or")):
        base = base[:-2]
        if len(base) >= 4 and base[-1] == base[-2] and base[-1] not in "aeiouls":
            base = base[:-1]
    return base[:-1] if len(base) >= 4 and base.endswith("e") else base


# How many letters a clipping of a dictionary word drops from a word of the dictionary.
_CLIPPED_AT_LEAST = 4


def clipped(short: str, long: str, *, both: bool = False) -> bool:
    """Is ``short`` a word clipped from ``long``, as agents write it ("cal" of "calibration",
    "ortho" of "orthorectification", "config" of "configuration")? Two plain words, the clip
    of three letters or more and two at least short of the word (``both``: either way
    round). A word of three letters the dictionary knows as itself is another word ("cat"
    of "catalogue", "ban" of "bandwidth", "con", "pro", "pre"), but for one it reads as a
    clipping of a longer word ("cal", calorie); shorter ones never ("on", "in"). A word of
    its own that begins a compound with another word is none ("every" of "everything",
    "pass" of "password"), nor one a few letters short of another ("port" of "portal")."""
    if both and len(short) > len(long):
        short, long = long, short
    if not (short.isalpha() and long.isalpha()) or len(short) < 3:
        return False
    if len(long) < len(short) + 2 or not long.startswith(short):
        return False
    if not known(short):
        return True
    if len(long) - len(short) >= 3 and known(long[len(short) :]):
        return False
    if len(short) > 3:
        # two words of the dictionary a few letters apart are two words ("port" and
        # "portal", "list" and "listen", "back" and "backup"); a clipping drops most of its
        # word ("temp" of "temperature", "admin" of "administrator")
        return not known(long) or len(long) - len(short) >= _CLIPPED_AT_LEAST
    base = lemma(short)
    return len(base) > len(short) and base.startswith(short)


def tokens(text: str) -> tuple[Token, ...]:
    """The plain ``[a-z0-9]`` words of a lower-case text with their lemmas and stems, in order
    ("users_v1" is two words: where they touch is read from ``start`` and ``end``)."""
    out = []
    for found in _TOKEN.finditer(text):
        word = found.group(0)
        out.append(
            Token(
                text=word, lemma=lemma(word), stem=stem(word), start=found.start(), end=found.end()
            )
        )
    return tuple(out)


def preload() -> None:
    """Read the dictionary now (about 0.7 s, once per process): call it off the event loop
    before the first question, so no judgement waits for it."""
    lemma("preloading")
    stem("preloading")
