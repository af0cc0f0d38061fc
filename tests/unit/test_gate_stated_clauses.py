"""A question word that opens a sentence which asks nothing opens a clause the sentence
states, not a request: "Which rows it deletes is logged. Shall I proceed?" goes on with a
step that deletes rows. Cases of other domains than the one that showed it: a mail server,
a build farm."""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import careful


@pytest.mark.parametrize(
    "question",
    [
        "Which mailboxes it purges is logged. Shall I proceed?",
        "What the janitor job drops goes to the audit log. OK to go ahead?",
    ],
)
def test_a_stated_clause_of_a_careful_act_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Which images did the cleanup on node 9 remove? I need it for the notes.",
        "which images did the cleanup remove",  # the last sentence of a text with no "?"
    ],
)
def test_a_question_about_what_was_done_is_still_a_question(question: str) -> None:
    assert careful_act(question) is None
