"""The offline fleet reader on a request for a host answered by a machine's name the row
does not put beside the asked noun: a lower-case word ending in its number, placed as a
machine ("runs on render-07") or given with its port ("lib-db-02:5432"). In render farms,
a school's network and billing — never the eval sets' sentences — with the near misses: a
name of a job, not placed as a machine, and two machines nothing tells apart."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, by_model, facts, no_answer


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        # a render farm: the machine a job is placed on
        (
            "Which box does the nightly render job run on?",
            "The nightly render job runs on render-07, about 2h per night.",
            "render-07",
        ),
        # a school's network: a machine given with its port
        (
            "Which host is the library catalogue database on?",
            "Library catalogue database is lib-db-02:5432, read-only for staff.",
            "lib-db-02",
        ),
    ],
)
def test_a_machine_placed_as_one_answers_which_host(question: str, row: str, value: str) -> None:
    answers(question, facts(("scout", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # a name not placed as a machine: a job's
        (
            "Which host runs the nightly billing sync?",
            "Nightly billing sync job billing-sync-2 finished in 4 min.",
        ),
        # two machines, and nothing tells which
        (
            "Which host is the library catalogue database on?",
            "Library catalogue database runs on lib-db-01 and on lib-db-02 (one per campus).",
        ),
    ],
)
def test_a_name_not_placed_as_a_machine_or_one_of_two_answers_nothing(
    question: str, row: str
) -> None:
    no_answer(question, facts(("scout", row)))


def test_a_model_citing_another_things_machine_gets_nothing_through() -> None:
    rows = facts(
        ("render", "The nightly render job runs on render-07, about 2h per night."),
        ("backup", "The nightly backup job runs on backup-02 since the move."),
    )
    question = "Which box does the nightly render job run on?"
    answers(question, rows, "render-07")
    assert by_model(question, rows, "backup-02", row=1) is None
