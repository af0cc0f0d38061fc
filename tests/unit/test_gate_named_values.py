"""The answer as the row names its value: a label with the noun before it ("shelf B7"), a
count with the noun it counts after it ("140 lanterns"), a tag whole where its number sits
inside its name ("cues-2025.03.1"). Always a span of the row: never another noun than the
question's, never a word the row does not write beside the value. Near misses keep the
value bare: a label after another noun, a label written after two nouns, a rate's count, a
docker image's tag after its colon, a version asked where the row writes a tag. Domains apart
from the dev sets (a library, a festival, a theatre's lighting desk).
"""

from __future__ import annotations

import pytest

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.fleet.nouns import as_the_row_names_it
from crewline.policy.values import whole_name, with_label_noun
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, by_model, facts

_SHELF = facts(("stacks", "the atlases moved to shelf B7 in the reading room last week"))
_LANTERNS = facts(("festival", "the festival ordered 140 lanterns from the paper mill"))
_CUES = facts(("lighting", "the lighting cues are tagged cues-2025.03.1 in the desk repo"))


def test_a_label_is_answered_with_the_asked_noun_the_row_writes_before_it() -> None:
    answers("Which shelf holds the atlases?", _SHELF, "shelf B7")


def test_a_label_cited_by_a_model_carries_its_noun_too() -> None:
    assert by_model("Which shelf holds the atlases?", _SHELF, "B7") == "shelf B7"


def test_a_count_is_answered_with_the_noun_it_counts() -> None:
    answers("How many lanterns did the festival order?", _LANTERNS, "140 lanterns")


def test_a_tag_inside_a_name_is_answered_whole() -> None:
    answers("Which tag are the lighting cues at in the desk repo?", _CUES, "cues-2025.03.1")


@pytest.mark.parametrize(
    ("row", "value", "said"),
    [
        ("the atlases moved to shelf B7", "B7", "shelf B7"),
        ("Shelf 12 holds the atlases", "12", "Shelf 12"),  # as the row writes it
        ("the atlases are on cart 7", "7", "7"),  # another noun before it
        ("shelf 7 and cart 7 hold atlases", "7", "7"),  # two nouns: which is a guess
        ("7 atlases on the shelf", "7", "7"),  # no noun before it
        ("the atlases on shelf Reading", "Reading", "Reading"),  # a name, no label
    ],
)
def test_a_label_takes_the_asked_noun_written_right_before_it(
    row: str, value: str, said: str
) -> None:
    assert with_label_noun(row, value, frozenset({"shelf"})) == said


@pytest.mark.parametrize(
    ("row", "value", "said"),
    [
        ("tagged cues-2025.03.1 in the repo", "2025.03.1", "cues-2025.03.1"),
        ("branch release_2025.03 is frozen", "2025.03", "release_2025.03"),
        ("the image is lights:4.2.0", "4.2.0", "4.2.0"),  # a tag after an image's colon
        ("cues-2025.03.1 or 2025.03.1", "2025.03.1", "2025.03.1"),  # written alone too
        ("a-1.2 and b-1.2 are tagged", "1.2", "1.2"),  # inside two names: which is a guess
    ],
)
def test_a_value_inside_a_name_of_joined_pieces_is_the_name(
    row: str, value: str, said: str
) -> None:
    assert whole_name(row, value) == said


def test_a_rates_count_stays_the_number() -> None:
    rows = facts(("mill", "the paper mill folds 140 lanterns per hour"))
    answers("How many lanterns per hour does the paper mill fold?", rows, "140")


def test_a_count_before_another_word_stays_the_number() -> None:
    rows = facts(("festival", "the festival ordered 140 paper lanterns from the mill"))
    answers("How many lanterns did the festival order?", rows, "140")


def test_a_version_asked_of_a_tagged_name_stays_the_number() -> None:
    answers("Which version are the lighting cues at in the desk repo?", _CUES, "2025.03.1")


def test_an_amount_asked_by_what_stays_the_number() -> None:
    row = "crossing plan filed: ballast 6400 kg, departure at dawn"
    which = value_ask(shape_of(code_form("Which ballast tank did the crew fill?")))
    what = value_ask(shape_of(code_form("What ballast did the crew load for the crossing?")))
    assert which is not None and what is not None
    assert as_the_row_names_it(which, "ballast tank 3 is full", "3") == "tank 3"
    assert as_the_row_names_it(what, row, "6400") == "6400"
