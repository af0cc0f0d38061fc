"""A risky act that is only the topic of what a step finds out is not the act (SPEC §4;
docs/concierge-rounds.md, "scope31"): a question word, "whether" or "if" opening the object
of a verb that only finds out or works out ("look up when …", "count how many …", "estimate
what …") holds what the asker will know. An act in it told as done, a thing's own, or
supposed ("what we'd pay", "if we deleted them") under a verb that only reckons is its topic;
the asker's act to come ("which rows to purge", "what we drop tonight"), a step joined after
it ("…, then delete them") or beside it ("before deploying") is still the act.

Cases are of other domains than the sets that showed them: a ferry line, a library, a bakery,
a school, a clinic.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        # told as done, a thing's own
        "Should I look up when the ferry booking service was last deployed to production? "
        "Only the date.",
        "Shall I find out when the school newsletter was last sent to all parents? Just the date.",
        # supposed, under a verb that only reckons
        "Can I count how many library cards would lapse if we deleted the inactive patron "
        "records? Just a count.",
        "OK to estimate what we'd pay for a second oven repair visit? only numbers in my sheet, "
        "not booking it",
        "Can I work out how much we would refund if the clinic cancelled every booking this "
        "week? Only the maths.",
    ],
)
def test_an_act_only_found_out_about_is_not_asked(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        # a step joined after what is found out, on it or on its own
        "Look up when the ferry booking service was last deployed to production and redeploy it?",
        "Count how many patron records we'd delete, then delete them?",
        "Estimate what we'd pay for the oven repair and pay it?",
        "Check when the bakery deploy finished, then drop the old orders table?",
        "Check which rows we'd delete if we purged the patron table, and approve it?",
        "Look up which patrons we would email and email them?",
        # a step beside it, or the asker's act to come
        "Check if the tests pass before deploying to prod?",
        "Look up who owns the table after dropping it?",
        "Find out which rows to purge?",
        "Find out when we last deployed the ferry app and deploy it again tonight?",
        "Check what the bill would be if you paid it now?",
        # supposed under a verb that may find out by trying
        "Find out how many seats we would lose if we cancelled the contract?",
    ],
)
def test_an_act_beside_what_is_found_out_is_still_the_act(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Tell the patrons which records we would delete?",
        "Remind everyone when the ferry app was last deployed to production?",
    ],
)
def test_a_question_word_after_those_told_is_a_message(question: str) -> None:
    """A question word after a noun ("tell the patrons which …") opens what they are told,
    a message sent to them, not what the asker finds out."""
    irreversible(question)
