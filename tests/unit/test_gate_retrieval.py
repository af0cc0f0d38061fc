"""Retrieval's terms: the row that answers is found where it names the asked thing otherwise
than the question does — a synonym of the asked kind, a name written whole, two words
written as one, a camel-case name by its initials — and no term is added for another kind
of value than the one asked. (That both stores read the terms alike, and rank the row that
names the thing first: tests/contract/test_store_concierge.py.)"""

from __future__ import annotations

import pytest

from crewline.policy import search_terms


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        # the asked noun's synonyms of its kind: a row says "revision", "hash", "release"
        ("which commit broke the oven timer?", {"sha", "revision", "hash"}),
        ("Which version of the label printer driver is on ward 4?", {"release", "tag"}),
        # the verbs a row states a port with
        ("Which port does the oven controller use?", {"listen", "bind", "serve"}),
        # names written whole, wherever the question writes them
        ("What is the TTL on cache-eu-2?", {"cache-eu-2"}),
        ("LAB-5120 -- what time was it closed out?", {"lab-5120"}),
        ("What did we set specimen_log's retention_days to?", {"specimen_log", "retention_days"}),
        # two words a row may write as one, and a camel-case name apart and by its initials
        ("What port serves price updates?", {"priceupdates"}),
        ("Which version is PaymentIntentService on?", {"payment intent service", "pis"}),
    ],
)
def test_a_question_asks_the_store_for_the_other_words_of_its_thing(
    question: str, wanted: set[str]
) -> None:
    terms = search_terms(question)
    assert wanted <= set(terms), terms
    assert len(terms) <= 24


@pytest.mark.parametrize(
    ("question", "unwanted"),
    [
        # a time of day is not a duration: no "latency", "timeout" for "what time"
        ("what time did the proofing batch run?", {"duration", "latency", "timeout"}),
        # a port is not a host: the port's neighbours of another kind are not asked
        ("Which port does the oven controller use?", {"host", "hostname", "address"}),
        # a hyphenated phrase of plain words is its words, not a name
        ("Which port does the read-only replica of the ward db use?", {"read-only"}),
        # a link is not taken apart into a name
        ("what's the host behind https://lab.example/api?", {"https://lab.example/api"}),
        # words the question does not write side by side are never joined
        ("Which port does the oven controller use?", {"ovenport", "controlleruse"}),
    ],
)
def test_no_term_asks_for_another_kind_or_another_name(question: str, unwanted: set[str]) -> None:
    terms = search_terms(question)
    assert terms  # a request for a value
    assert not unwanted & set(terms), terms


def test_a_careful_question_retrieves_nothing() -> None:
    assert search_terms("Drop the specimen_log table on LAB-5120's warehouse?") == ()
