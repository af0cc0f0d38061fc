"""A model's number or version that the row gives as another thing's is refused.

Two exclusions of the model path (``Chooser.MODEL``), both ``other-subject``: a number
followed right away by its own plural noun counts that noun, and a version belongs to the
name written right before it. A row whose number counts the asked noun, or whose version
follows the asked name, stays the model's reading. Domains apart from the dev sets that
showed each case (a football match, a helpdesk, a glider club; airflow workers, ceph hosts,
a jenkins controller).
"""

from __future__ import annotations

import pytest

from crewline.policy.fleet import Refusal
from tests.unit.gate_kit import by_model, facts, model_refusal


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "How many goals did the home team score?",
            "home team match report: 12 corners, goals came late",
            "12",
        ),
        (
            "How many tickets did the helpdesk close this week?",
            "helpdesk this week: closed 30 chats, tickets were handled by the night crew",
            "30",
        ),
        (
            "How many landings did the glider club log on Saturday?",
            "glider club Saturday log: 18 launches, landings not counted",
            "18",
        ),
    ],
)
def test_a_number_before_its_own_plural_noun_counts_that_noun(
    question: str, row: str, value: str
) -> None:
    assert value in row
    assert model_refusal(question, row, value) is Refusal.OTHER_SUBJECT


def test_a_number_before_the_asked_noun_still_counts_it() -> None:
    question = "How many tickets did the helpdesk close this week?"
    row = "helpdesk this week: closed 30 tickets, chats were handled by the night crew"
    assert by_model(question, facts(("probe", row)), "30") == "30 tickets"


@pytest.mark.parametrize(
    ("question", "row", "other", "asked"),
    [
        (
            "Which Python version do the airflow workers run?",
            "airflow workers are pinned to {}.",
            "airflow 2.9.1",
            "python 3.11.4",
        ),
        (
            "Which kernel version do the ceph hosts run?",
            "ceph hosts upgraded to {} last week.",
            "ceph 18.2.1",
            "kernel 6.8.2",
        ),
        (
            "Which Java version does the jenkins controller use?",
            "jenkins controller runs {} on the new VM.",
            "jenkins 2.440.1",
            "java 17.0.9",
        ),
    ],
)
def test_a_version_belongs_to_the_name_right_before_it(
    question: str, row: str, other: str, asked: str
) -> None:
    wrong, right = other.split()[1], asked.split()[1]
    assert model_refusal(question, row.format(other), wrong) is Refusal.OTHER_SUBJECT
    assert by_model(question, facts(("probe", row.format(asked))), right) == right
