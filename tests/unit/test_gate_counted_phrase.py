"""A count is the number said with the counted noun, wherever its phrase puts the noun.

The noun may stand past two modifiers ("312 overdue library *loans*"), after the whole of
a share written with a slash ("96/96 integration *tests*"), or be left out where a count
says some of the noun just counted in a clause of its own that says the question's word
("640 parcels went through the sorter, 12 were rejected" for "how many did it reject?").
Near misses stay unanswered or keep their count: a count of a neighbouring noun ("…
across 14 branches"), a phrase whose own plural noun comes first ("40 drivers covering bus
routes"), a clause that says another outcome, the whole beside the part ("how many went
through?": 640), a number a clause names with a determiner ("40 is the cap"), and a
count whose modifiers restrict it ("312 *overdue* library loans") for a question that asks
the whole ("in total, overdue or not?") or never says the restriction. Domains apart
from the dev sets (a library, a parcel sorter, a help desk, a rain-gauge network).
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, facts, no_answer

LOANS = "Sweep done: 312 overdue library loans across 14 branches."
PARCELS = "Sort run done: 640 parcels went through the sorter, 12 were rejected for bad labels."


@pytest.mark.parametrize(
    ("question", "member", "row", "value"),
    [
        ("How many overdue library loans did the sweep find?", "sweep", LOANS, "312"),
        (
            "How many active volunteer badges are there?",
            "desk",
            "84 active volunteer badges as of this morning",
            "84",
        ),
        (
            "How many automatic rain gauges reported in the last hour?",
            "gauges",
            "Gauge poll: 51 of 60 automatic rain gauges reported in the last hour",
            "51",
        ),
        (
            "How many integration tests are in the ticketing suite?",
            "ci",
            "ticketing suite on staging: 96/96 integration tests green.",
            "96",
        ),
        ("How many parcels did the sorter reject?", "sorter", PARCELS, "12"),
        ("How many parcels went through the sorter?", "sorter", PARCELS, "640 parcels"),
    ],
)
def test_a_count_names_its_noun_anywhere_in_its_phrase(
    question: str, member: str, row: str, value: str
) -> None:
    answers(question, facts((member, row)), value)


@pytest.mark.parametrize(
    ("question", "member", "row"),
    [
        # the noun asked is not the one the number's phrase counts
        ("How many library cards did the sweep find?", "sweep", LOANS),
        # "drivers" is the phrase's noun: 40 counts no routes
        (
            "How many bus routes does the depot cover?",
            "depot",
            "Depot: 40 drivers covering bus routes.",
        ),
        # neither clause says the outcome asked
        ("How many parcels did the sorter lose?", "sorter", PARCELS),
        # "overdue" restricts the count: the whole is asked, overdue or not
        ("How many library loans are there in total, overdue or not?", "sweep", LOANS),
        ("How many library loans did the sweep find, whether overdue or not?", "sweep", LOANS),
        ("How many library loans are out altogether?", "sweep", LOANS),
        ("How many library loans are there, including returned ones?", "sweep", LOANS),
        # a restriction the question never says: the count is of some loans only
        ("How many library loans did the sweep find?", "sweep", LOANS),
        (
            "How many rain gauges are there in all?",
            "gauges",
            "Gauge poll: 51 of 60 automatic rain gauges reported in the last hour",
        ),
    ],
)
def test_a_count_of_another_noun_or_outcome_stays_unanswered(
    question: str, member: str, row: str
) -> None:
    no_answer(question, facts((member, row)))


def test_a_number_a_clause_names_is_no_count_of_the_noun_left_out() -> None:
    # "40 is the cap" names the cap: the one count of open tickets is 12
    answers(
        "How many open tickets are in the help-desk queue?",
        facts(("helpdesk", "help-desk queue: 12 open tickets; 40 is the cap.")),
        "12",
    )
