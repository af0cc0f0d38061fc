"""A measured value read by its unit, and a count of a part by its verb.

A temperature is a number with °C/°F/K, a pressure one with Pa/mbar/bar/psi: a row giving a
shelf temperature and a chamber pressure answers each by its unit ("-28 °C", "0.08 mbar"),
never a bare number or a version ("0.08"). Near misses stay with the human: a measure in
another unit than the question names, two of the asked measure in a row and no word of the
question labelling one, a measure of another subject. "How many of the X passed?" is the
number bound to that verb, and a count keeps its magnitude ("2.4 M rows"). Domains apart from
the dev sets (a freeze dryer, a cold-chain logger, a qualification run, a census export).
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, facts, no_answer

_DRYER = "FD-3 on lot PX-118, primary drying at -28 °C shelf / 0.08 mbar chamber, ends Thursday"


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("At what shelf temperature is FD-3 doing primary drying?", "-28 °C"),
        ("What chamber pressure is FD-3 at for primary drying?", "0.08 mbar"),
        ("What chamber pressure is FD-3 at for primary drying, in mbar?", "0.08 mbar"),
    ],
)
def test_a_measure_is_read_by_its_unit(question: str, value: str) -> None:
    answers(question, facts(("dryer", _DRYER)), value)


def test_a_measure_in_another_unit_than_asked_is_no_answer() -> None:
    no_answer(
        "What shelf temperature is FD-3 at for primary drying, in °F?", facts(("dryer", _DRYER))
    )
    no_answer("What's the FD-3 primary drying chamber pressure, in Pa?", facts(("dryer", _DRYER)))


def test_a_measure_of_another_subject_is_no_answer() -> None:
    no_answer("At what shelf temperature is FD-4 doing primary drying?", facts(("dryer", _DRYER)))


_LOGGER = "shipment OS-4410 arrived, logger DL-22 max 7.2 °C / min 2.4 °C"


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        ("What was the max temperature on logger DL-22 for OS-4410?", _LOGGER, "7.2 °C"),
    ],
)
def test_two_of_the_asked_measure_answer_by_the_word_labelling_one(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("probe", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        ("What temperature did logger DL-22 show for OS-4410?", _LOGGER),
        (
            "What temperature did autoclave AC-9 reach?",
            "AC-9 held 121.3 °C against a 121 °C setpoint",
        ),
    ],
)
def test_two_of_the_asked_measure_and_no_label_asked_is_no_answer(question: str, row: str) -> None:
    no_answer(question, facts(("probe", row)))


_RUN = "IQ-204: 52 protocols executed, 49 passed, 3 open"


def test_a_count_of_a_part_is_the_number_bound_to_its_verb() -> None:
    answers("How many of the IQ-204 protocols passed?", facts(("qualif", _RUN)), "49")


def test_a_count_of_a_part_by_a_verb_the_row_does_not_say_is_no_answer() -> None:
    no_answer("How many of the IQ-204 protocols failed?", facts(("qualif", _RUN)))


def test_a_count_keeps_its_magnitude() -> None:
    rows = facts(("census", "census export runs nightly into the lake, 2.4 M rows last night"))
    answers("How many rows did last night's census export write?", rows, "2.4 M")
