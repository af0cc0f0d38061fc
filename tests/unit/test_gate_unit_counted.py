"""A model's duration answers a request that counts its very unit of time.

"For how many seconds …?", "how many days of … does it keep?" ask a number of a unit; a
model citing "1800 s" or "30 days" gives that number in that unit, and the check takes it
(``_counted_in_its_unit``, ``Chooser.MODEL`` only: the offline reader keeps its own
reading). A duration in another unit ("2 h" for "how many minutes") or of several units
("1h 20m") is converted by nobody and stays `other-kind`. Domains apart from the dev sets
(a museum, a seed bank, a ferry line).
"""

from __future__ import annotations

import pytest

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import Chooser, Refusal, cite
from crewline.policy.fleet.asking import value_ask
from crewline.policy.wording import code_form
from tests.unit.gate_kit import by_model, facts, model_refusal


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "For how many seconds is a museum audio guide session valid?",
            "Museum audio guide sessions stay valid for 1800 s after the first scan.",
            "1800 s",
        ),
        (
            "How many days of germination logs does the seed bank keep?",
            "seed bank keeps 30 days of germination logs, older ones are archived",
            "30 days",
        ),
    ],
)
def test_a_duration_in_the_counted_unit_answers(question: str, row: str, value: str) -> None:
    assert by_model(question, facts(("probe", row)), value) == value


@pytest.mark.parametrize(
    ("row", "value"),
    [
        ("The ferry crossing to Inchmore takes 2 h in winter.", "2 h"),
        ("The ferry crossing to Inchmore takes 1h 20m in winter.", "1h 20m"),
    ],
)
def test_a_duration_in_another_unit_is_not_counted(row: str, value: str) -> None:
    question = "How many minutes does the ferry crossing to Inchmore take in winter?"
    assert model_refusal(question, row, value) is Refusal.OTHER_KIND


def test_another_row_near_the_thing_counting_otherwise_disputes() -> None:
    question = "How many days do we keep rows in the seed bank ledger table?"
    rows = facts(
        ("ledger-etl", "Retention for the seed bank ledger table is 400 days."),
        ("governance", "Seed bank ledger retention is 730 days, the trust asked for two years."),
    )
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None
    cited = cite(ask, rows, rows[0].row_id, "400 days", by=Chooser.MODEL)
    assert cited.refused is Refusal.RIVAL
