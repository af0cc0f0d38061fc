"""The gate's fourth round of rules by category, each on sentences of its own (not the eval
sets'), with the careful near-misses of the same shape that must stay with the human."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from crewline.policy import Fact, VerdictKind, judge

AT = datetime(2026, 12, 1, 9, 12, tzinfo=UTC)


def _facts(*said: tuple[str, str]) -> list[Fact]:
    return [
        Fact(row_id=f"row-{n}", member=m, text=t, at=AT + timedelta(minutes=n))
        for n, (m, t) in enumerate(said)
    ]


def _answers(question: str, rows: list[Fact], value: str) -> None:
    verdict = judge(question, facts=rows)
    assert (verdict.kind, verdict.answer) == (VerdictKind.FLEET_FACT, value), verdict


def _no_answer(question: str, rows: list[Fact]) -> None:
    verdict = judge(question, facts=rows)
    assert verdict.answer is None and not verdict.kind.routine, verdict


# ---------------------------------------------------------------- who, and which team

PEOPLE = _facts(
    ("triager", "Passed the billing timeout bug to Marek Szabo; his squad core-payments owns it."),
    ("owners-bot", "CODEOWNERS maps the infra folder to team-platform, approver is Ngozi Adebayo."),
    ("blame-bot", "git blame pins the cache eviction code on Ines Okonkwo, commit 9f1e2d3."),
    ("monitor", "Billing alerts run on Google Cloud Monitoring now."),
    ("reviews", "The search patch was reviewed by Ana Souza and by Li Wei."),
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Who got the billing timeout bug?", "Marek Szabo"),
        ("who was the billing timeout bug passed to?", "Marek Szabo"),
        ("Which squad owns the billing timeout bug?", "core-payments"),
        ("Which team is the infra folder mapped to in CODEOWNERS?", "team-platform"),
        ("Who's the approver for the infra folder?", "Ngozi Adebayo"),
        ("who wrote the cache eviction code, per blame?", "Ines Okonkwo"),
    ],
)
def test_who_asks_a_persons_name_and_which_team_a_teams(question: str, value: str) -> None:
    _answers(question, PEOPLE, value)


@pytest.mark.parametrize(
    "question",
    [
        "Who owns the search indexer?",  # no row about it
        "Who runs the billing alerts?",  # "Google Cloud Monitoring" is no person
        "Who reviewed the search patch?",  # two people: which is asked?
        "Who should take the billing timeout bug?",  # a decision, not a fact
        "Who can approve changes to the infra folder?",
    ],
)
def test_who_stays_with_the_human_without_one_persons_name(question: str) -> None:
    _no_answer(question, PEOPLE)


def test_two_rows_naming_different_people_disagree() -> None:
    rows = _facts(
        ("triager", "Passed the login loop bug to Marek Szabo."),
        ("lead-bot", "Correction from the board: the login loop bug went to Sanna Lindqvist."),
    )
    _no_answer("Who has the login loop bug?", rows)
