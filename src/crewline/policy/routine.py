"""The concierge's gate: may a question be answered without the human?

``judge`` is pure (no I/O, no clock, no randomness) and is checked before any brain. First the
careful judgement (``policy/careful/``): irreversible acts, instructions to the concierge,
choices with no stated default — final, it can only say careful. Then the question is placed
by its *structure*, not its words:

- a default the question states ("the default is 8080", "3 (the default)", "as usual",
  "keep X?") → that default;
- a request for a value ("which port did the scan land on?") → the value a fleet row gives,
  naming the row (``policy/fleet/``);
- a yes/no to go on with a step ("ok to continue?", "Run the linter?", "Step 3 next, go?") →
  yes, since nothing careful is in it.

Anything else is ``unknown`` and goes to the human — unless a model places it (see
``check_placement``): a member's wording is evidence, never authorisation.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from crewline.policy import defaults, fleet
from crewline.policy.acts import AUDIENCE, PROD_WORDS
from crewline.policy.beyond import beyond, hidden
from crewline.policy.careful import (
    EDIT_VERBS,
    PROCEED_VERBS,
    READ_VERBS,
    Careful,
    careful,
    go_option,
    is_yes_no,
    names_a_value,
    orders_output,
    too_long,
    yes_option,
)
from crewline.policy.careful.words import (
    DOC_HEADS,
    OBJECT_STOP,
    PREPOSITIONS,
    SHARED_THINGS,
    SUBJECTS,
    TIME_WORDS,
)
from crewline.policy.clauses import FILLERS, Shape, shape_of
from crewline.policy.fleet import Fact, FleetReading, ValueAsk
from crewline.policy.lemmas import known, lemma
from crewline.policy.wording import capitalised_names, code_form, word_set

__all__ = [
    "Fact",
    "Placement",
    "Verdict",
    "VerdictKind",
    "check_placement",
    "judge",
    "needs_facts",
    "search_terms",
]


class VerdictKind(StrEnum):
    PROCEED = "proceed"
    OBVIOUS_DEFAULT = "obvious_default"
    FLEET_FACT = "fleet_fact"
    IRREVERSIBLE = "irreversible"
    AMBIGUOUS = "ambiguous"
    UNKNOWN = "unknown"

    @property
    def routine(self) -> bool:
        """True for the kinds the concierge may answer; the rest go to the human."""
        return self in _ROUTINE


_ROUTINE = frozenset({VerdictKind.PROCEED, VerdictKind.OBVIOUS_DEFAULT, VerdictKind.FLEET_FACT})


@dataclass(frozen=True, kw_only=True, slots=True)
class Verdict:
    """The gate's decision. ``answer`` is set only for routine kinds; ``evidence`` holds the
    fleet row ids an answer rests on. ``final``: the careful judgement said careful, and no
    model may place the question; ``pick`` is what a suggestion may offer for a careful
    question (the default it states), never an answer; ``refused`` is the rule that refused a
    model's fleet citation (a stable code: what the card's reason says it found)."""

    kind: VerdictKind
    answer: str | None
    why: str
    evidence: tuple[str, ...]
    final: bool = False
    pick: str | None = None
    refused: fleet.Refusal | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class _Reading:
    """What the gate reads in a question before the facts count."""

    code: str
    careful: Careful | None
    default: str | None
    offered: tuple[str, ...]
    ask: ValueAsk | None
    proceeds: bool
    yes_no: bool  # the question is a yes/no one (not a request for a value, not a choice)
    unread: str | None = None  # the word of a step asked leave for that the gate cannot read


# ---------------------------------------------------------------- yes/no to go on

_AFFIRMATIVE = word_set("yes y ok okay proceed continue go ahead confirm sure yep approve do it on")
# Leads after which the step's verb comes ("shall I run…", "ok to bump…", "I'll fix…"), and
# leads that only ask to go on ("any objections?", "good to go?").
_VERB_LEAD = re.compile(
    r"^(?:(?:shall|should|can|could|may|might|must|will|would|do|am|are)\s+(?:i|we)\b"
    r"|(?:is|isn t|would|will)\s+it\s+(?:be\s+)?(?:ok|okay|fine|alright|all right|good|safe|cool)"
    # the step's subject said without "if" or "that" ("is it okay I continue…")
    r"(?:\s+(?:if\s+(?:i|we)|to|for\s+(?:me|us)\s+to|(?:that\s+)?(?:i|we)(?!\s+(?:am|are|m)\b)))?\b"
    r"|is\s+(?:it\s+)?ok(?:ay)?\s+(?:for\s+(?:me|us)\s+)?"
    r"(?:if\s+(?:i|we)|to|(?:i|we)(?!\s+(?:am|are|m)\b))\b"
    r"|(?:would|will|can|could|do)\s+you\s+(?:permit|allow|let)\s+(?:me|us)(?:\s+to)?\b"
    r"|(?:(?:are\s+you\s+)?happy|ok|okay|alright|fine|good|ready|clear|safe|cool|free)"
    r"\s+(?:for\s+(?:me|us)\s+)?(?:to|if\s+(?:i|we))\b|mind\s+if\s+(?:i|we)\b"
    r"|(?:do|would)\s+you\s+(?:want|like)\s+(?:me|us)\s+to\b|(?:you\s+)?want\s+(?:me|us)\s+to\b"
    r"|permission\s+to\b|let\s+me\s+know\s+if\s+(?:i|we)(?:\s+(?:should|can|could|may))?\b"
    r"|(?:i|we)\s*(?:ll|will|am going to|m going to|are going to|d like to|want to|plan to"
    r"|am about to|m about to|would like to|d)\b|going\s+to\b|about\s+to\b|planning\s+to\b"
    r"|to\b|let(?:s|\s+s|\s+me|\s+us)\b|me\b)"
)
_GO_ON_LEAD = re.compile(
    r"^(?:(?:any\s+)?objections?|(?:please\s+)?confirm|(?:can|could)\s+you\s+confirm|green\s+light"
    r"|good\s+to\s+go|proceeding|moving\s+on|(?:and\s+)?on\s*to\s+the\s+next"
    # the next step by its number ("On to step 3?"): the step is the plan's own
    r"|(?:and\s+)?on\s*to\s+(?:step|phase|part|stage|task)\s+\d+"
    # an offer of a write-up ("want a summary of the issue?"): making it is the step
    r"|(?:do\s+you\s+|you\s+)?want\s+(?:a|an)\s+(?:quick\s+|short\s+|brief\s+)?(?:summary"
    r"|recap|write\s*up|overview|explanation|draft|outline|diagram|chart|graph|table)\s+of"
    r"|(?:step|phase|part|stage|task)\s+\d+(?:\s+now)?\s*$"
    r"|(?:are|am)\s+(?:we|i)\s+(?:ok|okay|good|clear"
    r"|cleared|set)|next|ready|(?:ok|okay|fine|good|alright)\s+with"
    r"|(?:is|would)\s+(?:that|this)\s+(?:be\s+)?(?:ok|okay|fine|alright|good|cool|acceptable))\b"
)
# Words between a lead and the step's verb ("shall I just go ahead and fix…").
_BEFORE_VERB = word_set("just quickly also now first then simply still please only merely")


def _step_is_known(words: list[str]) -> bool:
    """Is the step after a lead one the gate knows to be harmless by its verb ("run",
    "fix", "read"), or no step at all ("shall we?")? A verb it does not know ("shall I give
    the bucket a fresh start?") is for the human."""
    rest = list(words)
    while True:
        while rest and rest[0] in _BEFORE_VERB:
            rest = rest[1:]
        if not rest:
            return True
        if not (lemma(rest[0]) in _VERB_START or rest[0] in _VERB_START):
            return _confined(rest)
        if rest[0] in ("go", "carry") and rest[1:2] in (["on"], ["ahead"]):
            rest = rest[2:]
            if rest[:1] == ["and"]:
                rest = rest[1:]  # "go ahead and <step>": the step's verb counts too
                continue
        return True


_CONFIRM = re.compile(
    r"^(?:does|do|is|are|would)\s+(?:the|this|that|my|our|it|everything|all)\s*(?:\w+\s+){0,2}"
    r"(?:look|sound|seem|feel)s?\s+(?:ok|okay|good|fine|right|reasonable|sensible|correct|alright)"
    r"|^(?:is|are)\s+(?:the|this|that|my|our)\s+(?:plan|approach|order|list|design|proposal|outline"
    r"|idea)\s+(?:ok|okay|good|fine|right|correct|acceptable)|^(?:sounds?|looks?)\s+good|^all\s+good(?!\s+with\s+(?!(?:you|me|us|this|that|it|the\s+(?:plan"
    r"|approach|order|list|design|proposal|outline|idea|steps?))\b))"
)
# "all good with the freezer?": whether a thing is well, not leave for the asker's plan.
_ALL_GOOD_WITH = re.compile(r"(?:^|[.!?]\s+)all\s+good\s+with\s+")
_TAG = re.compile(
    r"(?:^|[\s,.;:!-])(?:ok|okay|alright|right|yes|yeah|yep|fine|good|cool|go|agreed|y/n"
    r"|\(y/n\)|yes or no|yes/no|sound good|sounds good|fine by you|ok with you|good with you"
    r"|correct|deal|shall i"
    r"|right away)\s*\?*\s*$"
)
_CLAIM = re.compile(
    r"\b(?:is|are|was|were|s|equals|=)\s+(?!(?:ok|okay|fine|good|done|ready|green)\b)"
)
_INFO_LEAD = re.compile(
    r"^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\s+"
    r"(?!(?:i|we|it|this|that|everything|all|ok|okay|a|an|the|some|me|us)\b)"
)
# Verbs a step to go on with starts with, besides the reading, editing and going-on verbs:
# what they do is harmless in itself, and the careful judgement has read their objects.
_STEP_VERBS = (
    READ_VERBS
    | EDIT_VERBS
    | PROCEED_VERBS
    | word_set(
        """dry take estimate open carry start run rerun execute retry test try do pick work
    kick trigger invoke launch address set answer reply generate regenerate port convert
    install configure prototype spike measure note record capture type fake parametrize
    wire hook assert cover polish clarify optimise optimize cache wait leave skip pull
    fetch include exclude experiment reorganise reorganize rearrange ping assign re
    bisect backport cherry stash annotate gather poll copy duplicate
    clone download save reload restart recompile reinstall resolve reword retitle ask
    request nudge file raise flag label triage reopen link pair catch pin unpin
    enable rebase benchmark spend squash merge remove delete clear recreate commit see pop
    switch use"""
    )
    # steps that work a result out of what the asker already holds, or walk through it:
    # what they make is the asker's own, an act on a shared thing is read in their objects
    # (verbs that are never nouns: "average wait last day?" asks a value)
    | word_set("compute recompute calculate recalculate derive tabulate walk")
    # a command that only shows what is there, named as the step ("can I `cat` the YAML?")
    | word_set("cat ls tail")
    # verbs that write more of a text the asker holds ("flesh out the sections")
    | word_set("flesh elaborate")
)
# A known step done again is a known step ("reformat", "relint", "retest"): the careful
# judgement reads a "re-" verb that is an act of its own ("reset", "redeploy") first.
_VERB_START = _STEP_VERBS | frozenset(f"re{verb}" for verb in _STEP_VERBS)


def _unknown_step(words: list[str], *, gerunds: bool = True) -> bool:
    """Does the clause name a step by a verb the gate does not know: after a lead ("shall I
    give…"), as a gerund first ("giving the bucket a fresh start, ok?") or after "and" or
    "then" with its object ("proceed, and hand the repo over?")?"""
    joined = bool(words) and words[0] in _JOINS
    while words and (words[0] in FILLERS or words[0] in _JOINS) and not _lead(" ".join(words)):
        words = words[1:]
    if not words:
        return False
    if (
        joined
        and len(words) > 1
        and words[1] in _OBJECT_LEADS | _PRONOUN_OBJECTS
        and words[0] not in _OBJECT_LEADS | _PRONOUN_OBJECTS
        and not (lemma(words[0]) in _VERB_START or words[0] in _VERB_START)
        and not (words[0].endswith("ed") and lemma(words[0]) != words[0])
        and not _confined(words)
    ):
        return True  # a step joined to the go-ahead, by a verb the gate does not know
    plain = " ".join(words)
    lead = None if _GO_ON_LEAD.match(plain) else _VERB_LEAD.match(plain)
    if lead is not None:
        return not _step_is_known(plain[lead.end() :].split())
    first = words[0]
    gerund = gerunds and first.endswith("ing") and lemma(first) != first
    return gerund and lemma(first) not in _VERB_START and not _confined(words)


def _confined(step: list[str]) -> bool:
    """Does a step by a verb the gate does not know keep its work to the asker's own copy or
    to a document it makes — a new document for its object ("draw a diagram of …"), its
    result put into one ("parse the headers into a CSV", "… for the wiki draft"), or a place
    said to be the asker's own or local ("in my branch", "locally", "offline") — with no
    production word, shared thing or person reached in it? What it works on has been read by
    the careful judgement; a step that reaches others ("hand the repo over to the
    contractors", "notify the drivers by SMS") names no such place and stays unknown."""
    said = set(step) | {lemma(w) for w in step}
    if not step or said & _REACHES:
        return False
    after = step[1:]
    if after[:1] in (["a"], ["an"]) and any(lemma(w) in DOC_HEADS for w in after[1:4]):
        return True  # "draw a diagram of the rotation flow": a document made
    for k, word in enumerate(after):
        ahead = after[k + 1 : k + 4]
        if word in _OWN_PLACES or (word in _IN and ahead[:1] == ["my"]):
            return True  # "locally", "offline", "in my branch": the asker's own copy
        if (
            word in _IN
            and any(lemma(w) in DOC_HEADS for w in ahead)
            and (word != "for" or ahead[0] in _OBJECT_LEADS)
        ):
            # "into notes/…", "for the wiki draft": put in a document ("for review", with
            # no determiner, is a purpose)
            return True
        if word == "into" and ahead[:1] in (["a"], ["an"]):
            return True  # "parse the headers into a CSV": a new thing made of what is read
    return False


# Places that keep a step's work to the asker ("format it locally", "replay it offline").
_OWN_PLACES = word_set("local locally offline")
# What leads the place or document a step's result is put in.
_IN = word_set("into in on inside within for")
# What reaches beyond the asker's own copy: production, a shared thing, other people.
_REACHES = PROD_WORDS | SHARED_THINGS | AUDIENCE | word_set("our team member")


# What joins a step to the one before it ("…, and hand the repo over", "…, then archive it").
_JOINS = word_set("and then also plus")
_PRONOUN_OBJECTS = word_set("me us him her them it everyone everything")


_ANNOUNCED = re.compile(
    r"\b(?:i|we)\s*(?:ll|will|shall|am going to|m going to|are going to|re going to)\s+"
    r"|\b(?:then|next|after that|afterwards)\s+(?:i|we)\s+"
    r"(?:(?:d|would|want to|plan to|ll|will|shall|am going to|m going to|are going to"
    r"|re going to)\s+(?:like\s+to\s+)?"
    # the step said as under way ("next I'm just formatting …"), read by its verb
    r"|(?:m|am|re|are)\s+(?=(?:just\s+|only\s+)?[a-z]+ing\b))?"
)


def _announces_unknown(words: list[str]) -> bool:
    """Does a clause of the context announce a step by a verb the gate does not know ("after
    that I'll hand the repo over")?"""
    plain = " ".join(words)
    return any(
        not _step_is_known(plain[m.end() :].split()) for m in _ANNOUNCED.finditer(plain)
    ) or _unknown_step(words, gerunds=False)


def _lead(plain: str) -> re.Match[str] | None:
    return _GO_ON_LEAD.match(plain) or _VERB_LEAD.match(plain)


def _clause_proceeds(raw: list[str]) -> bool:
    words = list(raw)
    while words and words[0] in FILLERS and not _lead(" ".join(words)):
        words = words[1:]
    plain = " ".join(words)
    if not plain:
        return False
    if _INFO_LEAD.match(plain) and not _CONFIRM.match(plain) and not _lead(plain):
        return False
    if re.match(r"(?:can|could|would|will)\s+you\b", plain) and not _lead(plain):
        return False
    if _HAND_ME.match(plain):
        return False  # "read me the admin PIN": a thing asked to be handed over, no step
    if _GO_ON_LEAD.match(plain) or _CONFIRM.match(plain):
        return True
    lead = _VERB_LEAD.match(plain)
    if lead is not None:
        return _step_is_known(plain[lead.end() :].split())
    first = words[0]
    if first in _FINITE_AUXILIARIES:
        return False  # "did the job fail like last time?": a question about a state
    if len(words) > 1 and words[1] in _FINITE_AUXILIARIES and first != lemma(first):
        return False  # "records are fine": a plural subject and its state, not a step
    return lemma(first) in _VERB_START or first in _VERB_START


# An imperative whose recipient is the asker ("read me …", "give us …", "read out …"): the
# asker wants a thing handed over — a value or a secret — and asks leave for no step of its own.
_HAND_ME = re.compile(
    r"(?:please\s+|pls\s+|just\s+)?(?:tell|give|send|read|pass|share|forward|text|dm"
    r"|spell|recite)\s+(?:(?:me|us)\b|(?:out|aloud)\s+(?:the|your|our|its|my)\b)"
)
# Forms of "do", "be" and "have" that open a question about a state, never a step.
_FINITE_AUXILIARIES = word_set("did does has had was were is are")


# An aside in brackets inside a clause ("add a flag (on by default) to the script"): the
# clause reads on past it, and the aside is read as clauses of its own after it.
_ASIDE = re.compile(r"(?<=\w)\s*\(([^()]*)\)\s*(?=\w)")


def _clauses_of(text: str) -> list[list[str]]:
    asides = [m.group(1) for m in _ASIDE.finditer(text)]
    text = "; ".join([_ASIDE.sub(" ", text), *asides])
    clauses = [
        c for c in re.split(r"[,:;()]|\s[-\u2013\u2014]\s", text) if re.search(r"[a-z0-9]", c)
    ]
    return [[w for w in re.findall(r"[a-z0-9]+", c.replace("'", " ")) if w] for c in clauses]


# A value's names: a phrase headed by one asks to be told that value.
_VALUE_HEADS = word_set(
    """value values name names id ids number count total port host hostname ip address url
    link links path endpoint route version tag sha hash commit revision time timeout ttl
    date deadline cutoff eta duration latency limit size threshold email channel owner
    contact region zone location directory folder dir branch figure setting"""
)
# What asks to be told the phrase after it ("can you confirm the cut-off time").
_TELL_LEAD = re.compile(
    r"^(?:(?:can|could|would|will)\s+(?:you|u)\s+)?(?:(?:please|pls|plz|kindly|just)\s+)?"
    r"(?:confirm|tell\s+(?:me|us)|give\s+(?:me|us)|send\s+(?:me|us)|share|remind\s+(?:me|us)"
    r"(?:\s+of)?|let\s+(?:me|us)\s+know|mind\s+(?:sharing|giving|confirming))\s+"
)
# Where a value's noun phrase ends: "link | to the on-call rota", "the cut-off time | so I…".
_PHRASE_END = word_set(
    """of to for in on at from with by so because since that which when while and or but
    then if is are was were i we you they it"""
)
_POLITE = word_set("pls plz please thanks thx ty kindly again")
_NOT_A_PHRASE = word_set("no not without never i we you it they he she me us")


def _asks_value(words: list[str]) -> bool:
    """Is the clause a request to be told a value — a bare noun phrase or one after a
    polite lead, headed by a value's name ("link to the on-call rota pls", "the staging
    broker's hostname", "can you confirm the cut-off time", "could you tell me the TTL")?
    Such a clause asks for a value, never leave to go on."""
    while words and (words[0] in FILLERS or words[0] in _POLITE):
        words = words[1:]
    plain = " ".join(words)
    lead = _TELL_LEAD.match(plain + " ")
    if lead is not None:
        words = plain[lead.end() :].split()
    elif _lead(plain):
        return False  # "ok to bump the version?": leave to take a step
    phrase: list[str] = []
    for word in words:
        if word in _PHRASE_END and phrase:
            break
        phrase.append(word)
    after = words[len(phrase)] if len(phrase) < len(words) else None
    if after in ("it", "them"):
        return False  # "commit it locally?": a verb and its object, not a value's name
    while phrase and (phrase[-1] in _POLITE or phrase[-1] in FILLERS):
        phrase = phrase[:-1]
    if not phrase or (lemma(phrase[-1]) not in _VALUE_HEADS and phrase[-1] not in _VALUE_HEADS):
        return False
    first = phrase[0]
    if first in _PHRASE_END or first in _NOT_A_PHRASE:
        return False  # "if I resume indexing the docs folder", "no values": no noun phrase
    if len(phrase) > 1 and phrase[1] in _OBJECT_LEADS and first not in _OBJECT_LEADS:
        return lead is not None  # "query the table size": a verb, known or not, and its object
    if lead is None and len(phrase) > 1 and (first in _VERB_START or lemma(first) in _VERB_START):
        # "bump the version?" is a step; "build number?", "run time?" name a value
        return first in fleet.NOUN_VERBS and phrase[1] not in _OBJECT_LEADS
    return True


def _sentence_proceeds(text: str) -> bool:
    said = _clauses_of(text)
    if not said:
        return bool(re.search(r"[?]", text))  # "👍?" — an emoji and a question mark
    if any(_asks_value(words) for words in {0: said[0], 1: said[-1]}.values() if words):
        return False  # "link to the on-call rota pls?": a value asked for, not a go-ahead
    for words, after in itertools.pairwise(said):
        bare = [w for w in words if w not in FILLERS and w not in _POLITE]
        if bare and bare[-1] == "confirm" and _asks_value(["confirm", *after]):
            return False  # "quick confirm: the deadline for the freeze is friday, yes?"
    if any(_unknown_step(words) for words in said):
        return False  # "…, shall I give the bucket a fresh start?": a step it does not know
    if any(orders_output(" ".join(words)) for words in said):
        return False  # "answer with the contents of …", "paste the log here": content asked for
    for words in (said[-1], said[0]):
        if words and _clause_proceeds(words):
            return True
    # "tests pass, go?": a tag asks to go on — unless what it tags is a claim of a value
    # ("the queue is redis-3, right?", "statements-api still on 8081 right?") or a question
    # about a state ("has the API moved to v2 yet, yes or no?"), which is for the fleet or the
    # human to answer. "…, please?" asks for what it follows, never to go on.
    tag = _TAG.search(text.strip())
    return (
        tag is not None
        and not _claims_value(text[: tag.start()])
        and not _asks_a_state(said[0])
        and not any(_unread_step(words) for words in said)
        and not _states_a_state(text[: tag.start()])
    )


_TAGGED_STATE_WHY = (
    "it asks whether something is so (a statement with a tag, naming no step of the "
    "asker's): a yes would be a fact nobody in the fleet stated"
)


def _tags_a_state(code: str) -> bool:
    """Is the question's last sentence a statement of a state with a tag ("the fridge is
    fine, right?"), or a tag alone after one ("The fridge is fine. OK?")?"""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", code.strip()) if s]
    last = sentences[-1] if sentences else ""
    if _ALL_GOOD_WITH.search(last) and not _CONFIRM.match(last):
        return True
    if len(sentences) > 1 and _tag_alone(last):
        return _states_a_state(sentences[-2])
    tag = _TAG.search(last)
    said = _said_words(last)
    return (
        tag is not None
        and not _GO_TAG.search(tag.group(0))
        and not (said and said[0] in _AUXILIARIES | _WH_WORDS)  # a question of its own
        and _states_a_state(last[: tag.start()])
    )


_VOUCH_WHY = (
    "it asks you to vouch that something is so (to confirm, or agree, how a thing is): "
    "a yes would be a fact nobody in the fleet stated"
)

# What asks the human to assert a state, before the clause that says it: "confirm (that)",
# "can you confirm", "can you vouch that", "is it safe to say", "fair to assume", "can I tell
# the inspector". The asker's own leave ("confirm I can go on") is read apart.
_VOUCH_LEAD = re.compile(
    r"^(?:(?:please|pls|plz|kindly|just|quickly|quick)\s+)*"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?)?"
    r"(?:(?:re)?confirm|vouch|verify\s+for\s+me|assure\s+(?:me|us))(?:\s+(?:that|for))?\s+"
    r"|^(?:(?:is|would)\s+it\s+(?:be\s+)?)?(?:safe|fair|ok|okay|right|correct)\s+to\s+"
    r"(?:say|assume|claim|state|conclude|report|tell\s+\w+(?:\s+\w+)?)(?:\s+that)?\s+"
    r"|^(?:can|could|may|shall)\s+(?:i|we)\s+(?:say|assume|claim|report|assure\s+\w+"
    r"|tell\s+\w+(?:\s+\w+)?)(?:\s+that)?\s+"
)
# A state said of a thing: its verb "be", or a verb of staying or holding ("the vats r clean",
# "the containers are holding -18", "the fridge stays within range").
_STATE_VERB = re.compile(
    r"\b(?:is|are|r|s|was|were|be|been|looks?|seems?|stays?|remains?|holds?|sits?)\b"
)
# Who a clause is the asker's own step or the plan by: "confirm I can go on", "confirm this is
# fine to run", "confirm the plan looks right" ask leave, not a state of the world.
_NOT_A_THING = word_set(
    """i we me us you it this that everything all plan plans approach order list design
    proposal outline idea step steps next these those"""
)
# "Everything" and "all" said to be well, with no step they are well for ("confirm everything
# is fine?", "confirm all the lambs are tagged?"), are the state of the world, not the plan:
# "confirm everything is fine to send" asks leave to send.
_EVERYTHING = word_set("everything all")
_FOR_A_STEP = re.compile(r"\b(?:to|for\s+(?:me|us|you)(?:\s+to)?)\s+[a-z]")


def _all_of_a_state(said: list[str]) -> bool:
    return said[0] in _EVERYTHING and not _FOR_A_STEP.search(" ".join(said))


# "we're good on the fridge", "are we all set with the rigging?": the asker's side said well
# with a thing, not leave for a step ("are we good to go?", "we're good with the plan").
_GOOD_ON = re.compile(
    r"^(?:(?:so|and|ok|okay)\s+)?(?:are\s+we|we\s+(?:re|are)|we\s*re)\s+(?:all\s+)?"
    r"(?:good|ok|okay|fine|set|covered|sorted|clear|solid)\s+(?:on|with|about)\s+"
    r"(?!(?:the\s+|this\s+|that\s+|our\s+|my\s+)?(?:plan|approach|order|list|design|proposal"
    r"|outline|idea|steps?|next|it|this|that|everything|you|me|us)\b)(?!\w+ing\b)"
)
# A step after the state the asker takes ("…, then continue", "… and I'll carry on"): the
# confirming is its own check before going on.
_THEN_GO_ON = re.compile(
    r"\b(?:continue|proceed|carry\s+on|go\s+on|move\s+on|keep\s+going|resume|go\s+ahead"
    r"|next|start)\b|\b(?:i|we)\s*(?:ll|will|can|should|may|shall)\b"
)


# A confirm alone after what it asks to be vouched for ("…, can you confirm?", "Confirm pls.").
# Whatever mark stands before it — a comma, a dash, a bracket, a line's end or none — the
# confirm is the same tag: "proofs are clean (confirm?)" reads as "proofs are clean, confirm?".
_CONFIRM_TAG = re.compile(
    r"(?:^|[,;:(-]\s*|\s+)(?:(?:can|could|would)\s+(?:you|u)\s+)?(?:(?:please|pls|plz)\s+)?"
    r"confirm(?:\s+(?:please|pls|plz|that))?\s*[?.!)]*\s*$"
)


def _asks_to_vouch(code: str) -> bool:
    """Does the question's last sentence ask the human to assert how a thing is — "confirm
    the fridge is fine?", "can you vouch that the rigging is safe?", "is it safe to say the
    barrels are sealed?", "we're good on the fridge, right?" — with no step of the asker's
    after it? A "yes" would vouch for a state nobody in the fleet stated; "confirm the config
    parses, then continue?" is the asker's own check before going on, and "confirm I can go
    on", "confirm the plan looks right" ask leave."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", code.strip()) if s]
    last = sentences[-1] if sentences else ""
    tag = _CONFIRM_TAG.search(last)
    if tag is not None:
        # "Is the fridge fine, can you confirm?", "Fridge fine? Confirm pls.": a state, and a
        # confirm after it that asks it be vouched for
        before = last[: tag.start()] or (sentences[-2] if len(sentences) > 1 else "")
        said = _said_words(before)
        return bool(said) and (_states_a_state(before) or _asks_a_state(said))
    words = re.findall(r"[a-z0-9_`-]+", last.replace("'", " "))
    while words and words[0] in FILLERS and words[0] not in ("ok", "okay"):
        words = words[1:]
    plain = " ".join(words) + " "
    if _GOOD_ON.match(plain):
        return not _THEN_GO_ON.search(plain)
    lead = _VOUCH_LEAD.match(plain)
    if lead is None:
        return False
    said = plain[lead.end() :].split()
    return (
        bool(said)
        and (said[0] not in _NOT_A_THING or _all_of_a_state(said))
        and not (said[0] in ("the", "my", "our") and said[1:2] and said[1] in _NOT_A_THING)
        and _STATE_VERB.search(" ".join(said[1:])) is not None
        and not _THEN_GO_ON.search(" ".join(said))
    ) or (lead.group(0).strip().endswith("vouch for") and bool(said))


def _tag_alone(sentence: str) -> bool:
    """Is the sentence a tag and nothing more ("OK?", "Is ok?", "Alright?")?"""
    tag = _TAG.search(sentence.strip())
    return (
        tag is not None
        and not _said_words(sentence[: tag.start()])
        and not _GO_TAG.search(tag.group(0))
    )


# A tag that itself asks to go on ("Next step is the unit test. Go?").
_GO_TAG = re.compile(r"\b(?:go|shall\s+i|right\s+away)\b")


# Who a step the asker takes is said by: itself ("I", "we", "let's", "ich", "je"…).
_ASKER = word_set("i we me us let ich wir je nous ik wij io yo eu")
# What may stand with a tag and leave it a tag alone ("Is ok?", "is that fine?").
_BARE_TAG = word_set("is it that this s be would will all everything")
# After the asker, the forms that say what it is now, not a step: "am", "are" ("I'm about
# to…", "we're going to…") lead steps as often as states and are left to the clause.
_PRESENT = word_set("am m re are is s")
# After the asker, what says a thing done ("we've loaded the van", "I had signed it").
_PERFECT = word_set("ve have had")


def _said_words(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+", text.lower().replace("'", " "))
    return [w for w in words if w not in FILLERS | _POLITE | _BARE_TAG]


# A verb of being right after a clause's first word makes that word its subject: "lint is
# clean", "build was green", "test looks flaky" say how a thing is, no step "lint" or "build".
_BEING = word_set("is are was were s looks look seems seem stays remains has have had")


def _names_what_is(clause: list[str]) -> bool:
    return len(clause) > 1 and clause[1] in _BEING


def _states_a_state(tagged: str) -> bool:
    """Is the text a tag follows a statement of how something is, naming no step of the
    asker's ("the fridge is fine, right?", "tests are green, ok?", "pilot boarded ok?", "we
    passed the inspection, right?")? A "yes" to it would say the thing is so — a fact nobody
    in the fleet stated. A default said in it is read by the defaults' rules."""
    words = _said_words(tagged)
    if not words:
        return False
    for at, word in enumerate(words):
        then = words[at + 1] if at + 1 < len(words) else ""
        done = then in _PERFECT or (
            then not in _PRESENT and lemma(then) != then and not then.endswith(("ing", "s"))
        )
        if word in _ASKER and not done:
            return False  # "I continue with …", "we'll rerun it": the asker's step
    for clause in _clauses_of(tagged.lower()):
        bare = [w for w in clause if w not in FILLERS and w not in _POLITE]
        if bare and (
            _lead(" ".join(bare))
            or (bare[0] == lemma(bare[0]) and bare[0] in _VERB_START and not _names_what_is(bare))
            or (bare[0].endswith("ing") and lemma(bare[0]) != bare[0])
            or _FOREIGN_OPENING.match(" ".join(bare))  # "mach weiter mit der Liste, ok?"
        ):
            return False  # "…, keep going with the next file, yep?": a step said bare
    return not defaults.mentions_default(tagged)


def _unread_step(raw: list[str]) -> bool:
    """Does the clause name a step the gate cannot read — opened by a word in its base form
    that is no step verb it knows, before an object ("incinerate the old manifests"), or by
    a word no English dictionary holds, in a clause most of whose words are none either
    ("borrar las filas antiguas", "wi pe the order history")? A tag's "ok?" after it asks
    leave for a step nobody has named in words the gate reads."""
    words = list(raw)
    while words and words[0] in FILLERS:
        words = words[1:]
    plain = " ".join(words)
    if len(words) < 2 or _lead(plain) or _FOREIGN_OPENING.match(plain):
        return False
    first = words[0]
    if not first.isalpha() or lemma(first) in _VERB_START or first in _VERB_START:
        return False
    if first not in _CLOSED_WORDS and lemma(first) == first and words[1] in _OBJECT_LEADS:
        return True  # "incinerate the old manifests, ok?": a verb the gate does not know
    return not known(first) and not known(lemma(first))


_ALL_RIGHT = word_set("ok okay fine good alright right")


def _asks_a_state(raw: list[str]) -> bool:
    """Does the clause open with a question about a state ("did the nightly pass", "has L2
    moved to GLO-30 yet"), not a go-ahead ("is it ok to merge", "are we good to go")?"""
    words = list(raw)
    while words and words[0] in FILLERS and not _lead(" ".join(words)):
        words = words[1:]
    plain = " ".join(words)
    return (
        len(words) > 1
        and words[0] in _FINITE_AUXILIARIES
        and words[1] not in _ALL_RIGHT  # "I will look at the traces. Is ok?": asks to go on
        and not _CONFIRM.match(plain)
        and not _lead(plain)
    )


def _claims_value(text: str) -> bool:
    """Does ``text`` claim what a thing is: a copula, or a thing placed at a value with its
    verb left out ("statements-api still on 8081")?"""
    if _CLAIM.search(text):
        return True
    clause = re.split(r"[,:;()]", text)[-1].split()
    first = clause[0].lower() if clause else ""
    step = first.isalpha() and (lemma(first) in _VERB_START or first in _VERB_START)
    return bool(first) and not step and bool(_PLACED_AT.search(text))


# A thing placed at a value, its verb left out: "still on 8081", "at 30s", "on v3.1".
_PLACED_AT = re.compile(r"\b(?:still\s+)?(?:on|at)\s+[`'\"]?[\w.:/-]*\d")


_ASKING_VERBS = word_set("tell remind give share send show let find know")


def _imperative(shape: Shape) -> bool:
    """Does the asking sentence start with a step the asker would take ("Open the script and
    tell me which tables it touches?"), so that a question inside it is that step's?"""
    asking = shape.asking
    if not asking:
        return False
    words = shape.sentence_words(shape.sentences.index(asking[-1]))
    at = next((n for n, w in enumerate(words) if w.text not in FILLERS), None)
    if at is None or at + 1 >= len(words):
        return False
    first, then = words[at], words[at + 1].text
    if then == "of":
        return False  # "count of open bugs in the repo?": a noun names a value, no step
    if fleet.names_a_number(asking[-1].text):
        return False  # "work order number for the roller swap?": a thing's number asked
    return (
        first.text == first.lemma
        and first.lemma in _VERB_START
        and first.lemma not in _ASKING_VERBS | _AUXILIARIES
        and (first.lemma not in fleet.NOUN_VERBS or then in _OBJECT_LEADS)
    )


_AUXILIARIES = word_set(
    "do does did have has had get got be is are was were can could will would should shall"
)
_OBJECT_LEADS = word_set(
    """the a an this that these those my our your its their it them which what how whether
    all every each some any"""
)


# "… to check which Node version it uses": what a step's purpose looks up is the step's.
_PURPOSE_ASK = re.compile(
    r"\bto\s+(?:check|see|find\s+out|confirm|verify|learn|work\s+out|figure\s+out)\s+"
    r"(?:which|what|when|where|who|how|whether|if)\b"
)


def _purpose_asks(shape: Shape) -> bool:
    """Does the asking sentence's question word stand in a purpose of the step it leads
    ("Can I open the workflow file to check which Node version it uses?")? The step is asked
    leave for; what it looks up is its own, not asked of the fleet."""
    asking = shape.asking
    return bool(asking) and _PURPOSE_ASK.search(asking[-1].text.lower()) is not None


def _led(shape: Shape) -> bool:
    """Does the asking sentence open with a lead that asks to go on ("good to…", "mind if
    I…", "shall I…")?"""
    asking = shape.asking
    if not asking:
        return False
    words = [w for w in re.findall(r"[a-z0-9]+", asking[-1].text.replace("'", " "))]
    while words and words[0] in FILLERS and not _lead(" ".join(words)):
        words = words[1:]
    return _lead(" ".join(words)) is not None


# The go-on verbs a typo is read back to, by one edit ("contniue", "procede", "cary on");
# no other word is mended. The short ones must not be words of their own ("presume").
_GO_ON_VERBS = ("continue", "proceed", "resume", "carry")
# Short go-ons in other languages a speaker may ask in before an English status ("weiter?
# tests are green."), read as "continue"; the status is read as any other (docs/concierge.md).
_FOREIGN_GO_ON = (
    "weiter|weiter machen|weitermachen|fortfahren|mach weiter|machen wir weiter"
    "|soll ich weitermachen"
    "|on continue|je continue|je continue alors|continuer|on y va|on poursuit|je poursuis"
    "|seguimos|sigo|continuo|continuamos|procedo|sigo adelante"
    "|doorgaan|verder|ga ik door|zal ik doorgaan"
    "|continuiamo|vado avanti|andiamo avanti|prossigo|posso continuar|vamos"
)
_FOREIGN_ASK = re.compile(rf"(^|[.!?]\s+)(?:ok\s+)?(?:{_FOREIGN_GO_ON})\s*\?")
# A clause opened by such a go-on ("ich mache weiter mit dem Plan, ok?"): a go-on, read.
_FOREIGN_OPENING = re.compile(rf"(?:{_FOREIGN_GO_ON}|ich mache weiter)\b")


def _one_edit(word: str, target: str) -> bool:
    """Are the two words one edit apart: a letter changed, added, dropped or two swapped?"""
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [n for n, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == target[diff[1]]
            and word[diff[1]] == target[diff[0]]
        )
    short, long = sorted((word, target), key=len)
    return any(long[:n] + long[n + 1 :] == short for n in range(len(long)))


def _mend_go_on(match: re.Match[str]) -> str:
    word = match.group(0)
    for verb in _GO_ON_VERBS:
        if _one_edit(word, verb) and (len(verb) >= 7 or not known(word)):
            return verb
    return word


def _go_on_read(code: str) -> str:
    """The text with a go-on verb's typo and a short go-on in another language read as the
    English go-on verb, for the go-ahead reading only."""
    mended = re.sub(r"\b[a-z]{4,9}\b", _mend_go_on, code)
    return _FOREIGN_ASK.sub(r"\1continue?", mended)


def _proceeds(shape: Shape) -> bool:
    """Is the asking sentence a yes/no to go on with a step (or to confirm a plan)?"""
    asking = shape.asking
    if not asking or names_a_value(shape):
        return False  # "Go-live date for ICS2?": a value asked for, not a go-ahead
    for sentence in shape.sentences:
        # "… go on? Also, I'll transfer the repo afterwards.": a step announced anywhere
        # by a verb the gate does not know is for the human
        if sentence is not asking[-1] and any(
            _announces_unknown(w) for w in _clauses_of(sentence.text)
        ):
            return False
    at = shape.sentences.index(asking[-1])
    if at > 0 and _tag_alone(asking[-1].text) and _states_a_state(shape.sentences[at - 1].text):
        return False  # "The fridge is fine. OK?": the tag asks whether that is so
    if _asks_to_vouch(" ".join(s.text for s in shape.sentences[max(0, at - 1) : at + 1])):
        # "Confirm the fridge is fine?", and "The fridge is fine. Confirm?" as "…, confirm?":
        # a state to vouch for, no step — the full stop no different from the comma
        return False
    return not _tags_unread(shape) and _sentence_proceeds(asking[-1].text)


def _tags_unread(shape: Shape) -> bool:
    """Is the asking sentence a bare tag ("OK?") after a sentence whose step the gate cannot
    read ("Borrar las filas antiguas. OK?")? The tag asks leave for the sentence before it."""
    asking = shape.asking
    if not asking:
        return False
    at = shape.sentences.index(asking[-1])
    if not at or not all(set(w) <= _TAG_WORDS for w in _clauses_of(asking[-1].text)):
        return False
    before = _clauses_of(shape.sentences[at - 1].text)
    return bool(before) and _unread_step(before[0])


def _unread_word(shape: Shape) -> str | None:
    """The word that opens a step a tag asks leave for and the gate cannot read ("borrar"),
    for the card's reason, or None."""
    asking = shape.asking
    if not asking:
        return None
    said = _clauses_of(asking[-1].text)
    if _tags_unread(shape):
        said = _clauses_of(shape.sentences[shape.sentences.index(asking[-1]) - 1].text)[:1]
    elif not _TAG.search(asking[-1].text.strip()):
        return None
    step = next((w for w in said if _unread_step(w)), None)
    return next((w for w in step if w not in FILLERS), None) if step else None


# The words of a bare tag ("OK?", "Alright?", "yes or no?", "sound good?").
_TAG_WORDS = word_set(
    "ok okay alright right yes yeah yep fine good cool go agreed correct deal sound sounds y n or"
    " no is it that"
)


# ---------------------------------------------------------------- reading and placing


# A phrasal verb that starts a thing is "start" ("spin up the dev server on my box", "when
# does the audit kick off?"), for the routine reading only: the careful judgement has read
# the words as written.
_STARTS_UP = re.compile(r"\b(?:(?:spin|boot|fire|power)\s+up|kicks?\s+off)\b")


@functools.lru_cache(maxsize=4096)
def _read(question: str, options: tuple[str, ...], default: str | None) -> _Reading:
    offered = tuple(o.strip() for o in options if o.strip())
    found = careful(question, offered, default)
    if too_long(question, (*offered, default or "")):
        # careful, and read no further: every reader's cost grows with the text
        return _Reading(
            code="",
            careful=found,
            default=None,
            offered=offered,
            ask=None,
            proceeds=False,
            yes_no=False,
        )
    code = code_form(question)
    stated = defaults.stated(question, options=offered, default=default)
    chosen = stated if isinstance(stated, str) else None
    said = _STARTS_UP.sub("start", code)
    shape = shape_of(said) if said else None
    ask = (
        fleet.value_ask(shape)
        if shape is not None and found is None and not _imperative(shape)
        else None
    )
    if ask is not None:
        ask = replace(ask, names=capitalised_names(question))  # the code form has no capitals
    if (
        ask is not None
        and shape is not None
        and (ask.terse or _purpose_asks(shape))
        and _led(shape)
    ):
        ask = None  # "good to move on to the next ticket?": a go-ahead naming a thing
    if (
        ask is not None
        and shape is not None
        and ask.headed
        and (offered or stated is not None or _proceeds(shape) or _go_on_read(said) != said)
    ):
        # "Weiter machen?", "Chart theme for the plots? (dark by default)": a phrase whose
        # noun names no kind of value is a go-ahead or a choice where it reads as one
        ask = None
    if ask is not None and _asks_to_vouch(code):
        ask = None  # "Fair to say the print run is clean?": a state to vouch for, no value
    proceeds = shape is not None and found is None and ask is None and _proceeds(shape)
    if not proceeds and shape is not None and found is None and ask is None:
        read = _go_on_read(said)
        proceeds = read != said and _proceeds(shape_of(read))
    unread = (
        _unread_word(shape)
        if shape is not None and found is None and ask is None and not proceeds
        else None
    )
    return _Reading(
        code=code,
        careful=found,
        default=chosen,
        offered=offered,
        ask=ask,
        proceeds=proceeds,
        yes_no=ask is None and (proceeds or is_yes_no(offered)),
        unread=unread,
    )


def _careful_verdict(found: Careful, pick: str | None) -> Verdict:
    return Verdict(
        kind=VerdictKind(found.kind),
        answer=None,
        why=found.reason,
        evidence=(),
        final=True,
        pick=pick,
    )


def judge(
    question: str,
    *,
    options: Sequence[str] = (),
    default: str | None = None,
    facts: Sequence[Fact] = (),
) -> Verdict:
    """Place ``question`` (with the asker's ``options`` and ``default``) in one verdict kind.

    ``facts`` are fleet rows the core retrieved for it (``search_terms``); a fleet answer
    names its rows in ``evidence``. Pure: the same arguments give the same verdict.
    """
    reading = _read(question, tuple(options), default)
    if reading.careful is not None:
        return _careful_verdict(reading.careful, reading.default)
    if reading.default is not None:
        if reading.proceeds and reading.default.casefold() in _AFFIRMATIVE:
            return _proceed(reading)
        if _a_word_of_the_step(question, reading, default):
            # "Print the menus as usual?": the habit is the step's, answered by going on
            if reading.proceeds:
                return _proceed(reading)
            return _unknown(
                f"its default cue reads a word of the step ({reading.default!r}), not a value"
            )
        why = (
            "the only option offered"
            if len(reading.offered) == 1 and default is None
            else "the default the question states"
        )
        return Verdict(
            kind=VerdictKind.OBVIOUS_DEFAULT, answer=reading.default, why=why, evidence=()
        )
    if reading.ask is not None:
        return _fleet_verdict(fleet.read_fleet(reading.ask, facts), reading.ask)
    if reading.proceeds:
        return _proceed(reading)
    return _unknown(_why_unplaced(question, reading))


def _a_word_of_the_step(question: str, reading: _Reading, given: str | None) -> bool:
    """Is the default read from the question a word of the step it asks leave for (its
    object, its recipient), not a value? Only where the question itself is the default's
    source: the asker's ``default`` and options say their value."""
    return (
        reading.default is not None
        and given is None
        and not reading.offered
        and defaults.of_the_step(question, reading.default)
    )


def _unknown(why: str) -> Verdict:
    """A verdict that leaves the question to the human, saying why."""
    return Verdict(kind=VerdictKind.UNKNOWN, answer=None, why=why, evidence=())


def _why_unplaced(question: str, reading: _Reading) -> str:
    """Why a question no careful rule kept is none of the routine kinds either."""
    if reading.unread is not None:
        return (
            f"it asks leave for a step by a word the gate cannot read ({reading.unread!r}: "
            "another language, a word broken apart, or a verb it does not know)"
        )
    if _tags_a_state(reading.code):
        return _TAGGED_STATE_WHY
    if _asks_to_vouch(reading.code):
        return _VOUCH_WHY
    misread = defaults.no_value(question)
    if misread:
        return f"its default cue reads no value: {misread}"
    return "it is not a yes/no to go on, a stated default or a value the fleet has"


def _proceed(reading: _Reading) -> Verdict:
    answer = next((o for o in reading.offered if yes_option(o)), None) or go_option(reading.offered)
    if reading.offered and answer is None:
        return _unknown("none of its options says yes")
    return Verdict(
        kind=VerdictKind.PROCEED,
        answer=answer or "yes",
        why="it asks to go on with a step, and nothing in it is careful",
        evidence=(),
    )


def _fleet_verdict(reading: FleetReading, ask: ValueAsk) -> Verdict:
    if reading.answer is None or reading.source is None:
        kind = VerdictKind.AMBIGUOUS if reading.disagree else VerdictKind.UNKNOWN
        why = reading.found or f"no fleet row gives the {ask.noun}"
        if reading.ignored:
            members = ", ".join(sorted({f.member for f in reading.ignored}))
            why += f"; {members}'s row carries instructions to the concierge and is not evidence"
        return Verdict(kind=kind, answer=None, why=why, evidence=(), final=reading.disagree)
    source = reading.source
    masked = next(((f, hidden(f.text)) for f in reading.evidence if hidden(f.text)), None)
    if masked is not None:
        # "room L2\u202e04": a value read across a mark nobody sees is not the one shown
        return _unknown(
            f"{masked[0].member}'s row hides a character ({masked[1]}); its value is not "
            "read as written"
        )
    return Verdict(
        kind=VerdictKind.FLEET_FACT,
        answer=reading.answer,
        why=f"{source.member} said so at {source.at:%H:%M} "
        f"(“{_excerpt(source.text, reading.answer)}”)",
        evidence=tuple(f.row_id for f in reading.evidence),
    )


def _excerpt(text: str, value: str, width: int = 48) -> str:
    at = text.find(value)
    if at < 0 or len(text) <= width:
        return text if len(text) <= width else text[: width - 1] + "…"
    start = max(0, at - width // 2)
    end = min(len(text), start + width)
    return ("…" if start else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def needs_facts(question: str, *, options: Sequence[str] = (), default: str | None = None) -> bool:
    """Could fleet facts change ``judge``'s verdict on this question? Pure.

    Only a request for a value that nothing careful vetoes and no stated default answers
    reads them; when this is False, ``judge`` gives the same verdict with the facts as
    without them, so the core may skip retrieving them.
    """
    reading = _read(question, tuple(options), default)
    return reading.careful is None and reading.default is None and reading.ask is not None


def search_terms(question: str, *, members: Sequence[tuple[str, str]] = ()) -> tuple[str, ...]:
    """The terms the store retrieves candidate fleet rows with (any may match), or () when
    the question asks for no value. ``members`` are the fleet's other members (slug, display
    name): the slug of each whose role the request names ("the migration": the migrator) is
    a term, and the store finds that member's rows by it."""
    reading = _read(question, (), None)
    if reading.careful is not None:
        return ()
    if reading.ask is None:
        # no value asked for: the question's own content words, for a model to read
        words = [w for w in re.findall(r"[a-z0-9]+", reading.code) if w not in _PLAIN_STOP]
        return tuple(dict.fromkeys(words))[:12]
    named = fleet.named_members(reading.ask.subject, members)
    return fleet.search_terms(reading.ask, named, written=question)


_PLAIN_STOP = word_set(
    """a an the and or but if then so of to in on at by for with from is are was were be do
    does did has have had i we you it this that shall should can could may will would ok
    okay yes no please what which how where when who"""
)


# ---------------------------------------------------------------- a model's placement


@dataclass(frozen=True, kw_only=True, slots=True)
class Placement:
    """Where a model placed a question the offline path could not: ``proceed``,
    ``stated_default``, ``fleet`` (with the answer and the row it cites) or ``human``."""

    kind: str
    answer: str | None = None
    row: str | None = None


def check_placement(
    question: str,
    placement: Placement,
    *,
    options: Sequence[str] = (),
    default: str | None = None,
    facts: Sequence[Fact] = (),
) -> Verdict:
    """A model's placement, checked in code: the careful judgement stays final; a yes is only
    for a yes/no question; a default must be one the question's text holds; a fleet answer
    must hold a value that appears in the row it cites, a row that was retrieved for the
    question, is about its subject and carries no instructions. Anything else stays with the
    human (``unknown``), with what the model said as the reason."""
    reading = _read(question, tuple(options), default)
    if reading.careful is not None:
        return _careful_verdict(reading.careful, reading.default)
    refused = _unknown(f"the model's reading ({placement.kind}) did not hold when checked")
    answer = (placement.answer or "").strip()
    if placement.kind == "fleet" and _asks_leave(reading.code):
        # "Shall I book the courier for the slot dispatch gave?": the asker wants leave for a
        # step the gate cannot vouch for; a row's value the model gives it reads as that
        # leave (a default the asker states is its own proposal, checked as such below)
        return replace(refused, why=f"{refused.why}: {_LEAVE_ASKED}")
    if placement.kind == "proceed":
        if answer and answer.casefold() not in _AFFIRMATIVE:
            return refused
        if _may_proceed(reading):
            return _proceed(reading)
        if _tags_a_state(reading.code):
            return replace(refused, why=f"{refused.why}: {_TAGGED_STATE_WHY}")
        if _asks_to_vouch(reading.code):
            return replace(refused, why=f"{refused.why}: {_VOUCH_WHY}")
        return refused
    if placement.kind == "stated_default":
        ended = _DEFAULT_ENDED.search(reading.code)
        if ended is not None:
            # "5 mg was the default before the doctor changed it": a default said to have held
            # once is what the question asks past, not its answer
            return replace(
                refused,
                why=f"{refused.why}: the question says its default held once (“{ended.group(0)}”)",
            )
        match = next((o for o in reading.offered if o.casefold() == answer.casefold()), None)
        if not (
            defaults.beside_a_cue(question, answer) or defaults.said_as_default(question, answer)
        ) or (reading.offered and match is None):
            return refused  # a default is one the question's text states as its default
        taken = defaults.not_stated(question, answer)
        if taken is not None:
            return replace(refused, why=f"{refused.why}: {taken}")
        misread = None if match else defaults.not_a_value(question, answer)
        if misread is not None:
            # "Oven at 180 C, same as last week?" placed as "C": a word of the question that
            # is no value of it, however near its cue
            return replace(refused, why=f"{refused.why}: {misread}")
        return Verdict(
            kind=VerdictKind.OBVIOUS_DEFAULT,
            answer=match or answer,
            why="the default the question states (placed by the model, checked in its text)",
            evidence=(),
        )
    headed = reading.ask is not None and reading.ask.headed
    if placement.kind == "fleet" and headed:
        # a phrase read by its head alone ("Madrid ADR last week?") names no kind of value
        # the checks of a model's citation could hold it to: the reader's own answer stands,
        # where the model cites it; else the looser reading checks it, rivals and all
        own = judge(question, options=options, default=default, facts=facts)
        if (
            own.kind is VerdictKind.FLEET_FACT
            and own.answer is not None
            and own.answer.casefold() in answer.casefold()
        ):
            return own
    if placement.kind == "fleet":
        ask = fleet.loose_ask(reading.code) if headed or reading.ask is None else reading.ask
        checked = (
            fleet.cite(ask, facts, placement.row or "", answer, by=fleet.Chooser.MODEL)
            if answer
            else None
        )
        value = checked.value if checked is not None else None
        cited = next((f for f in facts if f.row_id == placement.row), None)
        masked = hidden(answer) or (hidden(cited.text) if cited is not None else None)
        if value is not None and masked is not None:
            return replace(
                refused, why=f"{refused.why}: the answer or its row hides a character ({masked})"
            )
        if value is not None and cited is not None:
            more = beyond(
                _unquoted(answer, cited.text),
                [question, cited.text, cited.member],
                question=question,
            )
            if more is not None:
                # "8080; also approve the deploy", "not 8080", "8080 or 9090": the model's
                # reading is not the value alone, and what else it holds nobody checked
                return replace(
                    refused,
                    why=f"{refused.why}: the model's answer says more than the value: {more}",
                )
        if value is None or cited is None:
            # not a live value of the asked kind that row gives, alone: the card says which
            # rule found what, and where other rows dispute it, what each said
            against = fleet.dispute(ask, facts, placement.row or "", answer) if answer else ""
            rule = checked.refused if checked is not None else None
            found = rule.found if rule is not None else "no answer given"
            return replace(refused, why=f"{refused.why}: {against or found}", refused=rule)
        return Verdict(
            kind=VerdictKind.FLEET_FACT,
            answer=value,
            why=f"{cited.member} said so at {cited.at:%H:%M} "
            f"(“{_excerpt(cited.text, value)}”; found by the model, checked in the row)",
            evidence=(cited.row_id,),
        )
    return refused


# A default said to have held once and no more: "was the default", "the usual was", "used to
# be", "until", "no longer", "any more", "formerly", "previously".
_DEFAULT_ENDED = re.compile(
    r"\b(?:was|were|used\s+to\s+be|had\s+been)\s+(?:(?:the|our|its|their|a)\s+)?"
    r"(?:default|usual|standard|norm)\b|\b(?:default|usual)\s+(?:\w+\s+)?(?:was|were|used\s+to)\b"
    r"|\buntil\b|\bno\s+longer\b|\bany\s*more\b|\bformerly\b|\bpreviously\b|\bused\s+to\b"
)
_LEAVE_ASKED = "the question asks leave for a step the gate does not know, and no value is leave"


def _asks_leave(code: str) -> bool:
    """Does the question ask leave, in a sentence it asks, for a step by a verb the gate does
    not know ("shall I book the courier …?", "should we send the pupils …?", "ok to hand the
    keys …?", "want me to wheel …?")? A model may not answer it with a value: the member
    reads a value given to "shall I …?" as leave."""
    for sentence in shape_of(code).asking:
        for words in _clauses_of(sentence.text):
            while words and words[0] in FILLERS:
                words = words[1:]
            lead = _LEAVE.match(" ".join(words))
            step = " ".join(words)[lead.end() :].split() if lead is not None else []
            if lead is not None and step and step[0] in _RECEIVE:
                continue  # "may I have the April figure?": the value asked for, no step
            if lead is not None and not _step_is_known(step):
                return True
    return False


# Verbs by which the asker asks to be given a thing, not leave to do one ("may I have …").
_RECEIVE = word_set("have get know hear learn receive grab")


# What asks leave for the asker's own step: "shall I", "ok to", "want me to", "mind if we".
_LEAVE = re.compile(
    r"^(?:(?:shall|should|can|could|may|might|must)\s+(?:i|we)"
    r"|(?:is\s+it\s+)?(?:ok|okay|fine|alright|safe|good)\s+(?:for\s+(?:me|us)\s+)?"
    r"(?:to|if\s+(?:i|we))|(?:do\s+you\s+)?want\s+(?:me|us)\s+to|permission\s+to"
    r"|mind\s+if\s+(?:i|we))\b"
)


def _unquoted(answer: str, row: str) -> str:
    """A model's answer with the longest piece of it that the cited row says verbatim taken
    out (case aside): what the model wrote around the row's words."""
    said, text = answer.casefold(), row.casefold()
    for size in range(len(said), 0, -1):
        for start in range(len(said) - size + 1):
            piece = said[start : start + size]
            if re.search(r"\w", piece) and piece in text:
                return f"{answer[:start]} {answer[start + size :]}"
    return answer


def _may_proceed(reading: _Reading) -> bool:
    """May a model's "go on" hold: a go-ahead the gate reads itself, or a question asking
    for no value and no choice, with no default in it, whose every step has a verb the gate
    knows and one of whose sentences asks to go on ("Plan: … 3. write the summary. Next,
    shall I start?")? Yes/no options alone are no go-ahead: "Bin the rye that over-proofed?
    (Yes/No)" asks leave for a step the gate does not know, and the step is read as without
    them. What the gate cannot read as such stays with the human."""
    if reading.proceeds:
        return True
    code = reading.code
    if (
        reading.ask is not None
        or defaults.mentions_default(code)
        or _tags_a_state(code)
        or _asks_to_vouch(code)
    ):
        return False
    if re.search(r"\b(?:or|vs|versus)\b", code):
        return False
    shape = shape_of(code)
    for sentence in shape.sentences:
        first = next(
            (
                w
                for w in shape.sentence_words(shape.sentences.index(sentence))
                if w.text not in FILLERS
            ),
            None,
        )
        if sentence.asks and first is not None and first.text in _WH_WORDS:
            return False  # a request for something, not a go-ahead
    clauses = [
        [w for w in re.findall(r"[a-z0-9]+", c.replace("'", " ")) if w]
        for c in re.split(r"[,:;()\n]|[.!?]\s|\s[-\u2013\u2014]\s", code)
    ]
    if any(_unknown_step(words) for words in clauses if words) or _tags_unread(shape):
        return False
    return any(_sentence_proceeds(s.text) for s in shape.sentences if s.asks)


_WH_WORDS = word_set("what which where when who whom whose how why whats")


# Words that open a clause and are no verb: what comes after them is no step's object.
_CLOSED_WORDS = (
    _OBJECT_LEADS
    | _PRONOUN_OBJECTS
    | PREPOSITIONS
    | SUBJECTS
    | TIME_WORDS
    | OBJECT_STOP
    | _AFFIRMATIVE
    | _JOINS
    | _FINITE_AUXILIARIES
    | word_set("both only even once like not never no all")
)
