"""A word of the question its row does not say but the row's value or member does: the kind
of thing the value's own form is ("the GLM *notebook*" of a path ending ".ipynb"), and the
member named in the question's spelling ("the *load test*" of member ``loadtest``,
"*underwriting*" of member ``uw`` where it acted). Each near miss keeps refusing: a value of
another form, another member, a member's initials where the word only modifies."""

from __future__ import annotations

from crewline.policy.fleet.about import member_named
from tests.unit.gate_kit import answers, facts, no_answer


def test_a_notebook_is_what_its_extension_says() -> None:
    rows = facts(
        ("analyst", "saved the churn propensity model to /home/analyst/churn/propensity_v4.ipynb"),
        ("billing", "invoice run finished at 03:10"),
    )
    answers(
        "Where's the analyst's churn propensity notebook saved?",
        rows,
        "/home/analyst/churn/propensity_v4.ipynb",
    )


def test_a_screenshot_is_what_its_extension_says() -> None:
    rows = facts(("qa", "checkout error dialog captured at /srv/qa/shots/checkout-error.png"))
    answers(
        "Where is the checkout error dialog screenshot?",
        rows,
        "/srv/qa/shots/checkout-error.png",
    )


def test_a_value_of_another_form_keeps_the_type_unsaid() -> None:
    rows = facts(
        ("analyst", "saved the churn propensity model to /home/analyst/churn/propensity_v4.pkl")
    )
    no_answer("Where's the analyst's churn propensity notebook saved?", rows)


def test_the_member_named_in_two_words() -> None:
    rows = facts(("soaktest", "held 900 requests per second for two hours before errors"))
    answers("How many requests per second did the soak test hold before errors?", rows, "900")


def test_another_member_in_two_words_is_not_it() -> None:
    rows = facts(("loadtest", "held 900 requests per second for two hours before errors"))
    no_answer("How many requests per second did the soak test hold before errors?", rows)


def test_the_member_by_the_initials_of_a_compound_that_acted() -> None:
    rows = facts(("wh", "pallet audit list now lives in /srv/wh/audit/pallets-2024w48.csv"))
    answers(
        "Where did warehousing put the pallet audit list?",
        rows,
        "/srv/wh/audit/pallets-2024w48.csv",
    )


def test_another_member_did_not_act() -> None:
    rows = facts(("claims", "pallet audit list now lives in /srv/claims/audit/pallets.csv"))
    no_answer("Where did warehousing put the pallet audit list?", rows)


def test_the_initials_only_of_a_word_that_acts() -> None:
    # "underwriting" modifies here: another department's rules are a near miss, never the
    # member's name
    assert member_named("where are the underwriting referral rules?", "uw") == frozenset()
    assert member_named("where did underwriting put the referral rules?", "uw")
    assert member_named("where did underwriting put the referral rules?", "uwx") == frozenset()
