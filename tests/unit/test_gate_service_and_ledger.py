"""Careful acts by their category, not their words: a running thing taken out of service, a
debt or a charge given up (written off, waived), a payment file handed to a payment scheme.
Each rule with the harmless neighbours that must stay routine: the state asked about, the
act only written about, code given up on, a validator run on a sample, a PR submitted.

Every case is of another domain than the set that showed them (a water utility's SCADA and
billing): a hotel's lifts, a web farm, a hospital's imaging, an airport, a gym, a library, a
landlord's rent run, a supplier run, a council's rates.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_verdict
from tests.unit.gate_kit import goes_on, irreversible

# ---------------------------------------------------------------- taken out of service


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Take the number 3 lift out of service for the inspection this afternoon?",
            "it takes the number 3 lift out of service",
        ),
        (
            "Pull web-07 out of rotation on the load balancer before patching it?",
            "it pulls web-07 out of rotation",
        ),
        (
            "Shall I take the CT scanner in bay 2 out of operation for the engineer?",
            "it takes the CT scanner in bay 2 out of operation",
        ),
    ],
)
def test_a_thing_taken_out_of_service_is_irreversible(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Which lifts were taken out of service this week?",  # asked about
        "How many gates at terminal 2 are out of use today?",
        "Take a look at why web-07 is out of rotation?",  # its state, said
        "Don't take the lift out of service yet, just log the fault?",  # negated
        "I'll take the out of service list and summarise it, ok?",  # a list's name
        "Take the kettle out of the cupboard?",  # no service word
    ],
)
def test_a_service_state_asked_read_or_negated_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


def test_a_summary_of_the_out_of_service_list_goes_on() -> None:
    """Reading a list named for the state is a harmless step, answered "yes"."""
    goes_on("Summarise the out of service list for the morning meeting?")


# ---------------------------------------------------------------- a debt or a charge given up


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Write off the 37 unpaid gym memberships from October?",
            "it writes off the 37 unpaid gym memberships",
        ),
        (
            "Waive the late-return fees on the flooded branch's library accounts?",
            "it waives the late-return fees",
        ),
        (
            "Forgive the outstanding balance on the three hardship accounts?",
            "it forgives the outstanding balance",
        ),
    ],
)
def test_a_debt_or_charge_given_up_is_irreversible(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Can I write off the flaky integration test as noise and move on?",  # code given up on
        "How many invoices were written off last quarter?",  # asked about
        "Waive the requirement for a second review on typo-only PRs?",  # no money in it
    ],
)
def test_code_given_up_on_or_a_write_off_asked_about_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


# ---------------------------------------------------------------- a payment file to a scheme


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Transmit the NACHA file for this month's rent collection?",
            "it transmits the NACHA file",
        ),
        ("Upload the Bacs file for Friday?", "it uploads the Bacs file for Friday"),
        ("Lodge the BPAY batch for the council rates?", "it lodges the BPAY batch"),
        (
            "Submit the direct-debit run for the members' fees?",
            "it submits the direct-debit run",
        ),
    ],
)
def test_a_payment_file_handed_to_a_scheme_is_irreversible(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


def test_a_plan_with_a_payment_file_submitted_in_a_step_is_irreversible() -> None:
    """A step of the plan that submits a payment file makes going on with it careful."""
    reason = irreversible(
        "Plan: 1) pull the rent ledger 2) fix the rounding 3) transmit this month's NACHA "
        "file 4) post a summary. Go ahead with the plan?"
    )
    assert reason.startswith("irreversible: it transmits this month's NACHA file"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Run the ACH file validator on the sample file locally?",  # no file handed over
        "Submit the PR with the SEPA XML schema fix for review?",  # code for review
        "Send me the Bacs file spec?",  # the asker is given it
        "What time is the SEPA cut-off today?",  # asked about
    ],
)
def test_a_payment_scheme_only_named_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question
