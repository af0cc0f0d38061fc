"""What a model's text says beyond the value the gate checked (``beyond``, ``whole_in``).

A model's words reach a member as the concierge's answer with no human between, and its
placement of a question is read as what it understood. The gate checks a *value*; anything
else the model writes beside it was checked by nobody. So beside the value a model may use
only the words the question, the rows it rests on and the question's own grammar already
hold: a word of its own, another value, a denial, an approval or a character that is no
plain text is the model saying more than the gate allowed, and what it found is named.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from crewline.policy.lemmas import lemma
from crewline.policy.wording import word_set

__all__ = ["beyond", "hidden", "whole_in"]

# The grammar a sentence wording a value needs and that says nothing of its own.
_GRAMMAR = word_set(
    """a an the this that these those it its is are was were be been being am s has have had
    on at in into of for to from by with as per via and i we you they he she them us our your
    their my me here there which what where when who whose how"""
)
# Words that deny or hold back what they stand beside ("not", "isn't", "never"): never the
# model's to add, though the question or a row may say them ("on 4321, not 8080").
_DENIALS = word_set("no not never nor neither none nothing nobody nowhere cannot t without instead")
# Words that give leave or approve: the gate's answer to a go-ahead is its own "yes"; beside
# a value, or added to it, they are an approval nobody checked ("Yes, 4321", "go ahead").
_APPROVALS = word_set(
    """yes yeah yep ok okay sure approve approved approval proceed continue go ahead confirm
    confirmed cleared agreed allowed authorised authorized granted"""
)
# Punctuation a plain sentence uses; any other mark (a link's "/", a command's "`", a
# markup "*", a digit) is no wording.
_PLAIN_MARKS = frozenset(" .,;:!?'\"()-\u2013\u2014\u2018\u2019\u201c\u201d")
_WORD = re.compile(r"[^\W\d_]+")
_NUMBER = re.compile(r"[\w.:-]*\d[\w.:-]*")


def hidden(text: str) -> str | None:
    """The name of the first character of ``text`` that is not seen as written — a zero-width
    or direction mark, a control, an unassigned or private code point — or None. A value read
    across one is not the value a reader sees ("L2\u202e04" reads "L2" and shows "L240")."""
    for char in text:
        if char not in "\n\t" and unicodedata.category(char) in ("Cf", "Cc", "Co", "Cs", "Cn"):
            return unicodedata.name(char, f"U+{ord(char):04X}").lower()
    return None


def whole_in(value: str, text: str) -> list[tuple[int, int]]:
    """Where ``text`` says ``value`` whole (case aside): not as a piece of a longer token
    ("4321" of "14321", "1.2" of "1.2.3", "yes" of "yesterday", "api.example.com" of
    "api.example.com.evil.net")."""
    if not value.strip():
        return []
    said = re.escape(value.strip())
    whole = rf"(?<!\w)(?<!\w[./:@_-]){said}(?!\w)(?![./:@_-]\w)"
    return [(m.start(), m.end()) for m in re.finditer(whole, text, re.IGNORECASE)]


def beyond(
    rest: str, sources: Iterable[str], *, question: str = "", leave: bool = False
) -> str | None:
    """What ``rest`` (a model's text with the checked value taken out) says that ``sources``
    (the question, the rows the answer rests on, the names in them) do not, in a card's
    words; None when it says nothing more. ``leave``: the gate's own answer is a go-ahead,
    so the words of its step are the question's and stand. A number the ``question`` itself
    says ("ward 7") is the asker's, not another value.

    Only plain words and marks may remain: a digit is another value, a mark that is not a
    sentence's (a link, a command, markup) or a character that is no plain letter (an
    invisible or direction mark, a control) is no wording; a denial or an approval is never
    the model's to add; and every other word must be one the sources or the grammar hold,
    by its word or its lemma."""
    strange = next((c for c in rest if not (c.isalpha() or c.isdigit() or c in _PLAIN_MARKS)), None)
    if strange is not None:
        name = unicodedata.name(strange, f"U+{ord(strange):04X}").lower()
        return f"it holds a character that is no plain text ({name})"
    asked = {n.casefold() for n in _NUMBER.findall(question)}
    number = next((n for n in _NUMBER.findall(rest) if n.casefold() not in asked), None)
    if number is not None:
        return f"it adds a value of its own (“{number}”)"
    words = [w.casefold() for w in _WORD.findall(rest)]
    denied = [w for w in words if w in _DENIALS]
    if denied:
        return f"it denies or holds back what it says (“{denied[0]}”)"
    approving = [w for w in words if w in _APPROVALS and not leave]
    if approving:
        return f"it adds an approval (“{approving[0]}”)"
    known: set[str] = set(_GRAMMAR | _APPROVALS) if leave else set(_GRAMMAR)
    for source in sources:
        for word in _WORD.findall(source.casefold()):
            known |= {word, lemma(word)}
    own = [w for w in words if w not in known and lemma(w) not in known]
    if own:
        listed = ", ".join(f"“{w}”" for w in dict.fromkeys(own[:3]))
        return f"it adds words of its own ({listed})"
    return None
