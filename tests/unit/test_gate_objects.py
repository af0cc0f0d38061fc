"""What a risky word's object or phrase says about it: a line of code removed is an edit, a
stand-in credential is no secret, a thing said to have nothing to do with a risky word is
not it, a helper moved is code edited, a relative clause is no part of the object, and a
board named for what it shows is nobody to tell. Each rule beside the near-misses that stay
careful."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful


def _goes_on(question: str) -> None:
    """The question is a step the agent may take: the verdict says go on, with "yes"."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Remove the leftover debug print from the rollback helper?",
        "Remove the unused import from the cleanup module?",
        "Remove the trailing whitespace from the deploy script?",
        "Remove the TODO comments?",
        "Move the deploy helper from utils.py to helpers/deploy.py?",
        "Add a unit test for the revoke-token handler using a fake token?",
        "Rename the local variable `pay` to `payload`? It has nothing to do with payments.",
        "move the `deploy` helper into utils?",
        "Move the deploy helper into utils?",
        "Mind if I add type hints to the helper functions I wrote today?",
    ],
)
def test_a_risky_word_in_code_or_a_stand_in_is_not_the_act(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Remove the old snapshots?",
        "Remove the users table?",
        "Remove the comments from the prod config?",
        "Delete it?",
        "Print the production token?",
        "Pay the invoice? It has nothing to do with payments.",
        "This is not a big deletion. Proceed?",
        "Move on to the deploy job?",
        "Run the deploy helper?",
        "Run the cleanup job?",
        "Kick off the purge job, using the new flag?",
        "Grant access to the bucket I made?",
        "Give the account I created admin rights?",
        "Remove the variables from the customer export?",
        "Delete all comments by spam users?",
        "Print the dummy account's password?",
        "Move the deploy job to tonight?",
        "Move the deploy job to 2am?",
        "Move the purge job to Friday?",
    ],
)
def test_the_near_misses_stay_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "send the report to the board?",
        "send the deck to the company board?",
        "email the numbers to the board of directors?",
        "send the update to the board members?",
        "share the roadmap with the advisory board?",
    ],
)
def test_a_board_of_people_is_told(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question", ["send the link to the grafana board?", "post the screenshot to the jira board?"]
)
def test_a_board_named_for_what_it_shows_is_nobody_told(question: str) -> None:
    """No careful verdict: the question is not final (the human or a model may place it)."""
    verdict = judge(question)
    assert not verdict.final, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Context: I've written 12 new unit tests. Next I'd like to run the full local test "
        "suite, which takes about 7 minutes. Go ahead?",
        "Everything is local on my branch. Next I'd move the remaining date helpers into "
        "dates/core.py so the fix has one home. Go ahead?",
    ],
)
def test_a_step_announced_with_i_d_is_read_like_i_ll(question: str) -> None:
    _goes_on(question)


def test_a_step_announced_with_i_d_by_an_unknown_verb_is_for_the_human() -> None:
    """ "Next I'd hand the repo over": a verb the gate does not know is not a go-ahead."""
    verdict = judge("Tests pass. Next I'd hand the repo over to the contractors. Go ahead?")
    assert verdict.kind is VerdictKind.UNKNOWN and verdict.answer is None, verdict
    careful("Tests pass. Next I'd like to drop the users table. Go ahead?")


@pytest.mark.parametrize(
    "question",
    [
        "Cancel all her pending render jobs on the farm?",
        "Suspend his training runs so the benchmark gets the GPUs?",
        "Stop their nightly imports until Monday?",
        "Pause her scheduled report exports?",
    ],
)
def test_what_is_cancelled_of_another_persons_is_careful(question: str) -> None:
    """Another person's running work, cancelled or stopped, is theirs to lose: whose it is
    ("her", "his", "their") makes the act careful, whatever the thing is."""
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Cancel my pending render jobs on the farm?",
        "Suspend my training run so the benchmark gets the GPUs?",
        "Pause the flaky nightly import in my sandbox?",
    ],
)
def test_what_is_cancelled_of_the_askers_own_is_not_careful(question: str) -> None:
    """No careful verdict: the question is not final (the human or a model may place it)."""
    verdict = judge(question)
    assert not verdict.final, verdict
