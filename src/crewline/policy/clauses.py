"""A question's shape: its sentences, which of them ask, and each word's place in a clause.

A shallow reading, pure and cached by the callers: the words of the code form (lower case,
punctuation kept) with their lemmas, where a clause starts (punctuation, list markers,
"and", "then", "so that"…), which words are glued into an identifier or a compound
("users_v1", "delete-account"), which are inside a `code span`, and which sentences ask
(end in "?", or the last one). The careful judgement and the routine kinds read the same
shape, so what one calls the act the other does too.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from crewline.policy.lemmas import Token, tokens

__all__ = [
    "BOUNDARY_WORDS",
    "FILLERS",
    "Shape",
    "Word",
    "shape_of",
]

# Words that start a new clause: whatever governs a word never reaches across them.
BOUNDARY_WORDS = frozenset(
    [
        "and",
        "then",
        "or",
        "but",
        "before",
        "after",
        "once",
        "plus",
        "also",
        "so",
        "while",
        "when",
        "whenever",
        "if",
        "unless",
        "because",
        "since",
        "until",
        "afterwards",
        "later",
        "next",
        "finally",
        "meanwhile",
        "otherwise",
        "instead",
        "though",
        "although",
        "whereas",
    ]
)
# Words that carry no act at the start of a clause ("ok, so, quick one: …").
FILLERS = frozenset(
    [
        "ok",
        "okay",
        "alright",
        "so",
        "then",
        "now",
        "hi",
        "hey",
        "hello",
        "great",
        "good",
        "cool",
        "right",
        "thanks",
        "thx",
        "next",
        "well",
        "quick",
        "one",
        "question",
        "q",
        "just",
        "also",
        "please",
        "pls",
        "plz",
        "kindly",
        "btw",
        "fyi",
        "context",
        "done",
        "yes",
        "yeah",
        "yep",
        "sure",
        "first",
        "again",
        "actually",
    ]
)
_GAP_BOUNDARY = re.compile(
    r"[,;:()\[\]{}|]|\s[-\u2013\u2014]+\s|[\u2013\u2014]|\.\.\.|=>|->|\d\)|\s=\s"
)
# A stop ends a sentence, but not the stop of an abbreviation inside one ("X vs. Y", "e.g."),
# of a title before a name ("Capt. Moreau", "Dr. Okafor"), nor of a number's label before its
# number ("mat. 4000127", "no. 7", "approx. 30"): neither ever ends one.
_TITLES = ("mr", "mrs", "ms", "dr", "prof", "capt", "cpt", "sgt", "lt", "col")
_NUMBER_LABELS = ("no", "nr", "mat", "art", "ref", "vol", "fig", "approx", "ca")
_SENTENCE_END = re.compile(
    r"(?<=[.!?;])(?<!\bvs\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bcf\.)"
    + "".join(rf"(?<!\b{t}\.)" for t in _TITLES)
    + "".join(rf"(?!(?<=\b{n}\.)\s+\d)" for n in _NUMBER_LABELS)
    + r"(?=\s|$)|\n+"
)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_DETERMINERS = frozenset(["the", "a", "an", "this", "that", "my", "our", "your", "its", "their"])
_LIST_WORDS = frozenset(["step", "phase", "stage", "item", "part", "task", "point"])
# Glue that makes two words one identifier or path ("users_v1", "docs/api", "parser.py").
_IDENT_GLUE = frozenset("_./@:#\\")


@dataclass(frozen=True, kw_only=True, slots=True)
class Word:
    """One word of a question, where it stands, and what it is glued to."""

    text: str
    lemma: str
    stem: str
    start: int
    end: int
    index: int
    sentence: int
    code: bool  # inside a `code span`
    ident: bool  # glued by _ . / @ : to a neighbour: part of an identifier, path or host
    dash_next: bool  # "delete-account": glued by a dash to the next word
    dash_prev: bool
    clause_start: bool  # a clause starts at this word (punctuation or a boundary word before)


@dataclass(frozen=True, kw_only=True, slots=True)
class Sentence:
    start: int  # first word index
    end: int  # one past the last word index
    text: str
    asks: bool  # ends in "?", or is the last sentence of a text with no "?"


@dataclass(frozen=True, kw_only=True, slots=True)
class Shape:
    """The words and sentences of a code-form text."""

    text: str
    words: tuple[Word, ...]
    sentences: tuple[Sentence, ...]

    def sentence_words(self, n: int) -> tuple[Word, ...]:
        s = self.sentences[n]
        return self.words[s.start : s.end]

    @property
    def asking(self) -> tuple[Sentence, ...]:
        return tuple(s for s in self.sentences if s.asks)

    def gap(self, i: int) -> str:
        """The text between word ``i - 1`` and word ``i`` (the start of the text for 0)."""
        start = self.words[i - 1].end if i > 0 else 0
        return self.text[start : self.words[i].start] if i < len(self.words) else ""


def _sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences, never splitting inside a code span."""
    protected = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text)]
    cuts = [0]
    for m in _SENTENCE_END.finditer(text):
        at = m.start()
        if any(a < at < b for a, b in protected) or at in cuts:
            continue
        cuts.append(at)
    cuts.append(len(text))
    spans = []
    for a, b in itertools.pairwise(cuts):
        if text[a:b].strip():
            spans.append((a, b))
    return spans


@functools.lru_cache(maxsize=256)
def shape_of(code: str) -> Shape:
    """The shape of a code-form text (``wording.code_form``). Kept for the last wordings
    read: the careful judgement, the routine reading and the fleet reader each shape the
    same question, and a shape is immutable."""
    spans = _sentences(code)
    code_spans = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(code)]
    found: list[Token] = list(tokens(code))
    words: list[Word] = []
    sentences: list[Sentence] = []
    has_question = "?" in code
    n = 0
    for number, (a, b) in enumerate(spans):
        first = n
        while n < len(found) and found[n].start < b:
            n += 1
        chunk = code[a:b].strip()
        asks = chunk.endswith("?") or (not has_question and number == len(spans) - 1)
        sentences.append(Sentence(start=first, end=n, text=chunk, asks=asks))
        for i in range(first, n):
            t = found[i]
            before = code[found[i - 1].end : t.start] if i > first else ""
            after = code[t.end : found[i + 1].start] if i + 1 < n else ""
            glued_before = i > first and before != "" and set(before) <= _IDENT_GLUE | {"-"}
            glued_after = i + 1 < n and after != "" and set(after) <= _IDENT_GLUE | {"-"}
            ident = (glued_before and bool(set(before) & _IDENT_GLUE)) or (
                glued_after and bool(set(after) & _IDENT_GLUE)
            )
            previous = found[i - 1].text if i > first else ""
            listed = (
                i - 2 >= first
                and previous.isdigit()
                and found[i - 2].text in _LIST_WORDS
                and not set(before) - {" ", ".", ":"}
            )
            in_number = before == "," and previous.isdigit() and t.text.isdigit()
            # "the next stage": a boundary word after a determiner modifies a noun
            modifies = (
                i - 2 >= first
                and found[i - 2].text in _DETERMINERS
                and not code[found[i - 2].end : found[i - 1].start].strip()
            )
            # "2/ email the board", "3) update the wiki": a list item starts a clause
            numbered = (previous.isdigit() or len(previous) == 1) and before.strip() in ("/", ")")
            clause_start = (
                i == first
                or (bool(_GAP_BOUNDARY.search(before)) and not in_number)
                or (previous in BOUNDARY_WORDS and not glued_before and not modifies)
                or listed
                or (numbered and before.endswith(" "))
            )
            words.append(
                Word(
                    text=t.text,
                    lemma=t.lemma,
                    stem=t.stem,
                    start=t.start,
                    end=t.end,
                    index=i,
                    sentence=number,
                    code=any(x < t.start < y for x, y in code_spans),
                    ident=ident,
                    dash_next=glued_after and after == "-",
                    dash_prev=glued_before and before == "-",
                    clause_start=clause_start,
                )
            )
    return Shape(text=code, words=tuple(words), sentences=tuple(sentences))
