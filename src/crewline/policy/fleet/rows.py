"""What a row is about and what it states as a fact: a retrieved row (``Fact``) against the
question's words, each value read with its own clause, its status (negated, gone, planned,
hedged, a secret) and the qualifiers and states that tell one thing's value from another's."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from crewline.policy.fleet.asking import NP_STOP, STOP, ValueAsk, past, verb_form
from crewline.policy.fleet.periods import MONTHS
from crewline.policy.fleet.spelling import said_in_question_forms, says_in_another_form
from crewline.policy.fleet.thesaurus import generic_words, group_of, near
from crewline.policy.fleet.when import began_at, state_words_aside
from crewline.policy.lemmas import known, lemma, root, stem, tokens
from crewline.policy.values import Kind, Value, values_in
from crewline.policy.wording import code_form, word_set


@dataclass(frozen=True, kw_only=True, slots=True)
class Fact:
    """One fleet row retrieved for the question (the core retrieves them by full-text)."""

    row_id: str
    member: str
    text: str
    at: datetime


# A row answers only what it states as a fact. Each value of the asked kind is read with the
# words of its own clause ("error rate 0.3%", not the "5% of traffic" before it), and is no
# answer when that clause negates it ("not 8080"), says it is gone ("was on 8080 until
# Tuesday", "down from 530 MB"), not yet so ("next planned", "not confirmed") — unless the
# question asks about the plan — or a secret ("password for app_rw is …"), or when the
# question itself says it. A row with several such values answers only when the question's
# own words pick one. A question's specific values ("PR #483", "products_v6", "30 days")
# must be in the row; a member it names must be the one that said it. Strict to answer,
# loose to abstain: a row that is only partly about the question still counts against an
# answer when it gives another value of the same kind.


@dataclass(frozen=True, kw_only=True, slots=True)
class Row:
    fact: Fact
    roots: frozenset[str]
    covered: int  # how many of the subject's roots the row (and its member's name) has
    score: float  # the same, a thesaurus neighbour counting half
    exact: int  # how many of the subject's specific roots it has as they are
    in_text: int  # the same, in its text alone (its member's name aside)


@dataclass(frozen=True, kw_only=True, slots=True)
class Said:
    """A live value of the asked kind in a row, with the words of its own clause."""

    value: Value
    labels: frozenset[str]  # roots and stems of its clause's words
    cue: bool  # the asked noun (or a word that says it) stands right by it
    near: frozenset[str] = frozenset()  # the lemmas of the words right by it
    clause: str = ""  # its clause's text, lower case, for names said whole ("src/api")
    planned: bool = False  # said as a plan ("next planned migration is …")
    parallel: bool = False  # said without its noun, beside one said with it ("… and 3 on …")
    moment: bool = False  # a duration that places a moment ("2 days ago"): disputes only


def roots_of(text: str, member: str) -> frozenset[str]:
    words = [t for t in tokens(code_form(text))]
    found = {t.stem for t in words} | {root(t.text) for t in words}
    slug = member.lower()
    found |= {root(part) for part in re.split(r"[-_]", slug) if part}
    found.add(re.sub(r"[-_]", "", slug))
    return frozenset(found)


def coverage(
    subject: Sequence[str],
    roots: frozenset[str],
    text: str,
    *,
    forms: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
) -> tuple[int, float, int]:
    """How many subject roots the row has (exactly, in another written form of the word or
    by a neighbour; a generic word the row does not repeat counts as had), a score where a
    neighbour counts half and an unrepeated generic word nothing, and how many specific
    roots it has exactly. ``forms`` are what the row says of the question's words by their
    initials, and the question's particles (``said_in_question_forms``)."""
    joined = set()
    said = tokens(code_form(text))
    words = [t.text for t in said]
    for i in range(len(words) - 1):
        joined.add(words[i] + words[i + 1])
    n, score, exact = 0, 0.0, 0
    lowered = text.lower()
    for term in subject:
        if not term.isalnum():
            literal = says(lowered, term)
            n, score, exact = (n + 1, score + 1, exact + 1) if literal else (n, score, exact)
            continue
        if term in roots or term in joined or term in forms[0]:
            n, score = n + 1, score + 1
            exact += term not in generic_words()
        elif term not in generic_words() and says_in_another_form(term, said, text):
            n, score, exact = n + 1, score + 1, exact + 1
        elif term not in generic_words() and (
            any(near(term, r) for r in roots) or _same_qualifier(term, lowered)
        ):
            n, score = n + 1, score + 0.5  # a generic word counts only as it is ("repo")
        elif term in generic_words() or term in forms[1]:
            n += 1
    return n, score, exact


def _same_qualifier(term: str, text: str) -> bool:
    """Does the row say the asked qualifier in other words ("finish" by "wrapped up", one
    of the end's words)?"""
    words = set(re.findall(r"[a-z]+", text))
    for n, table in enumerate(EXCLUSIVE):
        group = next((g for w, g in table.items() if root(w) == term), None)
        if group is not None and any(table.get(w) == group for w in words):
            return True
        if group is not None and n == _BOUNDARY and _SPAN.search(text):
            return True  # "runs from 2026-12-18 to 2027-01-04" says its start and its end
    return False


_SPAN = re.compile(r"\bfrom\s+\S*\d\S*\s+(?:to|until|till|through)\s+\S*\d")


def row_of(ask: ValueAsk, fact: Fact) -> Row:
    roots = roots_of(fact.text, fact.member)
    forms = said_in_question_forms(ask.question, fact.text)
    covered, score, exact = coverage(ask.subject, roots, fact.text, forms=forms)
    in_text = coverage(ask.subject, roots_of(fact.text, ""), fact.text, forms=forms)[2]
    return Row(fact=fact, roots=roots, covered=covered, score=score, exact=exact, in_text=in_text)


def strictly_about(ask: ValueAsk, row: Row) -> bool:
    n = len(ask.subject)
    if not n:
        return bool(row.roots & ask.cues)
    return row.score > 0 and row.covered >= n  # a word the row lacks may be another thing


def specific_of(ask: ValueAsk) -> list[str]:
    return [t for t in ask.subject if t not in generic_words()]


CLAUSE_END = re.compile(r"[;,()\[\]]|[.!?](?=\s|$)|\s[-\u2013\u2014]+\s|\b(?:and|but|while)\b")
NEGATION = re.compile(
    r"\b(?:not|no longer|never|isn'?t|wasn'?t|aren'?t|except|instead of|rather than|nor)\b"
    r"(?:\s+\S+){0,2}\s*$"
)
_GONE = re.compile(r"\b(?:until|previously|formerly|used to|no longer|superseded|replaced)\b")
_GONE_FROM = re.compile(
    r"\b(?:down|up|changed|moved|migrated|increased|decreased|dropped|rose|fell|went|bumped"
    r"|switched|upgraded|downgraded)\s+from\s+(?:[a-z]+\s+)?$"
    # what a thing moved off is the old one ("Grafana moved off grafana.ops.internal")
    r"|\b(?:moved|migrated|switched)\s+(?:off|off\s+of|away\s+from|out\s+of)\s+(?:[a-z]+\s+)?$"
)
_UNSETTLED = re.compile(
    r"\b(?:plan|plans|planned|planning|next|will|going to|scheduled|proposed|tentative"
    r"|tentatively|expected|expect|estimated?|should be|might|maybe|probably|pending|not yet"
    r"|waiting|tbd|target|unconfirmed|confirm|guess|assume|assuming)\b"
    # "confirmed" unsettles only where it is not so yet: "isn't confirmed", "once confirmed";
    # said as done ("rate limit confirmed: 120 …", "confirmed via timedatectl") it is a fact
    r"|(?:\b(?:not|never|to be|once|until|unless|if|awaiting)|n't)\s+(?:yet\s+|been\s+)?confirmed\b"
)
# An estimate is no fact, whatever the question asks ("about 14 minutes, maybe 15",
# "estimated at roughly 40 GB").
HEDGE = re.compile(
    r"\b(?:estimated?|estimates?|roughly|approximately|approx|maybe|probably|perhaps|guess"
    r"|guessing|might|somewhere between|ballpark|not sure|unsure|no idea)\b"
)
# A clause in which the member says it has not looked at, touched or found a thing, or does
# not know it ("Prod ledger not touched.", "Haven't pulled Mastercard yet", "US cluster
# dashboards still broken so no numbers there", "ask infra for that one") says nothing of
# what it names. "Didn't change it" says the value stands, and is kept.
_UNOBSERVED = re.compile(
    r"\b(?:(?:have|has|had|did)(?:n'?t|\s+not)(?!\s+(?:change|changed)\b)"
    r"|not\s+(?:yet\s+)?(?:touched|looked|checked|measured|pulled|probed|announced|known)"
    r"|untouched|(?:don'?t|do\s+not)\s+know|no\s+(?:numbers|figures|data)\b"
    r"|(?:can|could)(?:n'?t|\s+not)\s+find|ask\s+\S+\s+for\s+(?:that|this|it|those|them)"
    r"|still\s+broken)"
)
_SENTENCE_GAP = re.compile(r"(?<=[.!?])(\s+)")


# A sentence its member says as a belief or as not confirmed ("14:00 I think", "TBC",
# "unconfirmed"), or as a tentative plan ("pencilled for 09:42", "tentatively set for …"),
# states none of its values as a fact, nor as the plan: the answer, a value alone, could not
# say it is only believed or tentative.
GUESSED = re.compile(
    r"\b(?:i think|i believe|i reckon|tbc|tbd|unconfirmed|pencill?ed|tentative|tentatively"
    r"|provisional|provisionally)\b",
    re.IGNORECASE,
)


def unhedged(fact: Fact) -> Fact:
    """``fact`` with its hedges blanked out: the values it says it is unsure of, as said."""
    text = HEDGE.sub(lambda m: " " * len(m.group(0)), fact.text)
    text = GUESSED.sub(lambda m: " " * len(m.group(0)), text)
    # what its member has only heard, or asks, disputes as a hedge does ("22:00 UTC afaik",
    # "is it 22:00?"); a value only supposed ("a rollback would land on v2.8.1") is of
    # another case than the one asked, and disputes nothing
    text = _HEARSAY_ANY_CASE.sub(lambda m: " " * len(m.group(0)), text).replace("?", ".")
    return dataclasses.replace(fact, text=text)


def observed(fact: Fact) -> Fact:
    """``fact`` read without what its member says it has not looked at or does not know: a
    sentence that says so and holds no value goes whole ("Writes go through the primary, ask
    infra for that one."), else the clause that says it ("…:7450, prod I haven't touched"),
    so the row's words never make it about the thing it disclaims."""
    if not _UNOBSERVED.search(fact.text.lower()):
        return fact
    kept: list[str] = []
    for sentence in _SENTENCE_GAP.split(fact.text):
        if not _UNOBSERVED.search(sentence.lower()):
            kept.append(sentence)
        elif values_in(sentence):
            clauses = re.split(f"({CLAUSE_END.pattern})", sentence)
            kept.append("".join(" " if _UNOBSERVED.search(c.lower()) else c for c in clauses))
        else:
            kept.append(" " * len(sentence))
    return dataclasses.replace(fact, text="".join(kept))


# A plan word that names a thing ("route-plan", "route planning") or a schedule that recurs
# ("scheduled at 03:15 every Sunday") states what is so, not what may be.
_NAMING_PLAN = re.compile(
    r"\w[-_]plan\w*|\bplan\w*[-_]\w|\b([a-z]+)\s+planning\b(?!\s+(?:to|on|for)\b)"
)
_PLANNER = word_set("are is am was were be been being re m s still currently now also we i they")
_RECURS = re.compile(r"\b(?:every|each|nightly|daily|weekly|hourly|monthly)\b")
# A path or a dotted name is a name, whatever words it is spelled with ("/plan", "plan.md",
# "Next.js", "plan/apply"): ``\b`` stands at a slash or a dot, so its words would be read as
# the row's or the question's own.
_PATH_OR_DOTTED = re.compile(r"(?:[\w-]*/[\w./-]*\w|[\w-]*\w\.[a-z][\w.-]*)")


def _without_named_plans(text: str) -> str:
    """``text`` without the plan words that name a thing ("route-plan", "route planning",
    "/plan", "Next.js")."""
    text = _PATH_OR_DOTTED.sub(lambda m: " " * len(m.group(0)), text)
    return _NAMING_PLAN.sub(lambda m: m.group(0) if m.group(1) in _PLANNER else " ", text)


def unsettled(text: str) -> bool:
    """Does ``text`` say its value is not settled yet (planned, expected, a guess)?"""
    kept = _without_named_plans(text)
    if _RECURS.search(kept):
        kept = re.sub(r"\bscheduled\b", " ", kept)
    return bool(_UNSETTLED.search(kept))


_ASKS_PLAN = re.compile(
    r"\b(?:plan|plans|planned|next|will|going to|scheduled|upcoming|expected|proposed)\b"
)
# A word that asks the plan itself, not the noun "plan", which names a thing as often ("the
# student plan", "this week's contact plan"): what a model's citation of a plan must be for.
_ASKS_PLAN_BY_WORD = re.compile(
    r"\b(?:planned|plans? (?:to|on)|next|will|going to|scheduled|upcoming|expected|proposed)\b"
)


def asks_a_plan(ask: ValueAsk) -> bool:
    """Does the question ask what is planned by a word of the future ("next", "scheduled",
    "will", "planned") — not by the noun "plan" alone?"""
    return _ASKS_PLAN_BY_WORD.search(_without_named_plans(ask.question)) is not None


UPDATE = re.compile(r"\b(?:now|actually|correction|update|updated|instead|changed|moved)\b")
SECRET_WORD = re.compile(
    r"\b(?:password|passwd|passphrase|secret|token|api[ _-]?key|access[ _-]?key|private[ _-]?key"
    r"|secret[ _-]?key|credentials?|vault|pat)\b"
)
_SECRET_FORM = re.compile(
    r"^(?:AKIA|ASIA)[A-Z0-9]{8,}$|^sk-|^ghp_|^gho_|^xox[bpa]-|^-----BEGIN|^eyJ[\w-]{10,}"
)


def clause_of(text: str, value: Value) -> tuple[str, str]:
    """The text of the value's clause before it, and after it."""
    before = text[: value.start]
    after = text[value.end :]
    start = max((m.end() for m in CLAUSE_END.finditer(before)), default=0)
    end_at = CLAUSE_END.search(after)
    return before[start:], after[: end_at.start()] if end_at else after


# What marks a value as the one so now, or the one a thing was changed to: "now", "currently",
# "these days", "from Monday (on)", "since Monday", "moved to", "got lowered to".
_NOW_SAID = re.compile(
    r"\b(?:now|currently|nowadays|these days|today|tonight|from (?:tomorrow|this|next|[a-z]+day)"
    r"|since)\b"
    r"|\b(?:moved|changed|lowered|raised|reduced|increased|bumped|cut|dropped|switched|pushed"
    r"|brought|set|reset|updated)\s+(?:back\s+|up\s+|down\s+)?to\s+(?:[a-z]+\s+)?$"
)
_BE_PAST = word_set("was were used had")
# the words of a clause that say when, or that it changed, never what the value is of
_WHEN_OR_CHANGE = word_set(
    """now currently nowadays these days since from today tomorrow tonight this next week month
    year morning evening on moved changed lowered raised reduced increased bumped cut dropped
    switched pushed brought set reset updated back up down to got"""
)


# A question asked in the past ("what *did* the lag peak at?", "how long *was* it?"): what a
# row says a thing was is an answer to it, as the reader reads it.
_ASKED_IN_PAST = re.compile(r"\b(?:did|was|were|had|used to)\b")


def _numbered(text: str) -> set[str]:
    """The things ``text`` names by a noun and a number ("year 8", "ward 5", "gate #3")."""
    return {
        f"{word} {number}"
        for word, number in re.findall(r"\b([a-z]+)\s+#?(\d+)\b", text.lower())
        if word not in _BEFORE_A_VALUE and not word.endswith("ed")
    }


# the words that stand before a value without naming a thing by it ("at 9", "now 12")
_BEFORE_A_VALUE = word_set(
    """a an the at to now is are was were be been by from of on in for since until about
    around it its s so then than and or but with after before under over up down has have
    had got gets takes took holds"""
)


def then_now(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is ``value`` said in a past clause ("the proof *was* 45 min") of a row that goes on to
    give another value of its kind as the one so now, of the same thing — its clause names
    nothing the row had not named before ("…, now it's 60 min", "… but got moved to room 14",
    "since Monday she uses berth 9") — for a question not asked in the past? The first is
    what the thing was, not what it is: the row says it changed, and the later value is the
    answer."""
    if _ASKED_IN_PAST.search(request_sentence(ask)):
        return False
    if not any(
        t.text in _BE_PAST or past(t) for t in tokens(" ".join(clause_of(text, value)).lower())
    ):
        return False
    first = f"{text[: value.start]} {clause_of(text, value)[1]}".lower()
    named = {root(t.text) for t in tokens(first)}
    for later in values_in(text):
        if later.start < value.end or later.kind is not value.kind:
            continue
        if later.text.casefold() == value.text.casefold():
            continue
        was, rest = (part.lower() for part in clause_of(text, later))
        if re.search(r"\bsince\s+$", was):
            continue  # "up since 06:40": when a state began, not a value it changed to
        if any(v.kind is value.kind for v in values_in(rest)):
            continue  # "Year 8 now has 170": a number naming a thing, its value after it
        label = re.search(r"\b([a-z]+)\s+#?$", was)
        if (
            label is not None
            and label.group(1) not in _BEFORE_A_VALUE | _WHEN_OR_CHANGE | STOP
            and root(label.group(1)) != root(ask.noun)
        ):
            continue  # "now 4 on ward 5": the number of a ward, for "how many nurses"
        if not (_NOW_SAID.search(was) or re.match(r"[^.;]*?\b(?:now|currently|today)\b", rest)):
            continue
        if all(
            t.text in STOP
            or t.text.isdigit()  # a number names a thing only after its noun: ``_numbered``
            or t.text in _WHEN_OR_CHANGE
            or re.fullmatch(r"(?:mon|tues|wednes|thurs|fri|satur|sun)day", t.text) is not None
            or verb_form(t)
            or root(t.text) in named
            for t in tokens(f"{was} {rest}")
        ) and _numbered(f"{was} {rest}") <= _numbered(first):
            return True  # "Year 8 now has 170", "now 4 on ward 5": another thing's value
    return False


# A value its member does not assert: said in a question ("ward 4 has 24 beds?"), as hearsay
# or a likelihood ("likely", "seems", "I'm told", "last I heard"), or under a modal of what
# ought to, may or would be ("should have 24 beds", "was supposed to leave at 09:30") where
# the question asks no such thing itself ("when should the cycle end?").
_HEARSAY = re.compile(
    r"\b(?:likely|unlikely|hopefully|seems?|seemed|apparently|reportedly|supposedly|allegedly"
    r"|rumou?red|in theory|on paper|i'?m told|i was told|i'?ve been told|last i (?:heard|checked"
    r"|looked)|if i (?:remember|recall)|iirc|afaik|afaict|can (?:anyone|someone|somebody)"
    r" confirm|double[- ]check)\b"
)
_HEARSAY_ANY_CASE = re.compile(_HEARSAY.pattern, re.IGNORECASE)
_MODAL = re.compile(
    r"\b(?:[Ss]hould|[Oo]ught to|supposed to|meant to|[Ww]ould|[Cc]ould"
    # "may", not the month a member wrote in lower case ("in may", "may 14")
    r"|(?<!in )(?<!of )(?<!for )(?<!by )(?<!since )(?<!until )(?<!mid )(?<!end )may)\b(?!\s*\d)"
)


def _unasserted(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is ``value`` said in a question, as hearsay, or under a modal the question does not
    ask by (``_HEARSAY``, ``_MODAL``)?"""
    sentence = _sentence_of(text, value)
    if sentence.rstrip().endswith("?") or _HEARSAY.search(sentence.lower()):
        return True
    before, _ = clause_of(text, value)
    return bool(_MODAL.search(before)) and not _MODAL.search(ask.question)


def status_of(ask: ValueAsk, text: str, value: Value) -> str | None:
    """How the row states the value: "fact", "plan" (asked about a plan), "gone" (no
    longer so), or None when it is negated, unsettled, unasserted or a secret."""
    before, after = (part.lower() for part in clause_of(text, value))
    whole = f"{before} {after}"
    if NEGATION.search(before):
        return None
    if _GONE.search(whole) or _GONE_FROM.search(before) or then_now(ask, text, value):
        return "gone"
    if (
        re.search(r"\bfrom\s+(?:[a-z]+\s+)?$", before)
        and re.match(r"\s*to\b", after)
        and value.kind not in (Kind.DATE, Kind.TIME)
    ):
        return "gone"  # "from 530 MB to 412 MB"; "from 12-18 to 01-04" is a span
    if SECRET_WORD.search(whole) or _SECRET_FORM.search(value.text):
        return None
    heading = text.lower().split(": ", 1)[0] if ": " in text else ""
    if HEDGE.search(text.lower()) or GUESSED.search(_sentence_of(text, value)):
        return None
    if unsettled(whole) or unsettled(heading):
        if (
            began_at(value, before)
            and not unsettled(before)
            and not unsettled(heading)
            and not unsettled(state_words_aside(after))
        ):
            return "fact"  # "paused since 06:40 waiting on …": when the state began
        return "plan" if _ASKS_PLAN.search(_without_named_plans(ask.question)) else None
    if _unasserted(ask, text, value):
        return None  # "ward 4 has 24 beds?", "likely 55%", "was supposed to leave at 09:30"
    return "fact"


# Where a word the status reading keys on is no status of the value, by where it stands: a
# thing named by a determiner after the value ("to solve the Monday route *plan*", "within
# the *target*"), the state of the things a count counts ("312 messages *waiting* in the
# DLQ"), a hedge in another sentence, a secret's word beside a value no secret can be.
_NOUN_AFTER = re.compile(
    r"\b(?:the|a|an|our|its|their|this|that|each)\s+(?:[\w-]+\s+){0,3}?"
    r"(plan|target|estimate|guess)\b(?!\s*(?:is|are|was|were|:|to|of|for)\b|\s*:)"
)
_COUNT_STATE = re.compile(r"^\s*[a-z][\w-]*\s+(waiting|pending|queued|sitting)\b")
_NO_SECRET = frozenset(
    {
        Kind.HOST,
        Kind.IP,
        Kind.PORT,
        Kind.DURATION,
        Kind.DATE,
        Kind.TIME,
        Kind.SIZE,
        Kind.COUNT,
        Kind.PERCENT,
        Kind.VERSION,
        Kind.REGION,
    }
)


def cited_status(ask: ValueAsk, text: str, value: Value) -> str | None:
    """``status_of`` of the value a model cites — and of a rival's, which is read at least as
    loosely as the value it disputes — with the words it keys on that are no status of that
    value masked out by structure (``_NOUN_AFTER``, ``_COUNT_STATE``, a hedge of
    another sentence, "vault" beside a host): "took 38.6 s to solve the route plan" and
    "Vault is up at vault-02.internal" are facts. The offline reader keeps its own reading."""
    status = status_of(ask, text, value)
    if status == "fact":
        return status
    chars = list(text)

    def mask(start: int, end: int) -> None:
        chars[start:end] = "x" * (end - start)

    _, after = clause_of(text, value)
    at = value.end + text[value.end :].find(after) if after else value.end
    for found in _NOUN_AFTER.finditer(after.lower()):
        mask(at + found.start(1), at + found.end(1))
    counting = _COUNT_STATE.match(after.lower())
    if counting and value.kind in (Kind.COUNT, Kind.NUMBER):
        mask(at + counting.start(1), at + counting.end(1))
    begin, finish = _sentence_span(text, value)
    for found in HEDGE.finditer(text.lower()):
        if found.end() <= begin or found.start() >= finish:
            mask(found.start(), found.end())
    if value.kind in _NO_SECRET or (value.kind is Kind.URL and not re.search(r"[=@]", value.text)):
        for found in SECRET_WORD.finditer(text.lower()):
            mask(found.start(), found.end())
    masked = "".join(chars)
    return status if masked == text else status_of(ask, masked, value)


# Qualifiers of which a thing has one: a value said of one is not a value of another.
EXCLUSIVE = tuple(
    {w: n for n, group in enumerate(groups.split("|")) for w in group.split()}
    for groups in (
        "prod production prd live|staging stage stg preprod|dev development|qa uat|canary"
        "|sandbox|local",
        "hourly|nightly daily|weekly|monthly|quarterly|yearly annual annually",
        "start starts started begin begins began kick kicks kicked opens|end ends ended finish"
        " finishes finished expire expires expired close closes closed stop stops wrapped"
        " lift lifts lifted",
        "pass passed passes passing succeeded green|fail failed fails failing broke broken"
        " errored red|skip skipped skips skipping",
        "primary|secondary|tertiary",
    )
)
RANK = len(EXCLUSIVE) - 1  # the ranks in ``EXCLUSIVE``: a row saying none is of no other rank


@functools.lru_cache(maxsize=4096)
def _qualifier_of(word: str) -> tuple[tuple[int, int], ...]:
    """The (table, group) of each exclusive qualifier a word is, or is derived from
    ("failures" of "fail", "successful" of "succeeded")."""
    mine = root(word)
    return tuple(
        (n, group)
        for n, table in enumerate(EXCLUSIVE)
        for w, group in table.items()
        if root(w) != mine and derived_from(root(w), mine)
    )  # a word of the same root is no qualifier: "week" is not "weekly"


def derived_qualifiers(text: str) -> list[set[int]]:
    """``qualifiers`` with a word's derivations too, for a model's cited row: "Sync
    failures last week" says the "failed" a question asks."""
    out = qualifiers(text)
    for word in set(re.findall(r"[a-z]{4,}", text.lower())):
        for n, group in _qualifier_of(word):
            out[n].add(group)
    return out


def qualifiers(text: str) -> list[set[int]]:
    words = re.findall(r"[a-z]+", text.lower())
    return [{table[w] for w in words if w in table} for table in EXCLUSIVE]


def other_qualifier(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the row say the value of another one of a thing the question qualifies ("the
    prod schema" of a row about dev, "weekly" of "nightly", the end of what "starts", the
    passed of what "failed"), or names it with another label than the question's? Its
    clause's qualifiers count, else the row's; a model's cited value is held to the same."""
    if (
        _other_label(ask, value)
        or _labelled_otherwise(ask, text, value)
        or another_of_its_sort(ask, text, value)
    ):
        return True
    clause = " ".join(clause_of(text, value))
    said_by = qualifiers(clause)
    span = _span_end(text, value)
    if span is not None:
        said_by[_BOUNDARY] = {span}  # "runs from 2026-12-18 to 2027-01-04": which end
    asked_text = request_sentence(ask).lower()
    asked_by = qualifiers(asked_text)
    # a boundary the question names as the thing itself, a noun ("which time is the close?")
    # is what is asked about, not which end of it
    asked_by[_BOUNDARY] -= {
        EXCLUSIVE[_BOUNDARY][w]
        for w in re.findall(r"\b(?:the|a|an|its|this|that|each|every)\s+([a-z]+)", asked_text)
        if w in EXCLUSIVE[_BOUNDARY] and root(w) in ask.subject
    }
    # the clause's qualifiers, else its sentence's ("Primary on-call: … (email)"), else the row's
    in_sentence = qualifiers(_sentence_of(text, value))
    for n, (asked, in_clause, sentence, whole) in enumerate(
        zip(asked_by, said_by, in_sentence, qualifiers(text), strict=True)
    ):
        said = in_clause or sentence
        if asked and not asked & (said or whole):
            # an environment or a cadence the question names must be the row's own
            return bool(said or whole) or n < _BOUNDARY
    return False


def _sentence_of(text: str, value: Value) -> str:
    """The sentence of ``text`` that holds the value."""
    start, end = _sentence_span(text, value)
    return text[start:end]


def _sentence_span(text: str, value: Value) -> tuple[int, int]:
    """Where the sentence of ``text`` that holds the value starts and ends."""
    start = max((m.end() for m in _SENTENCE_GAP.finditer(text, 0, value.start)), default=0)
    end = next((m.start() for m in _SENTENCE_GAP.finditer(text, value.end)), len(text))
    return start, end


# The states a version or a build is in, one at a time: live (deployed, released, current),
# in review, staged, draft. A question that asks one is not answered by a row that states
# another ("which build is live?" of "build 4182 is in TestFlight review").
_STATES = tuple(
    re.compile(p)
    for p in (
        r"\b(?:(?:is|are|was|were|be|been|being|went|gone|goes|go|going|now|the|a|our|its)"
        r"\s+(?:[a-z]+ly\s+)?live|deployed|released|shipped|published|rolled out|current)\b",
        r"\b(?:review|reviewing|submitted|testflight|beta)\b",
        r"\bstaged\b",
        r"\b(?:draft|drafted|unreleased|unpublished)\b",
    )
)


def _other_label(ask: ValueAsk, value: Value) -> bool:
    """Does the value name the asked thing with another one-letter or numbered label than
    the question's ("cohort_b.parquet" for "the cohort A extract", "wave-3" for "wave 2")?"""
    words = ask.text_words
    said = value.text.lower()
    for thing, label in itertools.pairwise(words):
        if len(thing) < 3 or not thing.isalpha() or not re.fullmatch(r"[a-z]|\d+", label):
            continue
        glued = re.search(rf"(?<![a-z0-9]){thing}[_-]([a-z]|\d+)(?![a-z0-9])", said)
        if glued and glued.group(1) != label:
            return True
    return False


# A thing named by its noun and a label right after it: a letter, a number or a code ("zone
# C", "line 3", "batch PB-7731", "ring R7", "region eu-west-1").
_LABELLED = re.compile(
    r"(?<![\w-])([a-z]{3,})(?=\s+#?([a-z0-9]+(?:-[a-z0-9]+)*)(?![\w-]|[.,:/]\w))", re.I
)
# Nouns a number after which is a quantity, a limit or a day, not a label ("max 500", "last
# 7", "Nov 30")
_NOT_LABELLED = MONTHS | word_set(
    "last next past first top than every each over under within around about max min maximum"
    " minimum avg average total size count limit quota cap threshold rate"
)
_LABEL_KINDS = frozenset({Kind.NUMBER, Kind.ID, Kind.REGION})


def _labelled(text: str, *, strict: bool) -> list[tuple[str, str, int, int]]:
    """Each thing ``text`` names by a noun and a label: the noun's root, the label as
    lowered, and where the label is. A number or a code is a label only where it is read as
    one whole value ("24 hours", "Dec 4", "2.14" are none); ``strict``: a lowercase "a" or
    "i" is the article or the pronoun, not a letter."""
    spans = {(v.start, v.end) for v in values_in(text) if v.kind in _LABEL_KINDS}
    out = []
    for m in _LABELLED.finditer(text):
        thing, label = m.group(1).lower(), m.group(2)
        if thing in STOP | NP_STOP | _NOT_LABELLED:
            continue
        if len(label) == 1 and label.isalpha():
            if strict and label in "ai":
                continue
        elif m.span(2) not in spans or not re.search(r"\d", label):
            continue  # a quantity, a date, a version; a word ("on-call") names no one
        out.append((root(lemma(thing)), label.lower(), *m.span(2)))
    return out


def _label_shape(label: str) -> str:
    """A label's shape: its runs of letters and of digits ("pb-7731" and "pb-7732" alike)."""
    return re.sub(r"[a-z]+", "a", re.sub(r"\d+", "9", label))


def _same_thing(a: str, b: str) -> bool:
    return a == b or bool(group_of().get(a, frozenset()) & group_of().get(b, frozenset()))


def _labelled_otherwise(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the value's clause (else its sentence, where the clause names no label of the
    thing) name a thing the question names by a noun and a label ("zone A", "line 3", "batch
    PB-7732") with another label of the same shape ("zone C", "line 2", "batch PB-7731") and
    never the asked one: the other one's value, whatever the rest of the row says of the
    asked one ("…; zone A is next week")? Nor is the other one's label itself an answer
    ("2" of "shard 2 …" for "on shard 3"), but where the thing is what is asked ("which
    gate took over from gate B12?")."""
    asked = _labelled(ask.question, strict=False)
    if not asked:
        return False
    named = _labelled(text, strict=True)
    if any(
        _same_thing(t, thing) and not _same_thing(t, root(ask.noun))
        for t, _, s, e in named
        if s < value.end and value.start < e
        for thing, _, _, _ in asked
    ):
        return True  # "2" of "shard 2 queue depth is …" for "the depth on shard 3"
    named = [n for n in named if n[3] <= value.start or n[2] >= value.end]
    before, after = clause_of(text, value)
    scopes = ((value.start - len(before), value.end + len(after)), _sentence_span(text, value))
    for thing, label, _, _ in asked:
        for start, end in scopes:
            here = [
                said
                for t, said, s, e in named
                if start <= s
                and e <= end
                and _same_thing(t, thing)
                and _label_shape(said) == _label_shape(label)
            ]
            if not here:
                continue
            if label not in here and not _says_label(text[start:end], label):
                return True
            break
    return False


def _says_label(text: str, label: str) -> bool:
    """Does ``text`` say the label by itself ("since P1 tripped"): a letter as a capital."""
    if len(label) == 1 and label.isalpha():
        return re.search(rf"(?<![\w-]){label.upper()}(?![\w-])", text) is not None
    return re.search(rf"(?<![\w.-]){re.escape(label)}(?![\w-]|\.\d)", text, re.I) is not None


# A name that tells one thing of a kind from another: a code of letters and digits ("W3",
# "enc-b3", "INJ-24-0917"), a cloud region ("us-east", "eu-west-1"), or a name that is no
# word of the language ("tvOS", "Okafor").
_NAME = re.compile(r"(?<![\w.@/:#-])([A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*)(?![\w@/-]|\.\w)")
_REGION = re.compile(
    r"(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:north|south|east|west|central)(?:east|west)?(?:-\d+)?"
)


def _sort(name: str) -> str | None:
    """The sort of a name that tells one thing from another of its kind, or None: a region,
    a code of letters and digits by its shape, a name no dictionary has."""
    lowered = name.lower()
    if _REGION.fullmatch(lowered):
        return "region"
    if re.search(r"\d", lowered) and re.search(r"[a-z]", lowered):
        return f"code {_label_shape(lowered)}"
    if lowered.isalpha() and len(lowered) > 2 and lowered not in STOP | NP_STOP:
        return None if known(lowered) else "name"
    return None


def _names_of_sorts(text: str) -> list[tuple[str, str, int, int]]:
    """Each name of a sort in ``text``: lowered, its sort, where it is. A name no dictionary
    has is of a sort by how it is written ("Okta", "tvOS", "PRD"), and only where it is
    written with a capital, not right after a number (a unit's, "-81 dBm") nor opening a
    sentence."""
    out = []
    for m in _NAME.finditer(text):
        written = m.group(1)
        sort = _sort(written)
        if sort == "name":
            before = text[: m.start()]
            if written.islower() or re.search(r"(?:\d\s*|[.!?]\s+|^\s*)$", before):
                continue
            sort = f"name {_case(written)}"
        if sort is not None:
            out.append((written.lower(), sort, *m.span(1)))
    return out


def _names_of_sorts_asked(question: str) -> list[tuple[str, str, int, int]]:
    """The names of a sort a question (in lower case) says: codes, regions and words no
    dictionary has, whose sort the row tells by how it writes them."""
    return [
        (m.group(1), sort, *m.span(1))
        for m in _NAME.finditer(question)
        if (sort := _sort(m.group(1))) is not None
    ]


def _case(name: str) -> str:
    """How a name is written: in capitals, with a capital first, or with one inside."""
    if name.isupper():
        return "A"
    return "Aa" if name[0].isupper() and name[1:].islower() else "aA"


def _spelled_alike(one: str, other: str, sort: str) -> bool:
    """Is one region or name the other's beginning, or are two names alike to their fifth
    letter (one spelled out, "Postgres" and "PostgreSQL")?"""
    if sort.startswith("code"):
        return False
    if other.startswith(one) or one.startswith(other):
        return True
    return sort.startswith("name") and one[:5] == other[:5]


def _pieces(name: str) -> set[str]:
    return set(re.findall(r"[a-z]+|\d+", name))


def another_of_its_sort(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the question name its thing by a name of a sort — a code ("enc-b3"), a region
    ("us-east"), a name no dictionary has ("tvOS") — that the value's clause does not say,
    while that clause names another of the same sort the question does not ("enc-a3",
    "eu-west", "iOS"): the value is that one's ("primary enc-a3 at 10.0.0.7, backup is
    enc-b3" for enc-b3's address)? Codes are of one sort by their shape and a piece in
    common ("AC-01", "AC-02"); a name inside the value is the value's own."""
    question = ask.question
    asked = [
        (name, sort)
        for name, sort, _, _ in _names_of_sorts_asked(request_sentence(ask))
        if name in ask.subject
        or all(p in ask.subject or root(lemma(p)) in ask.subject for p in re.split(r"[-_]", name))
    ]
    if not asked:
        return False
    before, after = clause_of(text, value)
    start, end = value.start - len(before), value.end + len(after)
    clause = text[start:end].lower()
    found = _names_of_sorts(text)
    # a name the question asks is of the sort the row writes it in, outside the clause
    written = {n: sort for n, sort, s, e in found if s < start or e > end}
    asked = [(n, written.get(n, "") if sort == "name" else sort) for n, sort in asked]
    named = [
        (name, sort)
        for name, sort, s, e in found
        if start <= s
        and e <= end
        and (e <= value.start or s >= value.end)
        and not says(question, name, edge=r"\w-")
    ]
    for name, sort in asked:
        if says(clause, name, edge=r"\w-"):
            continue
        for other, other_sort in named:
            if other_sort != sort or _spelled_alike(name, other, sort):
                continue  # "PostgreSQL" for "Postgres", "us-east-1" for "us-east": the same
            if not sort.startswith("code") or _pieces(name) & _pieces(other):
                return True  # codes of a shape are of one sort by a piece in common
    return False


def _states(text: str) -> set[int]:
    lowered = text.lower()
    return {n for n, pattern in enumerate(_STATES) if pattern.search(lowered)}


def other_state(ask: ValueAsk, text: str, value: Value) -> bool:
    """Does the row state the value in another state than the one the question asks
    ("which version is deployed?" of "v2.3 is staged"; "the current build" of "build 4182
    is in TestFlight review")? Its clause's states count, else the row's."""
    sentences = re.split(r"(?<=[.?!])\s+", ask.question)
    asked = _states(next((x for x in sentences if ask.noun in x), ask.question))
    if not asked:
        return False
    said = _states(" ".join(clause_of(text, value))) or _states(text)
    return bool(said) and not asked & said


_COPULA = word_set("is are was were be been being has have had sits lives runs uses")


def of_other_subject(ask: ValueAsk, text: str, value: Value) -> bool:
    """Is the value said of another subject in its own clause, while another clause of the
    row names as much of the asked one, and a word of it this clause lacks ("Which
    warehouse do the dashboards use?" of "dbt runs on warehouse ETL_WH_L; the dashboards
    use a separate one")? The clause's subject is the words before its first verb; one the
    question says in no word nor neighbour of a word ("dbt") makes the value its own."""
    head, tail = clause_of(text, value)
    start = value.start - len(head)
    end = value.end + len(tail)
    qualifiers = {root(w) for table in EXCLUSIVE for w in table}
    wanted = [t for t in specific_of(ask) if t.isalpha() and t not in qualifiers]

    def said(part: str) -> set[str]:
        found = tokens(code_form(part))
        roots = {root(t.lemma) for t in found} | {t.stem for t in found}
        return {t for t in wanted if t in roots}

    elsewhere, own = said(f"{text[:start]} {text[end:]}"), said(text[start:end])
    if not elsewhere - own or len(elsewhere) < len(own):
        return False  # no other clause says as much of the asked subject, and more
    words = tokens(code_form(head))
    verb = next((k for k, t in enumerate(words) if k and (t.text in _COPULA or verb_form(t))), None)
    if verb is None:
        return False
    asked = {root(t.lemma) for t in tokens(code_form(ask.question))}
    return any(
        t.text.isalpha()
        and t.text not in STOP | NP_STOP
        and root(t.lemma) not in qualifiers
        and not any(near(root(t.lemma), a) for a in asked)
        for t in words[:verb]
    )


def request_sentence(ask: ValueAsk) -> str:
    """The question's sentence that names the asked noun (the request), not its context
    ("Which branch has the fix? I'd like to base my local work on it.")."""
    sentences = re.split(r"(?<=[.?!])\s+", ask.question)
    asked = next((x for x in sentences if ask.noun in x), ask.question)
    return _LIVES.sub(" ", asked)  # "where does the config live?": a place, not production


_LIVES = re.compile(r"\blive(?=\s*(?:[?.!,;]|$|(?:in|on|at|under|inside|now)\b))")


def asked_qualifiers(ask: ValueAsk) -> list[set[int]]:
    """The exclusive qualifiers the question gives the thing it asks about, but for "live"
    as the verb of a do-question ("where do the triage rules *live*?", "what host does the
    SM-DP+ *live* on?": a place, not production). "Which build is *live* on the App
    Store?" keeps it: an adjective after a copula is the thing's state."""
    return qualifiers(_DO_LIVE.sub(lambda m: m.group(0)[: -len("live")], ask.question.lower()))


# "live" as a verb after do-support: "where do the rules live?", "what does it live on?"
_DO_LIVE = re.compile(
    r"\b(?:do|does|did)\b[^.?!]*?\blive(?=\s*(?:[?.!,;]|$|(?:in|on|at|under|inside)\b))"
)


_BOUNDARY = 2  # the table of a thing's start and end in ``EXCLUSIVE``


def _span_end(text: str, value: Value) -> int | None:
    """Which end of a span a date or a time is ("from 2026-12-18 to 2027-01-04": the start,
    then the end), by the word right before it; None when it is no span's."""
    if value.kind not in (Kind.DATE, Kind.TIME):
        return None
    before = text[: value.start].lower()
    table = EXCLUSIVE[_BOUNDARY]
    if re.search(r"\b(?:from|between)\s+$", before) and re.match(
        r"\s*(?:to|until|till|through|and)\b", text[value.end :].lower()
    ):
        return table["start"]
    if re.search(r"\b(?:to|until|till|through|and)\s+$", before) and re.search(
        r"\b(?:from|between)\s+\S+\s+(?:to|until|till|through|and)\s+$", before
    ):
        return table["end"]
    return None


def words_near(text: str, value: Value) -> tuple[list[str], list[str]]:
    """The stems of the three words before a value and of the one after it, unless that
    word labels the next value."""
    head, tail = clause_of(text, value)
    if re.fullmatch(r"\s*(?:on|at)\s*", head):
        head = text[: value.start]  # "is listening, on 9187": the comma sets off the place
    before = [t.stem for t in tokens(code_form(head))[-3:]]
    after = [t.stem for t in tokens(code_form(tail))[:1]]
    if after and re.match(r"[\s,;:]*[\w-]+\s+[\d/#]", tail[:32]):
        after = []
    return before, after


# Verbs that place a service at a port: "the admin UI sits on 8443", "it lives at 9000".
_PLACING = ("sit", "live", "run", "be", "listen", "serve", "answer")
_NOT_A_PORT_NEXT = re.compile(r"\s*(?:[.,;:)!?]|$|(?:with|and|but|for|in|on|now|since|behind)\b)")


@functools.cache
def _placed() -> frozenset[str]:
    return frozenset(stem(w) for w in _PLACING)


def placed_at_port(ask: ValueAsk, text: str, value: Value, before: list[str]) -> bool:
    """Is a bare number a port because the row places the asked thing at it ("sits on 8443
    with a self-signed cert") — a verb of place, "on" or "at", and no noun it counts after
    it ("runs on 3 nodes")?"""
    return (
        Kind.PORT in ask.kinds
        and value.kind is Kind.NUMBER
        and re.fullmatch(r"\d{2,5}", value.text) is not None
        and 0 < int(value.text) < 65536
        and before[-1:] in (["on"], ["at"])
        and len(before) >= 2
        and before[-2] in _placed()
        and _NOT_A_PORT_NEXT.match(text[value.end :]) is not None
    )


# A cohort's age as analytics labels it, in full or short: "Day-7", "day 7", "D7"; "W4",
# "M3".
_AGE_LABEL = re.compile(r"(day|week|month|d|w|m)[- ]?(\d{1,3})")
_AGE_UNITS = {"d": "day", "w": "week", "m": "month"}


def says(text: str, term: str, *, edge: str = "a-z0-9") -> bool:
    """Does a lower-case text say a lower-case term of the question whole (no character of
    ``edge`` either side), as the question writes it or, for a cohort's age, in its other
    form ("d7" for "day-7")?"""
    age = _AGE_LABEL.fullmatch(term)
    forms: tuple[str, ...] = (term,)
    if age is not None:
        short, number = age.group(1)[0], age.group(2)
        forms = tuple(  # "d7", "d-7", "day7", "day-7", "day 7": never "d 7", a letter apart
            f"{unit}{gap}{number}"
            for unit, gaps in ((short, ("", "-")), (_AGE_UNITS[short], ("", "-", " ")))
            for gap in gaps
        )
    return any(re.search(rf"(?<![{edge}]){re.escape(f)}(?![{edge}])", text) for f in forms)


def derived_from(a: str, b: str) -> bool:
    """Are two roots one word's, or derived one from the other by an ending ("fail" and
    "failur", "sign" and "signatur", "deploy" and "deployment"), or two endings of one
    stem of five letters ("success" and "succeed")?"""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and long_.startswith(short) and long_[len(short) :] in _ENDINGS:
        return True
    shared = len(os.path.commonprefix([short, long_]))  # noqa: RUF071 - letters, not paths
    return shared >= 5 and len(short) - shared <= 2 and len(long_) - shared <= 3


_ENDINGS = word_set("atur ation at ment ur ful ing ion ed er or abl iv iti e s y")
