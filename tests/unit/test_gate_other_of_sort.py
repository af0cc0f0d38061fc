"""A thing the question names by a name of a sort — a code of letters and digits ("pump-b2",
"T-204"), a cloud region ("ap-south"), a name no dictionary has ("Keycloak") — and a row
whose value's clause names another of the same sort ("pump-a2", "T-203", "eu-central",
"Okta") and not the asked one: the value is that one's, though the row names the asked one
elsewhere ("…, standby is pump-b2"). The offline reader gives no answer and a model citing it
is refused, by one test. Each name with its own value, the asked one in the value's clause,
or a code of another shape beside it, still answers. Sentences of their own (a water works,
a freight yard, a clinic's systems), not the eval sets'."""

from __future__ import annotations

import pytest

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.fleet.rows import another_of_its_sort
from crewline.policy.values import values_in
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, by_model, facts, no_answer

# (question, row, the other one's value): the asked one is named in another clause, so
# the row is about it
ANOTHERS = [
    (
        "What IP is the standby intake pump, pump-b2, on?",
        "intake pumps: duty pump-a2 at 10.8.1.20, standby is pump-b2",
        "10.8.1.20",
    ),
    (
        "What IP is the standby intake pump, PB2, on?",
        "intake pumps: duty PA2 at 10.8.1.20, standby is PB2",
        "10.8.1.20",
    ),
    (
        "Which build is the Zeltpad app at?",
        "app builds: Kovimo 5120 approved, Zeltpad waits on review",
        "5120",
    ),
    (
        "Which version is the Keycloak realm export on?",
        "realm exports: Okta tenant on 2.4.1, Keycloak still pending",
        "2.4.1",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), ANOTHERS)
def test_another_of_the_sort_in_the_values_clause_is_no_answer(
    question: str, row: str, value: str
) -> None:
    no_answer(question, facts(("probe", row)))


@pytest.mark.parametrize(("question", "row", "value"), ANOTHERS)
def test_a_model_citing_another_ones_value_is_refused(question: str, row: str, value: str) -> None:
    assert by_model(question, facts(("probe", row)), value) is None


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        *ANOTHERS,
        (
            "What's the replication lag in ap-south right now?",
            "replication lag right now: eu-central 40 ms, ap-south not measured",
            "40 ms",
        ),
    ],
)
def test_the_one_shared_test_reads_it(question: str, row: str, value: str) -> None:
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None
    found = next(v for v in values_in(row) if v.text == value)
    assert another_of_its_sort(ask, row, found)


# near misses that stay answered: each name with its own value, the asked one in the value's
# clause
OWN = [
    (
        "What IP is pump-b2 on?",
        "intake pumps: duty pump-a2 at 10.8.1.20, standby pump-b2 at 10.8.1.21",
        "10.8.1.21",
    ),
    (
        "What's the replication lag in us-west right now?",
        "replication lag right now: eu-central 40 ms, us-west 55 ms",
        "55 ms",
    ),
    ("What dwell time does berth K7 have?", "berth dwell times today: K6 14 h, K7 9 h", "9 h"),
    (
        "Which version is the Keycloak realm export on?",
        "realm exports: Okta on 2.4.1, Keycloak on 2.5.0",
        "2.5.0",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), OWN)
def test_each_name_with_its_own_value_answers(question: str, row: str, value: str) -> None:
    answers(question, facts(("probe", row)), value)


def test_a_region_said_with_its_zone_is_the_asked_one() -> None:
    ask = value_ask(shape_of(code_form("What's the replication lag in ap-south right now?")))
    assert ask is not None
    row = "replication lag right now: ap-south-1 at 40 ms"
    found = next(v for v in values_in(row) if v.text == "40 ms")
    assert not another_of_its_sort(ask, row, found)
