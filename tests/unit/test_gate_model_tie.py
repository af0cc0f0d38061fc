"""A model's citation is grounded and excluded, not proven about the thing.

That a row is about the thing asked in other words ("the feed pump *listens* on port 5020"
for "which port does the feed pump controller use?") is the model's reading, which code
cannot prove for a paraphrase: a row the model chose stands where it says a word of the
thing, leaves out only plain words, and no evidence says it is another thing's — a name, a
modifier, an outcome or a noun left out or said otherwise, or a row as much about the thing
with another value. The offline reader, with no reading behind its pick, keeps its proof.
"""

from __future__ import annotations

import pytest

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import Chooser, check_cited
from crewline.policy.fleet.asking import value_ask
from crewline.policy.wording import code_form
from tests.unit.gate_kit import by_model, facts

PARAPHRASES = [
    (  # the row calls the controller by what it does: "listens on"
        "Which port does the feed pump controller use?",
        "Feed pump listens on port 5020.",
        "5020",
    ),
    (  # "departs" for "leave": the relation in the row's words
        "When does the ferry's last sailing leave?",
        "Last ferry sailing departs 22:40.",
        "22:40",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), PARAPHRASES)
def test_a_row_a_model_chose_in_other_words_answers(question: str, row: str, value: str) -> None:
    assert by_model(question, facts(("probe", row)), value) == value


@pytest.mark.parametrize(("question", "row", "value"), PARAPHRASES)
def test_the_offline_reader_keeps_its_proof(question: str, row: str, value: str) -> None:
    rows = facts(("probe", row))
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None
    assert check_cited(ask, rows, rows[0].row_id, value, by=Chooser.MODEL) == value
    assert check_cited(ask, rows, rows[0].row_id, value, by=Chooser.READER) is None


@pytest.mark.parametrize(
    ("question", "rows", "value"),
    [
        (  # a row as much about the thing gives another value: which one is a guess
            "Which port does the feed pump controller use?",
            ["Feed pump listens on port 5020.", "Feed pump answers on port 5021."],
            "5020",
        ),
        (  # another noun where the question's stands: the pump's sensor, not its controller
            "Which port does the feed pump controller use?",
            ["Feed pump sensor on port 5020."],
            "5020",
        ),
        (  # a name the row does not say
            "Which port does the pump-7 controller use?",
            ["Feed pump listens on port 5020."],
            "5020",
        ),
        (  # a modifier of the thing left out: another pump's
            "Which port does the feed pump controller use?",
            ["Irrigation controller listens on port 6010."],
            "6010",
        ),
        (  # a modifier of the asked noun left out: another measure
            "What's the median proofing time for the rye loaves?",
            ["Rye loaves p90 proofing time 95 min."],
            "95 min",
        ),
        (  # an outcome the row does not say
            "How many hives did the inspection reject?",
            ["Inspection done: 42 hives looked at in the apiary."],
            "42",
        ),
        (  # an outcome the question names ("successfully") that the row does not say
            "How many parcels did the sorter route successfully?",
            ["The sorter finished in 20 minutes; 12 parcels went to the reject chute."],
            "12",
        ),
        (  # a value of another kind, in a row that never says the asked noun
            "Which status code does the weather API send once we go over the limit?",
            ["Weather API rate limit confirmed: 60 requests per minute per key, HTTP 429 after."],
            "60 requests per minute",
        ),
        (  # a bare count of a row that names nothing it counts
            "How many hives does the apiary have?",
            ["The apiary has 12."],
            "12",
        ),
        (  # a thing the row names by nothing: "the spare", of the main beacon's row
            "What firmware version is the spare on?",
            ["The main beacon runs firmware v3.2.0; uptime 41 days."],
            "v3.2.0",
        ),
        (  # another month's: a month is never left out
            "When does the ferry's last sailing leave in March?",
            ["February: last ferry sailing departs 22:40."],
            "22:40",
        ),
    ],
)
def test_evidence_of_another_thing_refuses_a_models_citation(
    question: str, rows: list[str], value: str
) -> None:
    said = facts(*(("probe", r) for r in rows))
    assert value in said[0].text
    assert by_model(question, said, value) is None
