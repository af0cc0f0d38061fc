"""Two members who give one fact in different words dispute it: a row that names what the
answer is of by the answer's own marks of which one it is — a label in capitals or digits, a
day, a place in an order ("top", "first"), a qualifier — every one of them and no other, and
by the answer's other words but one (the head noun may differ: "playlist" for "ladder",
"incident" for "postmortem"), gives a value of the same thing; with another value, the
question goes to the human and the card names both. A row with one mark more or fewer (another
month, region, batch, environment, place) is of another one, and the answer stands.

Each case is of another trade than the eval sets' (kiln firing, change tickets, ward rounds).
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement
from tests.unit.gate_kit import answers, by_model, disputed, facts

MARKED = [
    (  # the label and the place said, the head noun said otherwise
        "What's the top temperature on the B2 glaze firing profile?",
        ("kiln", "B2 glaze firing profile top step is 1240 °C, that's what we fire at"),
        ("quality", "pulled the controller log for the B2 glaze loads: top step there is 1220 °C"),
        "1240 °C",
        "1220 °C",
    ),
    (  # the day and the label said, the event's noun said otherwise
        "Which CHG number do I attach the rollback review to?",
        ("release", "Friday's SAP rollback review is filed under CHG-20931"),
        ("basis", "the SAP transport rollback change from Friday is CHG-20913"),
        "CHG-20931",
        "CHG-20913",
    ),
]


# the thing asked by a pronoun only: the answer's marks name it, in another order (a
# model's citation of the row is refused anyway: the question names nothing it could check)
PRONOUN = [
    (  # the thing asked by a pronoun only: the answer's marks name it, in another order
        "I want to book the crane just before the Leith night shift change. When does it start?",
        ("berths", "Leith night shift change starts at 22:00 local"),
        ("crane", "night shift change at Leith kicks off at 21:30 local, same as always"),
        "22:00",
        "21:30",
    ),
]


@pytest.mark.parametrize(("question", "answer", "rival", "value", "other"), MARKED + PRONOUN)
def test_a_row_with_the_answers_marks_disputes_it_whatever_its_head_noun(
    question: str, answer: tuple[str, str], rival: tuple[str, str], value: str, other: str
) -> None:
    why = disputed(question, answer, rival, value)
    assert value in why and other in why, why
    assert answer[0] in why and rival[0] in why, why


@pytest.mark.parametrize(("question", "answer", "rival", "value", "other"), MARKED)
def test_a_model_citing_a_row_another_row_marks_alike_is_refused(
    question: str, answer: tuple[str, str], rival: tuple[str, str], value: str, other: str
) -> None:
    rows = facts(answer, rival)
    assert by_model(question, facts(answer), value) == value
    verdict = check_placement(
        question, Placement(kind="fleet", answer=value, row=rows[0].row_id), facts=rows
    )
    assert verdict.answer is None and not verdict.kind.routine, verdict
    assert other in verdict.why, verdict.why


NEIGHBOURS = [
    (  # another place in the order: the bottom step is another one
        "What's the top temperature on the B2 glaze firing profile?",
        ("kiln", "B2 glaze firing profile top step is 1240 °C, that's what we fire at"),
        ("quality", "pulled the controller log for the B2 glaze loads: bottom step is 620 °C"),
        "1240 °C",
    ),
    (  # another label: the B3 profile
        "What's the top temperature on the B2 glaze firing profile?",
        ("kiln", "B2 glaze firing profile top step is 1240 °C, that's what we fire at"),
        ("quality", "pulled the controller log for the B3 glaze loads: top step there is 1220 °C"),
        "1240 °C",
    ),
    (  # another day: Thursday's change is another one
        "Which CHG number do I attach the Friday rollback review to?",
        ("release", "Friday's SAP rollback review is filed under CHG-20931"),
        ("basis", "the SAP transport rollback change from Thursday is CHG-20913"),
        "CHG-20931",
    ),
    (  # another site: the Derby kiln's profile is another one
        "What's the top temperature on the B2 glaze profile in the Leeds kiln?",
        ("kiln", "Leeds kiln B2 glaze profile top step is 1240 °C"),
        ("quality", "Derby kiln B2 glaze profile top step is 1230 °C"),
        "1240 °C",
    ),
]


@pytest.mark.parametrize(("question", "answer", "other", "value"), NEIGHBOURS)
def test_a_row_with_another_mark_is_of_another_one_and_the_answer_stands(
    question: str, answer: tuple[str, str], other: tuple[str, str], value: str
) -> None:
    answers(question, facts(answer), value)
    answers(question, facts(answer, other), value)
