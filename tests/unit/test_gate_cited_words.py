"""A model that names a value by whole words of it cites that value, whole.

``_value_cited`` took "310" for "310 ms" (the one typed value whose number the answer is);
now whole words of one typed value, cut from the rest of it by spaces only, name it too
("Okafor" of "Dr. Ines Okafor", "06:20" of "06:20 UTC", "7 min 40" of "7 min 40 s"), and
every check reads the value as the row states it. A piece cut by another mark ("912" of
"1,912 kg", "db-02" of "db-02.internal:5432") still names no value. Domains apart from the
dev sets (a bakery, a library, a harbour).
"""

from __future__ import annotations

import pytest

from crewline.policy.fleet import Refusal
from tests.unit.gate_kit import by_model, facts, model_refusal


@pytest.mark.parametrize(
    ("question", "row", "said", "whole"),
    [
        (
            "Around what time does the flour delivery reach the bakery?",
            "Flour delivery reaches the bakery at about 05:40 UTC most days.",
            "05:40",
            "05:40 UTC",
        ),
        (
            "On average, how long does the library need per returned crate?",
            "avg time to shelve a returned crate at the library: 7 min 40 s",
            "7 min 40",
            "7 min 40 s",
        ),
    ],
)
def test_whole_words_of_a_value_cite_it_whole(
    question: str, row: str, said: str, whole: str
) -> None:
    assert by_model(question, facts(("probe", row)), said) == whole


@pytest.mark.parametrize(
    ("question", "row", "said"),
    [
        (
            "How much cargo did the harbour crane lift on Monday?",
            "Harbour crane on Monday: 1,912 kg lifted in 14 moves.",
            "912",
        ),
        (
            "Which host does the harbour booking database run on?",
            "Harbour booking database is on db-02.internal:5432.",
            "db-02",
        ),
    ],
)
def test_a_piece_cut_by_another_mark_names_no_value(question: str, row: str, said: str) -> None:
    assert model_refusal(question, row, said) is Refusal.NOT_IN_ROW
