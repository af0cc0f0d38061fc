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

from crewline.policy.values import Kind, values_in
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


# A frequency, a data rate, a voltage, a speed, a length, an angle, an area and a number in
# scientific notation, each read by its unit: a broadcast transmitter, a microwave backhaul, a
# solar inverter, a ferry, a survey drone, a pipeline, a tracking dish, a burn-scar survey, a
# pump's reliability model.
_TRANSMITTER = "transmitter TX-4 at Crag Hill back on air, 98.6 MHz, 10 kW ERP"
_BACKHAUL = "Harlow backhaul uplink at 250 Mbps after the realignment"
_INVERTER = "INV-7 string check: DC voltage 612 V, AC 400 V"
_FERRY = "ferry MV Orla crossing, speed 14 knots, ETA 16:40"
_DRONE = "survey drone SD-3 mapping block 12 at altitude 120 m, 80% overlap"
_DISH = "dish D-2 tracking, elevation 41°, azimuth 212°"
_PUMP = "pump P-9 reliability model: failure probability 2.4e-6 per hour"
_FORECAST = "Tarn airfield forecast: visibility 800 m in fog, cloud base 200 ft"


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        ("Which frequency is transmitter TX-4 on?", _TRANSMITTER, "98.6 MHz"),
        ("What bit rate does the Harlow backhaul uplink run at?", _BACKHAUL, "250 Mbps"),
        ("What DC voltage is inverter INV-7 seeing?", _INVERTER, "612 V"),
        ("What speed is ferry MV Orla making?", _FERRY, "14 knots"),
        ("How fast is ferry MV Orla going?", _FERRY, "14 knots"),
        ("What altitude is survey drone SD-3 flying at?", _DRONE, "120 m"),
        (
            "How close does the Kestrel pipeline pass to well W-3?",
            "Kestrel pipeline passes within 85 m of well W-3",
            "85 m",
        ),
        ("What azimuth is dish D-2 pointed at?", _DISH, "212°"),
        (
            "What area did the Kestrel burn scar survey cover?",
            "Kestrel burn scar survey covered 312 km² of forest",
            "312 km2",  # the row read in its compatibility form (NFKC): "²" is "2"
        ),
        ("What is the failure probability for pump P-9?", _PUMP, "2.4e-6"),
        ("What visibility does the Tarn airfield forecast give?", _FORECAST, "800 m"),
    ],
)
def test_a_physical_measure_is_read_by_its_unit(question: str, row: str, value: str) -> None:
    answers(question, facts(("probe", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # another transmitter, drone, pump: a neighbouring measure of another thing
        ("Which frequency is transmitter TX-5 on?", _TRANSMITTER),
        ("What altitude is survey drone SD-4 flying at?", _DRONE),
        ("What is the failure probability for pump P-10?", _PUMP),
        ("What visibility does the Kell airfield forecast give?", _FORECAST),
        # the downlink's rate for the uplink's
        ("What bit rate does the Harlow backhaul downlink run at?", _BACKHAUL),
        # a unit the question names that the row's measure is not in
        ("Which frequency is transmitter TX-4 on, in kHz?", _TRANSMITTER),
        # two of the asked measure and no word of the question labelling one
        ("What voltage is inverter INV-7 seeing?", _INVERTER),
        ("What angle is dish D-2 pointed at?", _DISH),
    ],
)
def test_a_physical_measure_of_another_thing_or_unit_is_no_answer(question: str, row: str) -> None:
    no_answer(question, facts(("probe", row)))


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("X-band at 8.2 GHz", Kind.FREQUENCY, "8.2 GHz"),
        ("pulling 320 Mbps", Kind.BITRATE, "320 Mbps"),
        ("battery bus 28.4 V", Kind.VOLTAGE, "28.4 V"),
        ("delta-v 0.35 m/s", Kind.SPEED, "0.35 m/s"),
        ("miss 412 m", Kind.LENGTH, "412 m"),
        ("a 300mm main", Kind.LENGTH, "300mm"),
        ("max el 63°", Kind.ANGLE, "63°"),
        ("ordered 1,840 km²", Kind.AREA, "1,840 km²"),
        ("Pc 3.1e-5", Kind.PROBABILITY, "3.1e-5"),
    ],
)
def test_a_physical_measure_is_one_value_of_its_kind(text: str, kind: Kind, value: str) -> None:
    assert [(v.kind, v.text) for v in values_in(text) if v.kind is kind] == [(kind, value)]


@pytest.mark.parametrize(
    ("text", "value"),
    [("sync took 2h 14m", "2h 14m"), ("timeout 10m", "10m"), ("took 14 m", "14 m")],
)
def test_minutes_stay_a_duration(text: str, value: str) -> None:
    assert [(v.kind, v.text) for v in values_in(text)] == [(Kind.DURATION, value)]
