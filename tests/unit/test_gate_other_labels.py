"""A thing the question names by a noun and a label ("rack B", "ward 7", "manifest MX-4411")
and a row whose value's clause names the same noun with another label of the same shape
("rack D", "ward 5", "manifest MX-4410"): the value is the other one's, though the row names
the asked one elsewhere (a plan, a state: "…; rack B moves over on Friday"). The offline
reader gives no answer and a model citing it is refused; the asked label in the value's own
clause, or the other label being the value itself, still answers. Each on sentences of its
own (not the eval sets')."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, by_model, facts, no_answer

# (question, row, the other one's value)
OTHER_LABEL = [
    (
        "Which firmware are the rack B switches running?",
        "rack D switches run firmware 9.4.1 now; rack B moves over on Friday",
        "9.4.1",
    ),
    (
        "What temperature is fermenter 4 holding?",
        "Fermenter 6 is holding 18.5 °C, fermenter 4 gets cleaned tomorrow",
        "18.5 °C",
    ),
    (
        "How many beds are free on ward 7?",
        "ward 5 has 12 free beds; ward 7 reopens on Monday",
        "12",
    ),
    (
        "Which kernel is node n14 running?",
        "node n12 runs kernel 6.8.4 since Tuesday, node n14 is next",
        "6.8.4",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), OTHER_LABEL)
def test_another_label_in_the_values_clause_is_not_an_answer(
    question: str, row: str, value: str
) -> None:
    no_answer(question, facts(("probe", row)))


@pytest.mark.parametrize(("question", "row", "value"), OTHER_LABEL)
def test_a_model_citing_another_labels_value_is_refused(
    question: str, row: str, value: str
) -> None:
    assert by_model(question, facts(("probe", row)), value) is None


# the same rows asked of the thing their value's clause names: answered
OWN_LABEL = [
    (
        "Which firmware are the rack D switches running?",
        "rack D switches run firmware 9.4.1 now; rack B moves over on Friday",
        "9.4.1",
    ),
    (
        "How many beds are free on ward 5?",
        "ward 5 has 12 free beds; ward 7 reopens on Monday",
        "12",
    ),
    # the asked label said alone in the value's clause, beside the other one's noun
    (
        "When did boiler B1 trip?",
        "Steam pressure steady at 9 bar; boiler B2 carries the load alone since B1 tripped at"
        " 03:15.",
        "03:15",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), OWN_LABEL)
def test_the_asked_labels_own_value_answers(question: str, row: str, value: str) -> None:
    answers(question, facts(("probe", row)), value)


def test_the_other_ones_label_is_no_answer() -> None:
    # the number that names the other shard is not the asked shard's depth
    no_answer(
        "What's the queue depth on shard 3?",
        facts(("probe", "shard 2 queue depth is 4,210 messages; shard 3 comes back tonight")),
    )
