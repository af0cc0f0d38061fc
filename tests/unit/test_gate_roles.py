"""A request names a member by what it does ("the migration": the migrator, "the scan": the
probe): retrieval asks the store for that member's rows by its slug, and the readers count
its name among its row's words — but a row of that member answers only with a value of the
asked kind whose clause gives it to no thing of its own ("the oven preheat took 20 min" is
the proofer's row about the oven, not the proofing). Near misses in several domains
(docs/concierge.md, "Fleet facts, by meaning")."""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement, judge, search_terms
from crewline.policy.clauses import shape_of
from crewline.policy.fleet import Refusal, named_members, value_ask
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, no_answer


def _subject(question: str) -> tuple[str, ...]:
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None, question  # a request for a value
    return ask.subject


@pytest.mark.parametrize(
    ("question", "members", "named"),
    [
        # a derivation of the member's name: migration ↔ migrator, proofing ↔ proofer
        (
            "How long did the migration take on ward 4's db?",
            [("db-migrator", "db-migrator"), ("lint", "lint")],
            ("db-migrator",),
        ),
        ("How many loaves did the proofing finish?", [("proofer", "proofer")], ("proofer",)),
        ("How many parcels did the sort handle tonight?", [("sorter", "Sorter")], ("sorter",)),
        # the member's display name says what it does, its slug does not
        ("How long did the migration take?", [("m7", "Schema Migrator")], ("m7",)),
        # a thesaurus neighbour: the scan ↔ the probe
        ("Which port did the scan find on the lab printer?", [("probe", "probe")], ("probe",)),
    ],
)
def test_a_request_names_the_member_that_does_the_thing(
    question: str, members: list[tuple[str, str]], named: tuple[str, ...]
) -> None:
    assert named_members(_subject(question), members) == named
    assert set(named) <= set(search_terms(question, members=members))


@pytest.mark.parametrize(
    ("question", "members"),
    [
        # a member's name that only says it is an agent ("bot"), or a generic word
        ("How many tickets did the bot close?", [("ticket-bot", "ticket-bot")]),
        ("Which port does the billing service use?", [("service-watch", "service-watch")]),
        # a member whose role the request does not name
        ("How many loaves did the proofing finish?", [("oven-temp", "Oven temperature")]),
        # a word naming more members than two picks out none of them
        (
            "What did the check of the cold room find?",
            [("net-check", "n"), ("disk-check", "d"), ("temp-check", "t")],
        ),
    ],
)
def test_no_member_is_named_by_a_word_that_does_not_say_its_role(
    question: str, members: list[tuple[str, str]]
) -> None:
    assert named_members(_subject(question), members) == ()
    slugs = {slug for slug, _ in members}
    assert not slugs & set(search_terms(question, members=members))


def test_a_careful_question_retrieves_nothing_whatever_members_it_names() -> None:
    assert search_terms("Drop the migrator's staging tables?", members=[("migrator", "m")]) == ()


@pytest.mark.parametrize(
    ("question", "member", "said", "value"),
    [
        # the member's own clause, with no subject but the member: about the thing it does
        (
            "How long did the migration take on staging?",
            "migrator",
            "Applied 0047 on staging in 6m12s.",
            "6m12s",
        ),
        ("How long did the proofing take?", "proofer", "Done in 45 min.", "45 min"),
        ("How long did the proofing take for the rye?", "proofer", "Rye done in 45 min.", "45 min"),
        (
            "How many parcels did the sort handle?",
            "sorter",
            "Handled 1204 parcels tonight.",
            "1204 parcels",
        ),
        # a subject that names the asked thing in the row's own words
        (
            "How many messages are stuck in the orders DLQ right now?",
            "dlq-watch",
            "orders dead-letter queue currently holds 212 messages.",
            "212 messages",
        ),
    ],
)
def test_a_member_s_own_row_answers_by_its_role(
    question: str, member: str, said: str, value: str
) -> None:
    answers(question, facts((member, said)), value)


@pytest.mark.parametrize(
    ("question", "member", "said", "value"),
    [
        # the clause gives the value to another thing the member also reports on
        (
            "How long did the migration take on staging?",
            "migrator",
            "The nightly backup on staging took 4 minutes.",
            "4 minutes",
        ),
        ("How long did the proofing take?", "proofer", "The oven preheat took 20 min.", "20 min"),
        (
            "How many parcels did the sort handle?",
            "sorter",
            "The returns desk handled 310 parcels.",
            "310",
        ),
        (
            "How many rows did the load insert?",
            "loader",
            "The export to the archive wrote 900 rows.",
            "900",
        ),
    ],
)
def test_a_member_s_row_about_another_thing_answers_nothing(
    question: str, member: str, said: str, value: str
) -> None:
    rows = facts((member, said))
    no_answer(question, rows)
    # nor may a model cite it: the value's clause is about another subject
    verdict = check_placement(
        question, Placement(kind="fleet", answer=value, row="row-0"), facts=rows
    )
    assert verdict.answer is None and verdict.refused is Refusal.OTHER_SUBJECT, verdict


def test_a_member_s_row_of_another_kind_answers_nothing() -> None:
    no_answer(
        "Which port did the scan find on the lab printer?",
        facts(("scanner", "Lab printer firmware is 4.2.1.")),
    )


def test_a_member_named_whole_is_the_source_not_a_word_lent() -> None:
    # "did sonar say …": sonar is whom the row is by; its clause's subject is the thing
    rows = facts(("sonar", "Port sweep finished: on qa-box-7 the ledger-api listens on 7311."))
    verdict = judge("Did sonar say which port ledger-api uses?", facts=rows)
    assert verdict.answer == "7311", verdict
