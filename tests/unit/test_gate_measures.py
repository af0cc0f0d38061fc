"""The offline fleet reader on a measure asked in words of any domain: a noun of a measure
("what speed", "what fraction", "the RTT", "the deadline"), "how <adjective>" ("how loaded",
"how heavy", "how quickly"), a measure's adjective before a noun of no kind ("the heaviest
pallet"), and the value read by its type (a mass, a distance, a frequency in its unit; a data
rate in bits per second). Each in warehousing, cycling, office networks and builds — never
the eval sets' sentences — with the near miss that stays with the human: a row that says no
value of the measure asked, or another measure."""

from __future__ import annotations

import pytest

from crewline.policy.values import Kind, values_in
from tests.unit.gate_kit import answers, by_model, facts, no_answer

# ---------------------------------------------------------------- values by their unit


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("the crate weighs 38 kg with its lid", "38 kg", Kind.QUANTITY),
        ("the climb starts at km 112.5 of the stage", "km 112.5", Kind.QUANTITY),
        ("the route is 42.2 km, all of it flat", "42.2 km", Kind.QUANTITY),
        ("the access point runs a 2.4 GHz radio", "2.4 GHz", Kind.QUANTITY),
        ("the office uplink now does 500 Mbps both ways", "500 Mbps", Kind.RATE),
        ("the backbone is a 10 Gbit/s ring", "10 Gbit/s", Kind.RATE),
    ],
)
def test_a_number_in_a_unit_of_a_physical_measure_is_read_as_that_measure(
    text: str, value: str, kind: Kind
) -> None:
    read = [(v.text, v.kind) for v in values_in(text)]
    assert read == [(value, kind)]


@pytest.mark.parametrize(
    "text",
    ["we moved the site to 5G last week", "a 3 a.m. page", "version 2.4 of the app"],
)
def test_a_letter_after_a_number_that_is_a_word_or_a_generation_is_no_measure(text: str) -> None:
    assert all(v.kind is not Kind.QUANTITY for v in values_in(text))


# ---------------------------------------------------------------- the measure asked

ANSWERED = [
    # warehousing: a weight asked by a measure's adjective before a noun of no kind
    (
        "What's the heaviest pallet the mezzanine shelf can take?",
        "Mezzanine shelf in hall B takes pallets of max 500 kg; 12 bays in all.",
        "500 kg",
    ),
    # cycling: a distance asked by a noun of a unit of it
    (
        "At what kilometre does the climb start on stage 4?",
        "Stage 4 notes: the climb starts at km 112.5, feed zone right after it.",
        "km 112.5",
    ),
    # office networks: a speed, after a fronted clause ("Once …, what speed …?")
    (
        "Once the fibre upgrade is done, what speed does the office get?",
        "Fibre upgrade for the office is done: 500 Mbps symmetric now.",
        "500 Mbps",
    ),
    # a share asked as a fraction
    (
        "What fraction of nightly builds passed last week?",
        "Nightly builds last week: 92.5% passed, the rest died on the flaky e2e job.",
        "92.5%",
    ),
    # "how loaded", in percent
    (
        "how loaded was the database primary at its peak, in percent?",
        "db primary peaked at 64% at 14:00 yesterday, nothing alarming.",
        "64%",
    ),
    # a round trip asked by its abbreviation: a duration
    (
        "What RTT does the VPN tunnel to the Frankfurt office show?",
        "VPN tunnel to the Frankfurt office: RTT 23 ms, no loss.",
        "23 ms",
    ),
    # "how quickly": a duration
    (
        "How quickly must the hosting provider answer a sev-1 ticket?",
        "Hosting provider contract: sev-1 tickets answered within 30 minutes, 24/7.",
        "30 minutes",
    ),
    # a deadline: a date
    (
        "What's the deadline for the audit evidence upload?",
        "Audit evidence upload is due 2027-01-15, the auditors were clear.",
        "2027-01-15",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), ANSWERED)
def test_a_measure_asked_in_words_of_any_domain_is_answered_by_a_value_of_it(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("scout", row)), value)


NOT_ANSWERED = [
    # a bare count is no weight
    (
        "What's the heaviest pallet the mezzanine shelf can take?",
        "Mezzanine shelf in hall B takes pallets in 12 bays, installed in 2024.",
    ),
    # a duration is no distance
    (
        "At what kilometre does the climb start on stage 4?",
        "Stage 4: the climb takes the front group about 25 min.",
    ),
    # a size is no speed
    (
        "Once the fibre upgrade is done, what speed does the office get?",
        "Fibre upgrade for the office is done; the router has 512 MB of RAM.",
    ),
    # a count is no share
    (
        "What fraction of nightly builds passed last week?",
        "Nightly builds last week: 41 passed, mostly green.",
    ),
]


@pytest.mark.parametrize(("question", "row"), NOT_ANSWERED)
def test_a_row_with_no_value_of_the_measure_asked_answers_nothing(question: str, row: str) -> None:
    no_answer(question, facts(("scout", row)))


def test_a_model_citing_a_value_of_another_measure_gets_nothing_through() -> None:
    rows = facts(
        ("racking", "Mezzanine shelf in hall B takes pallets in 12 bays, installed in 2024."),
        ("racking", "Hall B forklift charger draws 16 A at 400 V."),
    )
    question = "What's the heaviest pallet the mezzanine shelf can take?"
    assert by_model(question, rows, "12") is None
    assert by_model(question, rows, "2024") is None


def test_a_verb_that_is_also_a_measure_noun_leaves_the_asked_kind_alone() -> None:
    # "powers" is the verb here: the version is asked, not a quantity
    answers(
        "Which Grafana version powers the ops dashboard?",
        facts(("infra", "The ops dashboard runs Grafana 10.4.2 since Friday.")),
        "10.4.2",
    )


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        ("How many DB replicas does the ledger run?", "the ledger runs 5 DB replicas", "5"),
        (
            "How many meters reported overnight?",
            "Overnight 12 meters reported, 2 stayed dark.",
            "12",
        ),
    ],
)
def test_a_count_of_a_thing_whose_name_is_also_a_unit_stays_a_count(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("scout", row)), value)


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        # warehousing: a weight, beside a frequency and a length in the same row
        (
            "What's the heaviest crate the hall B hoist can lift?",
            "Hall B hoist: lifts crates of max 750 kg, 2.4 GHz remote, 6 m hook height.",
            "750 kg",
        ),
        # cycling: a distance, beside a weight
        (
            "How far is the stage 4 feed zone from the start?",
            "Stage 4 feed zone sits 87 km from the start; bottles weigh 0.75 kg each.",
            "87 km",
        ),
        # a solar roof: the power asked in its unit, beside the energy of the day
        (
            "What peak output does the depot roof reach, in kW?",
            "Depot roof array: peak 48.5 kW at noon, 310 kWh over the day.",
            "48.5 kW",
        ),
    ],
)
def test_a_quantity_answers_only_in_a_unit_of_the_measure_asked(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("scout", row)), value)


def test_a_row_with_a_quantity_of_another_measure_answers_nothing() -> None:
    rows = facts(("racking", "Hall B hoist: 2.4 GHz remote, 6 m hook height, 12 crates a day."))
    question = "What's the heaviest crate the hall B hoist can lift?"
    no_answer(question, rows)
    assert by_model(question, rows, "2.4 GHz") is None
