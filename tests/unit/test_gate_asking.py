"""Reading the question before any row: what makes a sentence a request for a value, the
kind a unit or a noun of measure asks, and a request about a thing a risky noun names. Each
rule with the near misses that keep their verdict, in other domains than the sets that
showed them."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import answers, by_model, careful, facts, no_answer

# ----------------------------------------- a request after a fronted clause


def test_a_request_after_a_fronted_adverbial_is_read() -> None:
    rows = facts(("worker", "billing worker upgraded, now running version 4.2.1"))
    answers("After the upgrade, what version is the billing worker running?", rows, "4.2.1")


def test_a_request_after_the_askers_own_purpose_is_read() -> None:
    rows = facts(("store", "Android app version 3.4.0 is live in the store."))
    answers("Before I write the release notes, which version is live in the store?", rows, "3.4.0")


def test_a_fronted_adverbial_names_the_thing_asked_about() -> None:
    # the adverbial's thing must be the row's: the Virginia drill's region is no answer
    question = "In the Frankfurt failover drill, which region took the traffic?"
    answers(
        question,
        facts(("dr", "In the Frankfurt failover drill, eu-west-1 took the traffic.")),
        "eu-west-1",
    )
    no_answer(
        question, facts(("dr", "In the Virginia failover drill, us-west-2 took the traffic."))
    )


def test_a_fronted_condition_is_left_to_the_human() -> None:
    # what holds under a condition is no plain fact, and the row's may be another's
    rows = facts(("dr", "If the US cluster fails over, traffic goes to region us-west-2."))
    no_answer("If the EU cluster fails over, which region takes the traffic?", rows)


def test_a_relative_after_a_fronted_adverbial_is_no_request() -> None:
    # "which took 2 min" follows a noun as a relative: the question goes on with a step
    verdict = judge("After the lint pass, which took 2 min, run the unit tests?")
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


def test_how_after_a_comma_is_a_request_not_a_relative() -> None:
    rows = facts(("cache", "cold cache load takes 2.3 s, warm cache load 40 ms."))
    answers("And the cold cache load, how long is that?", rows, "2.3 s")
    no_answer(
        "And the cold cache load, how long is that?",
        facts(("cache", "warm cache load takes 40 ms.")),
    )


def test_a_preposition_opening_its_clause_leads_a_request() -> None:
    rows = facts(("backup", "nightly backup job finished at 03:47."))
    answers("Nightly backup job -- at what time did it finish?", rows, "03:47")
    no_answer(
        "Nightly backup job -- at what time did it finish?",
        facts(("restore", "nightly restore job finished at 03:47.")),
    )


# ----------------------------------------- a request that points back


def test_what_is_it_asks_the_need_stated_before_it() -> None:
    rows = facts(("api", "recipes API base URL is https://recipes.internal.example/v1"))
    question = "My load script needs the base URL of the recipes API. What is it?"
    answers(question, rows, "https://recipes.internal.example/v1")
    no_answer(question, facts(("api", "payments API base URL is https://pay.internal.example/v1")))


def test_what_was_measured_asks_the_phrase_before_it() -> None:
    rows = facts(("perf", "median checkout time on the web shop: 41 s over 2,000 orders"))
    answers("Median checkout time on the web shop -- what was measured?", rows, "41 s")


def test_a_pointing_question_with_nothing_before_it_is_no_request() -> None:
    verdict = judge("What is it?")
    assert verdict.answer is None, verdict


def test_two_question_words_ask_two_values() -> None:
    # "from when to when": a start and an end, never the one moment a row gives
    rows = facts(("dba", "billing DB maintenance window starts 2026-12-12 02:00 UTC."))
    no_answer("Maintenance window for the billing DB: from when to when?", rows)


# ----------------------------------------- the kind asked: a unit, a noun of measure


def test_a_unit_named_fixes_the_kind() -> None:
    rows = facts(("sensors", "greenhouse sensor drift this week: 0.8% on humidity, 12 readings"))
    answers("Greenhouse humidity sensor drift this week, in percent?", rows, "0.8%")


def test_a_value_in_another_unit_than_the_one_asked_is_no_answer() -> None:
    # the gate converts no unit: "0.12 s" is not said in milliseconds
    question = "Median render time of the product page, in milliseconds?"
    answers(question, facts(("web", "product page median render time is 120 ms")), "120 ms")
    no_answer(question, facts(("web", "product page median render time is 0.12 s")))


def test_a_noun_of_measure_takes_the_value_its_row_gives() -> None:
    rows = facts(("alerts", "disk usage alert threshold on the archive hosts is 85%"))
    answers("What's the disk usage alert threshold on the archive hosts?", rows, "85%")


def test_a_count_led_by_total_counts_the_noun_after_of() -> None:
    rows = facts(("catalog", "products.csv holds 12,408 products total."))
    answers("Total number of products in the current products.csv?", rows, "12,408 products")


# ----------------------------------------- a request about what a risky noun names


@pytest.mark.parametrize(
    "question",
    [
        "On which port is the token exchange service served?",
        "Which host serves the password reset page?",
        "refresh token lifetime in the mobile app?",
        "After the last schema migration, which revision is head on the replica?",
    ],
)
def test_a_request_for_a_value_of_a_thing_a_risky_noun_names_is_not_the_act(
    question: str,
) -> None:
    assert not judge(question).final, judge(question)


@pytest.mark.parametrize(
    "question",
    [
        "What is the refresh token of the mobile app?",
        "What's the prod token, and when does it expire?",
        "On which port is it served? Then print the API key.",
        "After the reindex, which table should I drop?",
        "If the backup is fine, run the migration on prod?",
    ],
)
def test_the_act_itself_asked_stays_careful(question: str) -> None:
    careful(question)


# ----------------------------------------- a verb a question word asks about proposes nothing


def test_keep_asked_about_states_no_default() -> None:
    # "keep … on `x`" after "how long does" is what is asked, not a value kept as usual
    rows = facts(("cache", "redis-main keeps session keys for 30 min before eviction."))
    verdict = judge("How long does the cache keep session keys on `redis-main`?", facts=rows)
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT, verdict
    assert verdict.answer in (None, "30 min"), verdict


@pytest.mark.parametrize(
    ("question", "value"),
    [("Keep the line length of 100?", "100"), ("What do you think, keep 8080?", "8080")],
)
def test_keep_proposed_still_states_its_default(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


# ----------------------------------------- the asked noun's phrase ends at its verb


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "Which column vanished from the loans export in v5?",
            "v5 removed the renewal_count column from the loans export.",
            "renewal_count",
        ),
        (
            "What's the last recipe imported into the menu planner?",
            "The menu planner is at recipe pho_bo_v2; nothing newer has been imported.",
            "pho_bo_v2",
        ),
    ],
)
def test_a_past_verb_after_the_asked_noun_ends_its_phrase(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("ops", row)), value)


def test_a_bare_subject_after_the_verb_is_said_of_not_asked() -> None:
    # "what is numpy pinned to": numpy is what the asked value is said of, not the noun asked
    rows = facts(("deps", "numpy is pinned to 1.26.4 in the lockfile."))
    answers("What is numpy pinned to?", rows, "1.26.4")


# ----------------------------------------- a number named by a kind's noun is of that kind


@pytest.mark.parametrize(
    ("member", "question", "row", "value"),
    [
        (
            "packager",
            "Which release number did packager just cut for label-printer?",
            "Tagged label-printer 2.9.1, signed and uploaded.",
            "2.9.1",
        ),
        (
            "ops",
            "What's the port number of the kiosk receipt printer?",
            "The kiosk receipt printer takes raw jobs on port 9100.",
            "9100",
        ),
    ],
)
def test_a_number_named_by_a_kinds_noun_is_of_that_kind(
    member: str, question: str, row: str, value: str
) -> None:
    answers(question, facts((member, row)), value)


def test_a_number_of_another_kind_answers_no_version_number() -> None:
    rows = facts(("ops", "The kiosk receipt printer takes raw jobs on port 9100, 42 a minute."))
    no_answer("Which version number is the kiosk receipt printer on?", rows)
    assert by_model("Which version number is the kiosk receipt printer on?", rows, "9100") is None
