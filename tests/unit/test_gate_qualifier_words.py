"""A word of a qualifier table that qualifies no thing in the question is not read as one.

The about-reading (``entity_unsaid``) reads the question's exclusive qualifiers with
``asked_qualifiers``: "live" as the verb of a do-question ("where do the rules *live*?") is
a place, not production. Before, a row that says no environment was read as another
thing's. Near miss: "live" as an adjective after a copula ("which build is *live* on the
store?") is still production, and a staging row does not answer it. Domains apart from the
dev sets (a museum, a seed bank, an orchestra).
"""

from __future__ import annotations

import pytest

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import Chooser, Refusal, cite
from crewline.policy.fleet.asking import value_ask
from crewline.policy.fleet.rows import EXCLUSIVE, asked_qualifiers
from crewline.policy.wording import code_form
from tests.unit.gate_kit import by_model, facts


def _ask(question: str):  # type: ignore[no-untyped-def]
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None
    return ask


def _refused(question: str, row: str, value: str) -> Refusal | None:
    rows = facts(("probe", row))
    return cite(_ask(question), rows, rows[0].row_id, value, by=Chooser.MODEL).refused


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "In which file do the museum lighting scenes live?",
            "The museum lighting scenes are in config/lighting/scenes.toml, 48 scenes.",
            "config/lighting/scenes.toml",
        ),
        (
            "What host does the seed bank catalogue live on?",
            "Seed bank catalogue: seeds-cat-02.internal, backed up nightly.",
            "seeds-cat-02.internal",
        ),
    ],
)
def test_live_as_the_verb_of_a_do_question_is_no_environment(
    question: str, row: str, value: str
) -> None:
    assert asked_qualifiers(_ask(question))[0] == set()
    assert by_model(question, facts(("probe", row)), value) == value


def test_live_as_an_adjective_is_still_production() -> None:
    ask = _ask("Which orchestra app build is live on the store?")
    assert asked_qualifiers(ask)[0] == {EXCLUSIVE[0]["live"]}
    # a staging build is not the live one
    refused = _refused(
        "Which orchestra app build is live on the store?",
        "orchestra app build 311 is on staging for the players to try",
        "311",
    )
    assert refused is not None
