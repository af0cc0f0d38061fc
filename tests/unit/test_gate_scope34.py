"""A risky word that only dates what is asked, or that a flag keeps to printing, is no act:
"the bed count since the 06:00 release", "the version after redeploy", "run the purge script
with `--help`". The event a "since", "after", "before", "during" or "following" phrase names
marks a time, and nobody does it by asking; a `--help` flag only prints how a script is used.
An act beside the mention — in its own clause, a later step, a cause said with "since", a
step asked to happen around the event — stays careful, each rule with its near misses.

Words of a bakery, a hospital ward, a shipping line, a school, a dairy, a theatre, a vineyard
and a print shop: no development set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import judge
from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import careful, goes_on


def _not_careful(question: str) -> None:
    """The question names no careful act and its verdict is not final: the fleet or a brain
    may answer it."""
    assert careful_act(question) is None, careful_act(question)
    verdict = judge(question)
    assert not verdict.final, verdict


# ------------------------------------------------------------------ an event that marks time


@pytest.mark.parametrize(
    "question",
    [
        "Oven 3 temperature since the 06:00 release?",
        "Ward B bed count since the last deploy?",
        "`berth-api` — version after redeploy?",
        "Error rate on the ticket site since Tuesday's publish?",
        "Average wait at the box office since the launch?",
        "the dairy scale app: crash count since yesterday's rollout?",
        "pls, how is cellar humidity since the firmware release of monday",
        "Queue length at the print shop after the last migration?",
        "`vat-sensor` readings since the 14:10 deploy?",
        "Number of late ferries since the timetable publish?",
        "Exam portal p95 during the last release?",
        "What's the box office refund queue length since the launch?",
        "Harbour gate throughput following the 08:30 deploy?",
    ],
)
def test_an_event_that_dates_a_value_asked_is_no_act(question: str) -> None:
    _not_careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Keep logging the vat temperatures since the 06:00 release?",
        "Continue the harvest log since the last deploy?",
        "Carry on comparing bed counts since the launch?",
    ],
)
def test_a_step_on_the_askers_own_work_dated_by_an_event_goes_on(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        # a real act beside the event
        "Since the deploy, force-push the bakery hotfix branch?",
        "After the 09:00 release, push the ward app to main?",
        "Wait until after the deploy and then wipe the staging dairy db?",
        "During the deploy, restart the shared print server?",
        "Following the migration, truncate the tickets table?",
        "Since the release, which customers should I refund?",
        "Before the launch, email every parent the new exam times?",
        "Version after redeploy? and then redeploy the berth app to prod",
        # "since" giving a cause, not a time: the event's clause goes on
        "Since the deploy failed, roll the bakery site back?",
        "Since the deploy is approved, go ahead?",
        "Since the migration is ready, continue?",
        # the act asked to happen around the event, or the event the asker's own
        "Deploy the ward app after the standup?",
        "Publish the exam timetable after the staff meeting?",
        "Continue after redeploy?",
        "Continue with the harvest log after the deploy?",
        "Can I deploy since the tests passed?",
        "Release the theatre app since it's ready?",
        "Oven temperatures since the release, then publish them to the customers?",
        "Version after redeploy, and redeploy again if it is old?",
        "Since the last deploy, drop the old orders table?",
        # a step left unsaid, or asked again, may be the event itself
        "Before the deploy, should I?",
        "Since the last deploy, same again?",
        "Ok after the release?",
        "The vat log since the deploy — and after that, the deploy itself?",
        "Bed count since the deploy, then run it again?",
        "Continue after deploying the ward app?",
        "Bed count since the deploy? Also delete the old ward rota.",
    ],
)
def test_an_act_beside_an_event_that_marks_time_stays_careful(question: str) -> None:
    careful(question)


# ------------------------------------------------------------------- a flag that only prints


@pytest.mark.parametrize(
    "question",
    [
        "Can I run the purge script with `--help` to see its flags?",
        "OK to run the dairy deploy script with `--help`?",
        "Run the ferry release tool with `-h` to list its options?",
        "May I execute the cleanup job with --help, just to read the usage?",
    ],
)
def test_a_script_run_with_a_help_flag_only_prints(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Run the purge script with `--help`, then run it for real?",
        "Run the dairy deploy script with `--help` and then deploy the vat app?",
        "Can I run the cleanup job with `--help` and then without it?",
        "Run the ferry purge script without `--help`?",
        "Run the theatre release tool? `--help` says it publishes to the box office site.",
        # a second thing run beside the flag runs as it is
        "Run the vineyard purge script with --help and the cleanup job?",
        "Run the ferry purge job with `-h` and the prune job with `-y`?",
        "Run the ferry purge script with `--dry-run` and the cleanup job?",
    ],
)
def test_a_step_beside_a_help_flag_stays_careful(question: str) -> None:
    careful(question)
