"""A member named as the system it runs: "which host is the PAS database primary?" of member
pas says the member's name as a word of the asked thing, right before another of its words
— not as whose rows are asked. That member's row answers, and another member's row about
the same thing, in a short form or another word order ("pas primary db"), still disputes
it. A question that names the member as a source ("which host did pas say …?", "pas's
host") is read as before."""

from __future__ import annotations

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.fleet.roles import named_as_the_thing
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, no_answer


def _named_as_the_thing(question: str, name: str) -> bool:
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None
    return named_as_the_thing(ask, ask.question, [name])


def test_the_system_named_by_its_member_is_disputed_by_another_member() -> None:
    rows = facts(
        ("crm", "CRM database primary is crmdb-1.corp.internal"),
        ("dba", "crm primary db is crmdb-2.corp.internal, just checked"),
    )
    no_answer("Which host is the CRM database primary?", rows)


def test_the_system_named_by_its_member_answers_alone() -> None:
    rows = facts(
        ("crm", "CRM database primary is crmdb-1.corp.internal"),
        ("dba", "warehouse primary db is dwh-1.corp.internal"),
    )
    answers("Which host is the CRM database primary?", rows, "crmdb-1.corp.internal")


def test_a_member_named_by_what_it_does_reads_its_rows_alone() -> None:
    rows = facts(
        ("migration", "Created schema version v2 for the api; migration 0042 applied on dev."),
        ("schema", "Generated the v3 client from the OpenAPI document."),
    )
    answers("Do we know what version the schema generator produced?", rows, "v3")


def test_named_as_the_thing_reads_the_word_after_the_name() -> None:
    assert _named_as_the_thing("Which host is the CRM database primary?", "crm")
    assert not _named_as_the_thing("which host did crm say the database primary is?", "crm")
    assert not _named_as_the_thing("what is crm's database primary host?", "crm")
    assert not _named_as_the_thing("what version did the schema generator produce?", "schema")
