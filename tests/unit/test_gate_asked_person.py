"""The person a question names is never the answer to who stands in a relation to them: "who
is standing by to cover for Captain Moreau?" of a row naming "Capt. Ines Moreau" and her
cover asks the other person (``roles.asked_person``). A name is the question's by the whole
of it or by a word of it that is no word of grammar ("Will", "May")."""

from __future__ import annotations

from tests.unit.gate_kit import answers, facts, no_answer

DUTY = "FTL: Capt. Ines Moreau reaches her 13h duty limit at 21:15 local tomorrow; {cover}."


def test_the_person_the_question_names_by_surname_is_no_answer() -> None:
    rows = facts(("crewsched", DUTY.format(cover="F/O Daniel Park is the standby cover")))
    no_answer("Who is standing by to cover for Captain Moreau?", rows)


def test_the_person_the_question_names_by_first_name_is_no_answer() -> None:
    rows = facts(("rota", "Noor Aziz is off sick today; the standby is on leave."))
    no_answer("Who is covering for Noor today?", rows)


def test_the_other_person_is_still_the_answer() -> None:
    rows = facts(("crewsched", DUTY.format(cover="Daniel Okafor is the standby cover")))
    answers("Who is standing by to cover for Captain Moreau?", rows, "Daniel Okafor")
