"""A question whose choice is what the default should be states no default: "default" names
the decision, not its answer. The cue follows the whole alternative ("A4 or Letter by
default?"), a setting's state is set by default against another state ("reminders on by
default, or off?"), the default is made or given to others ("make X the default?", "default
new members to A or B?", "X by default for all new patients?"), or the default is the subject
asked about ("should the default be A or B?"). Near misses of the same shape keep their
stated default: a value said by default before its alternative, the asker's aside on one
side, a state marked "(default)", a default said in a sentence of its own."""

from __future__ import annotations

import pytest

from crewline.policy import Placement, VerdictKind, check_placement, judge
from tests.unit.gate_kit import careful


def _default(question: str, value: str, options: tuple[str, ...] = ()) -> None:
    verdict = judge(question, options=options)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


def _asks_the_default(question: str, options: tuple[str, ...] = ()) -> None:
    careful(question, options)
    assert judge(question, options=options).why == "it asks what the default should be"


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Bakery loyalty app: order reminders on by default, or off?", ("on", "off")),
        ("Clinic portal: appointment reminders enabled by default or disabled?", ()),
        ("Recipe boards in the cooking app public by default, or private?", ()),
        ("Flight-planning tool telemetry: opt-in by default, or opt-out?", ("opt-in", "opt-out")),
        ("Should guest wifi at the hotel be open by default or locked?", ("open", "locked")),
    ],
)
def test_a_settings_state_by_default_against_another_state_asks_the_default(
    question: str, options: tuple[str, ...]
) -> None:
    _asks_the_default(question, options)


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Receipt layout for the bakery till: A4 or Letter by default?", ("A4", "Letter")),
        ("Metric or imperial units as the default for the greenhouse sensors?", ()),
        ("Cash or card as the default at the farm shop till?", ()),
        ("Greenhouse logger readings in Celsius vs Fahrenheit by default?", ()),
    ],
)
def test_a_cue_after_the_whole_alternative_asks_the_default(
    question: str, options: tuple[str, ...]
) -> None:
    _asks_the_default(question, options)


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Make the night bus timetable the default?", ()),
        ("Make large print the new default?", ()),
        ("Default new members to the basic plan or the family plan?", ()),
        (
            "Default new members to the basic plan or the family plan?",
            ("basic plan", "family plan"),
        ),
        ("Should the greenhouse logger default new sensors to Celsius or Fahrenheit?", ()),
        ("Large print by default for all new patients?", ()),
        ("Should the default be JPEG or TIFF?", ()),
        ("Which as default, 24-hour or 12-hour clock?", ()),
    ],
)
def test_a_default_made_or_given_to_others_or_asked_about_is_the_choice(
    question: str, options: tuple[str, ...]
) -> None:
    _asks_the_default(question, options)


@pytest.mark.parametrize(
    ("question", "answer", "options"),
    [
        ("Bakery loyalty app: order reminders on by default, or off?", "on", ("on", "off")),
        (
            "Receipt layout for the bakery till: A4 or Letter by default?",
            "Letter",
            ("A4", "Letter"),
        ),
    ],
)
def test_a_models_default_for_a_question_that_asks_the_default_stays_with_the_human(
    question: str, answer: str, options: tuple[str, ...]
) -> None:
    verdict = check_placement(
        question, Placement(kind="stated_default", answer=answer), options=options
    )
    assert verdict.answer is None and verdict.final, verdict


@pytest.mark.parametrize(
    ("question", "value", "options"),
    [
        # a value said by default before its alternative is the asker's own
        ("Kiln log units: Celsius by default, or Fahrenheit?", "Celsius", ()),
        ("Label width for my test print: 50 mm by default, or 62 mm?", "50 mm", ()),
        # the asker's aside on one side, after a bracket, a dash or a sentence's end
        (
            "Binding for the choir handouts: staples or rings (default: staples)?",
            "staples",
            ("staples", "rings"),
        ),
        ("Font for the menu: Garamond or Futura — default Garamond, ok?", "Garamond", ()),
        ("Print the seating plan in colour or greyscale? greyscale by default", "greyscale", ()),
        # a state marked as the default, and a state said by default in an aside
        ("Order reminder sound on (default) or off?", "on", ("on", "off")),
        ("Add a --quiet switch (off by default) to the label printer script?", "off", ()),
    ],
)
def test_a_default_said_for_one_side_stays_stated(
    question: str, value: str, options: tuple[str, ...]
) -> None:
    _default(question, value, options)


def test_making_something_of_the_default_is_no_decision_of_it() -> None:
    verdict = judge("Make a copy of the default rota?")
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict
