"""Whether a row the offline reader found is about the asked thing as the check of a
citation reads it: a head the row names by its modifier answers, another head in its place
or an outcome verb left out does not, and one plain word left out stays a model's reading.
Tested in settings of none of the development sets (a bakery, a choir, a radio ground
station), each with its near miss."""

from __future__ import annotations

from tests.unit.gate_kit import answers, facts, no_answer

# ------------------------------------------------- a head the row names by its modifier


def test_a_head_named_by_its_modifier_answers_offline() -> None:
    rows = facts(("stores", "Flour sacks: 40 on the shelf in Leeds."))
    answers("How many flour sacks does the Leeds warehouse have?", rows, "40")


def test_another_head_in_its_place_is_another_thing() -> None:
    rows = facts(("stores", "Flour sacks: 40 in the Leeds shop."))
    no_answer("How many flour sacks does the Leeds warehouse have?", rows)


def test_an_outcome_verb_is_never_a_head_left_out() -> None:
    # "remains" may read as the head of "travel fund remains": it is the clause's verb
    rows = facts(("treasurer", "We've spent 40% of the choir's travel fund."))
    answers("How much of the choir's travel fund have we spent?", rows, "40%")
    no_answer("How much of the choir's travel fund remains?", rows)


def test_one_plain_word_left_out_stays_a_models_reading() -> None:
    # the row most about the question leaves out "uplink": with one row retrieved, that
    # word is what tells the thing from its sibling, and the reader does not guess it
    rows = facts(("radio", "Ground station downlink on port 7400."))
    answers("Which port does the downlink use at the ground station?", rows, "7400")
    no_answer("Which port does the uplink use at the ground station?", rows)
