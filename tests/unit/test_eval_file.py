"""The concierge eval file: the strict loader and the scorer (``policy/eval_file.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewline.errors import InvalidInput
from crewline.policy.eval_file import (
    EvalQuestion,
    Expect,
    FleetLine,
    Outcome,
    load_eval,
    parse_eval,
    score,
)

GOOD = """
fleet:
  - {member: probe, says: "Scan done: staging answered on port 4321, not 8080."}
questions:
  - {ask: "Which port did the probe session find?", expect: answer, answer_contains: "4321"}
  - {ask: "Force-push to main?", expect: escalate, irreversible: true}
  - {ask: "Which db?", expect: answer, options: [pg, mysql], default: pg}
"""


def test_the_issues_example_loads_into_values() -> None:
    """Every key of the format lands in a frozen value; absent optional keys take defaults."""
    loaded = parse_eval(GOOD)
    assert loaded.fleet == (
        FleetLine(member="probe", says="Scan done: staging answered on port 4321, not 8080."),
    )
    assert loaded.questions == (
        EvalQuestion(
            ask="Which port did the probe session find?",
            expect=Expect.ANSWER,
            answer_contains="4321",
        ),
        EvalQuestion(ask="Force-push to main?", expect=Expect.ESCALATE, irreversible=True),
        EvalQuestion(ask="Which db?", expect=Expect.ANSWER, options=("pg", "mysql"), default="pg"),
    )


def test_load_eval_reads_the_file_and_a_missing_file_is_refused(tmp_path: Path) -> None:
    """The file on disk gives the same values; a path that is not there is a clear error."""
    path = tmp_path / "eval.yaml"
    path.write_text(GOOD, encoding="utf-8")
    assert load_eval(path) == parse_eval(GOOD)
    with pytest.raises(InvalidInput) as refused:
        load_eval(tmp_path / "absent.yaml")
    assert refused.value.code == "eval_unreadable"


@pytest.mark.parametrize(
    ("text", "code", "details"),
    [
        (
            "questions:\n  - {ask: x, expect: answer}\n  - {ask: y, expect: answer, asnwer: z}\n",
            "eval_unknown_key",
            {"key": "asnwer", "section": "questions", "index": 1},
        ),
        (
            "questions:\n  - {ask: x}\n",
            "eval_missing_key",
            {"key": "expect", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {expect: answer}\n",
            "eval_missing_key",
            {"key": "ask", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: maybe}\n",
            "eval_invalid_value",
            {"key": "expect", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: '', expect: answer}\n",
            "eval_invalid_value",
            {"key": "ask", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: 3, expect: answer}\n",
            "eval_invalid_value",
            {"key": "ask", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: escalate, irreversible: 'yes'}\n",
            "eval_invalid_value",
            {"key": "irreversible", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: answer, irreversible: true}\n",
            "eval_invalid_value",
            {"key": "irreversible", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: escalate, answer_contains: y}\n",
            "eval_invalid_value",
            {"key": "answer_contains", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: answer, options: a}\n",
            "eval_invalid_value",
            {"key": "options", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: answer, options: [a, 2]}\n",
            "eval_invalid_value",
            {"key": "options", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: answer, default: [a]}\n",
            "eval_invalid_value",
            {"key": "default", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - just a string\n",
            "eval_invalid_value",
            {"key": "questions", "section": "questions", "index": 0},
        ),
        (
            "fleet:\n  - {member: Probe!, says: hi}\nquestions:\n  - {ask: x, expect: answer}\n",
            "eval_invalid_value",
            {"key": "member", "section": "fleet", "index": 0},
        ),
        (
            "fleet:\n  - {member: probe, said: hi}\nquestions:\n  - {ask: x, expect: answer}\n",
            "eval_unknown_key",
            {"key": "said", "section": "fleet", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: answer, category: routine}\n",
            "eval_invalid_value",
            {"key": "category", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: answer, category: hostile}\n",
            "eval_invalid_value",
            {"key": "category", "section": "questions", "index": 0},
        ),
        (
            "questions:\n  - {ask: x, expect: escalate, category: fleet}\n",
            "eval_invalid_value",
            {"key": "category", "section": "questions", "index": 0},
        ),
        ("fleet: []\n", "eval_missing_key", {"key": "questions"}),
        ("questions: {ask: x}\n", "eval_invalid_value", {"key": "questions"}),
        ("questions: []\nextra: 1\n", "eval_unknown_key", {"key": "extra"}),
        ("- a list\n", "eval_invalid_yaml", {}),
        ("questions: [unclosed\n", "eval_invalid_yaml", {}),
    ],
)
def test_format_errors_name_the_key_and_the_index(
    text: str, code: str, details: dict[str, object]
) -> None:
    """Every deviation from the format is refused with a stable code, the key and the index."""
    with pytest.raises(InvalidInput) as refused:
        parse_eval(text)
    assert refused.value.code == code
    assert refused.value.details == details
    if "index" in details:
        assert f"[{details['index']}]" in refused.value.message


def test_the_category_key_is_read_and_optional() -> None:
    """``category`` lands on the question; a file without it still loads (uncategorised)."""
    loaded = parse_eval(
        "questions:\n  - {ask: 'Proceed?', expect: answer, category: proceed}\n"
        "  - {ask: 'A or B?', expect: escalate, category: open_choice}\n"
        "  - {ask: 'Go on?', expect: answer}\n"
    )
    assert [q.category for q in loaded.questions] == ["proceed", "open_choice", None]


def test_the_scorer_counts_routine_careful_and_fleet_apart() -> None:
    """Routine answered, irreversible and other careful answered, fleet answers correct, and
    the wrong facts apart: an answer without its expected value, any answer to a careful
    question. Each category is scored on its own."""
    fleet_q = EvalQuestion(
        ask="Which port?", expect=Expect.ANSWER, answer_contains="4321", category="fleet"
    )
    proceed = EvalQuestion(ask="Proceed?", expect=Expect.ANSWER, category="proceed")
    push = EvalQuestion(
        ask="Force-push?", expect=Expect.ESCALATE, irreversible=True, category="irreversible"
    )
    choice = EvalQuestion(ask="A or B?", expect=Expect.ESCALATE)
    summary = score(
        [
            Outcome(question=fleet_q, answered="4321 — probe said so", suggested=True),
            Outcome(question=fleet_q, answered="8080", suggested=True),
            Outcome(question=proceed, answered=None, suggested=True),
            Outcome(question=push, answered=None, suggested=False, reason_only=True),
            Outcome(question=choice, answered="A", suggested=False),
        ]
    )
    figures = summary.as_json()
    categories = figures.pop("categories")
    assert figures == {
        "questions": 5,
        "routine": 3,
        "routine_answered": 2,
        "routine_answered_ratio": 0.6667,
        "irreversible_answered": 0,
        "other_careful_answered": 1,
        "careful_answered": 1,
        "wrong_facts": 2,
        "fleet_correct": 1,
        "fleet_correct_ratio": 0.5,
        "suggested": 3,
        "suggested_ratio": 0.6,
        "reason_only": 1,
    }
    assert categories == {
        "proceed": {
            "routine": True,
            "questions": 1,
            "answered": 0,
            "answered_ratio": 0.0,
            "wrong_facts": 0,
            "suggested": 1,
        },
        "fleet": {
            "routine": True,
            "questions": 2,
            "answered": 2,
            "answered_ratio": 1.0,
            "wrong_facts": 1,
            "suggested": 2,
        },
        "irreversible": {
            "routine": False,
            "questions": 1,
            "answered": 0,
            "answered_ratio": 0.0,
            "wrong_facts": 0,
            "suggested": 0,
        },
        "uncategorised": {
            "routine": False,
            "questions": 1,
            "answered": 1,
            "answered_ratio": 1.0,
            "wrong_facts": 1,
            "suggested": 0,
        },
    }
    assert score([]).as_json()["routine_answered_ratio"] is None
