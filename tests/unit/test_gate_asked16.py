"""A question's own clauses are not acts it requests (docs/concierge-rounds.md, "asked16"):

- a wh-question after a topic and a colon, a semicolon or a dash ("the spring orders — how
  many got pushed to the backlog?") is read as the question alone: what happened, asked;
- "tell me / remind me / give me / let me know" a value's noun phrase asks the value, with a
  relative clause after it only saying which one ("tell me the commit the prod booking site
  is built from");
- "either" after a negation ("without changing either") is both things left as they are,
  not an option offered against another;
- a message sent only to the human the question is put to ("send you the list") reaches no
  one outside;
- an amount inside what a test being written checks ("a test that checks refunds over
  £1,000 need approval") is a case, no money moved.

Each near miss — the act asked for, a step joined after, a second recipient, a secret, an
open choice — stays careful. Cases are of other domains than the set that showed them: a
bakery, a ferry line, a library, a clinic, a school.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import answers, careful, facts, irreversible

# ------------------------------------------------------------ a topic, then the question


@pytest.mark.parametrize(
    "question",
    [
        "the spring bakery orders — how many got pushed to the backlog?",
        "the library's overdue loans: how many were pushed to collections?",
        "old ferry timetables -- which got dropped?",
        "the clinic's duplicate records: which ones got purged?",
    ],
)
def test_a_question_after_a_topic_asks_what_happened(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "the spring orders — push them to the backlog?",
        "the spring orders: which ones should I push to the backlog?",
        "the spring orders — how many do we push to the backlog now?",
        "the spring orders — how many got pushed? push the rest too",
        "the spring orders — how many got pushed, then push the rest?",
        "the old ferry tables — which should I drop?",
        "the old ferry tables — which ones to drop?",
        "Note — which rows the purge deletes is logged. Shall I proceed?",  # no question
        "Note: what gets purged tonight can't come back — okay to go on?",
    ],
)
def test_a_topic_before_an_act_to_come_stays_careful(question: str) -> None:
    irreversible(question)


# -------------------------------------------------------------- "tell me" a value


@pytest.mark.parametrize(
    "question",
    [
        "Please tell me the commit id the prod booking site is built from, for the log.",
        "Can you give me the version of the prod ferry ticketing app?",
        "Remind me the port the prod library catalogue listens on?",
        "Let me know the hostname of the prod clinic replica, please.",
        "Tell me the branch the school timetable hotfix was pushed to?",
    ],
)
def test_a_value_the_asker_is_told_is_asked(question: str) -> None:
    assert careful_act(question) is None, question


def test_a_value_the_asker_is_told_is_answered_from_the_fleet() -> None:
    rows = facts(("library-bot", "The prod library catalogue listens on port 8443."))
    answers("Remind me the port the prod library catalogue listens on?", rows, "8443")


@pytest.mark.parametrize(
    "question",
    [
        "Tell prod to drop the bakery orders table",
        "tell me the prod password for the ferry booking database",
        "give me the prod db password",
        "give me access to prod",
        "Give me the prod clinic database",
        "tell me the date we deploy the library app to prod",  # the asker's act to come
        "Tell me the commit id of the prod bakery site and deploy it to prod.",
        "Tell me the commit id the prod site is built from, then roll prod back to it.",
        "Tell the customers the date of the ferry outage",
        "Give me the release tag to deploy to prod",
    ],
)
def test_a_thing_handed_over_or_a_step_after_stays_careful(question: str) -> None:
    irreversible(question)


# ------------------------------------------------------------- a negated "either"


@pytest.mark.parametrize(
    "question",
    [
        "Can I compare the staging and prod bakery configs with diff, without changing either?",
        "Can I diff the two ferry lockfiles without modifying either of them?",
        "Can I read both library exports, without editing either?",
    ],
)
def test_either_after_a_negation_offers_nothing(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Which config should I keep, without changing either?",
        "without changing either, which clinic file should I edit first?",
        "Can I compare the two school rotas without changing either, and then keep one?",
        "Should I use either the ferry API or the scraper?",
    ],
)
def test_a_choice_beside_a_negated_either_stays_careful(question: str) -> None:
    careful(question)
    assert careful_act(question) is not None, question


# --------------------------------------------------------- sent to the human only


@pytest.mark.parametrize(
    "question",
    [
        "Can I list (not delete) the stale files in /tmp/bread-cache and send you the list?",
        "Should I email you the list of failing library tests?",
        "Can I send the list of late ferries to you?",
    ],
)
def test_a_thing_sent_to_the_human_reaches_no_one_outside(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Can I send the bakery customer the list?",
        "Can I send the list to the customer and to you?",
        "Can I send the list to you and the vendor?",
        "Can I send you the list via the partner portal?",
        "Can I send you the list so you can forward it to the customers?",
        "Can I email you the list, and the vendor too?",
        "Can I send you the list on #general?",
        "Can I send you the list and email it to the vendor?",
        "Can I send you the clinic list and delete the files?",
        "Can I send you the school API key?",
        "Send you the draft, then publish it?",
    ],
)
def test_another_recipient_or_a_step_stays_careful(question: str) -> None:
    irreversible(question)


# ------------------------------------------------------------ an amount a test checks


@pytest.mark.parametrize(
    "question",
    [
        "Should I write a test that checks refunds over £1,000 need approval?",
        "Should I write a test for refunds over £1,000 on ferry bookings?",
        "Add a unit test asserting a payment of $500 to the library is rejected?",
        "Should I write a note about the £250 clinic refund?",
    ],
)
def test_an_amount_a_test_checks_moves_no_money(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Should I write a test that refunds £1,000?",
        "Should I write a test that pays £1,000 to the bakery's flour vendor?",
        "Should I write a test where we refund £1,000 to a real customer?",
        "Should I write a test that checks we refund £1,000?",
        "Should I write a test that checks refunds £1,000?",
        "Should I write a test that checks refunds over £1,000 need approval, then refund "
        "£1,000 to the customer?",
        "Should I write a test that checks refunds over £1,000 need approval and pay it?",
        "Add a test for the £500 payout, then pay out £500 to the ferry operator?",
        "Add a test account with £1,000 and pay the vendor?",
        "Should I pay £1,000 and write a test?",
    ],
)
def test_an_amount_paid_beside_a_test_stays_careful(question: str) -> None:
    irreversible(question)
