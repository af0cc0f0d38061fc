"""A person asked by a relation to another person ("who is *backing up* the pilot on duty",
"who *replaced* her") of a row that names two people: the relation tells the asked one from
the other, and the question's other words name the other. A row that does not say the
relation answers nothing, by the offline reader or by a model's citation; a row naming one
person keeps the relation the model's to read (``about.between_people``)."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, by_model, facts, no_answer

TWO_PEOPLE = [
    (  # the standby backs up the pilot on duty: the row's words pick the pilot
        "who is backing up the harbour pilot on duty today?",
        "harbour: pilot on duty today: Ines Morel, standby Karl Weiss",
        "Ines Morel",
    ),
    (  # a contracted "is"
        "who's backing up the harbour pilot on duty today?",
        "harbour: pilot on duty today: Ines Morel, standby Karl Weiss",
        "Ines Morel",
    ),
    (  # a past relation between two people
        "Who replaced the shift chemist on line 4 this week?",
        "line 4 this week: shift chemist Noor Aziz, trainee Pavel Sokol",
        "Noor Aziz",
    ),
]


@pytest.mark.parametrize(("question", "row", "other"), TWO_PEOPLE)
def test_a_relation_between_two_people_a_row_does_not_say_stays_with_the_human(
    question: str, row: str, other: str
) -> None:
    rows = facts(("rota", row))
    no_answer(question, rows)
    assert by_model(question, rows, other) is None


def test_one_person_keeps_the_relation_the_readers() -> None:
    rows = facts(("harbour", "harbour: pilot desk today: Karl Weiss"))
    answers("who is covering the harbour pilot desk today?", rows, "Karl Weiss")


def test_a_name_the_question_says_is_no_second_person() -> None:
    rows = facts(("drone", "Alder Creek survey booked for 21 March, pilot Sven Holm."))
    answers("Who is flying the Alder Creek survey?", rows, "Sven Holm")


def test_the_person_the_row_labels_is_still_answered() -> None:
    rows = facts(("rota", "harbour: pilot on duty today: Ines Morel, standby Karl Weiss"))
    answers("who is the harbour pilot on duty today?", rows, "Ines Morel")
