"""A value whose own name says words of the question (the host "lims-test.qc.local:4040" of
the LIMS test instance, the path "/srv/mes/exports/…" of the mes session's export) is not
said of another thing for those words: only the row naming the asked thing apart from the
value, beside a word of the value's clause, makes it another's."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, facts, no_answer


@pytest.mark.parametrize(
    ("question", "member", "row", "value"),
    [
        (
            "Where did the mes session put the recipe export?",
            "mes",
            "recipe export done -> /srv/mes/exports/recipes/2024-10/, 312 files, all signed",
            "/srv/mes/exports/recipes/2024-10/",
        ),
        (
            "What's the host and port of the LIMS test instance?",
            "qclab",
            "LIMS is LabWare 8.1.4 now; the test instance is at lims-test.qc.local:4040",
            "lims-test.qc.local:4040",
        ),
        (
            "Where did the wms session write the pick report?",
            "wms",
            "pick report written -> /data/wms/reports/picks/2025-03.csv, 41 pages",
            "/data/wms/reports/picks/2025-03.csv",
        ),
        (
            "What's the host and port of the Grafana staging instance?",
            "obs",
            "Grafana is 10.4.2 now; the staging instance is at grafana-staging.ops.local:3000",
            "grafana-staging.ops.local:3000",
        ),
        (
            "Which branch is the payout-retry fix on?",
            "gitbot",
            "Pushed the fix to branch fix/payout-retry, PR #77 open.",
            "fix/payout-retry",
        ),
    ],
)
def test_a_word_of_the_question_in_the_value_s_own_name(
    question: str, member: str, row: str, value: str
) -> None:
    answers(question, facts((member, row)), value)


@pytest.mark.parametrize(
    ("question", "member", "row"),
    [
        # two paths: where it was read from and where it was written
        (
            "Where did the mes session put the recipe export?",
            "mes",
            "recipe export read from /srv/mes/staging/recipes/ and written to "
            "/srv/mes/exports/recipes/2024-10/",
        ),
        # two hosts of the asked thing
        (
            "What's the host and port of the LIMS test instance?",
            "qclab",
            "the test instance is at lims-test.qc.local:4040, its replica at "
            "lims-test-2.qc.local:4040",
        ),
        # the value is another thing's; the asked one is named apart from it
        (
            "Where did the mes session put the recipe export?",
            "mes",
            "the erp export is at /srv/mes/exports/erp/; the recipe export is still running",
        ),
        (
            "What's the host and port of the LIMS test instance?",
            "qclab",
            "the ELN test instance is at lims-test.eln.local:4040; the LIMS test one is not up",
        ),
        # the value's name holds the asked words, but its clause names another one of the
        # thing: the batch export, the ELN test instance, the tax fix
        (
            "Where did the mes session put the recipe export?",
            "mes",
            "the batch export went to /srv/mes/exports/recipes-old/",
        ),
        (
            "What's the host of the LIMS test instance?",
            "qclab",
            "the ELN test instance is at lims-test.qc.local:4040",
        ),
        (
            "Which branch is the payout-retry fix on?",
            "gitbot",
            "Pushed the tax fix to branch fix/payout-retry, PR #77 open.",
        ),
    ],
)
def test_still_no_answer(question: str, member: str, row: str) -> None:
    no_answer(question, facts((member, row)))


# labelled14: a value of the asked kind the question itself states ("L1" of "the L1
# retention rule") is no other value of the row's: the ticket it cites is the row's one
@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "Which ticket set the L1 retention rule?",
            "L1 archive retention is 5 years, per OPS-5120",
            "OPS-5120",
        ),
        (
            "Which ticket changed the B2 backup window?",
            "B2 backup window moved to 02:00, per CHG-7781",
            "CHG-7781",
        ),
    ],
)
def test_the_questions_own_identifier_is_no_second_value(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("probe", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # another thing's ticket: the question's identifier is not the row's
        (
            "Which ticket changed the B3 backup window?",
            "B2 backup window moved to 02:00, per CHG-7781",
        ),
        # two tickets of two things: the question names one, the row's clause the other
        (
            "Which ticket set the L1 retention rule?",
            "L1 archive retention is 5 years, per OPS-5120, L2 is 1 year per OPS-5121",
        ),
    ],
)
def test_a_ticket_of_another_thing_is_no_answer(question: str, row: str) -> None:
    no_answer(question, facts(("probe", row)))
