"""Two readings of a stated default. Keeping what is there, offered as one of the
alternatives ("Rust, Go, or stay with Python?"), names the status quo, not a default: the
choice stays open. And an option named by its place ("I'll keep the first one by default")
is the option in that place among the options the question says — never a place past the
last, one the question does not say in order, or a place with no options at all.

In a kitchen, a print shop, a school timetable and a garden centre, never the eval sets'
sentences."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, defaults, judge

# ---------------------------------------------------------------- the status quo as an option


@pytest.mark.parametrize(
    ("question", "options"),
    [
        (
            "Oven for the new menu: Rational, Miele, or stay with Hobart?",
            ("Rational", "Miele", "Hobart"),
        ),
        ("Paper stock: Mohawk, or stick with Neenah?", ("Mohawk", "Neenah")),
        ("Keep Helvetica or move to Inter for the timetable?", ("Helvetica", "Inter")),
    ],
)
def test_the_status_quo_offered_as_an_alternative_is_no_default(
    question: str, options: tuple[str, ...]
) -> None:
    assert defaults.stated(question, options=options) is None
    verdict = judge(question, options=options)
    assert verdict.answer is None and verdict.final, verdict


@pytest.mark.parametrize(
    ("question", "options", "value"),
    [
        # a default's cue or a precedent says so too
        (
            "Compost: keep peat-free (the default) or switch to loam?",
            ("peat-free", "loam"),
            "peat-free",
        ),
        ("Paper stock: gloss as usual, or try matte?", ("gloss", "matte"), "gloss"),
        # keeping it, with no alternative offered
        ("Stick with A4 for the flyers?", (), "A4"),
    ],
)
def test_a_kept_value_a_cue_names_is_still_the_default(
    question: str, options: tuple[str, ...], value: str
) -> None:
    assert defaults.stated(question, options=options) == value


# ---------------------------------------------------------------- an option named by place


@pytest.mark.parametrize(
    ("question", "options", "value"),
    [
        (
            "Save the menu as `menu-a.pdf` or `menu-b.pdf`? I'll keep the first one by default",
            ("menu-a.pdf", "menu-b.pdf"),
            "menu-a.pdf",
        ),
        # counted in the order the question says them, not the order the options come in
        ("Tray size A3 or A4? The second one by default.", ("A4", "A3"), "A4"),
        ("Slot 9:00, 11:00 or 14:00? the last one by default", ("9:00", "11:00", "14:00"), "14:00"),
    ],
)
def test_an_ordinal_default_is_the_option_in_that_place(
    question: str, options: tuple[str, ...], value: str
) -> None:
    assert defaults.stated(question, options=options) == value
    verdict = judge(question, options=options)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    ("question", "options", "default"),
    [
        # no options to count
        ("Which pot size for the seedlings? I'll keep the first one by default", (), None),
        # a place past the last
        ("Tray size A3 or A4? the third one by default", ("A3", "A4"), None),
        # an option said twice: its place is not one
        ("A4 was last term's. A3 or A4? I'll keep the first one by default", ("A3", "A4"), None),
        # "the latter" of three
        ("Slot 9:00, 11:00 or 14:00? the latter by default", ("9:00", "11:00", "14:00"), None),
        # the given default is another option than the place names
        ("Tray size A3 or A4? I'll keep the second one by default", ("A3", "A4"), "A3"),
    ],
)
def test_an_unclear_ordinal_default_is_not_answered(
    question: str, options: tuple[str, ...], default: str | None
) -> None:
    verdict = judge(question, options=options, default=default)
    assert verdict.answer is None and not verdict.kind.routine, verdict
