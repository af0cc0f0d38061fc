"""A word of what is not settled yet inside a path or a dotted name ("/plan", "plan.md",
"Next.js") is the name's: ``\\b`` stands at a slash or a dot (docs/concierge-rounds.md,
"what says a word of the question")."""

from __future__ import annotations

import pytest

from crewline.policy.fleet.rows import _without_named_plans, unsettled

# ------------------------------------------------- a path or a dotted name is a name


@pytest.mark.parametrize(
    "text",
    [
        "p95 of /plan on staging: 412 ms",
        "the site builds on next.js 14.2",
        "see plan.md",
        "the binary in target/release is 12 MB",
    ],
)
def test_a_plan_word_inside_a_path_or_a_dotted_name_plans_nothing(text: str) -> None:
    assert not unsettled(text)


def test_a_plan_word_of_its_own_still_plans() -> None:
    assert unsettled("next concert planned for 12 May")
    assert "next" in _without_named_plans("the next tour")
