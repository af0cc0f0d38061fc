"""Where a word stands: whether it stands where a verb stands, the noun an act's word modifies,
where a noun phrase starts, and the clause a word is in, so an act's word is read as the act
only where an act can stand."""

from __future__ import annotations

import re
from collections.abc import Callable

from crewline.policy.careful.words import (
    ACTS_BY_FIRST,
    ARTIFACTS,
    COPULAS,
    DETERMINERS,
    DOC_HEADS,
    NEGATORS,
    ORDINALS,
    PAST_IRREGULAR,
    PREPOSITIONS,
    VERB_LIKE,
    VERB_POSITION_BEFORE,
)
from crewline.policy.clauses import FILLERS, Shape, Word
from crewline.policy.wording import word_set


def verb_position(shape: Shape, i: int) -> bool:
    """Does word ``i`` stand where a verb stands: the start of a clause (after fillers), or
    after "to", a subject, a modal, "please"…, or a gerund ("with deleting")?"""
    words = shape.words
    if words[i].text.endswith("ing") and words[i].lemma != words[i].text:
        return True
    if _topic_label(shape, i):
        return False  # "Old invoices: keep or purge?": what the question is about
    if _participle_before_noun(shape, i):
        return False  # "include cancelled bookings": what the bookings are, no act
    if (
        words[i].text != words[i].lemma
        and words[i].text.endswith(("s", "ed"))
        and i > 0
        and (
            words[i - 1].text in ("that", "which", "who", "it", "this")
            or (words[i - 1].text not in DETERMINERS and words[i - 1].text not in PREPOSITIONS)
        )
        and words[i].lemma in ACTS_BY_FIRST
        and not words[i].lemma.endswith("s")
    ):
        return True  # "the job deletes …", "the job that drops …": a finite verb
    j = i - 1
    while j >= 0 and not words[j + 1].clause_start and words[j].text in FILLERS:
        j -= 1
    if words[i].clause_start or (j >= 0 and words[j + 1].clause_start and j + 1 == i):
        return True
    if j < 0 or words[j].sentence != words[i].sentence:
        return True
    if all(words[k].text in FILLERS for k in range(j + 1, i)) and words[j + 1].clause_start:
        return True
    if words[i - 1].text in _FOCUS and not words[i - 1].dash_prev:
        return True  # "I will only drop the table": a focus adverb hides no verb ("read-only")
    if words[i].dash_prev and words[i - 1].text == "to" and words[i - 1].dash_prev:
        return False  # "end-to-end checks": a "to" hyphens glue on both sides is no infinitive's
    if words[i - 1].text == "s" and i > 1 and words[i - 2].text == "let":
        return True  # "let's delete …": "let us", a verb after it
    return words[i - 1].text in VERB_POSITION_BEFORE or caused_by(shape, i) is not None


def _topic_label(shape: Shape, i: int) -> bool:
    """Is word ``i`` an inflected noun that ends a topic label, a colon or a dash after it
    ("Old invoices: keep or purge?", "Refunds — approve or hold?"): what the question is
    about, no verb of a step?"""
    words = shape.words
    return (
        words[i].text != words[i].lemma
        and words[i].text.endswith("s")
        and i + 1 < len(words)
        and bool(_LABEL_END.match(shape.gap(i + 1)))
    )


_LABEL_END = re.compile(r"\s*(?::|[-\u2013\u2014]+\s)")


# What a bare verb's object never opens with, after a participle that modifies it.
_NOT_A_NOUN = (
    DETERMINERS
    | PREPOSITIONS
    | COPULAS
    | NEGATORS
    | word_set(
        """it them me us you him her this that these those there here then now yesterday today
    already before after again by to"""
    )
)
# What before an "-ed" form makes it a finite verb or a passive, never a bare verb's object.
_TENSE_BEFORE = COPULAS | word_set(
    """i we you he she it they who which that this have has had get gets got having not
    just already also never"""
)


def _participle_before_noun(shape: Shape, i: int) -> bool:
    """Is the "-ed" form at ``i`` a past participle used as an adjective, the first word of a
    bare verb's object ("include cancelled bookings", "count deleted rows", "skip revoked
    keys"): right after a verb that starts its clause, right before the noun it describes?
    What was done to the things names them; the verb before it is the act. A subject before
    the form ("the job deleted rows", "it deleted rows") makes it a finite verb, as before."""
    words = shape.words
    w = words[i]
    if (
        not w.text.endswith("ed")
        or w.text == w.lemma
        or w.code
        or w.ident
        or w.clause_start
        or i == 0
        or i + 1 >= len(words)
    ):
        return False
    before, after = words[i - 1], words[i + 1]
    if (
        before.sentence != w.sentence
        or after.sentence != w.sentence
        or after.clause_start
        or before.code
        or before.ident
        or before.text in _TENSE_BEFORE
        or before.text.endswith(("ed", "ing"))
        or after.text in _NOT_A_NOUN
        or after.lemma in ACTS_BY_FIRST
    ):
        return False
    if before.text != before.lemma or before.lemma not in VERB_LIKE | _SELECTING_VERBS:
        return False  # "jobs deleted rows", "cron purged logs": a subject, then its verb
    # the verb starts its clause or follows "to", a modal or the asker ("can I include …"),
    # never a determiner ("the run deleted rows": a noun, then its verb)
    return before.clause_start or i == 1 or words[i - 2].text in FILLERS | _VERB_OPENERS


_VERB_OPENERS = word_set("to i we can could may might shall should will would please also")


# Verbs that pick which things a view or a count takes ("exclude cancelled bookings").
_SELECTING_VERBS = word_set("exclude skip ignore omit hide filter highlight flag mark sum total")


# The verbs that make their object do what a bare verb after it says ("make the warning go
# live", "let the bulletin go out", "have the job drop the rows").
CAUSATIVES = frozenset(["make", "let", "have"])
# What follows a bare verb that is one, never a noun's next word: its own object's first
# word, or its particle ("go live", "go out", "drop the rows", "delete them").
_VERB_FOLLOWERS = DETERMINERS | word_set(
    "live out up down off away public online offline them it everything"
)
# What an object never holds: a verb's helpers, a copula, a negator, "to".
_NOT_IN_OBJECT = (
    COPULAS | NEGATORS | word_set("to can could should shall will would may might must do does did")
)


def caused_by(shape: Shape, i: int) -> int | None:
    """The causative verb whose object does word ``i``, a bare verb ("make the red warning
    *go* live", "let the bulletin *go* out", "have the cron job *drop* the rows"), or None:
    a causative in verb position, then its object (a pronoun, or a phrase ending in a word
    that is not a determiner, within six words of one clause), then the bare verb, then its
    own object or particle. "make the release notes" has none: "release" is followed by a
    noun, so it is the object's, not a verb."""
    words = shape.words
    w = words[i]
    if w.text != w.lemma or w.ident or w.clause_start or i < 2 or w.lemma not in ACTS_BY_FIRST:
        return None
    if i + 1 >= len(words) or words[i + 1].clause_start or words[i + 1].text not in _VERB_FOLLOWERS:
        return None
    if w.text in PREPOSITIONS or words[i - 1].text in DETERMINERS | PREPOSITIONS:
        return None  # "designs for the screen"; "make the release", "for the deploy": a noun
    for k in range(i - 2, max(-1, i - 8), -1):
        x = words[k]
        if words[k + 1].clause_start or x.sentence != w.sentence:
            return None
        if x.lemma in CAUSATIVES and not x.ident:
            between = words[k + 1 : i]
            if between[0].text in PREPOSITIONS or any(b.text in _NOT_IN_OBJECT for b in between):
                return None
            return k if verb_position(shape, k) else None
        if x.text in _NOT_IN_OBJECT or x.lemma in VERB_LIKE:
            return None
    return None


def causes(shape: Shape, k: int) -> bool:
    """Does the causative verb at ``k`` make its object do a bare verb after it ("make my
    branch go live")?"""
    if shape.words[k].lemma not in CAUSATIVES:
        return False
    return any(caused_by(shape, j) == k for j in range(k + 2, min(k + 9, len(shape.words))))


_FOCUS = frozenset(["only", "merely"])


def head_after(shape: Shape, i: int, length: int) -> int | None:
    """The noun that word ``i`` (an act's word in front of a noun: "the deploy script")
    modifies, when it is a doc head or an artifact."""
    words = shape.words
    end = i + length
    if verb_position(shape, i) and not words[i].dash_prev:
        return None  # "delete old logs": the act's own verb, not a modifier
    for j in range(end, min(end + 5, len(words))):
        w = words[j]
        if w.clause_start or w.sentence != words[i].sentence:
            return None
        if j + 1 < len(words) and words[j + 1].text == "s" and not words[j + 1].clause_start:
            continue  # "the payment module's unit tests": the head is further on
        if w.text == "dry" and j + 1 < len(words) and words[j + 1].lemma == "run":
            return j + 1  # "the backfill dry-run"
        if w.lemma in DOC_HEADS or w.lemma in ARTIFACTS:
            while (
                j + 1 < len(words)
                and not words[j + 1].clause_start
                and (words[j + 1].lemma in DOC_HEADS or words[j + 1].lemma in ARTIFACTS)
            ):
                j += 1  # "the migration plan review": the compound's last noun
            for k in range(j + 1, min(j + 3, len(words))):
                x = words[k]
                if x.clause_start or x.text in DETERMINERS | PREPOSITIONS:
                    break
                if x.lemma in VERB_LIKE:
                    break
                if x.lemma in DOC_HEADS:
                    j = k  # "the delete-endpoint integration tests": the phrase's head
                    break
            return j
        if w.text == "s":
            continue
        if w.text in DETERMINERS or w.text in PREPOSITIONS or w.lemma in VERB_LIKE:
            return None
    return None


# Words that follow a noun phrase and qualify no noun: a time, "please", "again" ("do the
# table drop now?": the drop is the phrase's head, not a modifier of "now").
_AFTER_A_PHRASE = word_set(
    "now tonight today tomorrow asap please pls plz again first then later soon immediately"
)


def nominal_head(shape: Shape, end: int) -> bool:
    """Does the phrase end at word ``end``: a preposition, a time or "please" after it, the
    clause's end or the text's?"""
    words = shape.words
    if end >= len(words):
        return True
    w = words[end]
    return (
        w.clause_start
        or w.sentence != words[end - 1].sentence
        or w.text in PREPOSITIONS
        or (w.text in _AFTER_A_PHRASE and not w.code and not w.dash_prev)  # not `--drop-first`
    )


def dry_run(shape: Shape, j: int) -> bool:
    words = shape.words
    return words[j].lemma == "run" and j > 0 and words[j - 1].text == "dry"


_MODIFIER_STOPS = PREPOSITIONS | COPULAS | NEGATORS


def _run_start(
    shape: Shape, i: int, most: int, steps_over: Callable[[Word], bool] | None = None
) -> int:
    """Where the run of words that ends at word ``i`` starts: back at most ``most`` words,
    never over a clause's or a sentence's start, and only over words ``steps_over``
    accepts."""
    words = shape.words
    j = i
    while (
        j > 0
        and i - j < most
        and not words[j].clause_start
        and words[j - 1].sentence == words[i].sentence
        and (steps_over is None or steps_over(words[j - 1]))
    ):
        j -= 1
    return j


def noun_phrase_start(shape: Shape, i: int) -> int:
    """Where the noun phrase that ends at word ``i`` starts: back over its determiner and
    up to two modifiers ("a database drop", "a dummy API key"), never over a preposition,
    copula, negator or verb; a determiner is the phrase's first word."""
    start = _run_start(shape, i, 3, _modifier)
    determiners = (k for k in range(start, i) if shape.words[k].text in DETERMINERS)
    return max(determiners, default=start)


def _modifier(word: Word) -> bool:
    return word.text not in _MODIFIER_STOPS and word.lemma not in VERB_LIKE


def named_after_preposition(shape: Shape, i: int) -> bool:
    """Is word ``i`` a noun in a phrase after a preposition other than "to" ("for ICS2
    release 3 go-live"), not a verb of the clause?"""
    start = noun_phrase_start(shape, i)
    before = shape.words[start - 1] if start else None
    return (
        not verb_position(shape, i)
        and before is not None
        and before.text in PREPOSITIONS - {"to"}
        and not shape.words[start].clause_start
    )


def hypothetical(shape: Shape, i: int) -> bool:
    """ "the prune job would delete": what something would do, not what is asked."""
    words = shape.words
    j = i - 1
    while j > 0 and words[j].text in ("be", "been", "have", "get", "got"):
        j -= 1  # "the branches that would be deleted"
    if j < 1 or words[j].text not in ("would", "might"):
        return False
    return words[j - 1].text not in ("i", "we", "you", "d")


def past_form(w: Word) -> bool:
    return w.text in PAST_IRREGULAR or (w.text.endswith("ed") and w.lemma != w.text)


def acting_clause_end(shape: Shape, i: int, length: int) -> int | None:
    """Where the clause of the verb at ``i`` (``length`` words) ends, if the word stands as a
    plain verb there: in a verb's position, neither a name nor code, and after no determiner
    or ordinal ("the booking", "the first report" are nouns). None where it is no such verb."""
    words = shape.words
    if not verb_position(shape, i) or words[i].ident or words[i].code:
        return None
    if i > 0 and words[i - 1].text in DETERMINERS | ORDINALS:
        return None
    return clause_end(shape, i + length - 1)


def clause_end(shape: Shape, i: int) -> int:
    """Where word ``i``'s clause ends: the next clause start or the sentence's end."""
    words = shape.words
    end = i + 1
    while (
        end < len(words)
        and not words[end].clause_start
        and words[end].sentence == words[i].sentence
    ):
        end += 1
    return end


def clause_of(shape: Shape, i: int) -> tuple[Word, ...]:
    """The words of word ``i``'s whole clause, from its start however far back."""
    words = shape.words
    start = i
    while (
        start > 0
        and not words[start].clause_start
        and words[start - 1].sentence == words[i].sentence
    ):
        start -= 1
    return words[start : clause_end(shape, i)]


def clause_words(shape: Shape, i: int) -> set[str]:
    """The words of word ``i``'s clause, as written."""
    return {w.text for w in clause_of(shape, i)}


def clause_start(shape: Shape, i: int) -> int:
    return _run_start(shape, i, 8)
