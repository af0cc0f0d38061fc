"""A model's fleet answer is checked for what makes it safe, not for the question's words.

The model does the matching; ``check_placement`` checks the thing asked about — its names,
modifiers, qualifiers and values — is the cited row's, and leaves the relation (the verbs
of the question: receive, queue, expose, park) to the model's reading. Each rule with the
near misses that must stay with the human, and the scripted confused model that tries them.
"""

from __future__ import annotations

import json

import pytest

from crewline.ops.evals_llm import MODES, _confused_place
from crewline.policy import Fact, Placement, check_placement
from crewline.policy.eval_file import EvalQuestion
from tests.unit.gate_kit import by_model, facts

# ----------------------------------------- the relation is the model's reading, by structure

# Each was refused on the gate before this rule: a verb of the question the row does not say
# ("receives", "queued", "expose", "park"), or the noun of a kind the value's form proves.
PARAPHRASES = [
    (  # an inflected verb before its object
        "Which PagerDuty team receives the ledger-api alerts?",
        "Alerts from the ledger-api service are routed to the PagerDuty team payments-core.",
        "payments-core",
    ),
    (  # a participle after a form of "be"
        "How many jobs are queued in the render farm?",
        "The render farm backlog holds 57 jobs.",
        "57 jobs",
    ),
    (  # the verb that ends an inverted question's subject
        "Which port does the metrics sidecar of the billing pod talk on?",
        "The metrics sidecar of the billing pod is on port 9102.",
        "9102",
    ),
    (  # the verb after a pronoun subject
        "Which bucket do we park the audit logs in?",
        "Audit logs are kept in bucket acme-audit-2026.",
        "acme-audit-2026",
    ),
    (  # "IP" names only what the value's form shows
        "What IP address has the office printer?",
        "The office printer sits at 192.168.4.20.",
        "192.168.4.20",
    ),
    (  # an adverb between the subject and the verb
        "Which release number did the tagger just cut for ledger-worker?",
        "Tagged ledger-worker 2.3.0 (the previous tag was 2.2.9).",
        "2.3.0",
    ),
    (  # "who" asks a person, and a leading condition is when, not what
        "If the primary is away, who covers the billing on-call this week?",
        "Billing on-call backup this week is Ravi Menon.",
        "Ravi Menon",
    ),
    (  # a request read loosely: "how quickly" asks a duration
        "How quickly must the storage vendor react to a P1 ticket under the contract?",
        "By contract the storage vendor must respond to P1 tickets within 2 hours.",
        "2 hours",
    ),
    (  # "what number" asks what the measure named beside it is
        "Checkout availability in October — what number was reported?",
        "Checkout availability for October came out at 99.95%.",
        "99.95%",
    ),
    (  # a part of a whole, asked in a word the row does not say
        "How many VPN licences are taken?",
        "We own 80 VPN licences, 62 of them in use.",
        "62",
    ),
]


@pytest.mark.parametrize(("question", "row", "value"), PARAPHRASES)
def test_a_relation_said_in_other_words_is_the_models_reading(
    question: str, row: str, value: str
) -> None:
    assert by_model(question, facts(("scout", row)), value) == value


# ----------------------------------------- the thing asked about is never the model's reading


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # another environment
            "Which port does the staging metrics sidecar expose?",
            "The prod metrics sidecar is on port 9102.",
            "9102",
        ),
        (  # another named service
            "Which PagerDuty team receives the ledger-api alerts?",
            "Alerts from the invoice-api service are routed to the PagerDuty team billing-core.",
            "billing-core",
        ),
        (  # another time
            "How many jobs were queued in the render farm last week?",
            "The render farm backlog holds 57 jobs this week.",
            "57",
        ),
        (  # another modifier of the asked noun
            "What's the branch coverage of ledger-api?",
            "Line coverage of ledger-api is 81%.",
            "81%",
        ),
        (  # a verb whose opposite the row says
            "Which commit fixed the login regression?",
            "The login regression came in with commit 3fa9c21.",
            "3fa9c21",
        ),
        (  # a decision, not a fact
            "What should I name the new audit bucket?",
            "Audit logs are kept in bucket acme-audit-2026.",
            "acme-audit-2026",
        ),
        (  # which thing, answered with an amount
            "Which stage of the deploy pipeline is eating the most time?",
            "Slowest stage of the deploy pipeline is e2e at 12 min.",
            "12 min",
        ),
        (  # a moment, not how long
            "How long has db-3 been up?",
            "db-3 was rebooted 4 days ago.",
            "4 days",
        ),
        (  # the heading is every value's: the question picks no percentile
            "What latency did the profiler measure on /api/items?",
            "Profiling /api/items: p95 latency 90ms, p99 300ms.",
            "90ms",
        ),
        (  # a word that only starts the row is no name
            "Which image is the api tier built from?",
            "Current api-tier base image: img-7f3a9c.",
            "Current",
        ),
        (  # the value a thing went to, for what it was before
            "What was the p95 before the index change?",
            "After the index change, p95 went from 480 ms down to 120 ms.",
            "120 ms",
        ),
        (  # a condition that names the only thing asked about
            "If the billing API is down, who gets paged?",
            "Pages for the search API go to Dana Whitfield.",
            "Dana Whitfield",
        ),
        (  # a go-ahead, not a request for a value
            "Shall I deprecate the v1 routes now?",
            "The v1 routes still serve /v1/items for the mobile app.",
            "/v1/items",
        ),
    ],
    ids=[
        "environment",
        "named-service",
        "time",
        "asked-noun-modifier",
        "opposite-verb",
        "decision",
        "amount-for-a-thing",
        "moment",
        "heading",
        "sentence-start-no-name",
        "went-to-for-before",
        "condition-names-the-thing",
        "go-ahead",
    ],
)
def test_a_near_miss_cited_by_a_model_stays_with_the_human(
    question: str, row: str, answer: str
) -> None:
    assert by_model(question, facts(("scout", row)), answer) is None


def test_a_bare_noun_two_rows_say_of_different_things_stays_with_the_human() -> None:
    rows = facts(
        ("sizer", "Docker image api:1.2 is 300 MB."),
        ("auditor", "The build image runs Node 20.11.1."),
    )
    assert by_model("What's the image size?", rows, "300 MB") is None
    assert by_model("What's the Docker image size?", rows, "300 MB") == "300 MB"


def test_another_row_about_the_thing_in_other_words_disputes() -> None:
    rows = facts(
        ("pager", "Alerts from the ledger-api service are routed to the PagerDuty team ledger."),
        ("ops", "ledger-api alerts land with the PagerDuty team payments-core."),
    )
    assert by_model("Which PagerDuty team receives the ledger-api alerts?", rows, "ledger") is None


def test_a_part_is_not_the_models_pick_for_the_whole() -> None:
    rows = facts(("it", "We own 80 VPN licences, 62 of them in use."))
    assert by_model("How many VPN licences do we have?", rows, "62") is None


# ------------------------------------------------------------- the scripted confused model


def _data(question: str, rows: list[Fact]) -> dict[str, object]:
    return {
        "question": question,
        "rows": [{"id": f.row_id, "member": f.member, "said": f.text} for f in rows],
    }


def test_the_confused_model_cites_the_best_ranked_wrong_row() -> None:
    rows = facts(
        ("scout", "The prod metrics sidecar is on port 9102."),
        ("probe", "The staging metrics sidecar is on port 9188."),
    )
    asked = EvalQuestion(
        ask="Which port does the staging metrics sidecar expose?",
        expect="answer",
        answer_contains="9188",
        category="fleet",
    )
    placed = _confused_place(asked, _data(asked.ask, rows))
    assert placed == {"kind": "fleet", "answer": "9102", "row": "row-0"}
    verdict = check_placement(
        asked.ask, Placement(kind="fleet", answer="9102", row="row-0"), facts=rows
    )
    assert verdict.answer is None, verdict


def test_the_confused_model_answers_a_near_miss_from_the_nearest_row() -> None:
    rows = facts(("scout", "The prod metrics sidecar is on port 9102."))
    asked = EvalQuestion(
        ask="Which port does the staging metrics sidecar expose?",
        expect="escalate",
        category="not_in_fleet",
    )
    placed = _confused_place(asked, _data(asked.ask, rows))
    assert placed == {"kind": "fleet", "answer": "9102", "row": "row-0"}
    assert json.dumps(placed)  # what the endpoint sends back
    assert "confused" in MODES
