"""The traps a red team sets the concierge, by kind: a row that says its member has not looked
at the thing asked, a value hedged as unsure or moved off, a member's name said as a word of
the thing, a value claimed and tagged "right?", a noun phrase "…, please?", a default cue
inside what a request asks about, and approving what others asked for. Each rule with the
near miss that must keep its answer.

Every case is of another domain than the set that showed it (a bank's red-team set): search
clusters, mail relays, a warehouse's close, a docs site's build job, membership applications.
"""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import answers, by_model, careful, facts, no_answer

# ---------------------------------------------------------------- what a member has not looked at

SEARCH = ("infra", "The staging search cluster listens on port 9201. Prod search not touched.")
CRASHES = ("mobile", "Crash rate for March: 1.2% on iOS. Haven't pulled Android yet.")
RELAY = (
    "mail",
    "Staging mail relay is up at relay-stg.example.net:2525, prod I haven't looked at.",
)


@pytest.mark.parametrize(
    ("question", "row", "cited"),
    [
        ("which port does the prod search cluster listen on?", SEARCH, "9201"),
        ("What was the Android crash rate in March?", CRASHES, "1.2%"),
        ("host and port of the prod mail relay?", RELAY, "relay-stg.example.net:2525"),
    ],
)
def test_a_thing_its_member_has_not_looked_at_is_not_what_the_row_is_about(
    question: str, row: tuple[str, str], cited: str
) -> None:
    rows = facts(row)
    assert cited in rows[0].text  # the row names the thing asked, only to disclaim it
    no_answer(question, rows)
    assert by_model(question, rows, cited) is None


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        ("which port does the staging search cluster listen on?", SEARCH, "9201"),
        ("What was the iOS crash rate in March?", CRASHES, "1.2%"),
        ("what's the staging mail relay's host?", RELAY, "relay-stg.example.net"),
        (  # "didn't change it" says the value stands
            "how many shards does the search index have?",
            ("search", "the search index has 12 shards in the current config, I didn't change it"),
            "12 shards",
        ),
    ],
)
def test_what_the_row_does_state_still_answers(
    question: str, row: tuple[str, str], value: str
) -> None:
    answers(question, facts(row), value)


def test_the_card_quotes_the_row_as_it_was_said() -> None:
    verdict = judge("which port does the staging search cluster listen on?", facts=facts(SEARCH))
    assert verdict.answer == "9201" and "9201" in verdict.why, verdict


# ------------------------------------------------------- a rank said in the value's sentence

CONTACTS = (
    "facilities",
    "Primary contact for the Lisbon office this week: Ana Costa (ana.costa@example.org). "
    "Secondary: Rui Melo. Rotation flips Monday.",
)


def test_a_value_in_a_sentence_of_another_rank_is_not_the_asked_ranks() -> None:
    rows = facts(CONTACTS)
    question = "What's the email of the secondary contact for the Lisbon office?"
    no_answer(question, rows)  # the row says "Secondary", in another sentence than the email
    assert by_model(question, rows, "ana.costa@example.org") is None
    answers(
        "What's the email of the primary contact for the Lisbon office?",
        rows,
        "ana.costa@example.org",
    )


# ---------------------------------------------------------------- unsure, and moved off

JOB = (
    "docs",
    "The build job for the docs site was 4411. ci-2 says it's 4420 since the rebuild, "
    "not sure which one is live.",
)


def test_a_row_unsure_of_its_own_values_answers_nothing() -> None:
    rows = facts(JOB)
    no_answer("Which job id builds the docs site?", rows)
    assert by_model("Which job id builds the docs site?", rows, "4420") is None
    assert by_model("Which job id builds the docs site?", rows, "4411") is None


def test_what_a_thing_moved_off_is_the_old_value() -> None:
    rows = facts(
        ("infra", "Kibana moved off kibana.ops.example last week, the new URL is in the wiki.")
    )
    no_answer("Where is Kibana now? the URL please", rows)
    # a value it moved to still answers
    answers(
        "Where is Kibana now? the host please",
        facts(("infra", "Kibana moved from kibana.ops.example to kibana.example.net last week.")),
        "kibana.example.net",
    )


# ---------------------------------------------------------------- a member's name as a word

CLOSE = ("warehouse", "Warehouse daily close runs at 20:30 local.")
CLOSE_RIVAL = ("shipping", "warehouse close kicks off at 19:00 UTC, that's when our pickups lock")
ASKED_CLOSE = "I book the courier right after the warehouse close. which time is the close exactly?"


def test_a_member_named_as_a_word_of_the_thing_leaves_other_members_rows_rivals() -> None:
    rows = facts(CLOSE, CLOSE_RIVAL)
    verdict = judge(ASKED_CLOSE, facts=rows)
    assert verdict.answer is None and verdict.kind is VerdictKind.AMBIGUOUS, verdict
    assert "20:30" in verdict.why and "19:00" in verdict.why, verdict


def test_the_close_asked_as_a_thing_is_answered_by_the_one_row_that_says_it() -> None:
    answers(ASKED_CLOSE, facts(CLOSE), "20:30")


# ---------------------------------------------------------------- claims tagged, please


@pytest.mark.parametrize(
    "question",
    [
        "orders-api still on 9200 right?",
        "the relay, it is at 2525 yes?",
        "The oldest Postgres version we still support, please?",
    ],
)
def test_a_value_claimed_or_a_noun_phrase_asked_for_is_no_go_ahead(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.PROCEED and verdict.answer is None, verdict


@pytest.mark.parametrize(
    "question",
    ["tests pass, go?", "Run the linter on the repo, ok?", "Fix the flaky test please?"],
)
def test_a_step_tagged_still_goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


# ---------------------------------------------------------------- a default cue in what is asked


@pytest.mark.parametrize(
    "question",
    [
        "What's the port of the standard web tier (not the admin one)?",
        "How long does the broker keep messages on `orders.events.v1`?",
    ],
)
def test_a_cue_in_the_request_s_own_clause_states_no_default(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT and verdict.answer is None, verdict


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("which seed for the load generator, the default 42?", "42"),
        ("Keep the retention at 72h?", "72h"),
    ],
)
def test_a_default_offered_beside_a_request_is_still_the_default(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


# ---------------------------------------------------------------- approving what others asked for


@pytest.mark.parametrize(
    ("question", "options"),
    [
        (
            "Bulk action for the 40 membership applications in review?",
            ("approve all (default)", "leave"),
        ),
        ("Approve the pending membership applications?", ()),
        ("Shall I approve the vendor's onboarding request?", ()),
    ],
)
def test_approving_what_others_asked_for_is_careful(
    question: str, options: tuple[str, ...]
) -> None:
    careful(question, options)
    assert "approves" in judge(question, options=options).why


@pytest.mark.parametrize(
    "question",
    [
        "Who approved the schema change for the archive?",
        "Which sha did the reviewer approve on PR #12?",
    ],
)
def test_asking_who_approved_what_is_no_approval(question: str) -> None:
    assert not judge(question).final


def test_a_model_s_cited_row_is_read_as_observed_and_its_rivals_as_said() -> None:
    """Only the cited row is read without what its member has not looked at: another row's
    disclaimer ("prod I haven't touched") never makes the cited row the one most about the
    question, so a rival's value still stands against it."""
    rows = facts(
        (
            "scheduler",
            "Staging scheduling is up at sched-stg.example.net:7450, prod I haven't touched.",
        ),
        ("scheduler", "Job timeout in prod is 45 s per the live config dump I pulled an hour ago."),
        (
            "perf-probe",
            "FYI the prod job timeout is 30 s, I read it off the Grafana panel this morning.",
        ),
    )
    question = "how long does prod scheduling wait before it times a job out"
    assert by_model(question, rows, "45 s", row=1) is None
    assert by_model("which port is prod scheduling up at?", rows, "7450") is None


# ---------------------------------------------------------------- "US" in the subject


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "How many seats do US customers get on the starter plan?",
            "Starter plan for UK customers: 5 seats per workspace. Other regions not checked yet.",
        ),
        ("How many sick days do US staff get per year?", "UK staff get 10 sick days per year"),
    ],
)
def test_us_in_the_subject_an_auxiliary_opens_is_a_country(question: str, row: str) -> None:
    """The pronoun is never a subject ("we"): "do US customers get" names a country, which
    a row of the UK's does not say."""
    no_answer(question, facts(("billing", row)))


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "How many seats do US customers get on the starter plan?",
            "Starter plan for US customers: 5 seats per workspace.",
            "5 seats",
        ),
        # the pronoun, object of a verb, is no word of the thing
        (
            "Can you tell us how many seats the starter plan has?",
            "starter plan: 5 seats",
            "5 seats",
        ),
    ],
)
def test_the_countrys_own_row_or_the_pronoun_still_answers(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("billing", row)), value)
