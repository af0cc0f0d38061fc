"""A plural noun that ends a topic label ("Old invoices: keep or purge?") is what the question
is about, never the verb of a step: the card read "it invoices keep". The question stays
careful; its reason names no act the question does not ask.

Words of a bakery, a school, a theatre and a vineyard: no development set's.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import irreversible


@pytest.mark.parametrize(
    ("question", "not_said"),
    [
        ("Old bakery invoices: keep or purge?", "it invoices"),
        ("Unpaid school invoices — chase or write off?", "it invoices"),
        ("Theatre refunds: approve or hold?", "it refunds approve"),
        ("Vineyard payments: approve all 14?", "it payments"),
    ],
)
def test_a_topic_label_is_no_verb_in_the_reason(question: str, not_said: str) -> None:
    why = irreversible(question)
    assert not_said not in why, why


def test_a_finite_verb_with_its_object_is_still_one() -> None:
    why = irreversible("The cellar job deletes the old vintages, shall I run it?")
    assert "delet" in why, why
