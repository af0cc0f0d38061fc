"""A careful verdict's reason says the act as the question says it: a verb and its whole
object. Never a helping verb read as the act ("it cans …", "it shoulds …", "it does the …"),
never an object cut inside a written token — a time, an amount, a version, a path or an
address cut at its colon, comma, dot or dash ("it cancels the 14") — and never an object that
ends on the word that opened what the length limit cut ("… through the").

The verdicts stay careful: only their reasons change. Cases are of other domains than the
set that showed them (a mobile operator): a dental clinic, a shipping line, a school, a
brewery, a theatre.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import irreversible


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Cancel the 09:30 cleaning appointment for the Hartmann family?",
            "09:30 cleaning appointment",
        ),
        ("Refund the €1,250 deposit to the Larsen account?", "the €1,250 deposit"),
        ("Publish the timetable v2.4.1 to the parents' portal?", "v2.4.1"),
        ("Delete the bookings under /srv/box-office/2025-archive?", "/srv/box-office/2025-archive"),
    ],
)
def test_an_object_is_never_cut_inside_a_written_token(question: str, said: str) -> None:
    assert said in irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Pay the €7,900 invoice from the hop supplier through the brewery's bank portal?",
        "Email all 1,240 ticket holders the new curtain time for the Saturday matinee?",
    ],
)
def test_an_object_cut_by_its_length_never_ends_on_the_word_that_opened_the_cut(
    question: str,
) -> None:
    last = irreversible(question).split(",")[-1].split()[-1]
    assert last not in ("the", "a", "for", "through", "to", "of", "with"), last


@pytest.mark.parametrize(
    ("question", "not_said"),
    [
        ("Should the loyalty refund be paid out on Monday or on Friday?", "shoulds"),
        ("Confirm that I can `chmod -R 777 /srv/sailings` on the production host?", "cans"),
        ("Which berth and port does the production booking gateway listen on?", "it does"),
    ],
)
def test_a_helping_verb_is_never_the_act(question: str, not_said: str) -> None:
    assert not_said not in irreversible(question)


def test_a_verb_s_whole_object_is_still_said() -> None:
    # the near miss: "them all" ends whole, a quantifier is no opening word
    assert irreversible("The old rehearsal recordings are useless, purge them all?").endswith(
        "them all"
    )


@pytest.mark.parametrize(
    ("question", "named"),
    [
        (
            "The spare kegging line is broken anyway. Ok to scrap it and order a new one?",
            "the spare kegging line",
        ),
        ("Nobody books the old rehearsal hall any more, delete it?", "the old rehearsal hall"),
        ("Find which invoice is a duplicate and cancel it?", "the invoice"),
    ],
)
def test_a_bare_pronoun_object_says_what_the_question_named(question: str, named: str) -> None:
    assert irreversible(question).endswith(f"it ({named})")


@pytest.mark.parametrize(
    "question",
    [
        "Ship it?",  # nothing named: the pronoun as said
        "Keep Node 18 in the clinic's booking app, or drop it next term?",  # a place, not it
    ],
)
def test_a_pronoun_names_no_place_and_no_guess(question: str) -> None:
    said = irreversible(question)
    assert "(" not in said, said


def test_a_noun_used_as_a_verb_elsewhere_stays_in_its_phrase() -> None:
    said = irreversible("Keep the old fee schedule in the handbook, or drop it next term?")
    assert said.endswith("it (the old fee schedule)"), said


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Start the mailing campaign to all 9,000 library members?",
            "it starts the mailing campaign to all 9,000 library members",
        ),
        (
            "Run the charging batch for all bakery customers now?",
            "it runs the charging batch for all bakery customers",
        ),
    ],
)
def test_a_participle_before_its_noun_is_said_in_its_phrase(question: str, said: str) -> None:
    # still careful: the phrase names the act; only the wording is the question's own
    assert irreversible(question).startswith(f"irreversible: {said}")


def test_a_gerund_after_a_preposition_is_still_the_verb() -> None:
    said = irreversible("Proceed with deleting the lapsed frequent-flyer accounts?")
    assert said.startswith("irreversible: it deletes the lapsed frequent-flyer accounts"), said
