"""An act on "it" is the act on what "it" stands for: a step after reading a production thing
that then changes it by a pronoun ("read the production config and edit it") changes
production, as "edit the production config" does. The pronoun stands for the nearest noun
phrase before it, so a step that only reads or summarises it, a pronoun that is another
thing's, or a step on a thing that is not production stays routine.

Each case is of another setting: a web tier, a hospital's records, a CI fleet, a warehouse,
a game studio's servers, a payments gateway.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_verdict
from tests.unit.gate_kit import goes_on, irreversible


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Can I read the production config and edit it?", "edits it (the production config)"),
        (
            "Can I look at the production config and then change it?",
            "changes it (the production config)",
        ),
        (
            "Can I check the prod nginx config and restart it?",
            "restarts it (the prod nginx config)",
        ),
        (
            "Can I inspect the production patient-records service and update it?",
            "updates it (the production patient-records service)",
        ),
        (
            "Can I review the prod runner pool settings, check them and then update them?",
            "updates them (the prod runner pool settings)",
        ),
        (
            "Should I look at the warehouse scanner config in production and tweak it?",
            "tweaks it",
        ),
        (
            "Can I check the prod game-server config and bump it to the new version?",
            "bumps it to the new version (the prod game-server config)",
        ),
    ],
)
def test_a_change_by_a_pronoun_to_a_production_thing_is_careful(question: str, said: str) -> None:
    assert said in irreversible(question)
    assert "changes production" in irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Can I inspect the production patient-records service and reconfigure it?",
        "Can I look at the prod payments gateway, then reseat it?",
    ],
)
def test_a_step_the_gate_does_not_know_on_a_production_thing_fails_closed(question: str) -> None:
    assert "changes production" in irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Can I read the production config and summarise it?",
        "Can I check the prod nginx config and grep it for the upstream block?",
        "Can I inspect the production patient-records service and explain it?",
        "Can I open the log and grep it?",
        "Can I download the report and summarise it?",
        "Can I clone the repo and run its tests?",
    ],
)
def test_reading_or_summarising_it_stays_routine(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Can I read the local config and edit it?",
        "Can I look at the staging game-server config and then restart it?",
        "Can I check my laptop's nginx config and restart it?",
    ],
)
def test_the_same_step_on_a_thing_that_is_not_production_stays_routine(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        # the nearest noun phrase is the local test, not the production config
        "Can I read the production config, write a local test and run it?",
        # a note made from it changes nothing
        "Can I read the production gateway config and write a note on it?",
        # the question word's auxiliary, no step ("which port does it listen on?")
        "I need to query the production historian. Which port does it listen on?",
        # a new sentence, no step joined to the read: "it" is what is needed
        "What port is the lab listener on in prod? need it for the client config",
    ],
)
def test_a_pronoun_that_is_not_the_production_things_changes_nothing(question: str) -> None:
    found = careful_verdict(question)
    assert found is None or "changes production" not in found.reason, found


# The same step on a live setting: read first, then changed by a pronoun, as "adjust the live
# payments gateway settings" changes it (a payments team's gateway, a game studio's flags).
@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Can I look at the live payments gateway settings and adjust them?",
            "adjusts them (the live payments gateway settings)",
        ),
        (
            "Can I check the live checkout settings and then change them?",
            "changes them (the live checkout settings)",
        ),
        ("Can I open the live feature flags and flip them?", "flips them (the live feature flags)"),
        (
            "Can I review our live matchmaking flags and then toggle them?",
            "toggles them (our live matchmaking flags)",
        ),
    ],
)
def test_a_change_by_a_pronoun_to_a_live_setting_is_careful(question: str, said: str) -> None:
    assert said in irreversible(question)
    assert "changes a live setting for everyone" in irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Can I look at the live dashboard and screenshot it?",
        "Can I read the live flags and list them?",
        "Can I read the live feature flags and summarise them?",
        "Can I look at the live payments gateway settings and explain them?",
        # no setting in the thing read: a live stream is watched, not set
        "Can I open the live match stream and watch it?",
    ],
)
def test_reading_a_live_setting_by_a_pronoun_stays_routine(question: str) -> None:
    goes_on(question)
