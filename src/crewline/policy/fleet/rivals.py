"""Rival rows: the other rows that give another value of the same thing (said in other words,
of the same time and period), which disagree with an answer, and which update it."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Sequence

from crewline.policy.fleet.about import (
    DETERMINERS,
    about_all,
    entity_unsaid,
    nearly_about,
    relation_words,
)
from crewline.policy.fleet.asking import ASKING, MOMENT, NP_STOP, STOP, VERBISH, ValueAsk, verb_form
from crewline.policy.fleet.periods import MONTHS
from crewline.policy.fleet.picking import (
    LABEL_WORDS,
    another_named,
    in_question,
    naming_noun,
    said_has,
    values_of,
)
from crewline.policy.fleet.rows import (
    CLAUSE_END,
    EXCLUSIVE,
    UPDATE,
    Fact,
    Row,
    Said,
    cited_status,
    clause_of,
    coverage,
    other_qualifier,
    other_state,
    qualifiers,
    request_sentence,
    roots_of,
    row_of,
    specific_of,
    status_of,
)
from crewline.policy.fleet.thesaurus import generic_words, group_of
from crewline.policy.fleet.when import parts_held
from crewline.policy.lemmas import Token, clipped, known, lemma, root, tokens
from crewline.policy.values import Kind, Value, values_in, with_weekday
from crewline.policy.wording import code_form, word_set


def said_in_other_words(
    ask: ValueAsk, answering: Sequence[tuple[Said, Row]], rows: Sequence[Row]
) -> list[tuple[str, Fact]]:
    """The values other rows give of the same thing in other words: a row that names the
    question's thing (all its distinguishing words but one, and every name of it whole) and
    states, whatever its verb, another live value of the answer's kind ("the broker
    throttles us at 60 req/min" against "the broker API limit is 120 requests per minute";
    "cut-off moved to 15:00" against "the cut-off is 14:30"). A bare number, name or
    identifier counts only where the row says it by the asked noun, as an answer would, or
    where it supersedes the answer: the answer's own form with other digits
    ("game_events_v4" for "game_events_v3"), or said by a word of change ("dashboards now
    read …", "we cut over"). A row that supersedes may name the thing without the relation
    asked (the dashboards "query" or "read" a dataset), and one that says the answer itself
    is retired ("v3 is frozen") disputes it with no value of its own."""
    kinds = {v.value.kind for v, _ in answering}
    given = {v.value.text.casefold() for v, _ in answering}
    sources = {r.fact.row_id for _, r in answering}
    qualifiers = {root(w) for table in EXCLUSIVE for w in table}
    entity = [t for t in specific_of(ask) if t not in ask.cues and t not in qualifiers]
    marks = [m for said, row in answering if len(m := _head_marks(row.fact.text, said.value)) > 1]
    if not entity and not marks:
        return []
    thing = [t for t in entity if t not in relation_words(ask)] or entity
    called = _called(answering, given)
    out: list[tuple[str, Fact]] = []
    for row in rows:
        text = unicodedata.normalize("NFKC", row.fact.text)
        if row.fact.row_id in sources:
            continue
        # (a question that names its thing by a pronoun alone, "when does it kick off?",
        # has no words of it: only the answer's marks can name it)
        named = bool(entity) and _names_thing(ask, entity, _unvalued(text))
        by_name = not named and _says_name(text, called)
        # the answer's own marks of which one it is, all said and no other ("the 4K HDR …
        # top rung" against "4K HDR ladder top rung"): the same one, in other head words
        marked = [m for m in marks if m <= _marks(text)]
        if (
            not named
            and not by_name
            and not marked
            and (thing == entity or not _names_thing(ask, thing, _unvalued(text)))
        ):
            continue
        out += [(said, row.fact) for said in _retired(ask, text, given)]
        if Kind.PERSON in kinds:
            out += [(name, row.fact) for name in _named_in_role(ask, entity, text, given)]
        cued = {s.value.text.casefold() for s in values_of(ask, row.fact) if s.cue}
        for found in values_in(text):
            # a time with its weekday, as an answer is read ("Thursday 16:00 UTC" against
            # "Wednesday 16:00 UTC"): the time alone would be the answer's own
            value = with_weekday(text, found)
            if value.kind not in kinds or value.text.casefold() in given:
                continue
            sibling = _sibling(value, given)
            superseding = sibling or _said_changed(text, value)
            head = clause_of(text, value)[0]
            # the thing by the answer's own name for it, the value by the asked noun
            # ("the es-news-prod nodes report version 8.13.0")
            by_its_name = by_name and value.text.casefold() in cued and _says_name(head, called)
            alike = not named and _marked_alike(marked, answering, text, value)
            if not named and not superseding and not by_its_name and not alike:
                continue
            if value.kind in WEAK and value.text.casefold() not in cued and not superseding:
                continue
            if status_of(ask, text, value) not in ("fact", "plan") or in_question(ask, value.text):
                continue
            if MOMENT.match(text[value.end :]):
                continue  # "2 days ago": a moment, not a length
            if _another_qualifier_said(ask, text, value):
                continue
            if not sibling and _named_by_other(ask, text, value):
                continue  # "Postgres 15.4"; but "read `game_events_v4`" of "game_events_v3"
            if other_state(ask, text, value):
                continue  # "3.5.0 is in review" disputes no live version
            if another_named(ask, " ".join(clause_of(text, value)).lower()):
                continue
            before = _unvalued(_with_antecedent(text, value))
            if not ((entity and _names_before(thing, before)) or by_its_name or alike):
                continue  # "Pipeline #8812 went green in 17 minutes on runner …": its own
            out.append((value.text, row.fact))
    return out


# Words that say which one of a thing by its place in an order ("the top rung", "the first
# wave"), each place by its words: a row that says another place is of another one.
_PLACES = tuple(
    frozenset(group.split())
    for group in (
        "top highest max maximum peak upper",
        "bottom lowest min minimum lower",
        "first earliest initial opening",
        "last final closing",
    )
)
# ("may" is a verb as often as a month: a month written capitalised is a mark anyway)
_CALENDAR = word_set("monday tuesday wednesday thursday friday saturday sunday") | (
    MONTHS - {"may"}
)
_DIRECTIONS = word_set("north south east west central northeast northwest southeast southwest")
# A word as written: letters and digits, a hyphen or an underscore ends it ("multi-CDN").
_WRITTEN = re.compile(r"[A-Za-z0-9]+")


def _marks(text: str) -> frozenset[str]:
    """The words of a text that say which one of a thing it is, not what kind of thing: a
    label written in capitals or with digits ("4K", "HDR", "batch 31"), a name written
    capitalised ("Porto", and any word that starts a sentence), a day or a month, a compass
    point, a place in an order ("top", "last": by its place), a qualifier of ``EXCLUSIVE``
    ("prod", "nightly": by its group). Two rows with the same marks name the same one of a
    thing, whatever nouns they say it by; one more or one fewer names another."""
    out: set[str] = set()
    for n, groups in enumerate(qualifiers(text)):
        out |= {f"q{n}:{g}" for g in groups}
    for m in _WRITTEN.finditer(text):
        word = m.group(0)
        low = word.lower()
        place = next((f"p{k}" for k, g in enumerate(_PLACES) if low in g), None)
        if place is not None:
            out.add(place)
        elif (
            any(c.isdigit() for c in word)
            or sum(c.isupper() for c in word) > 1
            or low in _CALENDAR
            or low in _DIRECTIONS
            # a capital at a sentence's start too: a mark too many only keeps a row apart
            or (word[0].isupper() and low not in STOP)
        ):
            out.add(low)
    return frozenset(out)


def _blanked(text: str, value: Value) -> str:
    """The text with ``value`` and the typed values of other kinds (a host, a path) blanked:
    no words of the thing."""
    for other in reversed(values_in(text)):
        if other.kind not in WEAK or (other.start, other.end) == (value.start, value.end):
            text = text[: other.start] + " " * (other.end - other.start) + text[other.end :]
    return text[: value.start] + " " * (value.end - value.start) + text[value.end :]


def _head_marks(text: str, value: Value) -> frozenset[str]:
    """The marks of the words that name what a value is of: its clause before it."""
    return _marks(clause_of(_blanked(text, value), value)[0])


def _content(text: str) -> set[str]:
    """The roots of a text's own words: no word of grammar, verb or asking."""
    return {
        root(t.lemma)
        for t in tokens(code_form(text))
        if t.text.isalnum()
        and t.text not in STOP | NP_STOP | VERBISH
        and t.lemma not in ASKING
        and not verb_form(t)
    }


def _marked_alike(
    marked: Sequence[frozenset[str]],
    answering: Sequence[tuple[Said, Row]],
    text: str,
    value: Value,
) -> bool:
    """Does a row name what an answer is of by the answer's own marks — two or more, every
    one said and none besides (``_marks``) — and by every other word of the answer's clause
    but one ("the 4K HDR titles, top rung there is 15 Mbps" against "4K HDR ladder top rung
    is 16 Mbps"; "the multi-CDN failover incident from Tuesday is INC-4471" against
    "Tuesday's CDN failover postmortem is filed under INC-4417")? The head noun may differ,
    the marks may not: "the March figure" is no rival of "the April figure", "the staging
    port" none of the production one, "batch 31" none of "batch 32"."""
    if not marked:
        return False
    own = _marks(_blanked(text, value))
    words = _content(_blanked(text, value))
    for said, row in answering:
        head = clause_of(_blanked(row.fact.text, said.value), said.value)[0]
        marks = _marks(head)
        if marks not in marked or not own <= _marks(_blanked(row.fact.text, said.value)):
            continue
        if len(_content(head) - words) <= 1:
            return True
    return False


# A name of a thing as a row writes it: words joined by a hyphen or an underscore
# ("es-news-prod", "orders_db").
_NAME = re.compile(r"(?<![\w./:-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w/:-]|\.\w)")


def _called(answering: Sequence[tuple[Said, Row]], given: set[str]) -> set[str]:
    """The names the answering rows give the thing before the value, in its own clause:
    the asked thing as those rows call it ("es-news-prod" of "es-news-prod is
    Elasticsearch 8.11.3", for "the production search cluster"). A row that says the same
    name before another value of the kind speaks of the same thing, whatever words the
    question used."""
    out: set[str] = set()
    for said, row in answering:
        head = clause_of(row.fact.text, said.value)[0].lower()
        out |= {n for n in _NAME.findall(head) if n not in given}
    return out


def _says_name(text: str, names: set[str]) -> bool:
    lowered = text.lower()
    return any(re.search(rf"(?<![\w./:-]){re.escape(n)}(?![\w/:-]|\.\w)", lowered) for n in names)


# Words by which a row says a thing's value changed ("dashboards *now* read v4", "we *cut
# over*", "*moved to*"), and words that say a value is no longer the thing's ("v3 is
# *frozen*").
_CHANGED = re.compile(
    r"\b(?:now|cut\s*over|cutover|moved|migrated|switched|replaced|renamed|rolled|upgraded"
    r"|bumped|no longer|instead|since)\b"
)
_RETIRED = re.compile(
    r"\b(?:frozen|deprecated|retired|decommissioned|no longer|replaced|superseded|obsolete"
    r"|outdated|read-only|sunset|sunsetted|archived|legacy"
    # a change to it denied: "the GLO-30 switch never got merged", "the v4 cutover was
    # reverted" — the row names the answer only to say it is not the thing's
    r"|never\s+(?:got\s+|was\s+|were\s+|been\s+)?(?:merged|landed|shipped|deployed|released"
    r"|applied|happened|enabled|rolled\s+out|went\s+(?:in|live|out)|made\s+it)"
    r"|(?:not|n't)\s+(?:yet\s+|been\s+)?(?:merged|landed|shipped|deployed|released|applied)"
    r"|reverted|rolled\s+back|backed\s+out|abandoned)\b"
)


def rival_in_clause(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the value's own clause name, where a value the question names would stand,
    another of its kind and not the asked one ("Android 6.4.1 is at 20% rollout" for "what
    rollout is Android 6.4.2 at?", though the row names 6.4.2 in another clause: "iOS 6.4.2
    went into review")? The value is of that other version, order, date or time. A bare
    number or name is a rival only in the asked one's own form ("TO-55121" of "TO-55120")."""
    asked = [q for q in values_in(ask.question) if q.kind not in _NO_RIVAL]
    if not asked:
        return False
    before, after = clause_of(text, value)
    start, end = value.start - len(before), value.end + len(after)
    said = [
        v
        for v in values_in(text)
        if v.start >= start and v.end <= end and not (v.start < value.end and value.start < v.end)
    ]
    for q in asked:
        own = q.text.casefold()
        if any(own in v.text.casefold() or v.text.casefold() in own for v in said):
            continue
        if any(v.kind is q.kind and (v.kind not in WEAK or _sibling(v, {own})) for v in said):
            return True
    return False


# Kinds of which another value in the answer's clause names no other thing: a count or a
# person stands beside any other.
_NO_RIVAL = frozenset({Kind.NUMBER, Kind.PERSON, Kind.WORD})


def _form(text: str) -> str:
    """A value's form, its digits aside: "game_events_v#" of "game_events_v3"."""
    return re.sub(r"\d+", "#", text.casefold())


def _sibling(value: Value, given: set[str]) -> bool:
    """Is ``value`` a name of an answer's own form with other digits ("exports_2026" for
    "exports_2025"): the same kind of thing, whatever word names it? (Bare numbers share
    their form with every other number.)"""
    form = _form(value.text)
    return re.search(r"[a-z]", form) is not None and any(form == _form(g) for g in given)


def _said_changed(text: str, value: Value) -> bool:
    """Does the value's clause say a change ("now writes to …", "we cut over: …")?"""
    before, after = clause_of(text, value)
    return _CHANGED.search(f"{before} {after}".lower()) is not None


def taken_back(
    ask: ValueAsk, answering: Sequence[tuple[Said, Row]], facts: Sequence[Fact]
) -> list[tuple[str, Fact]]:
    """The rows that take an answer's very value back ("the warehouse nightly starts at
    02:00, not 01:30 anymore" against "nightly ETL kicks off at 01:30 (dag dw_nightly)"):
    each disputes it whatever else it names — the value itself is said to be no longer so —
    unless it places the value in another environment or cadence than the question's
    ("staging moved from 8080 to 8443" of production's port)."""
    sources = {r.fact.row_id for _, r in answering}
    given = dict.fromkeys(v.value.text for v, _ in answering)
    out: list[tuple[str, Fact]] = []
    for fact in facts:
        if fact.row_id in sources:
            continue
        text = unicodedata.normalize("NFKC", fact.text)
        for answer in given:
            found = _retraction(text, answer)
            if found is not None and not other_qualifier(ask, text, found[1]):
                out.append((found[0], fact))
    return out


def corrected(
    ask: ValueAsk, answering: Sequence[tuple[Said, Row]], facts: Sequence[Fact]
) -> list[tuple[str, Fact]]:
    """The rows that correct an answer: another value of its kind, then the answer's value
    said not to be so, in the same sentence ("Freeze begins 20 Dec, not the 18th" against
    "Christmas change freeze starts 18 Dec"; "port 4321 (not 8080)"). The row need not name
    the thing in the question's words — it names the answer's value to deny it — but it
    shares a word of it, and places its value in no other environment or cadence."""
    sources = {r.fact.row_id for _, r in answering}
    kinds = {v.value.kind for v, _ in answering}
    given = {v.value.text.casefold() for v, _ in answering}
    denied = [_denial(v.value) for v, _ in answering]
    out: list[tuple[str, Fact]] = []
    for fact in facts:
        if fact.row_id in sources:
            continue
        text = unicodedata.normalize("NFKC", fact.text)
        if not set(ask.subject) & roots_of(text, ""):
            continue
        for sentence in _SENTENCE.split(text):
            if not any(d.search(sentence.lower()) for d in denied):
                continue
            base = text.find(sentence)
            for value in values_in(sentence):
                moved = _placed(value, base)
                if (
                    value.kind in kinds
                    and value.text.casefold() not in given
                    and not other_qualifier(ask, text, moved)
                ):
                    out.append((value.text, fact))
    return out


_SENTENCE = re.compile(r"(?<=[.!?;])\s+")
_ORDINAL = r"(?:st|nd|rd|th)"


def _denial(value: Value) -> re.Pattern[str]:
    """How a row says ``value`` is not so: "not V", "not the 18th" of a date on the 18th."""
    forms = [re.escape(value.text.casefold())]
    day = re.search(r"(?<!\d)(\d{1,2})(?!\d)(?!:)", value.text) if value.kind is Kind.DATE else None
    if day is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.text):
        forms.append(rf"{int(day.group(1))}{_ORDINAL}")
    said = "|".join(forms)
    return re.compile(
        rf"\bnot\s+(?:the\s+|at\s+|on\s+|in\s+)?(?<![\w.:/-])(?:{said})(?![\w/:-]|\.\w)"
    )


def _placed(value: Value, base: int) -> Value:
    """``value`` found in a part of a text starting at ``base``, placed in the whole text."""
    return Value(text=value.text, kind=value.kind, start=value.start + base, end=value.end + base)


def retraction_terms(facts: Sequence[Fact]) -> tuple[str, ...]:
    """What to retrieve the rows that may retract a retrieved row's value by: each typed
    value the rows state (a time, a version, a host …; no bare number or name, which every
    row shares), once — a row that takes a value back says it ("02:00, not 01:30 anymore"),
    whatever words it names the thing by."""
    found = [v for f in facts for v in values_in(f.text)]
    said = [v.text for v in found if v.kind not in WEAK]
    # then the names of letters and digits ("GLO-30", "TO-55120"), after the typed values:
    # a row takes one back in words of its own ("the GLO-30 switch never got merged")
    said += [v.text for v in found if v.kind is Kind.ID and _LETTERED_ID.fullmatch(v.text)]
    return tuple(dict.fromkeys(said))[:_RETRACTION_TERMS]


# An identifier of letters and digits joined ("GLO-30", "SRTM-90", "TO-55120"): no word
# every row shares.
_LETTERED_ID = re.compile(r"(?=[^\s]*[a-z])(?=[^\s]*\d)[a-z0-9]+(?:[-_.][a-z0-9]+)+", re.IGNORECASE)


_RETRACTION_TERMS = 24


def retracts(text: str, values: Sequence[str]) -> bool:
    """Does the row take back one of ``values`` (``_retraction``)?"""
    return any(_retraction(text, v) is not None for v in values)


# Verbs that say a value changed, before "from V to W" (a span, "runs from 09:00 to 17:00",
# takes nothing back).
_CHANGE_VERB = (
    r"(?:moved|changed|went|switched|bumped|migrated|upgraded|downgraded|increased|decreased"
    r"|dropped|rose|fell|raised|lowered|reduced|cut|shifted|pushed|pulled|updated|renamed)"
)


# A change named by its noun, and what says it never took, or was undone.
_CHANGE_NOUN = (
    r"(?:switch|switchover|move|migration|upgrade|downgrade|cutover|cut-over|change|bump"
    r"|rollout|roll-out)"
)
_UNDONE = (
    r"(?:never\s+(?:got\s+|was\s+|were\s+|been\s+)?(?:merged|landed|shipped|deployed|released"
    r"|applied|happened|enabled|rolled\s+out|went\s+(?:in|live|out)|made\s+it)"
    r"|(?:was|got|has\s+been|is)\s+(?:reverted|rolled\s+back|backed\s+out|abandoned|cancell?ed)"
    r"|(?:was|is|has)\s*n[o']t\s+(?:yet\s+|been\s+)?(?:merged|landed|shipped|deployed|released"
    r"|applied|happened))\b"
)


def _retraction(text: str, value: str) -> tuple[str, Value] | None:
    """The clause in which a row takes ``value`` back — "not V anymore", "no longer V", "V
    was replaced", "moved from V to W", "instead of V" — and the value where it says it, or
    None. What the value was of is left to the row's other words: the row says the value
    itself is no longer so."""
    lowered = text.lower()
    mark = rf"(?P<v>(?<![\w.:/-]){re.escape(value.casefold())}(?![\w/:-]|\.\w))"
    for pattern in (
        rf"\bnot\s+(?:at\s+|on\s+|in\s+)?{mark}\s+any\s*(?:more|longer)\b",
        rf"\bno\s+longer\s+(?:\S+\s+){{0,3}}?{mark}",
        rf"{mark}\s+(?:is|was|has\s+been|got|were|are)\s+(?:now\s+)?"
        r"(?:replaced|superseded|retired|gone|dead|obsolete)\b",
        rf"{mark}\s+(?:is|was|are|were)\s+no\s+longer\b",
        rf"\b{_CHANGE_VERB}\s+(?:\S+\s+){{0,4}}?(?:from|off)\s+(?:[a-z]+\s+)?{mark}"
        r"\s+(?:to|onto)\s+\S",
        rf"\b(?:instead\s+of|rather\s+than)\s+{mark}",
        # a change to it denied: "the GLO-30 switch never got merged", "the v4 cutover was
        # reverted" — the value is named only to say it is not the thing's
        rf"{mark}\s+(?:[a-z]+\s+){{0,2}}?{_CHANGE_NOUN}\s+{_UNDONE}",
    ):
        found = re.search(pattern, lowered)
        if found is not None:
            ends = CLAUSE_END.finditer(lowered, 0, found.start())
            start = max((m.end() for m in ends), default=0)
            mention = Value(
                text=text[found.start("v") : found.end("v")],
                kind=Kind.ID,
                start=found.start("v"),
                end=found.end("v"),
            )
            return text[start:].strip(), mention
    return None


# A name that is a clause's subject before its copula: "so Tomasz is primary on-call".
_SUBJECT_NAME = re.compile(
    r"(?<![\w@./-])([A-Z][^\W\d_A-Z][^\W\d_]*(?: [A-Z][^\W\d_A-Z][^\W\d_]*){0,2})"
    r"\s+(?:is|was|will be|becomes|'s)\s+(?:now\s+|still\s+|the\s+)*"
)


def _named_in_role(ask: ValueAsk, entity: Sequence[str], text: str, given: set[str]) -> list[str]:
    """The people a row puts in the asked role by a copula, a name as its subject and the
    thing asked after it ("so Tomasz is primary on-call this week" against "primary on-call
    this week: Priya Raman"): a name of one word counts where it is no word of the
    dictionary ("Tomasz", not "Staging"), and a name that shares a word with the answer is
    the answer's person ("Priya" of "Priya Raman")."""
    taken = {w for g in given for w in g.split()}
    out: list[str] = []
    for m in _SUBJECT_NAME.finditer(text):
        name = m.group(1)
        words = name.split()
        if {w.casefold() for w in words} & taken or all(known(w) for w in words):
            continue
        rest = text[m.end() :]
        end = CLAUSE_END.search(rest)
        if _names_thing(ask, entity, rest[: end.start()] if end else rest):
            out.append(name)
    return out


def _retired(ask: ValueAsk, text: str, given: set[str]) -> list[str]:
    """The clauses of the row that say an answer, or the numbered end of its name ("v3" of
    "game_events_v3"), is retired ("v3 is frozen", "3.8.2 is deprecated") — of the asked
    thing, not of another environment."""
    out: list[str] = []
    lowered = text.lower()
    for answer in given:
        ends = re.split(r"[-_./]", answer)
        pieces = {answer} | {p for p in (ends[0], ends[-1]) if re.search(r"\d", p) and len(p) > 1}
        for piece in pieces:
            for m in re.finditer(rf"(?<![\w./-]){re.escape(piece)}(?![\w/-]|\.\w)", lowered):
                mention = Value(
                    text=text[m.start() : m.end()], kind=Kind.ID, start=m.start(), end=m.end()
                )
                before, after = clause_of(text, mention)
                if _RETIRED.search(f"{before} {after}".lower()) is None:
                    continue
                if other_qualifier(ask, text, mention):
                    continue  # "4.2.1 is gone from staging" of production's
                out.append(f"{mention.text}{after}".strip())
    return out


def rivals_of(
    ask: ValueAsk, cited: Fact, value: Value, usable: Sequence[Fact]
) -> list[tuple[str, Fact]]:
    """The other rows' values that dispute a model's cited ``value``: of a row that says the
    same thing in other words or supersedes it (``said_in_other_words``), takes it back or
    corrects it (``taken_back``, ``corrected``), or of a row of
    any member about the thing asked — by every word, or all but one where it names no
    other thing in that word's place — that gives another live value of its kind ("25 MB"
    against "50 MB" for the web service's limit; "the search endpoint's p99" is no rival of
    the login one's). Live as the cited value is read (``cited_status``): a rival is held to
    no stricter a reading than the answer it disputes ("a TTL of 8h" on "staging Vault" is a
    fact beside a cited "12h" said the same way)."""
    quoted = (Said(value=value, labels=frozenset(), cue=False), row_of(ask, cited))
    out = said_in_other_words(ask, [quoted], [row_of(ask, f) for f in usable])
    out += taken_back(ask, [quoted], usable)
    out += corrected(ask, [quoted], usable)
    members = frozenset(root(p) for f in usable for p in re.split(r"[-_]", f.member.lower()) if p)
    specific = specific_of(ask)
    for other in usable:
        if other.row_id == cited.row_id:
            continue
        if not about_all(ask, other, besides=members):
            unsaid = entity_unsaid(ask, other, value.kind, besides=members)
            if not nearly_about(unsaid) or (
                unsaid is not None
                and unsaid[0]
                and _another_beside(ask, specific, specific, set(unsaid[0]), other.text)
            ):
                continue
        out += [
            (v.text, other)
            for v in values_in(other.text)
            if v.kind is value.kind
            and v.text.casefold() != value.text.casefold()
            and cited_status(ask, other.text, v) == "fact"
        ][:1]
    return out


def disagreement(said: Sequence[tuple[str, Fact]]) -> str:
    """The card's words for rows that disagree, in the order they were said."""
    every = sorted(dict.fromkeys(said), key=lambda p: p[1].at)
    return "the fleet disagrees: " + "; ".join(
        f"{f.member} said {v} at {f.at:%H:%M}" for v, f in every
    )


def _another_qualifier_said(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the row say the value of another one of a thing the question qualifies — by a
    qualifier of the table it asks in that is not the asked one ("weekly" of "nightly",
    "staging" of "production", the end of what "starts")? A row that says none of that
    table is of no other one: where an answer needs the asked qualifier said, a dispute
    needs another said ("kicks off at 02:00 from tonight on" against "nightly … 01:30").
    A word inside a typed value of another clause is that value's, not the row's: the host
    "lims-test.qc.local" places "LIMS is LabWare 8.1.4 now" in no local environment."""
    text = _values_aside(text, value)
    if not other_qualifier(ask, text, value):
        return False
    asked = qualifiers(request_sentence(ask).lower())
    said = qualifiers(text)
    tables = [n for n, a in enumerate(asked) if a]
    return not tables or any(said[n] and not said[n] & asked[n] for n in tables)


def _names_thing(ask: ValueAsk, entity: Sequence[str], text: str) -> bool:
    """Does a row name the thing the question is about, as it is said: every name of it
    whole ("orion-3") and all its other distinguishing words but one, at least one of them
    as it is — and, one short, none of them beside a noun the question does not say ("the
    staging API" is another thing than "the staging database")? A word is had as it is,
    clipped, or by its neighbour in the thesaurus ("db" of "database"). The asymmetry: a
    rival needs only to be close enough to dispute, never strict enough to answer, so this
    reads each word at least as loosely as an answer's ``coverage`` does and lets one be
    missing — a row that may answer by a word may always dispute by it."""
    lowered = text.lower()
    words = tokens(code_form(text))
    found = {root(t.lemma) for t in words} | {t.stem for t in words} | {t.text for t in words}
    # a name ("orion-3", "radiology-reporting", "Siemens") is said whole, never left out
    joined = re.findall(r"(?<![\w.-])[a-z0-9]+(?:[-_][a-z0-9]+)+(?![\w-])", ask.question)
    # ("end-to-end", with a word of grammar inside, is a phrase, not a name)
    joined = [j for j in joined if not any(p in STOP for p in re.split(r"[-_]", j)[1:-1])]
    names = [t for t in entity if not t.isalnum()] + joined
    pieces = {root(lemma(p)) for j in joined for p in re.split(r"[-_]", j)}
    plain = [t for t in entity if t.isalnum() and t not in pieces]
    if not all(re.search(rf"(?<![a-z0-9]){re.escape(t)}(?![a-z0-9])", lowered) for t in names):
        return False
    # a word clipped to its first letters names it too ("ortho" of "orthorectification"),
    # and so does its neighbour in the thesaurus ("db" of "database"), as an answer counts it
    have = [t for t in plain if t in found or _clipped_in(t, words)]
    # a neighbour is a word of the row's own, no word already had ("scan" is no "check" of
    # "the license scan check"), nor a word that says which one of a thing ("nightly" is
    # no "pipeline")
    free = {
        f
        for t in words
        if not (forms := {root(t.lemma), t.stem, t.text}) & (set(plain) | _qualifying())
        for f in forms
    }
    near = [t for t in plain if t not in have and _neighbour_in(t, free)]
    if (not have and not names) or len(have) + len(near) < len(plain) - 1:
        return False
    if len(have) == len(plain):
        return True
    # a word said by its neighbour stands in its own place ("loyalty *db*"), no other noun:
    # one said elsewhere ("*created* schema version v2" for "the schema generator") leaves the
    # row to name another thing in that place
    return not _another_beside(ask, entity, have, set(plain) - set(have), text, neighbours=True)


@functools.cache
def _qualifying() -> frozenset[str]:
    """The words of ``EXCLUSIVE`` and their roots (built at first use: a root reads the
    lemmatiser's dictionary)."""
    return frozenset(w for table in EXCLUSIVE for word in table for w in (word, root(word)))


def _neighbour_in(term: str, found: set[str]) -> bool:
    """Does a row say ``term`` by a word of its group in the thesaurus ("db" of "databas",
    ``thesaurus.near``), as ``coverage`` counts it toward an answer?"""
    groups = group_of().get(term, frozenset())
    return bool(groups) and any(groups & group_of().get(f, frozenset()) for f in found)


def _clipped_in(term: str, words: Sequence[Token]) -> bool:
    """Does a row say ``term`` clipped to its first letters ("ortho" of "orthorectif",
    ``lemmas.clipped``)?"""
    return any(clipped(t.text, term) for t in words)


def _another_beside(
    ask: ValueAsk,
    entity: Sequence[str],
    have: Sequence[str],
    missing: set[str],
    text: str,
    *,
    neighbours: bool = False,
) -> bool:
    """Does a row that names the asked thing but for the ``missing`` words name, right
    beside a word of it it ``has``, a noun the question does not say: another thing ("the
    staging API" for "the staging database", "the search endpoint" for the login one)? A
    heading's word before a colon is none ("last week: dashboards …"), nor, with
    ``neighbours``, a missing word said by its neighbour in the thesaurus ("loyalty db" of
    "the loyalty database")."""
    words = tokens(code_form(text))
    question = tokens(code_form(ask.question))
    asked = {t.text for t in question}
    # the present word heads a compound with the missing one in the question ("the schema
    # generator"): in the row it must not head another ("schema version v2")
    compound = {
        root(a.lemma)
        for a, b in itertools.pairwise(question)
        if root(a.lemma) in have and root(b.lemma) in missing
    }
    # where the question has a generic head beside the word ("the nightly rating *job*"),
    # the row's noun in that place is the head said otherwise ("rating *batch*"), no other
    # thing: a generic word names no kind of thing another noun could be another one of
    generic = generic_words()
    headed = {
        (root(a.lemma), 1) for a, b in itertools.pairwise(question) if root(b.lemma) in generic
    }
    headed |= {
        (root(b.lemma), -1) for a, b in itertools.pairwise(question) if root(a.lemma) in generic
    }
    for k, t in enumerate(words):
        if root(t.lemma) not in have and t.text not in have:
            continue
        for n in (k - 1, k + 1):
            if not 0 <= n < len(words):
                continue
            between = text[min(t.end, words[n].end) : max(t.start, words[n].start)]
            if CLAUSE_END.search(between) or ":" in between:
                continue
            other = words[n]
            if (root(t.lemma), n - k) in headed:
                continue
            forms = {root(other.lemma), other.stem, other.text}
            if (
                neighbours
                and not forms & _qualifying()
                and any(_neighbour_in(m, forms) for m in missing)
            ):
                continue
            if (
                other.text.isalpha()
                and (other.text not in asked or (n > k and root(t.lemma) in compound))
                and root(other.lemma) not in entity
                and other.text not in STOP | NP_STOP | VERBISH
                and other.lemma not in ASKING
                and not verb_form(other)
                # "the broker throttles", "intake caps bodies": a verb after its subject
                and not (n > k and other.text.endswith("s") and not other.text.endswith("ss"))
            ):
                return True  # "the staging API" for "the staging database"
    return False


def _values_aside(text: str, value: Value) -> str:
    """The text with the typed values of the other clauses than ``value``'s blanked (a host,
    a path, a URL): what the row's own words say around it."""
    before, after = clause_of(text, value)
    start, end = value.start - len(before), value.end + len(after)
    for other in reversed(values_in(text)):
        if other.kind not in WEAK and (other.end <= start or other.start >= end):
            text = text[: other.start] + " " * (other.end - other.start) + text[other.end :]
    return text


def _unvalued(text: str) -> str:
    """The text with its typed values blanked: a word inside a host or a path
    ("search-qa.internal") names no thing a row is about."""
    for value in reversed(values_in(text)):
        if value.kind not in WEAK:
            text = text[: value.start] + " " * (value.end - value.start) + text[value.end :]
    return text


# A pronoun that opens a clause stands for what the clause before it named ("rating batch
# got moved - *it* kicks off at 02:00").
_PRONOUN_LEAD = re.compile(r"^\s*(?:it|they|which)\b", re.IGNORECASE)


def _with_antecedent(text: str, value: Value) -> str:
    """The value's clause before it, and the clause before that where it opens with a
    pronoun: the pronoun's antecedent is the value's subject."""
    head = clause_of(text, value)[0]
    if not _PRONOUN_LEAD.match(head):
        return head
    ends = [m.end() for m in CLAUSE_END.finditer(text, 0, value.start - len(head))]
    return text[ends[-2] if len(ends) > 1 else 0 : value.start]


def _names_before(entity: Sequence[str], head: str) -> bool:
    """Does the value's clause name a word of the asked thing before the value — as its
    subject ("the broker throttles us at 60 req/min"), not as a place after it?"""
    words = tokens(code_form(head))
    found = {root(t.lemma) for t in words} | {t.stem for t in words} | {t.text for t in words}
    lowered = head.lower()
    return any(
        t in found if t.isalnum() else re.search(rf"(?<![a-z0-9]){re.escape(t)}", lowered)
        for t in entity
    )


def owned_elsewhere(ask: ValueAsk, text: str, said: Said) -> bool:
    """Is a disputing value named by a noun the question does not say, right before it
    ("Postgres 14.9" for the staging app's version): another thing's value? A word of the
    question in another form ("Nightly rating run *starts* 01:30" for "when does rating
    *start*?") is the question's own verb or noun, no other owner — a dispute is read as
    generously as an answer."""
    return not said.cue and _named_by_other(ask, text, said.value)


def _named_by_other(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the value named by a noun right before it that the question does not say
    ("Postgres 15.4", "Migration 0042"): that thing's value, not a dispute of the asked
    one's? A word right after a copula is said of the clause's subject ("the 12-month pull
    is *due* 2024-11-03", "LIMS is *LabWare* 8.1.4"): the value is the subject's, no other
    thing's."""
    noun = naming_noun(ask, text, value)
    return (
        noun is not None
        and not verb_form(noun)
        and root(noun.lemma) not in ask.cues
        and root(noun.lemma) not in _question_roots(ask)
        and not _predicated(clause_of(text, value)[0], noun)
    )


# A copula, and the adverbs that may stand between it and what it says of its subject.
_COPULA = frozenset({"is", "are", "was", "were", "be", "been", "s"})
_BESIDE_COPULA = frozenset({"now", "still", "already", "currently", "also"})


def _predicated(head: str, noun: Token) -> bool:
    """Does ``noun``, the last word of a value's clause before it, follow a copula ("is due",
    "'s now due"): a word said of the clause's subject, which the clause names before it?"""
    words = tokens(code_form(head))
    if not words or words[-1].text != noun.text:
        return False
    k = len(words) - 2
    while k > 0 and words[k].text in _BESIDE_COPULA:
        k -= 1
    return k > 0 and words[k].text in _COPULA


def _question_roots(ask: ValueAsk) -> frozenset[str]:
    return frozenset(root(t.lemma) for t in tokens(code_form(ask.question)))


def about_in_other_words(ask: ValueAsk, row: Row) -> bool:
    """Does the row's own text say every word of the request, one at least as it is and the
    others by a neighbour ("Owner of the billing DB" for "who owns the billing
    database?"): as much about the asked thing as a row that says them all as they are?"""
    covered, _, exact = coverage(ask.subject, roots_of(row.fact.text, ""), row.fact.text)
    return bool(ask.subject) and covered >= len(ask.subject) and exact >= 1


def said_of_same(ask: ValueAsk, said: Said) -> bool:
    """Does the value's own clause say all but one of the request's specific words, where
    it has three or more — the same thing, whatever noun it is said by? One short, the
    clause must not name another thing in the missing word's place ("the search endpoint
    p99" for the login endpoint's)."""
    specific = specific_of(ask)
    if not _TIME_WORDS.search(said.clause):
        # a word that places the question in time ("tonight") is no word of the thing, to a
        # clause that names no time of its own ("Nightly boarding starts 21:40")
        timed = {root(w) for w in _TIME_WORDS.findall(ask.question)}
        specific = [t for t in specific if t not in timed] if len(specific) > 3 else specific
    said_words = sum(said_has(said, t) for t in specific)
    if len(specific) < 3 or said_words < len(specific) - 1:
        return False
    return said_words == len(specific) or not _other_modifier_in_place(ask, said.clause)


def _other_modifier_in_place(ask: ValueAsk, clause: str) -> bool:
    """Does the clause name a thing by a modifier the question does not say, right after a
    determiner (or the clause's start) and before a word of the request: "the *search*
    endpoint" of "the login endpoint"? ("the config caps request bodies" has none: "caps"
    follows no determiner.)"""
    words = tokens(code_form(clause))
    asked = {t.text for t in tokens(code_form(ask.question))}
    specific = set(specific_of(ask))
    for k, (word, head) in enumerate(itertools.pairwise(words)):
        if k and words[k - 1].text not in DETERMINERS:
            continue
        if (
            word.text.isalpha()
            and word.text not in asked
            and word.text not in _CADENCE  # "*nightly* boarding": when, not which thing
            and word.text not in STOP | NP_STOP
            and root(word.lemma) not in specific
            and root(head.lemma) in specific
            and not clause[word.end : head.start].strip()
        ):
            return True
    return False


def owner(said: Said) -> str:
    """The word right before a value in its clause ("Postgres" of "Postgres 15.4")."""
    head = said.clause.split(said.value.text.lower(), 1)[0]
    words = LABEL_WORDS.findall(head)
    return words[-1] if words else ""


def asked_words(ask: ValueAsk) -> set[str]:
    return set(LABEL_WORDS.findall(ask.question))


_CADENCE = frozenset(EXCLUSIVE[1])

# Words that place a value in time: a question that says one asks of that time only.
_TIME_WORDS = re.compile(
    r"\b(?:before last|ago|yesterday|today|tonight|previous|prior|earlier|original|initial"
    r"|former|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|morning"
    r"|evening|afternoon)\b"
)


def another_time(ask: ValueAsk, fact: Fact) -> bool:
    """Does the question place what it asks in a time the row does not say ("the night
    before last" of "last night's backup")?"""
    asked = set(_TIME_WORDS.findall(ask.question))
    # "this morning" of "backlog was 311 at 09:30": the row's clock says the part of a day
    return bool(
        asked - set(_TIME_WORDS.findall(fact.text.lower())) - parts_held(ask.question, fact.text)
    )


_PERIOD = re.compile(
    r"\b(this|last|next|previous|past|coming|current)\s+"
    r"(week|month|quarter|year|night|sprint|weekend|release)\b"
)
_SAME_PERIOD = {"previous": "last", "past": "last", "coming": "next", "current": "this"}


def _periods(text: str) -> set[tuple[str, str]]:
    return {(_SAME_PERIOD.get(w, w), p) for w, p in _PERIOD.findall(text.lower())}


def another_period(ask: ValueAsk, fact: Fact) -> bool:
    """Does the question name a period the row does not ("last week" of a row about this
    week, "next month" of one that names no month)? "This week" asked of a row naming no
    other week is the row's present."""
    said = _periods(fact.text)
    held = parts_held(ask.question, fact.text)  # "last night" of "nightly load done at 04:47"
    return period_contradicted(ask, fact) or any(
        which != "this" and (which, period) not in said and not (which == "last" and period in held)
        for which, period in _periods(ask.question)
    )


def period_contradicted(ask: ValueAsk, fact: Fact) -> bool:
    """Does the row name another period of the scale the question names ("last month's
    spend" for "this month so far")? A row naming none of that scale contradicts nothing:
    "the nightly ETL" is a schedule, no other night than "last night's"."""
    said = _periods(fact.text)
    return any(
        (which, period) not in said and any(p == period for _, p in said)
        for which, period in _periods(ask.question)
    )


def latest(found: list[tuple[Said, Row]]) -> tuple[tuple[str, Fact], ...]:
    """Each member's value: its newest row's when that row says it changed ("now",
    "actually"), else every value it gave."""
    out: list[tuple[str, Fact]] = []
    by_member: dict[str, list[tuple[str, Fact]]] = {}
    for v, r in found:
        by_member.setdefault(r.fact.member, []).append((v.value.text, r.fact))
    for said in by_member.values():
        said.sort(key=lambda p: p[1].at)
        newest = said[-1]
        if len({v.casefold() for v, _ in said}) > 1 and UPDATE.search(newest[1].text.lower()):
            out.append(newest)
        else:
            out += list(dict.fromkeys(said))
    return tuple(sorted(out, key=lambda p: p[1].at))


def updated_by(fact: Fact, said: Sequence[tuple[str, Fact]]) -> bool:
    """Is ``fact`` an older row of a member whose newer row says its value changed?"""
    return any(
        f.member == fact.member and f.at > fact.at and UPDATE.search(f.text.lower())
        for _, f in said
    )


WEAK = frozenset({Kind.NUMBER, Kind.ID, Kind.WORD})
