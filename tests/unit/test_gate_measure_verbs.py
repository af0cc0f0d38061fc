"""A measure's subject headed by the asked noun, then a verb that says what the measure came
to where "is" would ("came in at", "stands at"), or which of its values the clause gives
("averaged", "peaked at": the question must say that word too), or a period between the
subject and its verb ("this week"): the value ending the clause is the asked noun's.
Another thing, place or period in the subject than the question's leaves it unanswered."""

from __future__ import annotations

from tests.unit.gate_kit import answers, facts, no_answer

_DWELL = ("yard", "pallet dwell at the north dock last week came in at 6.5 h")
_YIELD = ("brewhouse", "Mash yield on the pilot kettle averaged 78%.")
_SCRAP = ("press", "Press scrap on line 2 stands at 3.1%")
_OVEN = ("bakery", "oven yield this week was 92%, the new trays help")


def test_a_measure_that_came_in_at_a_value_answers() -> None:
    answers("North dock pallet dwell for last week?", facts(_DWELL), "6.5 h")


def test_a_measure_that_stands_at_a_value_answers() -> None:
    answers("What's the press scrap on line 2?", facts(_SCRAP), "3.1%")


def test_an_average_the_question_asks_answers() -> None:
    answers("What was the average mash yield on the pilot kettle?", facts(_YIELD), "78%")


def test_a_period_between_the_subject_and_its_verb_answers() -> None:
    answers("oven yield this week?", facts(_OVEN), "92%")


def test_another_period_than_the_subjects_is_unanswered() -> None:
    no_answer("North dock pallet dwell for this week?", facts(_DWELL))
    no_answer("oven yield last week?", facts(_OVEN))


def test_another_place_or_line_is_unanswered() -> None:
    no_answer("What was the average mash yield on the main kettle?", facts(_YIELD))
    no_answer("What's the press scrap on line 3?", facts(_SCRAP))


def test_an_average_the_question_does_not_ask_is_unanswered() -> None:
    # the clause gives the average; the question asks the yield itself
    no_answer("What was the mash yield on the pilot kettle?", facts(_YIELD))
