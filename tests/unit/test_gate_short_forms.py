"""A question that shortens the row's words beside a word both say: two words by their
initials ("MR sweep" of "manual review sweep"), a word by its consonants ("routing svc"
of "routing service", "twy B4" of "taxiway B4"). The near misses: the same letters for
other words with no word beside to tie them ("CI" of "chunk interval"), another service,
another taxiway, and a dictionary word that is no clip ("tls" of "tools").

In a parcel hub, a routing platform and an airfield, never the eval sets' sentences."""

from __future__ import annotations

import pytest

from crewline.policy.fleet.spelling import said_in_question_forms
from tests.unit.gate_kit import answers, facts, no_answer

_SWEEP = ("hub", "3 Mar manual review sweep held 214 parcels")
_ROUTING = ("platform", "the routing service listens on port 7740")
_TAXIWAY = ("ops", "twy B4 closed till 16:30Z")


def test_two_initials_beside_a_word_both_say_stand_for_two_words_of_the_row() -> None:
    answers("How many parcels did the 3 Mar MR sweep hold?", facts(_SWEEP), "214 parcels")


def test_a_word_by_its_consonants_says_the_row_s_word() -> None:
    answers("which port does the routing svc listen on?", facts(_ROUTING), "7740")


def test_a_row_s_consonants_say_the_question_s_word_beside_a_number() -> None:
    answers("Until when is taxiway B4 closed?", facts(_TAXIWAY), "16:30Z")


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # another service: the row's word lacked is the one that tells it apart
        ("which port does the billing svc listen on?", _ROUTING),
        # another taxiway: the identifier stays required
        ("Until when is taxiway B5 closed?", _TAXIWAY),
        # another of the hub's checks: the initials are tied, the audit is not said
        ("How many parcels did the 3 Mar MR audit hold?", _SWEEP),
    ],
)
def test_a_short_form_of_another_thing_answers_nothing(question: str, row: tuple[str, str]) -> None:
    no_answer(question, facts(row))


@pytest.mark.parametrize(
    ("question", "row", "said"),
    [
        ("mr sweep - how many held?", "3 mar manual review sweep held 214", {"mr"}),
        # the same letters with no word beside to tie them: a chance
        ("what is the ci timeout?", "chunk interval is 30 s, timeout 90 s", set()),
        ("mr audit - how many held?", "3 mar manual review sweep held 214", set()),
        # inflected words: "cp" is no "copied packages"
        ("how big is the cp run?", "copied packages run took 4 min", set()),
        ("routing svc port?", "routing service on 7740", {"svc"}),
        # a dictionary word's lemma lacks the letters: "tls" is no "tools"
        ("expiry of the build tls?", "build tools expire on 2027-01-04", set()),
        # vowels are no consonant clip; a word of the dictionary is its own word
        ("routing sev port?", "routing service on 7740", set()),
        ("routing set port?", "routing service on 7740", set()),
    ],
)
def test_short_forms_said_beside(question: str, row: str, said: set[str]) -> None:
    found = said_in_question_forms(question, row)[0]
    assert found & {"mr", "svc", "ci", "cp", "tls", "sev", "set"} == said
