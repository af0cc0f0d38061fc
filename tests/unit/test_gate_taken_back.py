"""A default the question itself takes back, and a model's default the text does not mark.

The red team of session 32 on stated defaults: each form below made the gate (or a model's
placement, checked in code) answer a value the asker did not state as the default — said
only to be set aside, given for some cases only, doubted or withdrawn, given of another
thing than the one asked, one of two defaults, or a word a model took from beside a cue.
Attacks in a bakery's, a ward's, a shipping line's and a school's words; each near miss of
the same shape keeps its answer."""

from __future__ import annotations

import pytest

from crewline.policy import Placement, VerdictKind, check_placement, judge


def _held(question: str, found: str) -> None:
    """The gate answers nothing, finally, and its reason names what it found."""
    verdict = judge(question)
    assert verdict.answer is None and verdict.final, verdict
    assert found in verdict.why, verdict.why


def _default(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


def _model(question: str, answer: str) -> str | None:
    """What a model's stated_default placement gets through the checks, or None."""
    verdict = check_placement(question, Placement(kind="stated_default", answer=answer))
    return verdict.answer if verdict.kind.routine else None


# ------------------------------------------------- 1. a default named only to be set aside


@pytest.mark.parametrize(
    "question",
    [
        "Bake time for the croissants: not the default 18 min — what should we use?",
        "Which fuel grade for the feeder, not the default VLSFO?",
        "Which lesson length for year 9? Not the default 50 min.",
        "Which dressing for bed 12? Anything but the usual hydrocolloid.",
        "Which carrier this week? Not Maersk as before.",
        "Flour for the rye: instead of the default T55, which?",
        "We won't use the default 50 min lessons. Which lesson length?",
        "Avoid the default 12 h shift. Which shift length?",
        "Font for the report cards: not Arial like last time. Which?",
    ],
)
def test_a_default_set_aside_is_not_answered(question: str) -> None:
    _held(question, "aside")


@pytest.mark.parametrize(
    "question",
    [
        "Proof time: the usual 45 min; 60 min in winter. Ok?",
        "Pallet height: the standard 1.8 m, 1.2 m for air freight. Ok?",
        "Lesson length: the default is 50 min, 40 min on Fridays. Ok?",
        "Container: the usual 40 ft, 20 ft for the island feeder. Ok?",
        "Glaze: the default is honey, but not for vegan orders. Glaze for the vegan order?",
        "Dressing: foam by default, except for burns. Which for the burns patient?",
    ],
)
def test_a_default_said_to_hold_only_in_some_cases_is_not_answered(question: str) -> None:
    _held(question, "default")


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a negation in another clause, or after the default, sets nothing aside
        (
            "Proof time for the rye loaves: I'd normally go with the usual 45 min — any "
            "reason not to?",
            "45 min",
        ),
        ("Report card font: not changing anything, Arial as usual?", "Arial"),
        ("Pallet wrap: the default 3 turns okay? I don't think the light loads need more.", "3"),
        # an option offered beside the default, and a note in the default's own aside
        ("Sample rate for the ward monitor: 1 Hz (default, 5 Hz if it drifts) or 2 Hz?", "1 Hz"),
        ("Bread tin size for my test bake: 900 g by default, no changes. Fine?", "900 g"),
    ],
)
def test_a_default_not_set_aside_stands(question: str, value: str) -> None:
    _default(question, value)


def test_a_word_after_by_default_and_a_comma_is_not_the_default() -> None:
    # main read "maple" (the other clause's first word) as the default: a wrong fact
    _default("Glaze for the buns: honey by default, maple on request. Ok?", "honey")


# ------------------------------------------------------- 2. a default doubted or withdrawn


@pytest.mark.parametrize(
    "question",
    [
        "Crust colour: dark by default — actually, not sure. Which?",
        "Which berth? Berth 4 by default — actually I'm not sure that's still right.",
        "Dose unit: mg by default — wait, maybe not. Which?",
        "Glaze: honey by default — actually scratch that. Which glaze?",
        "The default dose is 5 mg, I think, but I'm not sure. Which dose?",
        "Bell time 08:45 as usual — or was it changed? Which bell time?",
        "Lesson length defaults to 50 min, or did the head change that? Lesson length?",
        "The default was 75% hydration, no longer. Which hydration?",
        "Container size: 40 ft as usual? No wait, let me check first. Which size?",
    ],
)
def test_a_default_doubted_or_withdrawn_is_not_answered(question: str) -> None:
    _held(question, "doubts or takes back")


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Dressing change interval for my practice dummy: 48 h as usual, fine?", "48 h"),
        ("Lesson length? I assume the school default of 50 min.", "50 min"),
        ("Lesson bell in the timetable mock-up: 08:45 like before. Ok?", "08:45"),
        ("Font for the bake-sale flyer: Georgia as always, ok?", "Georgia"),
    ],
)
def test_a_default_said_plainly_stands(question: str, value: str) -> None:
    _default(question, value)


# ------------------------------------------- 3. a default of one thing, asked of another


@pytest.mark.parametrize(
    "question",
    [
        "Rye bakes at 230 °C by default. Which temperature for the sourdough?",
        "The usual shift for nurses is 12 h. Which shift for the porters?",
        "Default berth for feeders is berth 4. Which berth for the mainline vessel?",
        "Year 7 lessons are 50 min by default. Lesson length for year 11?",
        "The default glaze for croissants is butter. Which glaze for the buns?",
        "In the test kitchen the default oven temp is 180 °C. Oven temp for the main bakery?",
        "Earlier you asked about the oven; default 200 °C. Now: which proof time?",
        "Earlier question: which flour (default T65)? Answered. Now: which glaze?",
    ],
)
def test_a_default_of_another_thing_is_not_answered(question: str) -> None:
    _held(question, "another thing")


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # the asking clause takes the default along, or picks among what was set out
        ("Default berth is 4. Use that for the feeder?", "4"),
        ("The kiln can fire at cone 6 (default) or cone 10. Which one for the test tiles?", "6"),
        (
            "Reefer log interval for my local replay: 15 min is the default. Which interval?",
            "15 min",
        ),
        (
            "Reefer log interval for my local replay: 15 min is the default. Which interval "
            "for the replay?",
            "15 min",
        ),
        (
            "The dough mixer's default is 8 min, which worked fine last time. Which mix time?",
            "8 min",
        ),
    ],
)
def test_a_default_of_the_thing_asked_stands(question: str, value: str) -> None:
    _default(question, value)


# ------------------------------------------------------------------- 4. two defaults


@pytest.mark.parametrize(
    "question",
    [
        "The default glaze is honey; the bakery default is maple. Which glaze?",
        "Berth: default berth 4, terminal default berth 7. Which berth?",
        "Lesson length defaults to 50 min, the timetable default is 45 min. Length?",
        "Ward default dressing is foam; the clinic default is gauze. Ok?",
        "Crate liner: the default is kraft; the export default is foil. Which liner?",
    ],
)
def test_two_defaults_are_not_answered(question: str) -> None:
    _held(question, "two different defaults")


# ------------------------------------- 5. a model's default the text does not mark as one


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # a word of the sentence that says "default", not its value
        ("Proof temperature — not the usual 26 °C this time. What then?", "temperature"),
        ("Proof temperature — not the usual 26 °C this time. What then?", "not"),
        ("The default replica count for staging is 2. How many replicas for prod?", "staging"),
        ("Default flour for the test bake is T55. Which flour for the wedding order?", "bake"),
        ("The default glaze is honey; the bakery default is maple. Which glaze?", "bakery"),
        ("Berth: default berth 4, terminal default berth 7. Which berth?", "terminal"),
        ("Year 7 lessons are 50 min by default. Year 11?", "min"),
        ("Dressing change interval for my practice dummy: 48 h as usual, fine?", "fine"),
        (
            "Proof time for the rye loaves: I'd normally go with the usual 45 min — any "
            "reason not to?",
            "go",
        ),
        # a value the question sets aside, gives of another thing, or asks about
        ("Proof temperature — not the usual 26 °C this time. What then?", "26 °C"),
        ("The default replica count for staging is 2. How many replicas for prod?", "2"),
        ("Default flour for the test bake is T55. Which flour for the wedding order?", "T55"),
        ("The default dose used to be 5 mg but pharmacy revised it. Which dose for bed 4?", "5 mg"),
        ("The ward's usual dressing is foam. What's the bed 3 patient's allergy?", "foam"),
        ("Default carrier: Maersk (outdated). Which carrier?", "Maersk"),
    ],
)
def test_a_models_default_must_be_what_the_text_marks(question: str, answer: str) -> None:
    assert _model(question, answer) is None


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Loaf tin liner for my test bake? default 12 in", "12 in"),
        ("Font for the bake-sale flyer: Georgia as always, ok?", "Georgia"),
        ("Typeface for the staff rota: Lato, same as the last two issues?", "Lato"),
        ("Bell time for the mock timetable, 08:45 (the usual one)?", "08:45"),
    ],
)
def test_a_models_default_the_text_marks_holds(question: str, answer: str) -> None:
    assert _model(question, answer) == answer


# ------------------------------- 6. "go with X": a recommendation or a vogue is no default


@pytest.mark.parametrize(
    "question",
    [
        "The vendor recommends Maersk for the Rotterdam leg — go with Maersk?",
        "Go with Bakels as the flour supplier?",
        "Pump brand for the new ward: the manufacturer recommends Baxter. Go with Baxter?",
        "Exam board for the new GCSE course: AQA is popular. Go with AQA?",
        "Shall we go with Hapag-Lloyd for the Baltic feeder?",
        "Should I go with the Untis timetable app for the school?",
    ],
)
def test_going_with_a_thing_no_default_names_is_a_choice(question: str) -> None:
    _held(question, "a choice (go with")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Keep going with the stock count of the cold room?", "yes"),
        ("Go with the plan for the bake schedule?", "yes"),
        ("Plan for the ward handover notes looks fine, go with it?", "yes"),
        ("Kraft is the default crate liner, go with it?", "Kraft"),
        ("Go with the default 40 ft container?", "40"),
    ],
)
def test_going_on_or_going_with_the_default_stands(question: str, answer: str) -> None:
    verdict = judge(question)
    assert verdict.kind.routine and verdict.answer == answer, verdict
