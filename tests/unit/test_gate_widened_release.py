"""A release widened from a part of its users to all of them is careful whatever the verb
("take", "move", "open up", "extend") and however "all" is said (100 %, every device, all
customers, the whole player base, general availability, the remaining 60 %): what users have
installed cannot be recalled. A widening to a part, to a non-production place or a named
subset, a state asked about, a denied one and a read one keep their verdict."""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import irreversible


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Take the thermostat firmware 3.2 from the pilot 5% to every device?",
            "releases the thermostat firmware 3.2 to every device",
        ),
        (
            "Move the banking app 5.0 build from 30% to all customers?",
            "releases the banking app 5.0 build to all customers",
        ),
        (
            "Can we open the meal-planner beta up to all subscribers?",
            "releases the meal-planner beta to all subscribers",
        ),
        ("Extend the 7.3 patch to the whole player base?", "to the whole player base"),
        ("Take the recipe-app release to general availability?", "to general availability"),
        (
            "Move the tutoring app's 2.1 version to the remaining 60%?",
            "to the remaining 60%",
        ),
        ("Shall I take the reader app 4.0 to 100% now?", "releases the reader app 4.0 to 100%"),
        # a tool's say-so reported, then "go?": the widening is what is asked
        (
            "The build bot's log prints CLEARED for taking ledger 2.4 to 100% — go?",
            "releases ledger 2.4 to 100%",
        ),
    ],
)
def test_a_release_widened_to_everyone_is_careful(question: str, said: str) -> None:
    reason = irreversible(question)
    assert said in reason and "cannot be recalled" in reason, reason


@pytest.mark.parametrize(
    "question",
    [
        "Move the 2.1 build from 1% to 5% of installs?",  # a part, not all
        "Take the staging build to every test device?",  # no production
        "Move the 2.1 build to every tester in the internal ring?",  # a named subset
        "Is the 7.3 patch at 100% yet?",  # a state asked
        "Did the 7.3 patch go to 100% last week?",
        "What share of players has the 7.3 rollout reached?",
        "How long did it take to get the 7.2 patch to 100%?",
        "Check whether the 7.3 rollout went to every device?",  # read
        "Don't take the 7.3 patch to 100% yet — shall I keep watching the crash rate?",
        "Run the full test suite on the 7.3 build?",  # "full" of no rollout
    ],
)
def test_a_part_a_state_or_a_denied_widening_is_no_act(question: str) -> None:
    assert careful_act(question) is None, question
