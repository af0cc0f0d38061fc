"""Whether a value is named by the asked noun: the nouns a question asks with, where a row puts
its value beside one, and the forms that prove what a value is (a ticket's key, an instance
type)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from crewline.policy.fleet.asking import NAMING, NOUN_KINDS, STOP, UNITLESS, ValueAsk
from crewline.policy.fleet.picking import TICKET_ID, TICKET_NOUNS
from crewline.policy.fleet.rows import clause_of, derived_from, request_sentence
from crewline.policy.lemmas import Token, root, tokens
from crewline.policy.values import (
    Kind,
    Value,
    noun_form,
    whole_name,
    with_counted_noun,
    with_label_noun,
)
from crewline.policy.wording import word_set


def wanted_nouns(ask: ValueAsk) -> set[str]:
    """The roots of the asked noun, its cues and the noun a count counts."""
    wanted = set(ask.cues) | set(ask.counted)
    if ask.noun != "value":
        wanted.add(root(ask.noun))
    return wanted


def noun_heads(ask: ValueAsk) -> set[str]:
    """``wanted_nouns`` and the words that head the asked noun phrase: what a bare value
    is said beside."""
    heads = wanted_nouns(ask) | head_words(ask) | wh_head(ask)
    if Kind.PORT in ask.kinds:
        heads.add(root("listener"))  # a listener is what a port is of: "TLS listener on 8883"
    return heads


_WH = word_set("which what whats")
_WH_SKIP = word_set("s is the a an our your its their")


def wh_head(ask: ValueAsk) -> set[str]:
    """The root of the head of the request's wh-phrase: its last word before a verb ("which
    *field* disappeared", "what's the newest *migration* applied"), where the reader took
    the verb for the asked noun. Empty where the phrase meets no verb by its form."""
    words = tokens(request_sentence(ask))
    for i, t in enumerate(words):
        if t.text not in _WH:
            continue
        run: list[Token] = []
        for w in words[i + 1 :]:
            if (w.text in _WH_SKIP or w.text.endswith("est")) and not run:
                continue  # "what's the newest …": a superlative before the head
            if w.text in STOP or w.text in AUX:
                break
            if run and (w.text.endswith("ed") or (w.text != w.lemma and not w.text.endswith("s"))):
                return {root(run[-1].lemma)}  # the verb after the phrase: its last word heads it
            run.append(w)
        return set()
    return set()


def head_words(ask: ValueAsk) -> set[str]:
    """The root of the word before a noun that only names ("*build* number", "*flag* key",
    "*instance* type"): what the value is the name of, which a row names it by."""
    if ask.noun not in NAMING and ask.noun != "type":
        return set()
    words = tokens(request_sentence(ask))
    return {
        root(words[i - 1].lemma)
        for i in range(1, len(words))
        if words[i].lemma == ask.noun and words[i - 1].text not in STOP
    }


# Between a noun and the value it names, or a heading's noun and its value.
_NOUN_TO_VALUE = re.compile(r"^\s*(?:[:=#]\s*|is\s+|of\s+|on\s+|at\s+)?`?\s*$")


def beside_noun(text: str, value: Value, wanted: set[str], asked: Sequence[Token]) -> bool:
    """Is the bare value said right beside a word of the asked noun: after it ("build
    4182", "listener on 8883", "flag `x.y_v2`"), before it ("1,204 stops", "19 failures",
    or with the question's own modifiers between, ``asked`` being its roots: "617 stale
    feature flags" for "how many stale feature flags"), or after a heading of its clause
    that names it ("Sync failures last week: 19")?"""
    before = text[: value.start]
    after = text[value.end :]
    if counted_by(after, wanted, asked):
        return True
    lead = re.search(
        r"([A-Za-z][\w-]*)([^A-Za-z0-9]*(?:\b(?:is|of|on|at)\b)?[^A-Za-z0-9]*)$", before
    )
    if lead and _NOUN_TO_VALUE.match(lead.group(2)) and _wanted_word(lead.group(1), wanted):
        return True
    trail = re.match(r"`?\s*([A-Za-z][\w-]*)", after)
    if trail and _wanted_word(trail.group(1), wanted):
        return True
    clause, _ = clause_of(text, value)
    heading = re.fullmatch(r"(.*?):\s*`?", clause)
    return heading is not None and any(
        _wanted_word(t.text, wanted) for t in tokens(heading.group(1).lower())
    )


def counted_by(after: str, wanted: set[str], asked: Sequence[Token]) -> bool | None:
    """Reading the words right after a number up to a word of the asked noun (three words
    between at most): True when the question says those words and the noun in a row
    (``asked``: its words), "617 *stale feature* flags" for "how many stale feature flags";
    False when it does not, "12 *failed* builds" for "how many builds" (it counts another
    thing), "617 stale feature flags" for "how many feature flags, stale or not?"; None when
    no word of the noun follows before a word like "is" or "in"."""
    run = re.match(r"(?:\s+[A-Za-z][\w-]*){1,4}", after)
    said = tokens(run.group(0).lower()) if run else ()
    if said and _wanted_word(said[0].text, wanted):
        return None  # "40 pods" of "3 of 40 pods": right beside it, no modifier to read
    for n in range(1, len(said)):
        if said[n - 1].text in STOP:
            return None  # "4182 is in TestFlight review": no noun of the number's own
        if _wanted_word(said[n].text, wanted):
            return any(
                all(forms_of(said[k]) & forms_of(asked[at + k]) for k in range(n + 1))
                for at in range(len(asked) - n)
            )
    return None


def forms_of(word: Token) -> frozenset[str]:
    """A word's stem and roots: what two words are compared by."""
    return frozenset((word.stem, root(word.lemma), root(word.text)))


def _wanted_word(word: str, wanted: set[str]) -> bool:
    found = tokens(word.lower())
    return bool(found) and any(
        derived_from(r, w) for t in found for r in (root(t.lemma), root(t.text)) for w in wanted
    )


# Forms that prove what a value names: a ticket's key (``TICKET_ID``) for a ticket's, an
# incident's or an issue's number; a cloud instance type ("c6i.4xlarge").
_INSTANCE_FORM = re.compile(
    r"[a-z][a-z0-9-]*\d[a-z0-9-]*\.(?:\d*x?large|medium|small|micro|nano|metal)", re.IGNORECASE
)


def proven_by_form(ask: ValueAsk, value: Value) -> bool:
    """Does the value's form prove it the asked noun's: a ticket key for a ticket, incident
    or issue (or its number or id), an instance type for an instance type?"""
    asked = {ask.noun} | {t.lemma for t in tokens(request_sentence(ask))}
    if TICKET_ID.fullmatch(value.text):
        return ask.noun in TICKET_NOUNS or (
            ask.noun in NAMING and bool(head_words(ask) & {root(w) for w in TICKET_NOUNS})
        )
    if _INSTANCE_FORM.fullmatch(value.text):
        return ask.noun == "type" and "instance" in asked
    return False


AUX = word_set("do does did will would can could should shall may might must has have had")


# The nouns of a thing named whole by a name that holds its number ("rules-2024.06.3" is the
# tag, "etl-2.4.1" the image): the name answers, not the number inside it
_NAMED_WHOLE = word_set("tag image artifact branch")
# so many a unit of time after a count's noun ("900 requests per second", "60 jobs/min")
_PER_TIME = (
    r"\s*(?:/\s?|\bper\s+|\ban?\s+)(?:s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?"
    r"|wk|weeks?|months?|yrs?|years?|night|shift)\b"
)


def as_the_row_names_it(ask: ValueAsk, text: str, value: str) -> str:
    """The answer ``value`` as the row ``text`` names it, a span of the row: a count with the
    plural noun written right after it where that noun is the one counted ("40 scenes" for
    "how many scenes …?"), or any plural noun for a limit, whose noun names none ("40 rooms"
    for "what's the cap?"); a label with the asked noun written right before it, for a noun
    of no kind of value asked by "which" ("dock 4" for "which dock …?"); a tag, an image, an
    artifact or a branch whole where its number sits inside its name ("rules-2024.06.3").
    The value as it is otherwise: never another noun than the question's, never a word the
    row does not write beside it."""
    if ask.noun in UNITLESS:
        # "what's the cap?": a limit's number names nothing it counts; the row's noun does
        asked = frozenset(t.lemma for t in tokens(ask.question or " ".join(ask.text_words)))
        return with_counted_noun(text, value, asked)
    if ask.counted:
        # "40 scenes" for "how many scenes …?" — but never "900 requests" of "900 requests
        # per second": a rate's count is no count of its noun
        said = with_counted_noun(text, value)
        counted = said[len(value) :].strip()
        if not counted or root(noun_form(counted)) not in ask.counted:
            return value
        return value if re.search(rf"{re.escape(said)}{_PER_TIME}", text) else said
    if ask.noun in _NAMED_WHOLE:
        return whole_name(text, value)
    if ask.noun != "value" and ask.noun not in NOUN_KINDS and _which(ask):
        return with_label_noun(text, value, frozenset({noun_form(ask.noun)}))
    return value


def _which(ask: ValueAsk) -> bool:
    """Does the request ask which one of a kind of thing ("which Columbus dock …?"), by "which"
    before the asked noun: a label names one of them; "what block fuel …?" asks an amount."""
    noun = re.escape(ask.noun)
    return re.search(rf"\bwhich\b(?:\s+[\w'-]+){{0,3}}?\s+{noun}", ask.question) is not None
