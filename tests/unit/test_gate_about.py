"""A model's cited row is about the thing asked though it says a word of the question in
another form: a number in another notation, or a word of an event rather than of the thing.

Each rule was found counting the right citations ``scripts/cited-exhaustive`` refused as
``not-about`` over the twelve development sets; these tests are in other domains than the
sets that showed it, each with the near miss that must still stay with the human.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import by_model, facts

# ------------------------------------------------------- a number in another notation

NOTATIONS = [
    (  # a percentile the row writes as its label
        "What is the 95th percentile pick time of the packing robots?",
        "Packing robots over the last shift: p95 pick time 4.8 s.",
        "4.8 s",
    ),
    (  # an ordinal the row writes as digits beside the same word
        "What was the yield of the June 2nd harvest on plot C?",
        "Plot C, June 2 harvest: yield 4,310 kg.",
        "4,310",
    ),
    (  # a number word the row writes as digits beside the same word
        "How long does the kiln need to fire a six hour glaze batch?",
        "Kiln log: a 6-hour glaze batch fires in 7h 20m including cool-down.",
        "7h 20m",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), NOTATIONS)
def test_a_number_in_another_notation_is_the_same_thing(
    question: str, row: str, value: str
) -> None:
    rows = facts(("probe", row))
    assert value in row  # the precondition: the row says the value
    assert by_model(question, rows, value) == value


NOTATION_NEAR_MISSES = [
    (  # another percentile
        "What is the 99th percentile pick time of the packing robots?",
        "Packing robots over the last shift: p95 pick time 4.8 s.",
        "4.8 s",
    ),
    (  # the same digits beside another word: another day
        "What was the yield of the June 2nd harvest on plot C?",
        "Plot C, July 2 harvest: yield 4,310 kg.",
        "4,310",
    ),
    (  # another number
        "How long does the kiln need to fire a six hour glaze batch?",
        "Kiln log: a 4-hour glaze batch fires in 7h 20m including cool-down.",
        "7h 20m",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), NOTATION_NEAR_MISSES)
def test_another_number_in_another_notation_stays_with_the_human(
    question: str, row: str, value: str
) -> None:
    rows = facts(("probe", row))
    assert value in row
    assert by_model(question, rows, value) is None


# ------------------------------------------------------------ words of an event, not the thing

EVENTS = [
    (  # the particle of a phrasal verb in the past
        "How many of the scanned parcels came back damaged?",
        "Scanned 880 parcels at the hub; 14 of them were damaged.",
        "14",
    ),
    (  # the particle of a phrasal verb in an -ing form
        "Where do I open the ticket board now, the old one is going away right? what's the"
        " new address",
        "The ticket board moved to board.ops.example. The old board-legacy.internal is"
        " read-only until Friday.",
        "board.ops.example",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), EVENTS)
def test_a_word_of_the_event_is_the_models_reading(question: str, row: str, value: str) -> None:
    rows = facts(("probe", row))
    assert value in row
    assert by_model(question, rows, value) == value


EVENT_NEAR_MISSES = [
    (  # a clause of when picks which of the thing's values: the thing's, not the relation
        "How heavy was the shipping crate before it was emptied?",
        "The shipping crate weighs 12 kg now, down from 96 kg.",
        "12",
    ),
    (  # "back" that is no particle of a verb: the thing's
        "How many seats are in the back row of hall 2?",
        "Hall 2 holds 240 seats in 12 rows.",
        "240",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), EVENT_NEAR_MISSES)
def test_the_things_words_around_the_event_stay_the_things(
    question: str, row: str, value: str
) -> None:
    rows = facts(("probe", row))
    assert value in row
    assert by_model(question, rows, value) is None
