"""The asked noun's kind of value where the table did not know it, and a count's noun.

A percent sign written in a number's stead ("what scrap %", "what % of …") asks a share; a
noun of a share of a whole (occupancy, a fraction, a proportion, humidity) asks a
percentage; a noun's short form ("temp", "RTT") asks what the noun does. A cap's or a
limit's number answered carries the plural noun the row counts right after it ("capped at 12
seats"), but where the question says that noun itself. Near misses stay with the human: the
same measure of another line, another day, another class. Domains apart from the dev sets (a
press shop, a car park, a kiln, a pottery class).
"""

from __future__ import annotations

import pytest

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import ValueAsk, value_ask
from crewline.policy.values import Kind, with_counted_noun
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, no_answer


def asked(question: str) -> ValueAsk | None:
    return value_ask(shape_of(code_form(question)))


_PRESS = facts(("shop", "Press 2 scrap rate yesterday was 1.8%, mostly burrs on the flange"))
_PARK = facts(("parking", "Harbour car park occupancy peaked at 93% on Saturday"))
_KILN = facts(("kiln", "Kiln 3 thermocouple reading 845 °C at the crown, firing on schedule"))
_CLASS = facts(("studio", "The Tuesday pottery class is capped at 12 seats this term"))


def test_a_percent_sign_in_a_numbers_stead_asks_a_share() -> None:
    answers("what scrap % did Press 2 have yesterday?", _PRESS, "1.8%")
    assert getattr(asked("what % of the moulds passed inspection?"), "kinds", ()) == (Kind.PERCENT,)


def test_a_share_asked_by_its_sign_of_another_press_is_no_answer() -> None:
    no_answer("what scrap % did Press 4 have yesterday?", _PRESS)


@pytest.mark.parametrize(
    "question",
    [
        "Which box has its disk at 91%?",  # a number's sign, not the asked kind
        "What does the %s in the log format print?",  # a placeholder
        "Where does %APPDATA% point on the build agent?",  # a variable
    ],
)
def test_a_percent_sign_after_a_number_or_in_a_placeholder_asks_no_share(question: str) -> None:
    ask = asked(question)
    assert ask is None or ask.kinds != (Kind.PERCENT,)


def test_a_noun_of_a_share_of_a_whole_asks_a_percentage() -> None:
    answers("What occupancy did the Harbour car park reach on Saturday?", _PARK, "93%")
    for question in (
        "What fraction of the orders shipped late?",
        "What proportion of the cores are idle?",
        "What humidity is the drying room at?",
    ):
        ask = asked(question)
        assert ask is not None and ask.kinds == (Kind.PERCENT,), question


def test_a_share_of_another_day_is_no_answer() -> None:
    no_answer("What occupancy did the Harbour car park reach on Sunday?", _PARK)


def test_a_short_form_of_a_measure_noun_asks_that_measure() -> None:
    answers("what temp is the kiln 3 thermocouple reading?", _KILN, "845 °C")
    ask = asked("What RTT does the Leeds link show?")
    assert ask is not None and ask.kinds == (Kind.DURATION,)


def test_a_short_form_of_another_kilns_measure_is_no_answer() -> None:
    no_answer("what temp is the kiln 4 thermocouple reading?", _KILN)


def test_a_count_answered_carries_the_noun_it_counts() -> None:
    answers("What's the cap for the Tuesday pottery class?", _CLASS, "12 seats")


def test_a_cap_of_a_noun_the_question_says_is_the_number() -> None:
    answers("What's the seat cap for the Tuesday pottery class?", _CLASS, "12")


def test_a_cap_of_another_class_is_no_answer() -> None:
    no_answer("What's the cap for the Thursday pottery class?", _CLASS)


@pytest.mark.parametrize(
    ("row", "value", "said"),
    [
        ("capped at 12 seats per class", "12", "12 seats"),
        ("12 was the cap last term", "12", "12"),  # a verb after it, no noun it counts
        ("12 seats on Tuesday, 12 stools on Friday", "12", "12"),  # two nouns: which is a guess
        ("kiln 12 is down", "12", "12"),  # no word after it
        ("cap 12.5 kg", "12.5", "12.5"),  # no bare number
    ],
)
def test_the_counted_noun_is_the_plural_written_right_after_a_bare_number(
    row: str, value: str, said: str
) -> None:
    assert with_counted_noun(row, value) == said
