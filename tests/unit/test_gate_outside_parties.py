"""Acts that reach outside parties or take money, read as careful however they are phrased: a
money-moving run named by what it moves (a direct debit, a collection or a settlement of
money, a disbursement) whatever verb runs it; a thing reported, referred, flagged or
escalated to a party outside the company (the state's bodies, the regulator, the auditor,
the press, customers, an insurer); and a thing handed over to one by a phrasal verb ("get
the return over to the regulator"), as "submit" or "send" hands it.

Every case is of another domain than the set that showed them (an insurer): a gym chain, a
housing association, a school, a water utility, a charity, a garage, a festival, a dental
practice.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_verdict
from tests.unit.gate_kit import irreversible

# ---------------------------------------------------------------- money-moving runs


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Run the 1 March direct debit collection for the gym members now?", "it runs the 1"),
        ("Kick off the direct-debit run for the tenants?", "it kicks off the direct-debit"),
        ("Trigger this term's fee collection?", "it triggers this term's fee collection"),
        ("Start the card settlement run for the festival tills?", "it starts the card"),
        ("Do the Bacs collection for the water customers?", "the Bacs collection"),
        ("Start the grant disbursement run for the schools?", "it starts the grant"),
        ("Charge back the disputed transactions in batch 77?", "it charges back the"),
    ],
)
def test_a_money_run_is_a_money_act_whatever_the_verb(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        # only tried out, or read
        "Can I simulate the direct debit run against the test fixtures on my machine?",
        "How many members did the 1 March direct debit run collect?",
        "How many direct debits were in the March payment run?",
        "Add a unit test for the direct debit mandate parser?",
        # a collection or a settlement of no money
        "Run a query on the customers collection in the local mongo?",
        "Write a summary of the garbage collection pauses?",
        "What was the imbalance price in the latest settlement period?",
        "Load a copy of the Visa settlement file into a local sqlite for analysis?",
    ],
)
def test_a_money_run_only_read_or_of_no_money_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


# ---------------------------------------------------------------- told to an outside party


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Report the forged prescriptions to the police today?",
            "it reports the forged prescriptions to the police",
        ),
        (
            "Refer the tenant's complaint to the housing ombudsman?",
            "it refers the tenant's complaint to the housing ombudsman",
        ),
        (
            "Flag the safeguarding incident to the regulator?",
            "it flags the safeguarding incident to the regulator",
        ),
        (
            "Escalate the billing dispute to the ombudsman now?",
            "it escalates the billing dispute to the ombudsman",
        ),
        ("Report the pricing error to our customers?", "it reports the pricing error"),
        ("Report the fire damage to the insurer?", "it reports the fire damage to the insurer"),
    ],
)
def test_a_thing_reported_to_an_outside_party_is_sent(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Report back to me when the tests pass?",  # the asker
        "Report the flaky test to the CI team?",  # a team inside
        "Flag it to the customer success team?",  # the phrase's head is the team
        "Should I report the results to the lead?",
        "Refer to the docs for the flag name?",  # "refer to" reads
        "Draft the report for the regulator (don't send it)?",  # a report, drafted
        "Which report goes to the regulator?",
        "Who do I report the outage to?",  # asked, nothing reported
        "Report the numbers to get the public dashboard moving?",  # a "to" that opens a verb
    ],
)
def test_a_report_inside_or_no_report_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


# ---------------------------------------------------------------- handed over by a phrasal verb


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Get the annual accounts over to the charity regulator today, yes?",
            "it gets the annual accounts over",
        ),
        ("Fire the attendance figures off to the press?", "it fires the attendance figures off"),
        ("Pass the audit file across to the auditors?", "it passes the audit file across"),
        (
            "Hand over the patient list to the insurer?",
            "it hands over the patient list to the insurer",
        ),
        # a filing, whoever it goes to
        ("Get the VAT return over to HMRC today?", "it gets the VAT return over"),
        ("Hand in the annual return?", "it hands in the annual return"),
        ("Fire off the customs declaration for the spares?", "it fires off the customs"),
    ],
)
def test_a_thing_handed_over_by_a_phrasal_verb_is_sent(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Hand the pager over to the next on-call?",  # inside
        "Pass the message on to the team?",
        "Get the draft over to me for review?",  # the asker
        "Get the draft return over to me for review?",  # a draft, to the asker
        "Hand the return label over to the courier at the garage?",  # no filing, no party
        "Get it over with?",
        "Get the regulator's feedback over to the team?",  # from a party, to the team
    ],
)
def test_a_thing_handed_over_inside_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


def test_a_thing_posted_to_a_reinsurer_is_sent() -> None:
    reason = irreversible("Post the March bordereau to the reinsurer's portal?")
    assert reason.startswith("irreversible: it posts the March bordereau to the reinsurer"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Can I read the reinsurer's bordereau spec before I build the export?",
        "Who is our treaty contact at the reinsurer? Name is enough.",
    ],
)
def test_a_reinsurer_only_named_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


def test_send_me_the_list_is_no_act() -> None:
    assert careful_verdict("send me the list of the regulator's open cases") is None
