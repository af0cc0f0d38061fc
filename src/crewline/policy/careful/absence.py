"""A removal said by the state it leaves: the asker will make, ensure, get or let a thing be
gone, disappear, no longer exist, or have nothing of it left ("make sure the old photos are
gone", "make the legacy customers disappear from the CRM", "ensure nothing is left in the
parcels bucket"). No verb of deleting is said, yet what is named is removed, and nobody gets
it back. A symptom made to go away ("make the warning go away", "make the spinner disappear")
is a fix, not a loss; a state only asked about ("which field disappeared?", "is the old
route gone?") is no step at all, for no one is asked to bring it about."""

from __future__ import annotations

from crewline.policy.careful.governors import negated
from crewline.policy.careful.objects import object_end, phrase_of
from crewline.policy.careful.positions import verb_position
from crewline.policy.careful.requests import info_scope
from crewline.policy.careful.verdicts import Act
from crewline.policy.careful.words import (
    COPULAS,
    DETERMINERS,
    NEGATORS,
    PREPOSITIONS,
    PRONOUNS,
    TIME_WORDS,
)
from crewline.policy.clauses import Shape
from crewline.policy.wording import word_set

# Verbs that bring a state about, their object then the state ("make the scans disappear",
# "get the old accounts gone", "let the recipes be gone").
_CAUSING = word_set("make get let")
# Leads that ensure a state, a clause of it after them ("make sure …", "ensure …", "see to it
# that …"): their words, read as lemmas.
_ENSURING = (("make", "sure"), ("make", "certain"), ("ensure",), ("see", "to", "it"))
# What may follow "gone", "left" or "remain" when it says nothing of the thing is there: the
# clause's end, where from, or when ("gone from the CRM", "gone by Friday"). "Gone live",
# "gone quiet", "left running", "gone to the archive" say where or how it is, not that it is
# no more.
_ABSENT_AFTER = (
    (PREPOSITIONS - word_set("to into onto through over"))
    | TIME_WORDS
    | word_set("forever completely entirely permanently altogether anymore behind and or")
)
# What only shows or troubles, and is fixed by going: a message, a mark on a screen, a fault.
_SYMPTOMS = word_set(
    """warning warnings error errors message messages banner banners spinner popup toast
    notice alert prompt dialog modal tooltip flicker lag delay noise glitch bug bugs issue
    issues problem problems failure failures crash crashes smell squiggle highlight cursor
    scrollbar badge hint deprecation"""
)
# Words of a clause that say nothing of what is gone.
_FRAME = DETERMINERS | COPULAS | NEGATORS | word_set("there s it that to of in from on do does t")
# What follows a causing verb that is no object of it ("get that …", "make up", "get rid").
# the asker ("let me know", "get us a list") is no thing made to go
_NO_OBJECT = word_set("sure certain that to s there up out rid on off me us")
# What opens a clause that describes the thing, whose "gone" is a state said, not brought
# about ("make a list of the files that no longer exist", "make a note of which are gone").
_DESCRIBING = word_set("that which who what whether where when how why")
# What ends the lead's reach: a clause of another step or of a condition.
_REACH_ENDS = word_set("then but so because if when while once unless until")
_REACH = 14
# What leads the place a thing goes from ("from the CRM", "in the parcels bucket").
_PLACES = word_set("from in on at inside within off")


def _absent_at(shape: Shape, p: int) -> int | None:
    """One past the predicate of absence that starts at word ``p`` ("gone", "disappear",
    "go away", "no longer exist", "nothing … left", "none … remain"), or None."""
    words = shape.words
    w = words[p]
    if _negated_before(shape, p) and w.lemma not in ("exist",):
        return None  # "make sure the photos are not gone"
    if w.text == "gone" or w.lemma in ("disappear", "vanish"):
        return p + 1 if w.text != "gone" or _absent_after(shape, p + 1) else None
    if w.lemma == "go" and p + 1 < len(words) and words[p + 1].text == "away":
        return p + 2
    if w.lemma == "exist" and _negated_before(shape, p):
        return p + 1  # "no longer exist", "not exist anymore", "don't exist"
    if w.lemma == "exist" and p >= 2 and [x.text for x in words[p - 2 : p]] == ["cease", "to"]:
        return p + 1
    if w.text in ("nothing", "none", "no"):
        for k in range(p + 1, min(p + 8, len(words))):
            if words[k].sentence != w.sentence:
                return None
            if words[k].text == "left" or words[k].lemma in ("remain", "remains"):
                return k + 1 if _absent_after(shape, k + 1) else None
    return None


def _negated_before(shape: Shape, p: int) -> bool:
    words = shape.words
    return any(
        words[k].text in NEGATORS | word_set("longer t")
        for k in range(max(0, p - 2), p)
        if words[k].sentence == words[p].sentence
    )


def _absent_after(shape: Shape, k: int) -> bool:
    words = shape.words
    return (
        k >= len(words)
        or words[k].sentence != words[k - 1].sentence
        or words[k].clause_start
        or words[k].text in _ABSENT_AFTER
    )


def _from_where(shape: Shape, k: int) -> bool:
    words = shape.words
    return k < len(words) and words[k].text in _PLACES and not words[k].clause_start


def _lead_end(shape: Shape, i: int) -> int | None:
    """One past the lead at word ``i`` that brings a state about ("make sure", "ensure",
    "make" with its object next), or None."""
    words = shape.words
    if words[i].ident or words[i].code or not verb_position(shape, i):
        return None
    for lead in _ENSURING:
        said = tuple(w.lemma for w in words[i : i + len(lead)])
        if said == lead:
            end = i + len(lead)
            return end + 1 if end < len(words) and words[end].text == "that" else end
    if words[i].lemma in _CAUSING and i + 1 < len(words) and words[i + 1].text not in _NO_OBJECT:
        return i + 1
    return None


def left_absent(shape: Shape) -> list[Act]:
    """The removals ``shape`` asks for by the state they leave: a lead that brings a state
    about, then, in its reach, a thing and a predicate of its absence — never a symptom made
    to go, a lead negated, or a request for information."""
    found: list[Act] = []
    words = shape.words
    for i in range(len(words)):
        lead_end = _lead_end(shape, i)
        if lead_end is None or negated(shape, i) or info_scope(shape, i):
            continue
        for p in range(lead_end, min(lead_end + _REACH, len(words))):
            if words[p].sentence != words[i].sentence or (
                words[p].clause_start and words[p].text in _REACH_ENDS
            ):
                break
            if words[p].text in _DESCRIBING:
                break
            end = _absent_at(shape, p)
            if end is None:
                continue
            thing = {w.lemma for w in words[lead_end:p]} | {
                w.lemma for w in words[end : object_end(shape, end)]
            }
            if thing & _SYMPTOMS or not (thing - _FRAME - TIME_WORDS or thing & PRONOUNS):
                break  # "make the warning go away"; a pronoun's thing is not known: careful
            # where it goes from, said with it ("disappear from the CRM")
            said_end = object_end(shape, end) if _from_where(shape, end) else end
            found.append(
                Act(
                    family="delete",
                    says=f"asks for a thing to be gone (“{phrase_of(shape, i, said_end)}”), a "
                    "removal said by the state it leaves",
                    verb=True,
                    sentence=words[i].sentence,
                    at=words[i].start,
                )
            )
            break
    return found
