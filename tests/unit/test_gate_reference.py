"""A later step whose pronoun refers back to a risky thing named before it does that thing:
"summarize how the purge works and then run it?" runs the purge, however harmless the first
step that named it. A pronoun that stands for a test or another thing that is run ("run the
tests for the delete-account endpoint, then rerun them") is theirs, and the question stays
routine; a summary or a note is never run, so "run it" after one runs what it is about. A
later act of the thing's own kind ("draft the announcement for customers and then send it")
is that act whatever the thing is, unless it goes back to the asker ("send it to me")."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful


def _irreversible_naming(question: str, named: str) -> None:
    """Careful, irreversible, and its reason names the act in ``named``'s words."""
    careful(question)
    verdict = judge(question)
    assert verdict.kind is VerdictKind.IRREVERSIBLE, verdict
    assert named in verdict.why, verdict.why


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("summarize how the purge works and then run it?", "runs the purge"),
        ("Read how the purge works. Then run it?", "runs the purge"),
        ("Summarize what the cleanup job does, then run it?", "runs the cleanup job"),
        ("Explain the migration and then apply it?", "applies the migration"),
        ("Read the teardown script and then execute it?", "executes the teardown script"),
        ("Look at the purge job, then kick it off?", "kicks off the purge job"),
        ("Lint the deploy script and then run it?", "runs the deploy script"),
        ("Want a summary of the purge and then run it?", "runs the purge"),
        ("Explain the purge job to me, then start it?", "starts the purge job, which"),
        ("Write a note on the cleanup job, then run it?", "runs the cleanup job"),
        ("Read the deploy docs and then run them?", "runs the deploy docs"),
        (
            "Draft the announcement for customers and then send it?",
            "sends the announcement for customers",
        ),
        ("Prepare the payment to the vendor and approve it?", "approves the payment to the vendor"),
        ("Prepare the refund for order 1234 and issue it?", "issues the refund"),
        ("Write the tweet about the launch and post it?", "posts the tweet"),
        (
            "Explain what the cleanup would delete and then go ahead with it?",
            "goes ahead with the cleanup",
        ),
    ],
)
def test_a_pronoun_that_refers_back_to_a_risky_thing_is_that_act(question: str, named: str) -> None:
    """The later step is the act, and the reason names it with the step's verb."""
    _irreversible_naming(question, named)


@pytest.mark.parametrize(
    "question",
    [
        "Run the tests for the delete-account endpoint and rerun them if they fail?",
        "Write a test for the refund endpoint and run it?",
        "Read the password-reset docs and then summarize them?",
        "Lint the deploy script and fix it?",
        "Summarize how the purge works, but don't run it?",
        "Draft the announcement, but don't send it?",
    ],
)
def test_a_pronoun_for_a_doc_or_a_test_or_no_step_on_it_stays_routine(question: str) -> None:
    """The pronoun stands for the doc or the test, or nothing is run: the question goes on."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


def test_a_thing_sent_back_to_the_asker_is_nobody_told() -> None:
    """ "send it to me for review": the asker is given the draft, no audience is told."""
    verdict = judge("Write the newsletter, then send it to me for review?")
    assert not verdict.final and verdict.answer is None, verdict


def test_a_later_act_on_people_of_no_audience_tells_nobody() -> None:
    """ "ping them", them being the on-call: the act's own need (an audience) is read on the
    thing the pronoun stands for, and the on-call is nobody outside."""
    verdict = judge(
        "Who is the radiology systems on-call this week? I want to ping them about the crash."
    )
    assert not verdict.final, verdict


@pytest.mark.parametrize(
    ("question", "named"),
    [
        (
            "Explain how the nightly job drops the old partitions and then run it?",
            "runs the nightly job, which drops the old partitions",
        ),
        (
            "Can you describe how the pharmacy script deletes expired prescriptions, then "
            "execute it?",
            "executes the pharmacy script, which deletes expired prescriptions",
        ),
        (
            "Describe how the carrier sync emails every shipper, then trigger it?",
            "triggers the carrier sync, which emails every shipper",
        ),
        (
            "Read how the archiver purges closed tickets, then schedule it?",
            "schedules the archiver, which purges closed tickets",
        ),
        (
            "Explain how the billing job refunds the duplicate charges, then run it?",
            "runs the billing job, which refunds the duplicate charges",
        ),
    ],
)
def test_a_step_on_a_thing_described_by_its_act_does_that_act(question: str, named: str) -> None:
    """ "how the job drops the partitions … run it": the act is only described, but "it" is
    the job, and running the job drops them; the reason says both."""
    _irreversible_naming(question, named)


@pytest.mark.parametrize(
    "question",
    [
        "Explain how the nightly job drops the old partitions, then summarise it?",
        "Describe how the pharmacy script deletes expired prescriptions and then test it?",
        "Summarise how the billing job refunds duplicate charges, then lint it?",
        "Explain how the season reset wipes inventories and document it?",
        "Explain how the season reset wipes inventories and then review it?",
        "Summarise how the archiver purges closed tickets, then write tests for it?",
        "Explain how the carrier sync emails shippers, but don't run it?",
    ],
)
def test_reading_or_testing_a_thing_described_by_its_act_does_nothing(question: str) -> None:
    """Summarising, testing, linting, documenting or reviewing the thing is not doing its
    act, and a negated step is none: the question stays routine."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


def test_the_askers_own_act_is_no_things_act() -> None:
    """ "which files should I delete to get it under 50%?": the asker deletes; "get it" is
    no step on a thing that deletes, and the reason is not said of one."""
    verdict = judge("Which files should I delete to get it under 50%? Start with the oldest?")
    assert verdict.final, verdict
    assert "which deletes" not in verdict.why, verdict.why


@pytest.mark.parametrize(
    "question",
    [
        "Explain how the ingest job used to drop partitions; now it only archives them. Run it?",
        "Explain how the archive job would drop the partitions, then run it?",
        "Explain how the reaper kills idle pods, then run the tests on it?",
    ],
)
def test_an_act_the_thing_no_longer_or_only_would_do_is_not_inherited(question: str) -> None:
    """A past habit, a hypothetical, or a pronoun that is another step's object: the thing's
    described act is not what the step does, and the question stays routine."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict
