"""The offline fleet reader by the structure of a value and of its row: disputes said in other
words, a state the question asks that the row does not state, a value said of another
subject, asked nouns read to kinds of value, and a value said after its label. Each on
sentences of its own (not the eval sets'), in several registers, with the near-misses that
must stay with the human."""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, facts, no_answer

# ---------------------------------------------------------------- disputes in other words

DISPUTES = [
    (
        "What's the broker API limit?",
        ("gateway", "The broker API limit is 120 requests per minute."),
        ("trader", "the broker throttles us at 60 req/min, 429s above that"),
    ),
    (
        "when is the order cut-off?",
        ("ops", "The order cut-off is 14:30."),
        ("planner", "heads up, cut-off moved to 15:00"),
    ),
    (
        "Which port does the billing API listen on?",
        ("probe", "billing API listens on port 8081"),
        ("scan", "billing answers on 9090 since the redeploy"),
    ),
    (
        "hey, what's the portal session timeout?",
        ("auth", "Portal session timeout is 30 min."),
        ("sec-audit", "the portal logs users out after 15 minutes idle"),
    ),
    (
        "Quick one — how big can an upload to the intake service be?",
        ("intake", "Intake service upload limit: 25 MB."),
        ("edge", "nginx in front of intake caps bodies at 10 MB"),
    ),
]


@pytest.mark.parametrize(("question", "first", "second"), DISPUTES)
def test_a_row_in_other_words_disputes_the_answer(
    question: str, first: tuple[str, str], second: tuple[str, str]
) -> None:
    no_answer(question, facts(first, second))
    no_answer(question, facts(second, first))


def test_a_dispute_says_what_each_member_said() -> None:
    from crewline.policy import judge

    question, first, second = DISPUTES[0]
    verdict = judge(question, facts=facts(first, second))
    assert "120 requests per minute" in verdict.why and "60 req/min" in verdict.why, verdict


@pytest.mark.parametrize(
    ("question", "rows", "value"),
    [
        # another thing named by the same word: "the staging API" is not "the staging DB"
        (
            "Which port does the billing API listen on?",
            [
                ("probe", "billing API listens on port 8081"),
                ("db-scout", "billing database answers on 5432"),
            ],
            "8081",
        ),
        # a value of the row's own subject, the asked thing only named after it
        (
            "What's the CI timeout on the shared runners?",
            [
                ("runner", "CI timeout is 45 minutes on the shared runners."),
                ("ci-watch", "Pipeline #771 went green in 17 minutes on the shared runners."),
            ],
            "45 minutes",
        ),
        # a value of another environment, or of a thing named like it
        (
            "How long is the staging cache TTL?",
            [
                ("cachebot", "staging cache TTL is 10 min"),
                ("prod-watch", "prod cache TTL is 30 min"),
                ("cdn", "the staging CDN holds assets for 7 days"),
            ],
            "10 min",
        ),
    ],
)
def test_rows_about_another_thing_do_not_dispute(
    question: str, rows: list[tuple[str, str]], value: str
) -> None:
    answers(question, facts(*rows), value)


# ---------------------------------------------------------------- the state a value is in


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "Which build of the driver app is live in the store?",
            ("release", "driver app build 4182 is in TestFlight review"),
        ),
        (
            "which version of the driver app is live rn?",
            ("release", "driver app 3.4.1 is in App Store review"),
        ),
        (
            "What version of checkout is deployed?",
            ("deployer", "checkout v2.3 is staged for tonight"),
        ),
        (
            "What's the current version of the pricing service?",
            ("deployer", "pricing service v5.1 is in draft"),
        ),
        (
            "Which pricing service version got released?",
            ("deployer", "pricing service v5.1 is still a draft"),
        ),
        (
            "The onboarding docs, which version is in review?",
            ("docs-bot", "onboarding docs v7 went live on Monday"),
        ),
    ],
)
def test_a_state_the_question_asks_must_be_the_rows(question: str, row: tuple[str, str]) -> None:
    no_answer(question, facts(row))


@pytest.mark.parametrize(
    ("question", "rows", "value"),
    [
        (
            "Which build of the driver app is live in the store?",
            [("release", "driver app build 4180 is live in the store; build 4182 is in review")],
            "build 4180",
        ),
        (
            "which version of the driver app is in review?",
            [("release", "driver app 3.4.1 is in App Store review")],
            "3.4.1",
        ),
        (
            "What version of checkout is deployed?",
            [("deployer", "checkout v2.3 deployed to prod at 10:02")],
            "v2.3",
        ),
        (
            "What's the current version of the pricing service?",
            [
                ("deployer", "pricing service runs v5.0"),
                ("release", "pricing service v5.1 is in draft"),
            ],
            "v5.0",
        ),
    ],
)
def test_a_row_in_the_asked_state_answers(
    question: str, rows: list[tuple[str, str]], value: str
) -> None:
    answers(question, facts(*rows), value)


# ---------------------------------------------------------------- a value of another subject


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "Which warehouse do the dashboards use?",
            ("dbt-bot", "dbt runs on warehouse ETL_WH_L; the dashboards use a separate one"),
        ),
        (
            "hey which bucket do the invoice PDFs go to?",
            (
                "s3-scout",
                "thumbnails are written to bucket media-thumbs-eu, invoice PDFs elsewhere",
            ),
        ),
        (
            "What port does the admin console listen on? need it for the tunnel",
            ("portscan", "grafana listens on 3000 and the admin console sits behind it"),
        ),
        (
            "Which queue do the refund events use?",
            ("mq-scout", "payment events flow through queue pay-events-2; refunds have their own"),
        ),
    ],
)
def test_a_value_of_another_subject_in_its_own_clause_is_no_answer(
    question: str, row: tuple[str, str]
) -> None:
    no_answer(question, facts(row))


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "Which warehouse does dbt use?",
            ("dbt-bot", "dbt runs on warehouse ETL_WH_L; the dashboards use a separate one"),
            "ETL_WH_L",
        ),
        (
            "who's the contact for the billing-export repo?",
            (
                "owners",
                "billing-export repo belongs to the finance team, contact person is Ada Obi",
            ),
            "Ada Obi",
        ),
        (
            "Which IP does the Northgate office tunnel come up on?",
            (
                "vpn",
                "VPN to the Northgate office comes up on 10.8.0.1; the Southgate tunnel is down",
            ),
            "10.8.0.1",
        ),
    ],
)
def test_a_value_of_the_asked_subject_beside_another_answers(
    question: str, row: tuple[str, str], value: str
) -> None:
    answers(question, facts(row), value)


# ---------------------------------------------------------------- a value after its label


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "What's the flag key for offline mode?",
            ("mobile", "offline mode is behind flag `driver.offline_v2` for 10% of drivers"),
            "driver.offline_v2",
        ),
        (
            "which flag is offline mode behind?",
            ("mobile", "offline mode is behind flag `driver.offline_v2`"),
            "driver.offline_v2",
        ),
        (
            "Which ticket tracks the outage?",
            ("ops", "the outage is tracked in OPS-4471"),
            "OPS-4471",
        ),
        (
            "what's the incident number for the printer outage?",
            ("scribe", "printer outage is INC-20931, opened by Grace Okafor"),
            "INC-20931",
        ),
        ("jira ticket for the login bug?", ("triage", "login bug filed as WEB-118"), "WEB-118"),
    ],
)
def test_a_value_by_its_label_or_its_shape_answers(
    question: str, row: tuple[str, str], value: str
) -> None:
    answers(question, facts(row), value)


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        # two tickets, and the question's words pick neither
        (
            "Which Jira ticket is the login bug in?",
            [("triage", "login bug filed as WEB-118; the signup bug is WEB-120")],
        ),
        # two members, two tickets
        (
            "Which ticket tracks the login bug?",
            [("triage", "login bug filed as WEB-118"), ("qa", "login bug is tracked in WEB-131")],
        ),
        # an id of no tracker's shape
        ("Which ticket tracks the outage?", [("ops", "the outage was caused by build-4471")]),
        # a ticket of another thing
        ("Which ticket is the login bug in?", [("triage", "the signup bug is WEB-120")]),
    ],
)
def test_a_ticket_stays_with_the_human_unless_one_row_gives_one(
    question: str, rows: list[tuple[str, str]]
) -> None:
    no_answer(question, facts(*rows))


def test_a_state_asked_with_an_adverb_before_it_is_still_the_state_asked() -> None:
    """ "is currently live" asks the live state as "is live" does."""
    no_answer(
        "Which desktop client build is currently live?",
        facts(("release-ci", "Desktop client build 5120 is in beta review since Monday.")),
    )


# ---------------------------------------------------------------- the degree after "how"


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "How long did the nightly backup take?",
            "nightly backup took 41 min, no table locked longer than 5 min",
            "41 min",
        ),
        (
            "How long did the orders reindex take on the replica?",
            "orders reindex on the replica took 12 min; no query waited longer than 3 s",
            "12 min",
        ),
    ],
)
def test_the_degree_after_how_names_no_bound(question: str, row: str, value: str) -> None:
    """ "How long" asks a duration: the "longer than 5 min" beside the one taken is a bound
    of another thing, which the degree word does not pick."""
    answers(question, facts(("ops", row)), value)
