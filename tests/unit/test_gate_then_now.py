"""A row that says a value in a past clause and goes on, in the same row, to give another
value of its kind as the one so now ("the proof *was* 45 min, *now* it's 60 min", "was in room
12 but got moved to room 14") says the first is no longer so. The reader took the first (the
clause that names the thing), offline and from a model: a wrong fact. The former value is now
read as gone for a question not asked in the past: the value said now is the answer, a
model citing the former one is refused. A question asked in the past ("what *did* the oven
peak at?") keeps the reading it had.

Near misses: a past value with no value said after it as the one so now ("the proof was 45
min yesterday"), a later value of another thing ("…; the day shift is now at 40"), a time
a state began ("left at 09:30 and has been at sea since 11:00") stay answered.

Every case is of another trade than the dev sets: a bakery, a ward, a port, a school, a
shop's kiosk.
"""

from __future__ import annotations

import pytest

from crewline.policy import judge
from tests.unit.gate_kit import answers, by_model, facts

CHANGED = [
    (  # a bakery
        "How long does the sourdough proof?",
        "The sourdough proof was 45 min, now it's 60 min.",
        "45 min",
    ),
    (  # the same across two sentences
        "How long does the sourdough proof?",
        "The sourdough proof was 45 min. Now it's 60 min.",
        "45 min",
    ),
    (  # a ward
        "What is the heparin infusion rate on ward 3?",
        "Heparin infusion rate on ward 3 was 18 ml/h, it's now 12 ml/h.",
        "18 ml/h",
    ),
    (  # a ward, "but now is"
        "What is the heparin infusion rate on ward 3?",
        "Heparin infusion rate on ward 3 was 18 ml/h but now is 12 ml/h.",
        "18 ml/h",
    ),
    (  # a port
        "Which berth does MV Aster use?",
        "MV Aster was at berth 7, now at berth 9.",
        "7",
    ),
    (  # a port, a verb in the past and "since" a day
        "Which berth does MV Aster use?",
        "MV Aster used berth 7; since Monday she uses berth 9.",
        "7",
    ),
    (  # a school, "got moved to"
        "Which room is the maths exam in?",
        "The maths exam was in room 12 but got moved to room 14.",
        "12",
    ),
    (  # a shop's kiosk
        "What port does the kiosk API listen on?",
        "The kiosk API listened on 8080 before the upgrade, now on 8443.",
        "8080",
    ),
    (  # a yard, the past verb after the value, "so it's … now"
        "How many lorries are booked for Friday?",
        "12 lorries were booked for Friday, we added 3 so it's 15 now.",
        "12",
    ),
    (  # a bakery, "then …, today …"
        "How long does the sourdough proof?",
        "Sourdough proof was 45 min, then 50 min, today 60 min.",
        "45 min",
    ),
    (  # a bakery's van, "was leaving … now it leaves"
        "When does the bakery van leave?",
        "The bakery van was leaving at 05:30, now it leaves at 05:00.",
        "05:30",
    ),
]


@pytest.mark.parametrize(("question", "row", "former"), CHANGED)
def test_the_value_a_row_says_it_changed_from_is_not_answered(
    question: str, row: str, former: str
) -> None:
    rows = facts(("member", row))
    verdict = judge(question, facts=rows)
    assert verdict.answer is None or former not in verdict.answer, verdict
    assert by_model(question, rows, former) is None


def test_the_card_says_the_row_gives_it_as_former() -> None:
    from crewline.policy import Placement, check_placement

    rows = facts(("baker", "The sourdough proof was 45 min, now it's 60 min."))
    verdict = check_placement(
        "How long does the sourdough proof?",
        Placement(kind="fleet", answer="45 min", row=rows[0].row_id),
        facts=rows,
    )
    assert verdict.answer is None and "former (it then changed)" in verdict.why


NEAR_MISSES = [
    (  # a past value, nothing said after it
        "How long was the sourdough proof yesterday?",
        "The sourdough proof was 45 min yesterday.",
        "45 min",
    ),
    (  # the later value is another thing's
        "How many containers did the night shift unload?",
        "The night shift unloaded 86 containers; the day shift is now at 40.",
        "86 containers",
    ),
    (  # "since" a time: when a state began, not what the value changed to
        "When did the ferry leave?",
        "The ferry left at 09:30 and has been at sea since 11:00.",
        "09:30",
    ),
    (  # the later value is another numbered thing's ("Year 8 now has 170")
        "How many pupils are in Year 7?",
        "Year 7 had 182 pupils; Year 8 now has 170.",
        "182 pupils",
    ),
    (  # the later number names another thing ("on ward 5")
        "How many nurses are on ward 4?",
        "Ward 4 had 6 nurses this morning, now 4 on ward 5.",
        "6 nurses",
    ),
    (  # a value and another thing's value said now
        "How many beds does ward 4 have?",
        "Ward 4 has 24 beds, ward 5 now has 30 beds.",
        "24 beds",
    ),
    (  # two past values of two things, none said as now
        "How long did the MRI scan take?",
        "The MRI scan took 40 min, the CT took 10 min.",
        "40 min",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), NEAR_MISSES)
def test_a_past_value_no_later_one_replaces_is_still_answered(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("member", row)), value)


def test_the_value_said_now_is_the_answer() -> None:
    rows = facts(("baker", "The sourdough proof was 45 min, now it's 60 min."))
    answers("How long does the sourdough proof?", rows, "60 min")
    answers(
        "What is the heparin infusion rate on ward 3?", facts(("pharm", CHANGED[2][1])), "12 ml/h"
    )


def test_a_question_asked_in_the_past_still_gets_what_it_was() -> None:
    rows = facts(("baker", "The bread oven peaked at 260 C, down to 220 C now."))
    answers("What did the bread oven peak at?", rows, "260")


def test_what_it_was_before_is_still_the_former_value() -> None:
    rows = facts(("baker", "The sourdough proof was 45 min, now it's 60 min."))
    assert by_model("How long was the sourdough proof before the change?", rows, "45 min") == (
        "45 min"
    )
