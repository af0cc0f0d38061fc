"""Fleet search queries on PostgreSQL: the port's query syntax (SQLite FTS5's, the part a
portable caller uses) read into a ``tsquery`` text for the ``crewline_fleet`` configuration.

The syntax: terms (``port``), quoted phrases (``"answered on port"``, ``""`` is a quote
inside one), a phrase joined to the next by ``+``, a trailing ``*`` for a prefix; adjacent
phrases (all must match, binding tightest), then the operators ``NOT``, ``AND`` and ``OR``
(loosest), and parentheses. A phrase without a word is left out of adjacent phrases and of
OR, and an AND with it matches nothing (as in FTS5). Text is cut into words as the index
cuts it (ASCII punctuation separates), so ``"staging.example.com"`` is the phrase staging
example com on both stores. FTS5's column filters, ``NEAR`` and ``^`` are refused here
(InvalidInput), as any syntax error is.

Accents are folded as the index folds them: a phrase with a non-ASCII character is passed
through the database's ``crewline_fleet_fold`` (``unaccent``) before it is cut into words,
so "café" asks for cafe (``texts_to_fold`` names them; the caller folds them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NoReturn

from crewline.errors import InvalidInput

__all__ = ["texts_to_fold", "tsquery_text"]

_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]+")  # what crewline_fleet_words makes a space
_BAREWORD = re.compile(r"[0-9A-Za-z_\x1a\x80-\U0010ffff]+")
_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_OPERATORS = ("AND", "OR", "NOT")


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # phrase | op | ( | ) | * | +
    text: str


def texts_to_fold(match: str) -> list[str]:
    """The phrases of ``match`` the index would fold (those with a non-ASCII character: the
    fold maps no ASCII character). Raises InvalidInput(invalid_query) on bad syntax."""
    return [t.text for t in _tokens(match) if t.kind == "phrase" and not t.text.isascii()]


def tsquery_text(match: str, folded: Mapping[str, str] | None = None) -> str | None:
    """The tsquery text for ``match``, or None when it can match nothing (an empty query,
    or phrases without a single word); ``folded`` maps each of ``texts_to_fold(match)`` to
    its folded text. Raises InvalidInput(invalid_query) on bad syntax."""
    parser = _Parser(match, _tokens(match), folded or {})
    found = parser.expression()
    if parser.at < len(parser.tokens):
        parser.fail(f"unexpected {parser.tokens[parser.at].text!r}")
    return found


def _tokens(match: str) -> list[_Token]:
    found: list[_Token] = []
    at = 0
    while at < len(match):
        char = match[at]
        if _SPACE.match(char):
            at += 1
        elif char == '"':
            text, at = _string(match, at + 1)
            found.append(_Token("phrase", text))
        elif char in "()*+":
            found.append(_Token(char, char))
            at += 1
        elif word := _BAREWORD.match(match, at):
            kind = "op" if word.group() in _OPERATORS else "phrase"
            found.append(_Token(kind, word.group()))
            at = word.end()
        else:
            raise _invalid(match, f"{char!r} is not supported")
    return found


def _string(match: str, at: int) -> tuple[str, int]:
    text: list[str] = []
    while True:
        end = match.find('"', at)
        if end < 0:
            raise _invalid(match, "a quoted phrase is not closed")
        text.append(match[at:end])
        if match.startswith('""', end):
            text.append('"')
            at = end + 2
        else:
            return "".join(text), end + 1


class _Parser:
    """Recursive descent over FTS5's precedence; each method returns tsquery text or None
    (matches nothing)."""

    def __init__(self, match: str, tokens: list[_Token], folded: Mapping[str, str]) -> None:
        self.match, self.tokens, self.at, self.folded = match, tokens, 0, folded

    def fail(self, why: str) -> NoReturn:
        raise _invalid(self.match, why)

    def _peek(self, *kinds: str, text: str | None = None) -> bool:
        if self.at >= len(self.tokens):
            return False
        token = self.tokens[self.at]
        return token.kind in kinds and (text is None or token.text == text)

    def expression(self) -> str | None:
        if not self.tokens:
            return None
        terms = [self._and()]
        while self._peek("op", text="OR"):
            self.at += 1
            terms.append(self._and())
        kept = [t for t in terms if t is not None]
        return "(" + " | ".join(kept) + ")" if kept else None

    def _and(self) -> str | None:
        terms = [self._not()]
        while self._peek("op", text="AND"):
            self.at += 1
            terms.append(self._not())
        if any(t is None for t in terms):
            return None  # FTS5: an explicit AND with a wordless phrase matches nothing
        return "(" + " & ".join(t for t in terms if t is not None) + ")"

    def _not(self) -> str | None:
        found = self._unit()
        while self._peek("op", text="NOT"):
            self.at += 1
            excluded = self._unit()
            if found is not None and excluded is not None:
                found = f"({found} & !{excluded})"
        return found

    def _unit(self) -> str | None:
        """A parenthesised expression, or adjacent phrases (an implicit AND that binds
        tighter than NOT, as in FTS5's grammar)."""
        if self._peek("("):
            self.at += 1
            if self._peek(")"):
                self.fail("empty parentheses")
            inner = self.expression()
            if not self._peek(")"):
                self.fail("a parenthesis is not closed")
            self.at += 1
            return inner
        if not self._peek("phrase"):
            ahead = self.tokens[self.at].text if self.at < len(self.tokens) else "the end"
            self.fail(f"a term was expected before {ahead!r}")
        phrases = []
        while self._peek("phrase"):
            phrases.append(self._phrase())
        kept = [p for p in phrases if p is not None]
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else "(" + " & ".join(kept) + ")"

    def _phrase(self) -> str | None:
        words = self._words(self.tokens[self.at].text)
        self.at += 1
        while self._peek("+"):
            self.at += 1
            if not self._peek("phrase"):
                self.fail("'+' must join two phrases")
            words += self._words(self.tokens[self.at].text)
            self.at += 1
        prefix = self._peek("*")
        if prefix:
            self.at += 1
        if not words:
            return None
        lexemes = [f"'{w}'" for w in words]
        if prefix:
            lexemes[-1] += ":*"
        return "(" + " <-> ".join(lexemes) + ")" if len(lexemes) > 1 else lexemes[0]

    def _words(self, text: str) -> list[str]:
        # Folded first, as the index does: a folded letter may become punctuation (U+2019 is
        # "'"). No quote or backslash survives: both are ASCII punctuation, made a space.
        return _PUNCTUATION.sub(" ", self.folded.get(text, text)).split()


def _invalid(match: str, why: str) -> InvalidInput:
    return InvalidInput(f"not a fleet search query: {match!r} ({why})", code="invalid_query")
