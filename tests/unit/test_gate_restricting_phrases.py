"""A model's citation of a row that leaves out a word said after the asked noun by "for":
"the loss ratio *for home*" is "the home loss ratio", and a row of the motor book's is its
near miss, not its paraphrase. "Of" is not read so: "the owner of the ticket about …" names
the thing itself by its kind. Cases of other domains than the set that showed it (an
insurer's books): a school's terms, a service desk, a web shop."""

from __future__ import annotations

from tests.unit.gate_kit import by_model, facts


def test_a_word_after_for_restricts_the_asked_thing_as_a_modifier_would() -> None:
    rows = facts(("registrar", "spring Q2 attendance rate landed at 94.2%"))
    assert by_model("What was the Q2 attendance rate for autumn?", rows, "94.2%") is None
    assert by_model("What was the Q2 attendance rate for boarders?", rows, "94.2%") is None
    assert by_model("What was the Q2 attendance rate for the day pupils?", rows, "94.2%") is None


def test_the_object_of_of_may_name_the_thing_by_its_kind() -> None:
    rows = facts(("desk", "INC-4411 (parent portal login failures) is P2, owner Ama Boateng."))
    question = "who is owner of the ticket about parent portal login failures?"
    assert by_model(question, rows, "Ama Boateng") == "Ama Boateng"


def test_the_row_that_says_the_restricting_word_still_answers() -> None:
    rows = facts(("shop", "checkout conversion for mobile is 2.4% this week"))
    assert by_model("What is the conversion for mobile this week?", rows, "2.4%") == "2.4%"
