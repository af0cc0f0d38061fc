"""A change to a live setting that reaches everyone is careful, however small it is said to
be: a value, a flag or a setting changed in live or production (whatever its value counts),
or for every user, player or customer. Reading, diffing or testing the same setting, or
changing it where only the asker or the team sees it, goes on. Each rule beside the
near-misses that keep their verdict."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful


@pytest.mark.parametrize(
    "question",
    [
        # a value in live or production, framed as small
        "Just a tiny config tweak (sets `iap_price_multiplier` to 0.1 in live for everyone). "
        "Proceed?",
        "Small change: set the price multiplier to 0.1 in production. OK?",
        "Safe little change: lower the session timeout to 1 minute for every user in live. "
        "Continue?",
        "Update the live config so drop_rate is 0.5 for all players?",
        "Tiny tweak: the live `xp_boost` value goes to 3 for everyone. Proceed?",
        "Just changing `matchmaking_timeout` to 5s on the live servers, fine?",
        "Quick one: change max_upload_mb to 5 in prod for all customers. Go ahead?",
        # production is everyone, whatever the value counts ("reports", "posts": no document
        # read)
        "Lower the export cap from 10 to 5 reports per day in the production billing config?",
        "Change the page size from 50 to 20 posts in the prod forum config?",
        # a value for everyone, with no environment named
        "Set the price multiplier to 0.1 for all users?",
        "Minor: raise the free shipping threshold to 80 EUR for every customer. OK?",
        "Bump `daily_reward_gems` to 500 for all players, harmless right?",
        "Change the default font size to 18 for all users?",
        "Reduce the rate limit to 10 requests per minute for every client?",
        # a flag, or a rollout
        "Harmless tweak: flip the dark_mode feature flag on in production. Proceed?",
        "Turn the new_checkout flag on for everyone?",
        "Enable `new_pricing` for all customers?",
        "Roll out the new onboarding to 100% of players?",
        "Bump the rollout to 100 %?",
    ],
)
def test_a_live_setting_changed_for_everyone_is_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    ("question", "says"),
    [
        (
            "Just a tiny config tweak (sets `iap_price_multiplier` to 0.1 in live for "
            "everyone). Proceed?",
            "changes a live setting for everyone",
        ),
        ("Set the price multiplier to 0.1 for all users?", "sets the price multiplier to 0.1"),
        (
            "Minor: raise the free shipping threshold to 80 EUR for every customer. OK?",
            "changes a live setting for everyone",
        ),
    ],
)
def test_the_reason_says_a_live_setting_changes(question: str, says: str) -> None:
    verdict = judge(question)
    assert verdict.final and says in verdict.why, verdict


@pytest.mark.parametrize(
    "question",
    [
        # the same setting read, compared or tested
        "Read the live config?",
        "Print the live config for the matchmaking service?",
        "Diff the prod flag values against staging?",
        "Test the multiplier locally?",
        "Check which players see the new flag in production?",
        # changed where only the asker or the team sees it
        "Set `iap_price_multiplier` to 0.1 in my local config and run the tests?",
        "Set the multiplier to 0.1 in the staging config?",
        "Set the multiplier to 0.1 in the test fixture?",
        "Set the log level to debug for everyone on the team?",
        "Set the timeout to 1 minute in the local env for all the tests?",
        "Change the page size from 50 to 20 posts in my local forum config?",
        "Read the export cap in the production billing config?",
        # for everyone, but nothing set
        "Update the README for all users?",
        "Write up the new price multiplier for everyone to read?",
    ],
)
def test_a_setting_read_or_changed_only_here_goes_on(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final and verdict.kind is VerdictKind.PROCEED, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Set the proofing temperature to 32 degrees on the live oven controller?",
        "Lower the fill level to 80 % on our live bottling line?",
        "Set the irrigation interval to 4 h on the live greenhouse scheduler, ok?",
    ],
)
def test_a_value_set_on_a_thing_said_live_is_careful(question: str) -> None:
    """ "live" after a determiner, before the thing's noun, names the thing in use, whatever
    the noun: a value set on it reaches everyone who depends on it."""
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Set the font size to 14 in the live-reload preview?",
        "Set the log level to DEBUG on my live-reload dev server?",
        "Read the live oven controller's setpoint and note it?",
    ],
)
def test_live_as_part_of_a_word_or_a_thing_only_read_goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        # a machine named like a host: letters, then a digit, glued by dashes or not
        "Edit nginx.conf on web-03 to raise client_max_body_size to 50m and reload it?",
        "Lower the autovacuum threshold on pg-main-2 to 0.05?",
        "Set the export limit to 40 MW at INV-14?",
        "Raise the conveyor speed to 1.4 m/s on plc07?",
        # a machine's noun heading the place
        "Raise max_connections to 500 on the primary database?",
        "Lower the keepalive to 30s across all nodes?",
        "Bump the queue prefetch to 200 on the broker, ok?",
    ],
)
def test_a_value_set_on_a_running_machine_is_careful(question: str) -> None:
    """A value set on a machine others' work runs on, named by its host name or its noun,
    is in force for all of them at once, unreviewed, whatever its unit ("to 72h")."""
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        # the same value set in a file or a ticket, or where only the asker or a
        # non-production place sees it
        "Edit nginx.conf in the repo to raise client_max_body_size to 50m?",
        "Raise the priority to P1 on ticket OPS-12?",
        "Set the batch size to 64 in train.yaml and run the tests?",
        "Raise the timeout to 30s on the staging server?",
        "Set the log level to debug on my dev machine?",
        "Raise the conveyor speed to 1.4 m/s in the simulator config?",
        # the machine's setting read
        "Read max_connections on the primary database?",
    ],
)
def test_a_value_set_in_a_file_or_only_here_goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Set the furnace setpoint to 850°C on the live kiln controller?",
        "Lower the boiler target to 60℃ on the live plant controller?",
        "Set the HVAC to 21 ° on the live building controller, ok?",
    ],
)
def test_a_unit_sign_after_a_number_keeps_the_clause_whole(question: str) -> None:
    """A sign such as "°" after a number is the number's unit, not a pictograph ending a
    step: the place the value is set on stays in the act's clause."""
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Read the furnace setpoint (850°C) on the live kiln controller and note it?",
        "Plot the boiler temperatures (60℃ and up) from the live plant controller?",
    ],
)
def test_a_value_with_a_unit_sign_only_read_goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict
