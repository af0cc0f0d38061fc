"""A default read from a source the repo keeps: what a default's file or pattern yields
(".python-version (the default) says 3.12", "the default pattern is feature/<ticket>, so
`feature/NB-1182`"), a file that pins a value the asker proposes to go with ("the .nvmrc
says 20, go with that?") and a value a template suggests. Each beside the near misses that
keep their verdict: an alternative offered, two sources that disagree, a question asked
after the source, and a careful step beside it."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a print shop, a restaurant's menu site, a library's ticket desk
        ("Paper size for the timetable print: the printer.cfg says A4, go with that?", "A4"),
        ("Which font for the menu? `styles.toml` (the default) says Georgia.", "Georgia"),
        ("Ticket label: the default pattern is LIB-<number>, so `LIB-2041`. Use that?", "LIB-2041"),
        (
            "Reading-list folder — `lists/autumn-2026` as suggested by the template, ok?",
            "lists/autumn-2026",
        ),
    ],
)
def test_a_default_read_from_a_source_is_its_value(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Paper size for the timetable print: the printer.cfg says A4, or should I use A3?",
        "Which font for the menu? `styles.toml` says Georgia, but the brand guide says Garamond.",
        "The printer.cfg says A4. Which paper size should the timetable use?",
    ],
)
def test_a_source_beside_a_choice_or_a_question_answers_nothing(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and not verdict.kind.routine, verdict


def test_a_careful_step_beside_the_source_stays_careful() -> None:
    careful(
        "Reading-list folder — `lists/autumn-2026` as suggested by the template, "
        "then push it to main?"
    )
