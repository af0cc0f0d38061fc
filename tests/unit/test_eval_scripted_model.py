"""The eval's scripted correct model answers a fleet value as the row writes it whole."""

from __future__ import annotations

import pytest

from crewline.ops.evals_llm import _right_place
from crewline.policy.eval_file import EvalQuestion, Expect


def _fleet(ask: str, wanted: str) -> EvalQuestion:
    return EvalQuestion(ask=ask, expect=Expect.ANSWER, answer_contains=wanted, category="fleet")


@pytest.mark.parametrize(
    ("said", "wanted", "whole"),
    [
        (  # the file's name, expected, of the path the row gives
            "9 not answering; list in /srv/telemetry/reports/nonresp-2026-12-05.csv",
            "nonresp-2026-12-05.csv",
            "/srv/telemetry/reports/nonresp-2026-12-05.csv",
        ),
        (
            "HES API base is https://hes.example.internal/api/v3, use it",
            "hes.example.internal",
            "https://hes.example.internal/api/v3",
        ),
        ("Took 17 min end to end.", "17 min", "17 min"),  # already whole: as it is
        ("given to contractor Aquaflow Ltd, slot Tue", "Aquaflow", "Aquaflow Ltd"),  # a name whole
    ],
)
def test_the_right_model_gives_the_rows_whole_value(said: str, wanted: str, whole: str) -> None:
    rows = [{"id": "r1", "member": "ops", "said": "nothing here"}, {"id": "r2", "said": said}]
    placed = _right_place(_fleet("Which one?", wanted), {"rows": rows})
    assert placed == {"kind": "fleet", "answer": whole, "row": "r2"}


def test_a_value_no_row_holds_is_answered_as_expected_citing_none() -> None:
    placed = _right_place(_fleet("Which port?", "4321"), {"rows": [{"id": "r1", "said": "x"}]})
    assert placed == {"kind": "fleet", "answer": "4321", "row": None}
