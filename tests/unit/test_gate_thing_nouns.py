"""The offline fleet reader on a noun that names a thing, not a kind of value ("which
warehouse", "what maxmemory", "which record"): the asked noun read as the head of the
wh-phrase where a verb in its present form ends it ("which audit record *lists* the …"), and
a row's value taken where that noun heads its clause's subject after the question's own
words x. Each on sentences of its own (not the eval
sets'), beside the near misses that stay with the human: another one of the thing (a word
before the noun the question does not say), another place, another noun."""

from __future__ import annotations

import pytest

from crewline.policy import routine
from tests.unit.gate_kit import answers, facts, no_answer


def _noun(question: str) -> str:
    ask = routine._read(question, (), None).ask
    assert ask is not None, question
    return ask.noun


# a present verb after two words or more, an article opening its object: the phrase ends there
@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("Which Jira filter lists the open escalations?", "filter"),
        ("Which audit record covers the March firmware change?", "record"),
        ("Which Unleash toggle hides the new checkout?", "toggle"),
    ],
)
def test_a_present_verb_after_the_phrase_ends_it(question: str, noun: str) -> None:
    assert _noun(question) == noun


# one word before the verb, a noun of a kind of value before it, or no article after it:
# read as before
@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("Which team owns the billing module?", "team"),
        ("Which cron job cleans the tmp bucket?", "job"),
        ("Which storage buckets are public?", "bucket"),
    ],
)
def test_the_phrase_read_as_before(question: str, noun: str) -> None:
    assert _noun(question) == noun


HEADED = [
    (
        "Which audit record covers the March firmware change?",
        "Audit record for the March firmware change is AR-20417",
        "AR-20417",
    ),
    (
        "What is Memcached maxconn on prod?",
        "Memcached maxconn on prod is 4096.",
        "4096",
    ),
    (
        "Which Kafka cluster does the clickstream use?",
        "Kafka cluster for the clickstream is KAFKA_EU_3, retention 7 days.",
        "KAFKA_EU_3",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), HEADED)
def test_the_value_of_a_clause_the_asked_noun_heads_answers(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("probe", row)), value)


# near misses: another one of the thing (a word before the noun the question does not say),
# another place, another thing named the same way
NEAR_MISSES = [
    (
        "What is Memcached maxconn on prod?",
        "Redis maxconn on prod is 4096.",
    ),
    (
        "What is Memcached maxconn on prod?",
        "Memcached maxconn on staging is 4096.",
    ),
    (
        "Which Kafka cluster does the clickstream use?",
        "Backup cluster for the clickstream is KAFKA_EU_3, retention 7 days.",
    ),
    (
        "Which Kafka cluster does the clickstream use?",
        "Kafka standby cluster for the clickstream is KAFKA_EU_3.",
    ),
    (
        "Which audit record covers the March firmware change?",
        "Audit record for the April firmware change is AR-20417",
    ),
    (
        "Which audit record covers the March firmware change?",
        "Change record for the March firmware change is CR-20417",
    ),
    (
        "What is Memcached maxconn on prod?",
        "Memcached maxconn on prod is 4096 until Friday, then 8192.",
    ),
]


@pytest.mark.parametrize(("question", "row"), NEAR_MISSES)
def test_another_one_of_the_thing_is_not_given(question: str, row: str) -> None:
    no_answer(question, facts(("probe", row)))


def test_a_word_after_the_value_tells_it_not_the_subject_before_it() -> None:
    # the subject names neither price alone: the US one right after "is" is not taken for
    # it; the EU one is, by the words after it ("in the EU": the reader's pick of several)
    answers(
        "What's the EU list price of the 500 credit pack?",
        facts(
            ("probe", "List price for the 500-credit pack is $4.99 in the US and €5.49 in the EU.")
        ),
        "€5.49",
    )
