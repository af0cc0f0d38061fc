"""Careful acts in the physical world, by their category: an operation a vehicle or a machine
is made to do (a burn, a manoeuvre, a deorbit, passivation, a thruster or an engine fired), an
asset retired, and a thing committed to an operation. None of it is undone once under way.
And their near misses: the operation asked about, simulated or planned in a question a
question word opens; code or words retired; a change committed to a branch.

The cases are of other domains than the set that showed them (an Earth-observation fleet):
a drone fleet, a ship, a mining site, a rocket test stand, a data centre, a delivery fleet.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_verdict
from tests.unit.gate_kit import irreversible


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Execute the docking manoeuvre for the supply tug now?", "it executes the docking"),
        ("Start the orbit-raise burn on the tug?", "it starts the orbit-raise burn"),
        ("Fire the thrusters on the survey drone?", "it fires the thrusters"),
        ("Ignite the booster on the test stand?", "it ignites the booster"),
        ("Begin passivation of the old upper stage?", "it begins passivation"),
        ("Deorbit the spent relay satellite tonight?", "it deorbits the spent relay"),
        ("Jettison the ballast from the research balloon?", "it jettisons the ballast"),
        ("Retire the old storage array in rack 4?", "it retires the old storage array"),
        ("Retire the two oldest delivery vans?", "it retires the two oldest delivery vans"),
        ("Commit the fleet to the new route?", "it commits the fleet to the new route"),
        ("Commit the rig to the deep-water drill plan?", "it commits the rig to the"),
    ],
)
def test_an_operation_in_the_physical_world_is_irreversible(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        # asked about, in a question a question word opens
        "When is the docking manoeuvre scheduled for?",
        "Above which wind speed do we plan an abort manoeuvre?",
        "How much fuel does the orbit-raise burn need?",
        # simulated, or only read
        "Can I simulate the deorbit burn in the sandbox to estimate propellant?",
        "Ready to start the dry-run simulation of the docking burn in the sim, OK?",
        # a verb that is no operation: a budget burned, an email fired off to the asker
        "How many core-hours did the render job burn last week?",
        # code or words retired
        "Retire the flaky login test?",
        "Retire the old wording in the README?",
        # a change committed to version control, or a commitment to nothing named
        "Commit my fix to the feature branch?",
        "Commit the notes to the repo?",
        "Should I commit the lockfile to git?",
    ],
)
def test_an_operation_asked_about_simulated_or_in_code_is_not(question: str) -> None:
    assert careful_verdict(question) is None, question
