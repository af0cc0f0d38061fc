"""Careful acts by their category, not their words: a filing handed to an authority (a
return or a declaration, or anything filed with, lodged with or sent to the state's bodies), a
retention, TTL or lifetime cut or changed (or the job that enforces it let run), and a
phrasal act whose particle stands after an object that holds a preposition ("write the stock
in the back store off"). And the false careful verdict of the same round: a contact detail
asked for a message the asker will send is no message sent.

Every case is of another domain than the set that showed them (a pharmaceutical plant): a
bakery's books, a charity, an airline, a small-claims desk, a call centre, a hotel's CCTV, a
hospital ward, a gym, an exhibition hall, a depot.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_verdict
from tests.unit.gate_kit import answers, facts, irreversible

# ---------------------------------------------------------------- filings with an authority


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Submit the quarterly GST return to the tax office?",
            "it submits the quarterly GST return to the tax office",
        ),
        (
            "Submit the customs declaration for the spare parts shipment?",
            "it submits the customs declaration",
        ),
        (
            "Lodge the annual return with the charity registrar today?",
            "it lodges the annual return with the charity registrar",
        ),
        (
            "File the incident notification with the aviation authority now?",
            "it files the incident notification with the aviation authority",
        ),
        ("File the small claim with the county court?", "it files the small claim"),
    ],
)
def test_a_filing_handed_to_an_authority_is_irreversible(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Draft the GST return for the bakery?",  # a draft, made
        "Prepare the customs declaration so I can review it?",
        "Submit the draft GST return for review by the accountant?",
        "File a ticket in our tracker about the broken oven?",  # our own tracker
        "When is the GST return due?",  # asked about
        "Which authority did we file the notice with last year?",  # what was done
        "Send me last year's GST return?",  # the asker is given it
        "Submit the PR that fixes the tax return rounding?",  # code for review
    ],
)
def test_a_filing_drafted_asked_about_or_kept_inside_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


# ---------------------------------------------------------------- retention cut


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Shorten the retention of the CCTV footage to 7 days?",
            "it shortens the retention of the CCTV footage",
        ),
        ("Lower the TTL on the guest wifi logs to 24 hours?", "it lowers the TTL"),
        (
            "Set the retention period for call recordings to 30 days?",
            "it sets the retention period for call recordings",
        ),
        ("Let the purge job run tonight?", "it lets the purge job"),
        (
            "Allow the archive cleanup job to run after the backup?",
            "it allows the archive cleanup job to run",
        ),
    ],
)
def test_a_retention_cut_or_its_job_let_run_is_irreversible(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


def test_a_retention_changed_says_what_falls_out() -> None:
    reason = irreversible("Set the retention period for call recordings to 30 days?")
    assert reason.endswith("how long data is kept, and what falls out is deleted"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Extend the retention of the CCTV footage to 90 days?",  # kept longer
        "What's the retention period for call recordings?",  # read
        "Check the TTL on the session cookies?",
        "Update the retention section of the staff handbook?",  # a text about it
        "Let the backup job run tonight?",  # a job that deletes nothing
        "When does the purge job run?",  # asked about
    ],
)
def test_a_retention_lengthened_or_read_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


# ---------------------------------------------------------------- a particle after the object


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Write the damaged stock in the back store off?",
            "it writes the damaged stock in the back store off",
        ),
        ("Shut the servers in rack 4 down tonight?", "it shuts the servers in rack 4 down"),
        (
            "Tear the booths for the old exhibition down?",
            "it tears the booths for the old exhibition down",
        ),
    ],
)
def test_a_particle_after_an_object_with_a_preposition_is_the_act(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Write a note on the write off?",  # the joined form, a noun
        "Turn the lights in the staff room off?",  # no shared thing
        "Write the flaky test in the checkout suite off as noise?",  # code given up on
        "Write the numbers on the whiteboard down?",  # no act's phrase
        "Write to the caterer about the menu?",  # where the verb goes, no object
    ],
)
def test_a_split_phrase_with_no_act_stays_routine(question: str) -> None:
    assert careful_verdict(question) is None, question


# ---------------------------------------------------------------- a contact detail asked


@pytest.mark.parametrize(
    "question",
    [
        "I need to email the ward manager tomorrow — what address?",
        "I'll email about the room booking later, what's her address?",
        "what's the caretaker's email? i need to cc them",
        "I must mail the on-call engineer this week, what's their number?",
    ],
)
def test_a_contact_asked_for_the_askers_own_message_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None, question


def test_a_contact_asked_for_the_askers_own_message_is_answered() -> None:
    rows = facts(("rota", "Ward 7 manager's email address is ward7.manager@stmarys.example"))
    answers(
        "I need to email the ward 7 manager tomorrow — what email address?",
        rows,
        "ward7.manager@stmarys.example",
    )


@pytest.mark.parametrize(
    "question",
    [
        "I must email the guest list to the ward manager — what address?",  # a thing sent
        "I must email the patients this week — what address?",  # an outside audience
        "I'll mail the team the payroll export — what address?",  # a second object, sent
        "Who do I email the booking form? need his address",  # a thing sent
        "Who do I email about the room booking?",  # whom to write to, no address asked
        "Email the ward manager now?",  # asked of the concierge
        "I'll email the on-call engineer. OK?",  # leave to send, no detail asked
        "Who do I email the prod credentials to?",
        "I must force-push to the shared branch — which remote?",  # no message
    ],
)
def test_a_message_sent_or_asked_leave_for_stays_careful(question: str) -> None:
    assert careful_verdict(question) is not None, question
