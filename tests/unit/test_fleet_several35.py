"""A row that gives several values of the asked kind, each in its own clause with its own
noun, verb and qualifiers: the value whose own clause says what the question asks answers
("the rate, not its budget"; "the tank bottled into, not the old one"; "the ledger named
winter, not the clerk"; "the version labelled, not the one planned and not labelled"), when
exactly one does. Near misses stay unanswered: the picked value's clause has a qualifier of
its own the question does not say, two values both fit, the value's clause is negated or
planned, another ward, another week, another branch, two rows that disagree. Domains apart
from the dev sets (a hospital ward, a dairy, a vineyard, a bakery, a print shop, a theatre).
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, facts, no_answer

# A measure said on its own noun beside a limit, a target, a floor said on theirs.
_BESIDE_ITS_BOUND = [
    (
        "Ward 4 bed occupancy over the last week: 92%, ceiling is 95%.",
        "ward 4 bed occupancy, last week?",
        "92%",
    ),
    (
        "Dairy line 2 fill rate over the last shift: 98.5%, floor is 97%.",
        "dairy line 2 fill rate, last shift?",
        "98.5%",
    ),
    (
        "Kiln 3 crack rate over the last month: 2.4%, ceiling is 3%.",
        "kiln 3 crack rate over the last month?",
        "2.4%",
    ),
    (
        "Press hall humidity over the last day: 48%, limit is 60%.",
        "What was the press hall humidity over the last day?",
        "48%",
    ),
    (
        "Lift 2 uptime over the last season: 97.5%, promise is 99%.",
        "lift 2 uptime over the last season?",
        "97.5%",
    ),
    (
        "Theatre matinee sell-through rate over the last week: 81%, goal is 90%.",
        "theatre matinee sell-through rate, last week?",
        "81%",
    ),
    (
        "Cellar 2 relative humidity over the last night: 74%, threshold is 80%.",
        "cellar 2 relative humidity over the last night?",
        "74%",
    ),
]

# The value said with the question's verb — a verb the member's own name says too ("bottler"
# bottled), which alone tells the values apart — beside another of the asked noun that the
# row qualifies otherwise ("the old tank").
_BY_ITS_VERB = [
    (
        "bottler",
        "Bottled 1200 litres into tank t9_riesling; the old tank t4_riesling is still in use.",
        "Which tank did the bottling go into?",
        "t9_riesling",
    ),
    (
        "bottler",
        "Bottled 1200 litres into tank t9_riesling; the spare tank t4_riesling is still in use.",
        "Which tank did the bottling go into?",
        "t9_riesling",
    ),
    (
        "printer",
        "Printed 5000 flyers on press heidel_2; the old press heidel_1 is still on the floor.",
        "Which press did the printing run on?",
        "heidel_2",
    ),
    (
        "filler",
        "Filled 40 barrels from vat vat_12; the old vat vat_7 is still in the cellar.",
        "Which vat did the filling come from?",
        "vat_12",
    ),
    (
        "loader",
        "Loaded 212 containers onto vessel mv_aurora; the old vessel mv_borealis is still in dock.",
        "Which vessel did the loading go onto?",
        "mv_aurora",
    ),
    (
        "archiver",
        "Archived 3100 scripts into box box_2025; the old box box_2019 is still on the shelf.",
        "Which box did the archiving go into?",
        "box_2025",
    ),
    (
        "cellar",
        "Filled 40 barrels from vat vat_12; the old vat vat_7 is still in the cellar.",
        "Which vat were the barrels filled from?",
        "vat_12",
    ),
    (
        "stage-desk",
        "Rehearsed act two on stage main_stage; the old stage studio_b is still booked.",
        "Which stage was act two rehearsed on?",
        "main_stage",
    ),
]

# The value whose own name says a word of the question, beside another of the asked kind
# named by another noun ("with user …").
_BY_ITS_OWN_NAME = [
    (
        "The till is up; created ledger bakery_winter with clerk bk_ops.",
        "What's the winter ledger called?",
        "bakery_winter",
    ),
    (
        "The stockroom is up; created bin store_frozen with picker pk_ops.",
        "What's the frozen bin called?",
        "store_frozen",
    ),
    (
        "The booking desk is up; created list guests_gala with usher ush_ro.",
        "What's the gala list called?",
        "guests_gala",
    ),
    (
        "Ward system is up; created schema ward_east with login nurse_ro.",
        "What's the east schema called?",
        "ward_east",
    ),
    (
        "The press queue is up; created queue print_rush with owner shop_ops.",
        "What's the rush queue called?",
        "print_rush",
    ),
    (
        "Cellar log is ready; created table cellar_2024 with reader vint_ro.",
        "What's the 2024 table called?",
        "cellar_2024",
    ),
]

# The version said with the question's verb, beside one planned and denied it.
_THE_DONE_ONE = [
    (
        "Labelled 3.2.0 on branch spring/3.2. 3.2.1 is planned, not labelled.",
        "Which version is labelled on spring/3.2?",
        "3.2.0",
    ),
    (
        "Printed 4.1.0 on branch catalogue/4.1. 4.1.1 is planned, not printed.",
        "Which version is printed on catalogue/4.1?",
        "4.1.0",
    ),
    (
        "Shipped 7.4.0 on branch dairy/7.4. 7.4.1 is planned, not shipped.",
        "Which version is shipped on dairy/7.4?",
        "7.4.0",
    ),
    (
        "Poured 5.1.0 on branch vintage/5.1. 5.1.1 is planned, not poured.",
        "Which version is poured on vintage/5.1?",
        "5.1.0",
    ),
    (
        "Stamped 9.0.0 on branch ledger/9.0. 9.0.1 is planned, not stamped.",
        "Which version is stamped on ledger/9.0?",
        "9.0.0",
    ),
    (
        "Signed 2.0.0 on branch score/2.0. 2.0.1 is planned, not signed.",
        "Which version is signed on score/2.0?",
        "2.0.0",
    ),
]


@pytest.mark.parametrize(
    ("row", "question", "value"), _BESIDE_ITS_BOUND + _BY_ITS_OWN_NAME + _THE_DONE_ONE
)
def test_the_value_whose_own_clause_says_the_question_answers(
    row: str, question: str, value: str
) -> None:
    answers(question, facts(("desk", row)), value)


@pytest.mark.parametrize(("member", "row", "question", "value"), _BY_ITS_VERB)
def test_the_value_said_with_the_question_verb_answers(
    member: str, row: str, question: str, value: str
) -> None:
    answers(question, facts((member, row)), value)


@pytest.mark.parametrize(
    ("row", "question"),
    [
        # the measure's own clause has a qualifier the question does not say
        ("Ward 4 night occupancy: 92%, ceiling is 95%.", "ward 4 day occupancy?"),
        # another period than the one the row says
        (
            "Ward 4 bed occupancy over the last week: 92%, ceiling is 95%.",
            "ward 4 bed occupancy, last month?",
        ),
        # another ward
        (
            "Ward 4 bed occupancy over the last week: 92%, ceiling is 95%.",
            "ward 6 bed occupancy, last week?",
        ),
        # each value has its own measure, the question names neither
        ("Ward 4 wait time p50 is 20 min and p90 is 55 min.", "ward 4 wait time?"),
        # two values both fit
        (
            "Bottled 1200 l into tank t9_riesling and bottled 300 l into tank t4_riesling.",
            "Which tank did the bottling go into?",
        ),
        # the value's clause is negated
        (
            "Did not bottle into tank t9_riesling; the old tank t4_riesling is still in use.",
            "Which tank did the bottling go into?",
        ),
        # the value's clause is a plan
        (
            "Will bottle into tank t9_riesling next week; the old tank t4_riesling is in use.",
            "Which tank did the bottling go into?",
        ),
        # the question's verb said of neither
        (
            "Racked 1200 litres into tank t9_riesling; the old tank t4_riesling is still in use.",
            "Which tank did the blending go into?",
        ),
        # the question's word is the other value's name, not the asked one's
        (
            "The till is up; created ledger bakery_summer with clerk bk_winter.",
            "What's the winter ledger called?",
        ),
        # another branch than the one asked
        (
            "Labelled 3.2.0 on branch spring/3.2. 3.2.1 is planned, not labelled.",
            "Which version is labelled on autumn/3.2?",
        ),
        # the planned one is said with the question's verb too: which is asked is a guess
        (
            "Labelled 3.2.0 on branch spring/3.2. 3.2.1 gets labelled next week.",
            "Which version is labelled on spring/3.2?",
        ),
        # the question asks the present without its verb: then and next, a guess
        (
            "Labelled 3.2.0 on branch spring/3.2. 3.2.1 is planned, not labelled.",
            "What's the spring/3.2 version?",
        ),
        # a value said in parallel shares the first one's noun phrase
        (
            "Counted 7 burnt loaves on line a and 2 on line b.",
            "How many burnt loaves are there?",
        ),
        # the old value and the new one, the question says neither
        (
            "Dairy line 2 fill rate went from 95% to 98.5%, floor is 97%.",
            "dairy line 2 fill rate?",
        ),
        # the budget's own noun asked in another word: which is meant is a guess
        (
            "Kiln 3 crack rate over the last month: 2.4%, ceiling is 3%.",
            "kiln 3 crack rate allowance over the last month?",
        ),
    ],
)
def test_a_neighbouring_value_stays_unanswered(row: str, question: str) -> None:
    no_answer(question, facts(("desk", row)))


@pytest.mark.parametrize(
    "row",
    [
        # two values both said with the verb
        "Bottled 1200 l into tank t9_riesling and bottled 300 l into tank t4_riesling.",
        # the value said with the verb is a plan
        "Will bottle into tank t9_riesling next week; the old tank t4_riesling is in use.",
        # the verb said of both, the question's qualifier of neither
        "Bottled 1200 litres into tank t9_riesling; bottled the old tank t4_riesling too.",
    ],
)
def test_the_verb_the_members_name_says_tells_no_two_alike_apart(row: str) -> None:
    no_answer("Which tank did the bottling go into?", facts(("bottler", row)))


def test_two_rows_that_disagree_stay_unanswered() -> None:
    rows = facts(
        ("ward-desk", "Ward 4 bed occupancy over the last week: 92%, ceiling is 95%."),
        ("bed-board", "Ward 4 bed occupancy over the last week: 88%."),
    )
    no_answer("ward 4 bed occupancy, last week?", rows)
