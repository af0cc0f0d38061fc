"""A pronoun in the asking sentence standing for a thing named before it: the subject of a
statement before the question ("The kiln monitor came back after the power cut, right?
Which port is it on now?"), the thing the asker needs ("I need to reach the climate
controller. Which port does it listen on?"), the subject of a statement before a dash ("The
archive scanner is not on 8080 — which port is it on?"), and a name in code quotes before a
dash ("`kiln-api` — which `port`?"). The asked value is that thing's, never another's. Each
with its near misses: two things named, a verb acting on another thing, the thing's row
missing."""

from __future__ import annotations

from crewline.policy import search_terms
from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.lemmas import root
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, no_answer


def _subject(question: str) -> tuple[str, ...]:
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None
    return ask.subject


_PORTS = facts(
    ("net", "The greenhouse climate controller listens on port 8841."),
    ("net", "The irrigation controller listens on port 8850."),
)


def test_a_pronoun_stands_for_the_thing_the_asker_needs() -> None:
    question = "I need to reach the greenhouse climate controller. Which port does it listen on?"
    answers(question, _PORTS, "8841")


def test_a_pronoun_stands_for_what_the_askers_own_thing_needs() -> None:
    question = "My sensor script needs the irrigation controller. Which port does it listen on?"
    answers(question, _PORTS, "8850")


def test_the_needed_things_port_missing_is_no_other_things() -> None:
    # the near miss: the fleet has only another controller's port
    question = "I need to reach the greenhouse climate controller. Which port does it listen on?"
    no_answer(question, facts(("net", "The irrigation controller listens on port 8850.")))


_KILNS = facts(
    ("ops", "The kiln monitor is back on port 9120 after the power cut."),
    ("ops", "The label printer answers on port 9130."),
)


def test_a_pronoun_stands_for_the_subject_of_the_statement_before() -> None:
    question = "hi — the kiln monitor came back after the power cut, right? which port is it on?"
    answers(question, _KILNS, "9120")
    assert "kiln" in _subject(question)


def test_two_things_named_before_leave_the_pronoun_unresolved() -> None:
    question = "The kiln monitor and the label printer were both restarted. Which port is it on?"
    assert _subject(question) == ()
    no_answer(question, _KILNS)


def test_a_verb_acting_on_another_thing_leaves_the_pronoun_unresolved() -> None:
    # "it" may be the supplier or the glaze: neither is read as the subject
    question = "The supplier recommended a new glaze for the kiln. Which batch is it?"
    assert "supplier" not in _subject(question)


def test_a_pronoun_after_a_dash_stands_for_the_statements_subject() -> None:
    rows = facts(
        ("ops", "The archive scanner moved to port 8085."),
        ("ops", "The front desk scanner is on port 8090."),
    )
    question = "The archive scanner is not on 8080 — which port is it on?"
    answers(question, rows, "8085")
    assert "8080" not in _subject(question)


def test_a_name_in_code_quotes_before_a_dash_is_the_thing_asked_about() -> None:
    rows = facts(("ci", "kiln-api serves on port 7301."), ("ci", "glaze-api serves on port 7302."))
    answers("`kiln-api` — which `port`?", rows, "7301")
    no_answer("`kiln-api` — which `port`?", facts(("ci", "glaze-api serves on port 7302.")))


# A pronoun whose sentence says only what the thing does ("When does it start?"): the words
# after "it" are its verb, not a thing, so the pronoun still stands for the thing named before.
_EVENTS = facts(
    ("events", "The harvest festival starts at 10:00 on Saturday."),
    ("events", "The wine auction starts at 15:00 on Saturday."),
)


def test_a_pronoun_before_the_verb_alone_stands_for_the_thing_named_before() -> None:
    question = "I want to book the coaches just before the harvest festival. When does it start?"
    answers(question, _EVENTS, "10:00")
    assert {root("harvest"), root("festival")} <= set(_subject(question))


def test_kick_off_is_start() -> None:
    answers("When does the wine auction kick off?", _EVENTS, "15:00")
    question = "The tasting room needs staff before the wine auction. When does it kick off?"
    answers(question, _EVENTS, "15:00")


def test_the_thing_named_before_is_what_the_store_is_asked_for() -> None:
    # the row that disagrees may share no word with "when does it kick off?": retrieval
    # must look for the thing itself, or the rival is never read
    question = "I want to book the coaches just before the harvest festival. When does it kick off?"
    assert {"harvest", "festival"} <= set(search_terms(question))


def test_a_verb_alone_after_two_things_leaves_the_pronoun_unresolved() -> None:
    question = "The harvest festival and the wine auction were both moved. When does it start?"
    no_answer(question, _EVENTS)


def test_the_named_things_time_missing_is_no_other_things() -> None:
    question = "I want to book the coaches just before the harvest festival. When does it start?"
    no_answer(question, facts(("events", "The wine auction starts at 15:00 on Saturday.")))
