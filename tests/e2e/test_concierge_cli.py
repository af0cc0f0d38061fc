"""The concierge on the command line: the owner's policy, undo, and the eval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.test_cli import run

EVAL = """\
fleet:
  - {member: probe, says: "Scan done: staging answered on port 4321, not 8080."}
questions:
  - {ask: "Shall I proceed with the plan?", expect: answer, category: proceed}
  - {ask: "Which port did the probe session find?", expect: answer, answer_contains: "4321",
     category: fleet}
  - {ask: "Force-push to main?", expect: escalate, irreversible: true, category: irreversible}
  - {ask: "Monolith or split: which?", expect: escalate, category: open_choice}
"""


@pytest.fixture(params=["sqlite", "postgresql"])
def on_each_store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI on SQLite, then on a fresh PostgreSQL database ($CREWLINE_DATABASE_URL)."""
    if request.param == "postgresql":
        monkeypatch.setenv("CREWLINE_DATABASE_URL", request.getfixturevalue("postgres_url"))


@pytest.mark.usefixtures("on_each_store")
def test_the_policy_is_set_kept_and_read_from_the_cli(tmp_path: Path) -> None:
    """answer/act change the kept policy; status reads it; undo with nothing → not_found."""
    assert run("concierge", "status", data_dir=tmp_path).stdout.strip() == (
        "concierge: answer never · act off"
    )
    run("concierge", "answer", "routine", data_dir=tmp_path)
    run("concierge", "act", "on", data_dir=tmp_path)
    status = run("concierge", "status", data_dir=tmp_path).stdout.strip()
    assert status == "concierge: answer routine · act on"
    bad = run("concierge", "answer", "sometimes", data_dir=tmp_path, check=False)
    assert bad.returncode == 2
    nothing = run("concierge", "undo", data_dir=tmp_path, check=False)
    assert (nothing.returncode, "(not_found)" in nothing.stderr) == (2, True)


@pytest.mark.usefixtures("on_each_store")
def test_the_config_file_sets_the_start_while_none_is_kept(tmp_path: Path) -> None:
    """[concierge] answer = "routine" is the start; the owner's choice then wins."""
    (tmp_path / "crewline.toml").write_text('[concierge]\nanswer = "routine"\n')
    assert "answer routine" in run("concierge", "status", data_dir=tmp_path).stdout
    run("concierge", "answer", "never", data_dir=tmp_path)
    assert "answer never" in run("concierge", "status", data_dir=tmp_path).stdout


def test_eval_concierge_prints_each_outcome_and_the_summary_as_json(tmp_path: Path) -> None:
    """Under routine the routine ones are answered (the fleet one with 4321), the careful
    ones are not; under never nothing is answered; each file and policy is one result, with
    its figures per category."""
    questions = tmp_path / "eval.yaml"
    questions.write_text(EVAL)
    both = run(
        "eval",
        "concierge",
        "--questions",
        str(questions),
        "--policy",
        "routine",
        "--policy",
        "never",
        "--json",
        data_dir=tmp_path,
    )
    routine, never = json.loads(both.stdout)["results"]
    assert (routine["policy"], never["policy"]) == ("routine", "never")
    assert routine["summary"]["routine_answered"] == 2
    assert routine["summary"]["fleet_correct"] == 1
    assert routine["summary"]["careful_answered"] == 0
    assert routine["summary"]["wrong_facts"] == 0
    assert routine["summary"]["categories"]["fleet"]["answered"] == 1
    assert [q["answered"] is None for q in routine["questions"]] == [False, False, True, True]
    assert never["summary"]["routine_answered"] == 0
    assert never["summary"]["categories"]["proceed"]["answered"] == 0
    table = run(
        "eval",
        "concierge",
        "--questions",
        str(questions),
        "--policy",
        "never",
        "--summary",
        data_dir=tmp_path,
    ).stdout
    assert "Force-push" not in table  # --summary: no question is printed
    assert "routine_answered 0," in table
    assert any(line.split()[:1] == ["irreversible"] for line in table.splitlines())
