"""A verbless noun phrase asked with no question word ("Madrid ADR last week?", "firmware of
the controller pls") asks the value of its head — its last word before a preposition, a
word of time or a clause of its own — whatever that noun, with any kind of value where the
kinds table does not know it. Never a one-word phrase, a choice, a verb and its object, an
act's noun, a state, or a value the phrase names itself. Words of no eval set: a bakery, a
crane yard, a ferry line."""

from __future__ import annotations

from crewline.policy import VerdictKind, judge
from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, by_model, facts, no_answer


def _noun(question: str) -> str | None:
    ask = value_ask(shape_of(code_form(question)))
    return ask.noun if ask is not None else None


def test_an_unknown_head_before_a_preposition_is_asked() -> None:
    rows = facts(("yard", "north yard crane boom firmware is 3.14.2 since Monday"))
    answers("crane boom firmware of the north yard pls", rows, "3.14.2")


def test_a_statistic_makes_a_measure_of_an_act_noun() -> None:
    # "check", "wait" name acts; "average" makes them a measure asked
    rows = facts(("shop", "Elm St store average basket yesterday: $23.40"))
    answers("Average basket at the Elm St store yesterday?", rows, "$23.40")
    assert _noun("Average check at the Elm St store yesterday?") == "check"


def test_a_statistic_after_the_head_is_aside() -> None:
    rows = facts(("ops", "harbour ferry headway averaged 17 minutes this week"))
    answers("Harbour ferry headway avg this week pls", rows, "17 minutes")


def test_a_clause_after_the_head_ends_the_phrase() -> None:
    assert _noun("The widest pallet width we still accept, please?") == "width"
    assert _noun("The oldest oven firmware we still run, please?") == "firmware"


def test_a_model_citation_another_row_disputes_is_refused() -> None:
    # "dewpoint" is a head no table of kinds knows ("humidity" is one: a share)
    rows = facts(
        ("baker", "proofing cabinet dewpoint reads 21.5 today"),
        ("oven", "proofing cabinet dewpoint is 19.0 now"),
    )
    no_answer("Dewpoint of the proofing cabinet at the bakery?", rows)
    assert by_model("Dewpoint of the proofing cabinet at the bakery?", rows, "19.0", 1) is None
    assert by_model("Dewpoint of the proofing cabinet at the bakery?", rows[1:], "19.0") == "19.0"


def test_near_misses_read_no_value() -> None:
    for question in (
        "Coffee?",  # one word: a yes or no
        "Staging healthy now?",  # a state
        "Sourdough or rye for the order?",  # a choice
        "Authorise the flour order?",  # a verb and its object
        "Send INV-2291 to the miller?",  # an act's verb first
        "Quick sync tomorrow?",  # an act's noun
        "Flash firmware 4.12.3 onto oven 3?",  # a value the phrase names itself
        "Crane yard's on 3300, yes?",  # a check of what it says
        "Please crane boom lift at noon?",  # a courtesy opens a step asked
    ):
        assert _noun(question) is None, question


def test_act_phrases_keep_their_verdicts() -> None:
    rows = facts(("ci", "prod deploy tonight at 22:00"), ("ops", "rollback took 4 minutes"))
    for question in ("Prod deploy tonight?", "Rollback?", "Drop the old table?"):
        verdict = judge(question, facts=rows)
        assert verdict.kind is not VerdictKind.FLEET_FACT, (question, verdict)
    # a go-ahead in another language stays one
    assert judge("Weiter machen? I only read the oven logs.").kind is VerdictKind.PROCEED
