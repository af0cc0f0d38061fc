"""A request that points back by "that one" or "this one" ("I'm setting up the backup AIS
feed. Which port does *that one* use?") asks of the thing the sentence before names, as one
pointing back by "it" does. The reader read "that one" as no pointer, asked of the bare noun
("port"), and answered from a row about the thing without the qualifier the asker gave it
(the AIS feed, not the backup one): a wrong fact, offline and from a model.

Near misses: the same requests, the sentence before naming the thing as the row does, stay
answered.

Every case is of another trade than the dev sets: a ship's bridge, a packing line, a ward,
a school, a reefer deck.
"""

from __future__ import annotations

import pytest

from crewline.policy import judge
from tests.unit.gate_kit import answers, by_model, facts

POINTED = [
    (
        "I'm setting up the backup AIS feed. Which port does that one use?",
        ("nav", "The AIS feed is on port 10110."),
        "10110",
    ),
    (
        "I'm configuring the spare label printer. Which IP does that one have?",
        ("pack", "The label printer has IP 10.2.0.15."),
        "10.2.0.15",
    ),
    (
        "I'm configuring the spare label printer. What IP is that one on?",
        ("pack", "The label printer is on 10.2.0.15."),
        "10.2.0.15",
    ),
    (
        "I'm wiring the backup infusion pump. Which firmware is that one on?",
        ("biomed", "The infusion pump is on firmware 4.2.1."),
        "4.2.1",
    ),
    (
        "I need the test gradebook server. Which port does that one listen on?",
        ("school", "The gradebook server listens on port 8080."),
        "8080",
    ),
    (
        "I'm checking the spare reefer plug. What voltage does this one take?",
        ("reefer", "The reefer plug takes 440 V."),
        "440 V",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), POINTED)
def test_that_one_asks_of_the_thing_named_before(
    question: str, row: tuple[str, str], value: str
) -> None:
    rows = facts(row)
    verdict = judge(question, facts=rows)
    assert verdict.answer is None, verdict
    assert "said something about it" in verdict.why or "no member" in verdict.why
    assert by_model(question, rows, value) is None


NEAR_MISSES = [
    (
        "I'm setting up the AIS feed. Which port does that one use?",
        ("nav", "The AIS feed is on port 10110."),
        "10110",
    ),
    (
        "I'm configuring the label printer. Which IP does that one have?",
        ("pack", "The label printer has IP 10.2.0.15."),
        "10.2.0.15",
    ),
    (
        "I need the gradebook server. Which port does that one listen on?",
        ("school", "The gradebook server listens on port 8080."),
        "8080",
    ),
    (
        "I'm wiring the infusion pump. Which firmware is that one on?",
        ("biomed", "The infusion pump is on firmware 4.2.1."),
        "4.2.1",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), NEAR_MISSES)
def test_that_one_of_the_thing_the_row_names_is_answered(
    question: str, row: tuple[str, str], value: str
) -> None:
    answers(question, facts(row), value)
