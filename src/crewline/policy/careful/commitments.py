"""Commitments to someone outside: a booking, an order, an attendance or a date confirmed,
booked, reserved, accepted, signed or agreed with a party outside the company ("confirm the
booking with the caterer", "book the coach company for the trip", "RSVP yes to the wine
merchant's tasting"). The party counts on it from then on: taking it back is breaking one's
word to them, so the step is the owner's, whatever the asker calls it."""

from __future__ import annotations

from collections.abc import Callable

from crewline.policy.acts import OUTSIDE_PARTIES
from crewline.policy.careful.positions import acting_clause_end
from crewline.policy.careful.words import (
    CODE_WORDS,
    DETERMINERS,
    OBJECT_STOP,
    PREPOSITIONS,
    TIME_WORDS,
)
from crewline.policy.clauses import Shape, Word
from crewline.policy.wording import word_set

# Trades and bodies outside the company that a booking or an order is made with. A team or a
# person inside (the lead, the ward manager, the on-call) is none: confirming with them
# commits nobody outside.
OUTSIDE_TRADES = OUTSIDE_PARTIES | word_set(
    """caterer supplier vendor florist haulier hauler carrier courier shipper hotel venue
    restaurant printer contractor subcontractor landlord agency merchant distributor
    wholesaler mill grower farmer photographer band dj airline company firm operator
    theatre museum broker solicitor lawyer accountant organiser organizer exhibitor
    partner guest buyer seller tenant hirer charterer"""
)
# What is made with someone else when it is confirmed or accepted: "confirm the booking",
# "accept the reservation". Never "the order of the steps" (a sequence).
COMMITTED_THINGS = word_set("booking reservation attendance appointment rsvp")
# What leads the phrase a party stands in ("with the caterer", "at the hotel", "to the
# merchant's tasting", "from the hotel"). Never "for": "book the room for the auditors'
# visit" books the owner's own room.
_PARTY_LEADS = word_set("with to at from")
# What says the phrase is the asker's own ("for our own standup", "with my team").
_OWN = word_set("own our my team staff colleague internal")
_STOP = PREPOSITIONS | TIME_WORDS | OBJECT_STOP | word_set("and or but now asap yes ok")
# Names of the company's own teams, written with a capital as often as not ("with QA").
_OWN_TEAMS = word_set(
    "qa hr it ops dev devops sre finance legal security support sales marketing engineering"
)


def commits_to_party(
    shape: Shape, i: int, length: int, *, capital: Callable[[Word], bool] = lambda w: False
) -> bool:
    """Does the verb at ``i`` (confirm, book, reserve, RSVP, accept, sign, agree) commit the
    owner to a party outside: a phrase in its clause naming one ("with the haulier", "to the
    wine merchant's tasting", "at the hotel"), or a booking, reservation or attendance as its
    object, which is always made with someone else? A noun ("the booking sheet"), code in the
    object, a phrase said to be the asker's own ("our own standup"), and the party alone as
    the object ("book the courier for the slot": who is booked, the gate cannot weigh — the
    verb is unknown to it, and the question stays with the human as before) commit nobody.
    ``capital``: was the word written with a capital — a name ("with DHL", "at Luigi's")."""
    words = shape.words
    end = acting_clause_end(shape, i, length)
    if end is None:
        return False
    obj = _phrase(words, i + length, end)
    if any(w.lemma in CODE_WORDS for w in obj):
        return False  # "confirm the client config parses": code, no party
    if _names_a_party(obj, party=False):
        return True
    return any(
        words[k].text in _PARTY_LEADS
        and not words[k].ident
        and (
            _names_a_party(_phrase(words, k + 1, end), party=True)
            or (words[k].text != "to" and _a_name(_phrase(words, k + 1, end), capital))
        )
        for k in range(i + length, end)
    )


def _phrase(words: tuple[Word, ...], start: int, end: int) -> list[Word]:
    """The noun phrase from ``start``, up to a preposition, a time word or the clause's end."""
    phrase: list[Word] = []
    for w in words[start:end]:
        if w.text in _STOP and not w.ident:
            break
        phrase.append(w)
    return phrase


def _names_a_party(phrase: list[Word], *, party: bool) -> bool:
    """Does the phrase name a party outside — its head one ("the flour mill"), or one's
    possession ("the distributor's trade fair") — or a thing made with one ("the booking")?
    ``party``: the phrase may be the party itself (a "with" or "at" phrase); else only a
    thing committed to counts."""
    if not phrase or any(w.text in _OWN for w in phrase):
        return False
    plain = [w for w in phrase if not w.code and not w.ident]
    head = plain[-1] if plain else None
    if head is not None and head.lemma in COMMITTED_THINGS:
        return True  # "the booking", never "the booking flow tests"
    if not party:
        return False
    owners = [w for k, w in enumerate(plain[:-1]) if plain[k + 1].text == "s"]
    return (head is not None and head.lemma in OUTSIDE_TRADES) or any(
        w.lemma in OUTSIDE_TRADES for w in owners
    )


def _a_name(phrase: list[Word], capital: Callable[[Word], bool]) -> bool:
    """Is the phrase after "with", "at" or "from" a name the asker wrote with a capital
    ("with DHL", "with Maersk", "at Luigi's") — a firm or a person the owner is held to —
    not one of the company's own teams ("with QA", "with Finance"), a day or code?"""
    named = [w for w in phrase if w.text not in DETERMINERS and w.text != "s"]
    return (
        bool(named)
        and all(capital(w) and not w.code and not w.ident for w in named)
        and not any(w.text in _OWN_TEAMS | _OWN | TIME_WORDS for w in named)
    )
