"""A rival row nobody sees is a wrong fact: a row that names the asked thing in other words
with another value of its kind, or says the value was superseded ("now", "cut over", "moved
to", "frozen", "deprecated"), or takes the very value back ("not 03:00 anymore") whatever
it names, or puts another person in the role asked ("so Oluwaseun is release captain"),
leaves the question with the human, offline and with a model — and the card names both
rows. A row about another thing, environment or period does not.

Each case is of another domain than the eval sets' (a version replaced, a host moved, a
path renamed, two probes disagreeing on a latency).
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement, judge
from tests.unit.gate_kit import answers, by_model, disputed, facts

# ---------------------------------------------------------------- rivals the reader must see

RIVALS = [
    (  # an identifier replaced by its next one, said without the asked noun
        "Which bucket does the nightly export write to?",
        ("storage-bot", "The nightly export writes to bucket `exports_2025`."),
        ("platform", "We cut over on Monday: the nightly export now writes to `exports_2026`."),
        "exports_2025",
        "exports_2026",
    ),
    (  # the same, the question naming the thing in a word the rival row leaves out
        "Which GCS bucket does the nightly export write to?",
        ("storage-bot", "The nightly export writes to bucket `exports_2025` in GCS."),
        ("platform", "We cut over on Monday: the nightly export now writes to `exports_2026`."),
        "exports_2025",
        "exports_2026",
    ),
    (  # a version frozen, and no new value said
        "Which schema does the orders service use?",
        ("schema-bot", "The orders service uses schema `orders_v7`."),
        ("migrator", "Heads up: the orders service moved off it, v7 is frozen since Tuesday."),
        "orders_v7",
        "v7 is frozen since Tuesday",
    ),
    (  # a host moved
        "Which host serves the metrics API?",
        ("infra", "The metrics API is served from metrics-1.internal."),
        ("ops-bot", "metrics API moved to metrics-2.internal this morning."),
        "metrics-1.internal",
        "metrics-2.internal",
    ),
    (  # a path renamed, the old one deprecated
        "where do the runbooks live?",
        ("docs-bot", "Runbooks live in docs/runbooks/."),
        (
            "wiki-bot",
            "Heads up: runbooks were renamed to docs/ops/playbooks/, the old one is gone.",
        ),
        "docs/runbooks/",
        "docs/ops/playbooks/",
    ),
    (  # a version replaced
        "Which ledger-client version does billing pin?",
        ("deps-bot", "Billing pins ledger-client 3.8.2."),
        ("billing", "billing moved on: ledger-client 3.9.0 is pinned now, 3.8.2 is deprecated."),
        "3.8.2",
        "3.9.0",
    ),
    (  # the very value taken back, by a row naming the thing in other words
        "When does the invoice export kick off?",
        ("billing-bot", "invoice export kicks off at 03:00 (job inv_daily)."),
        ("finance", "fyi the finance batch now starts at 04:15, not 03:00 anymore."),
        "03:00",
        "not 03:00 anymore",
    ),
    (  # another person put in the role asked, by a copula, named by a first name alone
        "Who is the release captain this sprint?",
        ("rota-bot", "release captain this sprint: Aiyana Whitehorse (aiyana@example.org)"),
        (
            "pm",
            "heads-up: Aiyana swapped with Oluwaseun, so Oluwaseun is release captain this sprint",
        ),
        "Aiyana Whitehorse",
        "Oluwaseun",
    ),
    (  # two probes disagreeing on a latency, one said under a heading of its period
        "What's the p99 latency of the login endpoint?",
        ("probe-eu", "p99 latency of the login endpoint over the last hour: 180 ms"),
        ("probe-us", "Login endpoint p99 latency is sitting at 420 ms from here."),
        "180 ms",
        "420 ms",
    ),
]


# ------------------------- a rival named by the thing's own identifiers, in words of its own

WIDER = [
    (  # a word said of the subject after a copula ("is due"), no owner of the date
        "When is the CR-07 6-month inspection for ST-2031-04?",
        (
            "calendar",
            "heads-up, the maintenance calendar shows the CR-07 6-month inspection for "
            "ST-2031-04 on 2027-03-15",
        ),
        ("fleetops", "CR-07 (40 t, tower): 6-month inspection for ST-2031-04 is due 2027-03-08"),
        "2027-03-15",
        "2027-03-08",
    ),
    (  # a product's name said of the subject after a copula, "now"
        "What version is production SSO running?",
        ("iam-bot", "just to confirm, production SSO is still on version 22.0.5"),
        ("platform", "SSO is Keycloak 24.0.1 now, the upgrade went fine"),
        "22.0.5",
        "24.0.1",
    ),
    (  # an environment word inside a host of another clause is the host's, not the row's
        "What Grafana version is production monitoring running?",
        ("obs-bot", "just to be clear, production monitoring is still on Grafana 10.2.3"),
        ("sre", "monitoring is Grafana 11.0.1 now; a test copy is at graf-test.ops.local:3000"),
        "10.2.3",
        "11.0.1",
    ),
]


@pytest.mark.parametrize(("question", "answer", "rival", "value", "other"), RIVALS + WIDER)
def test_a_rival_row_leaves_the_question_with_the_human_and_says_both_rows(
    question: str,
    answer: tuple[str, str],
    rival: tuple[str, str],
    value: str,
    other: str,
) -> None:
    why = disputed(question, answer, rival, value)
    assert value in why and other in why, why
    assert answer[0] in why and rival[0] in why, why


@pytest.mark.parametrize(("question", "answer", "rival", "value", "other"), RIVALS + WIDER)
def test_a_model_citing_the_row_a_rival_supersedes_is_refused(
    question: str,
    answer: tuple[str, str],
    rival: tuple[str, str],
    value: str,
    other: str,
) -> None:
    rows = facts(answer, rival)
    assert by_model(question, facts(answer), value) == value  # alone, the citation holds
    verdict = check_placement(
        question, Placement(kind="fleet", answer=value, row=rows[0].row_id), facts=rows
    )
    assert verdict.answer is None and not verdict.kind.routine, verdict
    assert f"{answer[0]} said {value}" in verdict.why, verdict.why
    assert f"{rival[0]} said" in verdict.why and other in verdict.why, verdict.why


# ---------------------------------------------------------------- rows that are no rival

ANSWERED = [
    (  # a row that says another thing's value superseded
        "Which dataset do the dashboards read from?",
        ("analytics", "The dashboards read from dataset `events_v3` in BigQuery."),
        ("ml-bot", "The ML feature store moved to `features_v4` last week, features_v3 is frozen."),
        "events_v3",
    ),
    (  # another environment's value moved
        "Which payments version runs in production?",
        ("release-bot", "Production runs payments 4.2.1."),
        ("stager", "Staging now runs payments 4.3.0-rc1; 4.2.1 is gone from staging."),
        "4.2.1",
    ),
    (  # the present of a period the question does not ask
        "What was the October DAU?",
        ("analytics", "October DAU averaged 1.24M."),
        ("growth-bot", "DAU is now 1.41M since the winter event started."),
        "1.24M",
    ),
    (  # another endpoint's latency, said "now"
        "What's the p99 latency of the login endpoint?",
        ("probe-eu", "p99 latency of the login endpoint over the last hour: 180 ms"),
        ("probe-us", "The search endpoint p99 latency is now 420 ms."),
        "180 ms",
    ),
    (  # a span is no value taken back
        "When does the invoice export kick off?",
        ("billing-bot", "invoice export kicks off at 03:00 (job inv_daily)."),
        ("ops", "the maintenance window runs from 03:00 to 05:00."),
        "03:00",
    ),
    (  # the value taken back in another environment
        "Which port does the production ledger API listen on?",
        ("infra", "production ledger API listens on 8443"),
        ("stager", "staging ledger API moved from 8443 to 9443"),
        "8443",
    ),
    (  # the answer's own person, by a first name
        "Who is the release captain this sprint?",
        ("rota-bot", "release captain this sprint: Aiyana Whitehorse (aiyana@example.org)"),
        ("pm", "Aiyana is release captain this sprint, as planned"),
        "Aiyana Whitehorse",
    ),
    (  # another person in another role
        "Who is the release captain this sprint?",
        ("rota-bot", "release captain this sprint: Aiyana Whitehorse (aiyana@example.org)"),
        ("pm", "Oluwaseun is the QA lead this sprint"),
        "Aiyana Whitehorse",
    ),
    (  # a sibling identifier of another thing
        "Which bucket does the nightly export write to?",
        ("storage-bot", "The nightly export writes to bucket `exports_2025`."),
        ("platform", "The audit log now writes to `exports_2026`."),
        "exports_2025",
    ),
]


@pytest.mark.parametrize(("question", "answer", "other", "value"), ANSWERED)
def test_a_row_of_another_thing_environment_or_period_is_no_rival(
    question: str, answer: tuple[str, str], other: tuple[str, str], value: str
) -> None:
    rows = facts(answer, other)
    answers(question, rows, value)
    assert by_model(question, rows, value) == value


@pytest.mark.parametrize(
    ("other", "refused"),
    [
        # the cited row's own name for the thing, before another value by the asked noun
        ("after the weekend upgrade the pg-reports-01 nodes report version 16.2", True),
        # the same name, the value another thing's
        ("pg-reports-01 backups run on 16.2 of the agent", False),
        # another name
        ("pg-billing-02 nodes report version 16.2", False),
    ],
)
def test_a_model_citing_a_row_is_disputed_by_a_row_naming_the_thing_as_it_does(
    other: str, refused: bool
) -> None:
    """The question names the thing in words ("the reporting database"), the cited row by a
    name ("pg-reports-01"): a row that says that name before another value of the kind, by
    the asked noun, speaks of the same thing."""
    question = "Which Postgres version is the reporting database on?"
    cited = ("dba", "pg-reports-01 is PostgreSQL 15.4, holds 212 GB")
    assert by_model(question, facts(cited), "15.4") == "15.4"  # alone, the citation holds
    answer = by_model(question, facts(cited, ("infra", other)), "15.4")
    assert answer == (None if refused else "15.4")


def test_another_count_of_the_same_thing_is_no_sibling() -> None:
    """Bare numbers share every number's form: a count of tests is no rival of a count of
    type errors. (Offline: a model's citation of it meets the check's own rival reading,
    which does not tell counted nouns apart, and offline answers first.)"""
    rows = facts(
        ("typecheck", "mypy on the release branch: 14 type errors, 2 notes."),
        ("tester", "Unit tests on the release branch: 640 passed."),
    )
    answers("How many type errors are on the release branch?", rows, "14")


# ------------------------------------- offline, a row read as a model's citation of it is read


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # "sitting" is the relation asked; the row says the queue, its count and the time
            "How many jobs were sitting in the billing DLQ this morning?",
            "Dead-letter queue for billing had 418 jobs this morning, mostly timeouts.",
            "418 jobs",
        ),
        (  # "turned on" is the relation asked; the row's one percentage is the rollout
            "What percentage of stores have self-checkout turned on right now?",
            "Self-checkout is behind flag `pos.self_checkout`, currently at 40% of stores.",
            "40%",
        ),
    ],
)
def test_a_row_a_model_may_cite_answers_offline_too(question: str, row: str, value: str) -> None:
    rows = facts(("scout", row))
    assert by_model(question, rows, value) == value
    answers(question, rows, value)


def test_a_row_read_as_a_citation_that_a_rival_supersedes_leaves_it_with_the_human() -> None:
    """The row says the backup job *writes to* the bucket, the question asks where it
    *uploads*: answered offline as a model's citation would be — until a row says the job
    cut over to another bucket, in words that name neither "S3" nor "upload"."""
    question = "Which S3 bucket does the backup job upload to?"
    answer = ("storage-bot", "The backup job writes to bucket `backups_2025` in S3.")
    rival = ("platform", "We cut over on Monday: the backup job now writes to `backups_2026`.")
    answers(question, facts(answer), "backups_2025")
    verdict = judge(question, facts=facts(answer, rival))
    assert verdict.answer is None and verdict.final, verdict
    assert "storage-bot said backups_2025" in verdict.why, verdict.why
    assert "platform said backups_2026" in verdict.why, verdict.why


NOT_WIDER = [
    (  # the date named by a noun of another thing, no copula before it
        "When is the CR-07 6-month inspection for ST-2031-04?",
        (
            "calendar",
            "heads-up, the maintenance calendar shows the CR-07 6-month inspection for "
            "ST-2031-04 on 2027-03-15",
        ),
        ("fleetops", "CR-07 6-month inspection for ST-2031-04 is booked, renewal 2027-03-08"),
        "2027-03-15",
    ),
    (  # another product's version, named after a preposition
        "What version is production SSO running?",
        ("iam-bot", "just to confirm, production SSO is still on version 22.0.5"),
        ("platform", "SSO now talks to Postgres 15.4"),
        "22.0.5",
    ),
    (  # another environment said in the value's own clause, by its host
        "What Grafana version is production monitoring running?",
        ("obs-bot", "just to be clear, production monitoring is still on Grafana 10.2.3"),
        ("sre", "Grafana 11.0.1 now runs on graf.staging.internal"),
        "10.2.3",
    ),
    (  # another environment said by the row's own words
        "What Grafana version is production monitoring running?",
        ("obs-bot", "just to be clear, production monitoring is still on Grafana 10.2.3"),
        ("sre", "staging monitoring is Grafana 11.0.1 now"),
        "10.2.3",
    ),
]


@pytest.mark.parametrize(("question", "answer", "other", "value"), NOT_WIDER)
def test_a_row_naming_the_thing_with_another_things_value_still_answers(
    question: str, answer: tuple[str, str], other: tuple[str, str], value: str
) -> None:
    answers(question, facts(answer, other), value)
