"""A word the asker capitalised is a name, though a dictionary has it.

The gate reads a question in its code form, lower case: "argentina" is a word of the
language there, which a model's citation may leave out as a paraphrase. As written,
"Argentina" names which one is asked: a row about Brazil and Mexico answers nothing of it.
"""

from __future__ import annotations

import pytest

from crewline.policy.wording import capitalised_names
from tests.unit.gate_kit import by_model, facts


@pytest.mark.parametrize(
    ("question", "row", "cited"),
    [
        (  # the asked country is in no row; the model cites another country's date
            "When does the spring timetable start in Norway?",
            "spring timetable: Sweden starts 2027-03-01, Denmark 2027-04-15",
            "2027-03-01",
        ),
        (  # a retailer the row does not name: the returns may be all of them
            "How many parcels did the depot return to Target last week?",
            "depot returned 212 parcels last week",
            "212",
        ),
    ],
)
def test_a_model_citing_a_row_that_leaves_out_a_capitalised_name_is_refused(
    question: str, row: str, cited: str
) -> None:
    assert by_model(question, facts(("bookings", row)), cited) is None
    # the same words in lower case are plain words a paraphrase may leave out
    lower = question.replace("Norway", "norway").replace("Target", "target")
    assert cited in (by_model(lower, facts(("bookings", row)), cited) or "")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("When does the Dunes window open in Argentina?", {"dunes", "argentina"}),
        ("Ferries — what time? The Oslo one", {"oslo"}),  # a sentence's first word is no name
        ('I think: Bergen. And (Tromso) or "Alta"', set()),  # nor a clause's or a quotation's
        ("ok so the HLS ladder", {"hls"}),
        ("Context from the log\nStaging port for Lisbon?", {"lisbon"}),  # a line's first word
    ],
)
def test_names_are_the_capitals_no_sentence_or_clause_starts(text: str, names: set[str]) -> None:
    assert capitalised_names(text) == names
