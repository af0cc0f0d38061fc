"""A question whose later clause says the kind of value it wants asks that kind: "Who runs
the night bake? I need her email." asks her email, not her name; "who is on the desk, I need
their email to write" the same (``asking._later_kind``). Only where the asking clause named
no kind but a person's, or none at all; a later "just the name" keeps the person, and a row
with the person's name but no address of theirs is no answer. Domains apart from the dev
sets (a bakery, a library, a ferry line)."""

from __future__ import annotations

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, no_answer

_BAKERY = facts(
    ("bakery", "Night bake lead at the Elm St bakery is Olga Brandt (olga.brandt@crumb.example).")
)
_DESK = facts(("library", "Reference desk lead this week is Tomas Ruiz, t.ruiz@stacks.example"))
_NAME_ONLY = facts(("bakery", "Night bake lead at the Elm St bakery is Olga Brandt."))


def test_a_later_sentence_naming_the_email_asks_the_email() -> None:
    answers(
        "Who leads the night bake at the Elm St bakery? I need her email.",
        _BAKERY,
        "olga.brandt@crumb.example",
    )


def test_a_later_clause_after_a_comma_asks_its_kind_too() -> None:
    answers(
        "who is the reference desk lead this week, I need their email to write",
        _DESK,
        "t.ruiz@stacks.example",
    )


def test_a_later_just_the_name_keeps_the_person() -> None:
    answers("Who leads the night bake at the Elm St bakery? Just the name.", _BAKERY, "Olga Brandt")


def test_the_persons_name_is_no_answer_when_their_email_is_asked() -> None:
    no_answer("Who leads the night bake at the Elm St bakery? I need her email.", _NAME_ONLY)


def test_the_later_phrase_is_read_by_its_head() -> None:
    # "its hull code" asks a code, never a link by "hull"'s neighbour; "the crew id" an id
    for question, noun in (
        ("Which ferry left late this morning? I need its hull code.", "code"),
        ("Who skippered the late ferry? the harbour log wants the crew id", "id"),
        ("Which ferry left late? need the IP for my logger", "ip"),
    ):
        ask = value_ask(shape_of(code_form(question)))
        assert ask is not None and ask.noun == noun, (question, ask)
