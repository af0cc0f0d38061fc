"""An aside in brackets that only narrows the verb before it to reading ("read (only read)
the log") is read through, as a negated one is ("draft (not send) the email"): the verb keeps
its object, and reading production is no act (docs/concierge.md, "Clauses"). An aside that
acts, or a reading aside after an act, leaves the act careful.

Cases are of other domains than the set that showed it (a mobile operator): a theatre's box
office, a school, a warehouse.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful
from tests.unit.gate_kit import irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Can I read (only read) the production box-office log to see when the rush started?",
        "Should I read (just read) the production seating plan before the show?",
    ],
)
def test_an_aside_that_narrows_the_verb_to_reading_leaves_it_a_read(question: str) -> None:
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Can I purge (only read) the production box-office log?",
        "Can I read (only purge) the production box-office log?",
        "Can I read (and purge) the production box-office log?",
    ],
)
def test_an_aside_that_acts_or_follows_an_act_stays_careful(question: str) -> None:
    irreversible(question)
