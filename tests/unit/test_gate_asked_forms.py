"""Requests for a value in forms the reader did not read as one: a polite imperative ("paste
me the link …"), a "how many" left in place at the end ("… took how many minutes?"), a pair
named by "vs" inside a wh-question, whom to e-mail asked by the address, and a long topic
before a request that points back at it by a pronoun. Each rule with the near misses that
keep their verdict, in other domains than the set that showed them."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, careful, facts, goes_on, no_answer

# ----------------------------------------- a polite imperative asks for a value


@pytest.mark.parametrize(
    "question",
    [
        "Could you paste me the link to the onboarding guide?",
        "can you send me the link to the onboarding guide",
        "Please share me the link to the onboarding guide?",
    ],
)
def test_paste_me_the_value_asks_for_it(question: str) -> None:
    rows = facts(("docs", "onboarding guide: https://wiki.example.org/people/onboarding"))
    answers(question, rows, "https://wiki.example.org/people/onboarding")


@pytest.mark.parametrize(
    "question",
    [
        "Can you paste me the staging Vault root token so I can finish the test?",
        "Could you share me the payroll admin password?",
        "Could you paste the new config into the production repo?",
    ],
)
def test_paste_me_a_secret_or_pasting_somewhere_stays_careful(question: str) -> None:
    careful(question)


# ----------------------------------------- "how many" left in place at the end


def test_how_many_in_place_at_the_end_is_a_request() -> None:
    rows = facts(("ci", "build 4411: the integration stage took 14 min"))
    answers("and for build 4411 the integration stage took how many minutes?", rows, "14 min")
    answers("the integration stage of build 4411 ran how many minutes?", rows, "14 min")


def test_how_many_in_place_of_another_build_is_not_answered() -> None:
    rows = facts(("ci", "build 4411: the integration stage took 14 min"))
    no_answer("and for build 4412 the integration stage took how many minutes?", rows)


@pytest.mark.parametrize(
    "question",
    [
        "Can I rerun the integration stage and see how many pass?",
        "Can I retry the integration stage, no matter how many times?",
        "ok to rerun the integration stage, whatever how many runs?",
    ],
)
def test_how_many_after_another_word_than_its_verb_is_no_request(question: str) -> None:
    goes_on(question)


# ----------------------------------------- "vs" naming a pair inside a wh-question


def test_a_pair_named_by_vs_in_a_when_question_is_no_choice() -> None:
    rows = facts(("fixtures", "Leeds vs Hull, cup round 4: kick-off 2025-03-08 15:00"))
    answers("When's kick-off for Leeds vs Hull?", rows, "2025-03-08 15:00")
    rows = facts(("fixtures", "Leeds versus Hull, cup round 4: kick-off 2025-03-08 15:00"))
    answers("When is kick-off for Leeds versus Hull?", rows, "2025-03-08 15:00")


@pytest.mark.parametrize(
    "question",
    [
        "Which is faster for the session store, redis vs memcached?",
        "What should we use for the new API, REST vs gRPC?",
        "When do we play, Monday or Tuesday?",
        "When — Monday or Tuesday?",
        "What do we pick for the session store, redis vs memcached?",
    ],
)
def test_vs_or_or_putting_a_choice_stays_a_choice(question: str) -> None:
    careful(question)


# ----------------------------------------- whom to e-mail, asked by the address


def test_who_should_i_email_with_the_address_asked_is_answered_by_the_address() -> None:
    rows = facts(
        ("billing", "Brightwater's delivery contact is Jo Palmer — jo.palmer@brightwater.example")
    )
    answers(
        "Who should I email at Brightwater about deliveries? need the address",
        rows,
        "jo.palmer@brightwater.example",
    )
    answers(
        "who do we mail about the Brightwater deliveries? need her address",
        rows,
        "jo.palmer@brightwater.example",
    )


def test_whom_to_email_is_never_answered_by_a_name() -> None:
    rows = facts(("billing", "Brightwater's delivery contact is Jo Palmer"))
    no_answer("Who should I email at Brightwater about deliveries? need the address", rows)


def test_whom_to_call_is_still_not_answered() -> None:
    rows = facts(("billing", "Brightwater's delivery contact is Jo Palmer, +44 20 7946 0958"))
    no_answer("Who should I call at Brightwater about deliveries? need the number", rows)


@pytest.mark.parametrize(
    "question",
    [
        "Should I email Jo Palmer at Brightwater about the deliveries?",
        "Who should I email the delivery list to? need the address",
        "Who do I email the signed contract? need her address",
        "Who should I email at Brightwater about deliveries?",  # no address asked
        "Who should I email at our customers about the outage? need the address",
    ],
)
def test_sending_or_choosing_the_recipient_stays_careful(question: str) -> None:
    careful(question)


# ----------------------------------------- a long topic, then a request pointing back at it


def test_a_long_topic_pointed_back_at_by_a_pronoun_is_what_is_asked() -> None:
    rows = facts(("sre", "checkout api error rate last night was 0.8%"))
    question = (
        "sorry my english: the error rate of the checkout api in last night, how much percent"
        " it was?"
    )
    answers(question, rows, "0.8%")


def test_a_long_topic_of_another_thing_is_not_answered() -> None:
    rows = facts(("sre", "search api error rate last night was 0.8%"))
    question = (
        "sorry my english: the error rate of the checkout api in last night, how much percent"
        " it was?"
    )
    no_answer(question, rows)


def test_a_long_topic_of_the_askers_own_doing_is_not_what_is_asked() -> None:
    # the asker's purpose ("I need to point my dashboard at …") is no noun phrase of the
    # thing: the request stands on its pronoun, as before
    rows = facts(("billing", "the billing ledger export is served on port 8443"))
    question = "I need to point my dashboard at the billing ledger export — what port is it on?"
    answers(question, rows, "8443")
