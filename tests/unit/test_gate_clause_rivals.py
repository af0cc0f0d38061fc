"""A value the question names (a version, an order's id, a date) places the answer: the
answer's own clause must not name another of its kind instead ("Android 6.4.1 is at 20%
rollout" for the rollout of Android 6.4.2, though the row names 6.4.2 in another clause) —
that value is the other one's (``rivals.rival_in_clause``)."""

from __future__ import annotations

from tests.unit.gate_kit import answers, facts, no_answer

ROLLOUT = "iOS 6.4.2 went into App Store review at 11:20 today; Android 6.4.1 is at 20% rollout"


def test_another_version_in_the_answers_clause_answers_nothing() -> None:
    rows = facts(("mobile", ROLLOUT))
    no_answer("What percentage rollout is Android 6.4.2 at?", rows)


def test_another_order_of_the_same_form_answers_nothing() -> None:
    rows = facts(("tasking", "TO-55120 is booked for Friday; TO-55121 has 40 scenes"))
    no_answer("How many scenes are in TO-55120?", rows)


def test_the_version_the_clause_names_is_still_answered() -> None:
    rows = facts(("mobile", ROLLOUT))
    answers("What percentage rollout is Android 6.4.1 at?", rows, "20%")
    answers("What time did iOS 6.4.2 go into App Store review?", rows, "11:20")
