"""A release widened to everyone: an act that moves a release, a build, a rollout or a flag
from a part of its users to all of them, whatever its verb ("take 8.14 from 20% to every
user", "move the build to 100%", "open the beta up to all customers", "go GA with 3.2") and
however "all" is said (100 %, every user, all customers, everyone, the whole user base,
general availability, the remaining 80 %). What users have installed or seen cannot be
recalled, so the form is careful wherever it is asked — in a member's report of a tool's
authorisation as much as in its own step — unless it is denied, only what would happen, told
as done, asked about as a state ("is the flag at 100 %?"), read about, or reaches only a
non-production place or a subset ("every account in the test group")."""

from __future__ import annotations

import re

from crewline.policy.acts import NON_PROD, PROD_WORDS
from crewline.policy.careful.governors import done_after, negated
from crewline.policy.careful.objects import phrase_of
from crewline.policy.careful.positions import hypothetical, past_form, verb_position
from crewline.policy.careful.requests import info_scope
from crewline.policy.careful.scope import quoted_name
from crewline.policy.careful.verdicts import Act
from crewline.policy.careful.words import (
    COPULAS,
    DETERMINERS,
    PARTICLES,
    PREPOSITIONS,
    PRONOUNS,
    READ_VERBS,
    WH,
)
from crewline.policy.clauses import Shape, Word
from crewline.policy.wording import word_set

# What is released to users by stages: the thing a widening moves.
_RELEASED = word_set(
    """release releases build builds rollout rollouts version versions flag flags feature
    features app apps canary beta update updates firmware toggle toggles experiment variant
    binary apk ipa patch hotfix deploy deployment"""
)
# A version said in figures ("8.14.0", "v3.9", "2.1"): a release named by its number.
_VERSION = re.compile(r"\bv?\d+\.\d+(?:\.\d+)*\b")
# What a number after it is the value of, never a version ("to 0.1", "by 1.5").
_VALUE_BEFORE = word_set("to at from by of than")
# Whom a release reaches, or where it runs: "every user", "all 214 machines".
_REACHED = word_set(
    """user users customer customers client clients player players member members account
    accounts subscriber subscribers device devices machine machines install installs
    installation installations region regions market markets country countries store stores
    tenant tenants site sites server servers"""
)
_ALL = word_set("all every each")
# What may stand between "all" and whom it names without narrowing it ("all of our users").
_PLAIN = word_set("of the our your their single remaining active current existing real live")
_EVERYONE = word_set("everyone everybody")
# What "the whole …" or "the entire …" says of everyone: "the whole user base".
_WHOLE = word_set("whole entire")
_BASES = word_set("base population audience userbase")
# What the widening goes "to", "for", "at" or "across".
_TO = word_set("to for at across")
# A part named after whom it reaches: "every user in the beta group", "everyone on the team".
_PARTS = NON_PROD | word_set(
    """group cohort ring segment team beta pilot tester testers internal dogfood dogfooding
    early insider insiders list squad staff employee employees trial"""
)
_WITHIN = word_set("in on of from within inside")
# What asks a state, not a step: "is the flag at 100%?", "has it reached every user?".
_STATE_VERBS = word_set("reach reached hit stand sit")


def widened_to_all(shape: Shape) -> list[Act]:
    """The releases the question widens to everyone (see the module), each said as the act
    ("releases Android 8.14.0 to every user")."""
    found: list[Act] = []
    words = shape.words
    for k in range(len(words)):
        end = _all_phrase(shape, k)
        if end is None:
            continue
        to = k - 1
        while to >= 0 and words[to].text in ("the", "our", "all") and not words[to].clause_start:
            to -= 1
        if to < 0 or words[to].text not in _TO or words[to].sentence != words[k].sentence:
            continue
        if _narrowed(shape, k, end):
            continue
        start = _sentence_start(shape, k)
        verb = _verb(shape, start, to)
        if verb is None or _not_asked(shape, verb, to):
            continue
        if not any(_released(shape, w) for w in words[start:to] if w.index != verb):
            continue  # "update the README for all users": the verb is no thing released
        found.append(_act(shape, verb, to, k, end))
    return found


def _all_phrase(shape: Shape, k: int) -> int | None:
    """One past the last word of the phrase at ``k`` that says all of a release's users —
    "100 %", "every user", "all 214 machines", "everyone", "the whole user base", "general
    availability", "GA", "full rollout", "the remaining 80 %" — or None."""
    words = shape.words
    w = words[k]
    if w.ident or w.code:
        return None
    after = shape.text[w.end : w.end + 2].strip()
    nxt = words[k + 1].lemma if k + 1 < len(words) else ""
    if w.text == "100" and (after.startswith("%") or nxt in ("percent", "pc")):
        return k + 1 if after.startswith("%") else k + 2
    if w.text in _EVERYONE:
        return k + 1
    if w.text in _ALL:
        j = k + 1
        while j < len(words) and (words[j].text in _PLAIN or words[j].text.isdigit()):
            j += 1
        if j < len(words) and words[j].text in _REACHED and not words[j].ident:
            return j + 1
        return None
    if w.text in _WHOLE and k + 1 < len(words):
        for j in range(k + 1, min(k + 3, len(words))):
            if words[j].text in _BASES:
                return j + 1
        return None
    if w.text == "general" and nxt == "availability":
        return k + 2
    if w.text == "ga" and w.lemma == "ga":
        return k + 1
    if w.text == "full" and (nxt in ("rollout", "release", "availability") or _last(shape, k)):
        return k + 2 if nxt in ("rollout", "release", "availability") else k + 1
    share = words[k + 1] if k + 1 < len(words) else None
    if w.text == "remaining" and share is not None and share.text.isdigit():
        return k + 2 if shape.text[share.end : share.end + 2].strip().startswith("%") else None
    return None


def _last(shape: Shape, k: int) -> bool:
    """Is word ``k`` the last of its clause ("ramp the flag to full?")?"""
    words = shape.words
    return (
        k + 1 >= len(words)
        or words[k + 1].clause_start
        or words[k + 1].sentence != words[k].sentence
    )


def _narrowed(shape: Shape, k: int, end: int) -> bool:
    """Does the phrase reach only a part — a non-production place or a subset named in it or
    right after it ("every test account", "every user in the beta group", "everyone on the
    team", "100% of staging") — where the sentence names no production?"""
    words = shape.words
    said = {w.lemma for w in words[k:end]} | {w.text for w in words[k:end]}
    if said & _PARTS:
        return True
    j = end
    if j < len(words) and words[j].text in _WITHIN and words[j].sentence == words[k].sentence:
        tail = [w for w in words[j + 1 : j + 5] if w.sentence == words[k].sentence]
        lemmas = {w.lemma for w in tail} | {w.text for w in tail}
        if lemmas & _PARTS and not lemmas & PROD_WORDS:
            return True
    sentence = {w.lemma for w in shape.sentence_words(words[k].sentence)}
    return bool(sentence & NON_PROD) and not sentence & PROD_WORDS


def _sentence_start(shape: Shape, k: int) -> int:
    return shape.sentences[shape.words[k].sentence].start


def _released(shape: Shape, w: Word) -> bool:
    """Does ``w`` name a thing released by stages: a release's noun, or a version in figures
    ("8.14.0")?"""
    if w.lemma in _RELEASED and not w.ident:
        return True
    if not (w.text.isdigit() and w.ident and _VERSION.match(shape.text, w.start)):
        return False
    before = shape.words[w.index - 1] if w.index else None
    return before is None or before.text not in _VALUE_BEFORE  # "set it to 0.1": a value


# What opens a question before its verb: helping verbs, negation, the asker, fillers.
_BEFORE_VERB = word_set(
    """do does did don doesn didn t not never can could shall should may might will would
    must i we you please let s ok okay just so then now to"""
)
# What opens a question about a state, not a step ("did it go to 100%?", "has it reached …").
_STATE_OPENERS = word_set("did does has have had")


def _verb(shape: Shape, start: int, to: int) -> int | None:
    """The verb that moves the release: a gerund before ``to`` ("… for releasing 8.14 to
    100%"), else the sentence's first word past its helping verbs ("Take 8.14 …", "Can I move
    the build …"), else the last word before ``to`` that stands where a verb stands ("… it's
    safe: push it to …")."""
    words = shape.words
    for j in range(to - 1, start, -1):
        w = words[j]
        if w.text.endswith("ing") and w.lemma != w.text and words[j - 1].text in PREPOSITIONS:
            return j  # "for releasing", "by taking": never "the remaining step"
    j = start
    while j < to and (words[j].text in _BEFORE_VERB or words[j].lemma == "do"):
        j += 1
    first = words[j] if j < to else None
    if first is not None and not (
        first.text in DETERMINERS | COPULAS | PRONOUNS or first.text.isdigit() or first.ident
    ):
        return j
    for j in range(to - 1, start - 1, -1):
        w = words[j]
        if w.ident or w.code or w.text.isdigit() or w.text in COPULAS or w.text in _BEFORE_VERB:
            continue
        if w.lemma != "do" and verb_position(shape, j):
            return j
    return first.index if first is not None else None


def _not_asked(shape: Shape, verb: int, to: int) -> bool:
    """Is the widening only said, not asked done: denied, what would happen, told as done
    ("we took 8.13 to 100% last week"), a state asked about ("is the flag at 100%?", "has it
    reached everyone?"), a question for information, or what a reading verb looks at ("check
    whether the rollout went to 100%")?"""
    words = shape.words
    w = words[verb]
    if negated(shape, verb) or hypothetical(shape, verb) or quoted_name(shape, verb):
        return True
    if info_scope(shape, verb) or info_scope(shape, to):
        return True
    opener = words[_sentence_start(shape, verb)]
    if (
        opener.text in WH
        and opener.index + 1 < len(words)
        and words[opener.index + 1].text not in ("about", "not")
    ):
        return True  # "how long did it take to get 8.13 to 100%?": asked about
    if w.lemma in _STATE_VERBS or (w.lemma in READ_VERBS and not w.ident):
        return True  # "has it reached everyone?", "check the rollout went to 100%"
    if any(x.text in ("whether", "if") for x in words[verb:to]):
        return True  # "… whether the rollout went to 100%": what is looked at
    if past_form(w) and not shape.sentences[w.sentence].asks:
        return True
    sentence_start = _sentence_start(shape, verb)
    before = words[sentence_start:verb]
    if any(x.text in COPULAS for x in words[verb:to]) and not any(
        x.text in ("to",) for x in words[verb:to]
    ):
        return True  # "the flag is at 100%": a state
    if (
        before
        and before[0].text in _STATE_OPENERS
        and not any(x.text in ("to", "ok", "okay", "fine", "safe") for x in words[verb:to])
    ):
        return True  # "did Android 8.13 go to 100% last week?": what happened, asked
    return any(
        x.lemma in READ_VERBS and not x.ident and verb_position(shape, x.index) for x in before
    ) and not done_after(shape, verb)


def _act(shape: Shape, verb: int, to: int, k: int, end: int) -> Act:
    """The widening said as the act: "releases <what> to <all>"."""
    words = shape.words
    what_end = to
    first = verb + 1
    while first < to and (words[first].text in PARTICLES or words[first].text in PREPOSITIONS):
        first += 1  # "open up the beta to …", "carry on with the rollout": what is released
    for j in range(first, to):
        if words[j].text in ("from", "to", "for", "at") and not words[j].ident:
            what_end = j
            break
    while what_end > first and words[what_end - 1].text in PARTICLES:
        what_end -= 1  # "roll the new version out to …"
    what = phrase_of(shape, first, what_end) if first < what_end else ""
    reach = phrase_of(shape, to + 1, end)
    if shape.text[words[end - 1].end : words[end - 1].end + 1] == "%" and not reach.endswith("%"):
        reach += "%"
    says = f"releases {what} to {reach}" if what else f"releases it to {reach}"
    return Act(
        family="deploy",
        says=f"{says}, which cannot be recalled from them",
        verb=True,
        sentence=words[verb].sentence,
        at=words[verb].start,
    )
