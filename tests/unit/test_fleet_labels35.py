"""A name the row binds to the asked noun: the noun written right before it ("given to
contractor Hallam Roofing Ltd", "went with haulier Northway Freight"), the question's own
label for the thing joined to a name in code form by a colon ("Which batch was the main
culprit?" of "Main culprit: B2611_whole"), or the account a login names ("sign in as
ward6-nurse" for "which user"). Near misses stay with the human: the name bound to another
noun (a driver for the haulier), the noun with no name after it, an old, backup or planned
one, a negated login, a name of another thing after the label ("cooler_C2" for the batch),
another label ("Second source"), another place, a candidate not decided, a host asked where
the row names the login. Domains apart from the dev sets (a shipping line, a school, a
bakery, a hospital ward, a dairy, a brewery, a theatre, a vineyard, a print shop, a ski
resort).
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, facts, no_answer

# (question, row, the value) — a name after the asked noun the kinds table does not know
_BY_THE_NOUN = [
    (
        "Which carrier got the Antwerp feeder contract?",
        "Antwerp feeder contract awarded to carrier Baltic Feeder Lines, from March",
        "Baltic Feeder Lines",
    ),
    (
        "Which haulier took the Leeds pallets?",
        "the Leeds pallets went with haulier Northway Freight on Tuesday",
        "Northway Freight",
    ),
    (
        "Which contractor is re-roofing the school gym?",
        "the school gym re-roofing went to contractor Hallam Roofing Ltd, start Monday",
        "Hallam Roofing Ltd",
    ),
    (
        "Which miller does the bakery buy its rye flour from?",
        "the bakery buys its rye flour from miller Stoneground Partners, weekly drop",
        "Stoneground Partners",
    ),
    (
        "Which courier takes the print shop's poster deliveries?",
        "the print shop's poster deliveries go with courier Swift Parcels Ltd",
        "Swift Parcels Ltd",
    ),
    (
        "Which agency staffed the ward night shift?",
        "the ward 7 night shift was staffed by agency Meridian Nursing, 3 nurses",
        "Meridian Nursing",
    ),
    (
        "Which creamery takes the dairy's surplus milk?",
        "the dairy's surplus milk goes to creamery Valley Creameries, 2 tankers a week",
        "Valley Creameries",
    ),
    (
        "Which caterer does the theatre gala use?",
        "for the theatre gala we booked caterer Olive Grove Catering",
        "Olive Grove Catering",
    ),
]

# the account a login names, for "which user / account / login"
_LOGGED_IN_AS = [
    (
        "Which user do I sign in to the ward terminal as?",
        "Ward 6 terminal: sign in as ward6-nurse, password from the desk",
        "ward6-nurse",
    ),
    (
        "Which account do I log into the box office till as?",
        "the box office till is back up; log in as boxoffice-till2.",
        "boxoffice-till2",
    ),
    (
        "Which account do we connect to the vineyard sensor hub as?",
        "the vineyard sensor hub accepts MQTT; connect as vine_reader",
        "vine_reader",
    ),
    (
        "Which user do I log into the lift control panel as?",
        "lift control panel for the gondola: logged in as lift_ops_ro this morning, works",
        "lift_ops_ro",
    ),
    (
        "Which login does the bakery kiosk use?",
        "bakery kiosk reset done, it signs in as kiosk-bakery-01 now",
        "kiosk-bakery-01",
    ),
]

# the question's label for the thing ("the main culprit"), a colon, a name in code form
_BY_THE_LABEL = [
    (
        "Which lift was the main cause of the queue?",
        "ski resort queue report: Main cause: chairlift_C4, wind hold for 40 min.",
        "chairlift_C4",
    ),
    (
        "Which batch was the main culprit for the sour milk?",
        "dairy QA: 3 sour milk complaints this week. Main culprit: B2611_whole, pulled.",
        "B2611_whole",
    ),
    (
        "Which block was the main source of the botrytis?",
        "vineyard scouting done, botrytis found. Main source: C7_east, by the river.",
        "C7_east",
    ),
    (
        "Which bus was the worst offender for late arrivals?",
        "school transport: 12 late arrivals. Worst offender: R14_express.",
        "R14_express",
    ),
    (
        "Which tank was the main culprit for the off-flavour?",
        "the off-flavour batch came out of cellar 2. Main culprit: FV_03.",
        "FV_03",
    ),
    (
        "Which pump was the root cause of the low pressure?",
        "brewery utilities: low pressure on line 2. Root cause: P-207.",
        "P-207",
    ),
    (
        "Which press was the main cause of the smudged posters?",
        "print shop QA: 40 smudged posters. Main cause: HD_XL106, roller wear.",
        "HD_XL106",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), _BY_THE_NOUN)
def test_a_name_written_after_the_asked_noun_answers(question: str, row: str, value: str) -> None:
    answers(question, facts(("desk", row)), value)


@pytest.mark.parametrize(("question", "row", "value"), _LOGGED_IN_AS)
def test_the_account_a_login_names_answers_which_user(question: str, row: str, value: str) -> None:
    answers(question, facts(("desk", row)), value)


@pytest.mark.parametrize(("question", "row", "value"), _BY_THE_LABEL)
def test_a_code_name_after_the_questions_own_label_answers(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("desk", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # the name bound to a neighbouring noun: a driver is no haulier
        (
            "Which haulier took the Leeds pallets?",
            "the Leeds pallets went with driver Tom Hale on Tuesday",
        ),
        # the noun with no name after it
        (
            "Which haulier took the Leeds pallets?",
            "the Leeds pallets went with our usual haulier on Tuesday",
        ),
        # another place's
        (
            "Which haulier took the Leeds pallets?",
            "the York pallets went with haulier Northway Freight on Tuesday",
        ),
        # the old one
        (
            "Which carrier got the Antwerp feeder contract?",
            "the Antwerp feeder contract stayed with the old carrier Baltic Feeder Lines",
        ),
        # a candidate, not decided
        (
            "Which carrier got the Antwerp feeder contract?",
            "Antwerp feeder contract: shortlist has carrier Baltic Feeder Lines, not decided",
        ),
        # the planned one
        (
            "Which contractor is re-roofing the school gym?",
            "the school gym re-roofing will go to contractor Hallam Roofing Ltd next spring",
        ),
        # a backup one
        (
            "Which contractor is re-roofing the school gym?",
            "the school gym re-roofing went to the backup contractor Hallam Roofing Ltd",
        ),
        # a supposed one
        (
            "Which caterer does the theatre gala use?",
            "for the theatre gala we might book caterer Olive Grove Catering",
        ),
        # a name of another trade, by another noun
        (
            "Which caterer does the theatre gala use?",
            "for the theatre gala we booked the lighting firm Olive Grove Rigging",
        ),
        # a login said not to be used
        (
            "Which user do I sign in to the ward terminal as?",
            "Ward 6 terminal: don't sign in as ward6-admin, use your own badge",
        ),
        # a login is no host
        (
            "Which host do I log into for the ward terminal?",
            "Ward 6 terminal: sign in as ward6-nurse, password from the desk",
        ),
        # a login that names no account, in prose
        (
            "Which user do I log into the lift control panel as?",
            "lift control panel for the gondola: log in as the duty operator",
        ),
        # the label with a word of prose after it: no name
        (
            "Which batch was the main culprit for the sour milk?",
            "dairy QA: 3 sour milk complaints this week. Main culprit: still unknown.",
        ),
        # the label with a name of another thing after it: a cooler is no batch
        (
            "Which batch was the main culprit for the sour milk?",
            "dairy QA: 3 sour milk complaints this week. Main culprit: cooler_C2, door open.",
        ),
        # another label than the question's
        (
            "Which block was the main source of the botrytis?",
            "vineyard scouting done, botrytis found. Second source: block_C9, west slope.",
        ),
        # a hedged label
        (
            "Which press was the likely cause of the smudged posters?",
            "print shop QA: 40 smudged posters. Likely cause: HD_XL106, roller wear.",
        ),
    ],
)
def test_a_name_bound_to_another_noun_or_not_standing_stays_with_the_human(
    question: str, row: str
) -> None:
    no_answer(question, facts(("desk", row)))


def test_two_rows_naming_two_hauliers_dispute() -> None:
    no_answer(
        "Which haulier took the Leeds pallets?",
        facts(
            ("yard", "the Leeds pallets went with haulier Northway Freight on Tuesday"),
            ("office", "the Leeds pallets went with haulier Pennine Transport on Tuesday"),
        ),
    )
