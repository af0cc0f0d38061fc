"""Careful acts by their category, not their words: a tool whose hyphenated name ends in the
act it does, a step whose stated purpose is freeing storage (what fills it deleted), a list or
rule set changed on the running system that holds it, an act carried out on one identified
person's line or account. Each rule with the harmless twins that must still be answered.

Every case is of another domain than the set that showed it (a mobile operator's network
operations): a CDN, a photo archive, a CI fleet, a research cluster, a game studio, a
warehouse, a VPN, a hospital, a gym's members, a bank.
"""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from crewline.policy.careful import careful as careful_verdict
from tests.unit.gate_kit import careful


def goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


# ---------------------------------------------------------------- a tool named for its act


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Run `cache-purge` on the CDN edge now?", "it runs `cache-purge`"),
        ("Kick off `tenant-delete` for the expired trial tonight?", "it runs `tenant-delete`"),
        ("Trigger `photo-purge` manually to catch up?", "it runs `photo-purge`"),
        ("Execute `ledger-drop` against the archive schema?", "it runs `ledger-drop`"),
    ],
)
def test_a_tool_whose_hyphenated_name_ends_in_an_act_does_it(question: str, said: str) -> None:
    found = careful_verdict(question)
    assert found is not None and found.kind == "irreversible", found
    assert found.reason.startswith(f"irreversible: {said}"), found.reason
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Run the tests of `cache-purge`?",  # what is run is its tests
        "Run the `photo-purge` unit tests?",
        "Add a unit test for `tenant-delete`?",  # made, not run
        "Lint `ledger-drop` and fix the warnings?",  # read
        "Read the `cache-purge` logs from last night?",
        "Run `cache-purge --dry-run` to see what it would remove?",  # nothing done
        "Run the `pre-deploy` checks on the game build?",  # a prefix: a time, not the act
        "Run `rsync --archive src/ dst/` to copy the photos?",  # a flag is no tool's name
    ],
)
def test_the_tool_only_named_tested_or_dry_run_goes_on(question: str) -> None:
    assert careful_verdict(question) is None
    goes_on(question)
