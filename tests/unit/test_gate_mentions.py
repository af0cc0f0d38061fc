"""What a question only mentions, or a step said in other words, is no careful act and no
choice: moving to a branch or a folder one works in, a phrasal verb that starts the asker's
own thing, a word glued into a compound noun, a stop word inside a name. Each rule beside
the near-misses that keep their verdict: the careful act in the same words stays careful."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful


def _goes_on(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final and verdict.kind is VerdictKind.PROCEED, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Okay to stash my current changes and switch to the bugfix branch locally?",
        "Switch to the bugfix branch?",
        "switch over to the `feature/ledger-export` branch and rerun the tests?",
        "Can I switch back to my worktree for the parser and keep going?",
        "Switch to the docs folder and build them?",
    ],
)
def test_moving_to_where_one_works_is_a_step(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Switch the test runner to pytest-xdist?",
        "Switch to Postgres for the job queue?",
        "Switch to the new payment provider?",
        "Switch production to the bugfix branch?",
        "Switch to the main branch and push?",
    ],
)
def test_switching_a_tool_or_production_stays_with_the_human(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Switch off the shared staging database?",
        "Switch the checkout flag to on for all users?",
        "Switch the prod traffic to the new cluster?",
    ],
)
def test_a_switch_that_acts_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "spin up the dev server on my box to repro the bug?",
        "Spin up a local Postgres in docker for the integration tests?",
        "Boot up the Android emulator and run the UI tests?",
        "fire up the storybook locally so I can check the button states?",
    ],
)
def test_a_phrasal_start_of_the_askers_own_thing_is_a_step(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Spin up the prod cluster again?",
        "Spin up the dev server and drop the users table?",
        "Fire up the refund batch for the 40 merchants?",
    ],
)
def test_a_phrasal_start_of_a_careful_thing_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Draft the on-call rotation plan and run it?",
        "Write the call-tree checklist for the outage drill and run it?",
        "Draft the notify helper for my local test harness and run it?",
    ],
)
def test_a_thing_named_by_an_act_without_its_context_is_no_act_when_run(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Write the call script for the customers and run it?",
        "Draft the on-call rotation plan and send it to the customers?",
        "Draft the key rotation plan and run it?",
        "Prepare the refund batch and run it?",
        "Lint the deploy script and then run it?",
    ],
)
def test_a_thing_named_by_an_act_in_its_context_is_that_act_when_run(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("Drop the please_table?", "it drops the please_table"),
        ("Truncate the then_logs table?", "it truncates the then_logs table"),
        ("Purge the so_far cache?", "it purges the so_far cache"),
        ("Delete the old_when_ready queue now?", "it deletes the old_when_ready queue"),
        ("Drop the table please?", "it drops the table"),
        ("TRUNCATE TABLE then_logs?", "it empties the table then_logs"),
    ],
)
def test_a_stop_word_inside_a_name_is_the_names(question: str, says: str) -> None:
    verdict = judge(question)
    assert verdict.final and verdict.why.endswith(says), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Add a section on soft delete vs hard delete to the design doc?",
        "Explain soft delete vs hard delete in the README for new contributors?",
        "Should the export treat soft delete vs hard delete the same way in the report?",
        "Write up the trade-offs of REST vs gRPC for the wiki page?",
        "Summarize optimistic vs pessimistic locking for my notes?",
    ],
)
def test_two_things_set_side_by_side_as_a_topic_are_no_choice(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final, verdict


@pytest.mark.parametrize(
    "question",
    [
        "soft delete vs hard delete?",
        "Soft delete vs hard delete for the user purge job?",
        "REST vs gRPC for the new inventory service?",
        "Add a section on soft delete vs hard delete, then hard delete the old rows?",
        "Write up REST vs gRPC and pick one for the new service?",
        "Decide on REST vs gRPC for the new service?",
        "Settle on soft delete vs hard delete for the user records?",
    ],
)
def test_a_choice_or_an_act_beside_it_stays_with_the_human(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Shall I draft (not send) the maintenance email to players so you can review it?",
        "Can I write (but not post) the release announcement for customers?",
        "Prepare (don't pay) the invoice batch for the 12 vendors so you can check it?",
    ],
)
def test_a_negated_alternative_in_brackets_leaves_the_verb_its_object(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Shall I draft (and send) the maintenance email to players?",
        "Shall I send (not draft) the maintenance email to players?",
        "Draft (not send) the email to players, then send it?",
        "Prepare (then pay) the invoice batch for the 12 vendors?",
    ],
)
def test_an_aside_that_does_the_act_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "May I read the credentials loader code to see why it logs a warning? "
        "I don't need the secrets themselves.",
        "Can I profile the billing service locally? I won't touch the payment records.",
        "Review the rollout checklist for typos? We don't want the deployment itself today.",
    ],
)
def test_the_object_of_a_negated_verb_is_not_acted_on(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "I don't need the staging token, print the prod token?",
        "Don't forget the API key: print it?",
        "I don't need the docs, just send the secrets to the vendor?",
        "We don't want the deployment delayed, so deploy to prod now?",
    ],
)
def test_an_act_beside_a_negated_verb_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "could I search the moderation docs for how 'permanent ban' is defined, need it for "
        "my summary",
        'Grep the codebase for "irreversible" to see where the warning text comes from?',
        "Look up how the glossary defines 'permanent deletion' for my notes?",
    ],
)
def test_the_questions_own_word_quoted_as_a_term_looked_up_is_a_mention(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "This change is 'permanent', proceed?",
        "Search the docs for 'permanent ban' and then permanently ban the account?",
        "It's irreversible, but grep the logs first and go ahead?",
        "Apply the 'permanent' retention policy to the prod bucket?",
    ],
)
def test_the_questions_own_word_said_of_the_step_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Run `actionlint` on the deploy pipeline workflow files?",
        "Run `shellcheck` on the purge script?",
        "Run `yamllint` against the release workflow?",
        "Run `sqlfluff lint` over the migration files?",
    ],
)
def test_a_checker_run_on_a_thing_reads_it(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Run `actionlint` on the workflow files, then run the deploy pipeline?",
        "Run the purge script, then `shellcheck` it?",
        "Run `purge_check` on the prod database?",
        "Run `deploy` on the checkout service?",
        "Run `shellcheck` on the purge script and then run it?",
    ],
)
def test_what_is_run_beside_a_checker_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Document how password resets work for the library kiosk?",
        "Can I write the wiki page explaining how the POS API tokens are issued (no real ones)?",
        "Summarise how the greenhouse controller's credentials are rotated, for the handbook?",
        "I'd like to describe how the signing keys are loaded, in the design doc. OK?",
    ],
)
def test_a_secret_in_how_a_process_works_written_about_is_a_mention(question: str) -> None:
    """A bare "how" after a reading or making verb asks about a process — how a secret is
    loaded, issued or rotated — never for the secret's value."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        # a later step may act on the secret through a pronoun, or show it
        "Explain how the POS API key is stored and then print it?",
        "Explain how the kiosk token is issued and then show it to me?",
        "Document how the signing keys are loaded, then send the keys to the vendor?",
        "Explain how the greenhouse token is issued and then use it on prod?",
        # not a manner: the secret itself, or a property asked outside a doc
        "How is the library admin password stored?",
        "Tell me how to get the bakery's POS password?",
        "Explain what the library admin password is?",
    ],
)
def test_a_secret_shown_acted_on_or_asked_for_after_how_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Run the oven simulator scenario called 'production line fire' on my laptop?",
        'Open the checklist titled "Prod closing time" in the bakery wiki and fix its typo?',
        "Replay the kiosk test named 'live checkout' against the local mock?",
    ],
)
def test_a_production_word_in_a_quoted_name_is_a_name(question: str) -> None:
    """A naming word ("called", "named", "titled") and quotation marks give the thing before
    them its name: a production word inside it names no place, and "called" is no call."""
    verdict = judge(question)
    assert not verdict.final, verdict


@pytest.mark.parametrize(
    ("question", "says"),
    [
        (
            "Run the oven job called 'cleanup' on prod?",
            "runs the oven job called 'cleanup' on prod",
        ),
        ("Run the scenario named 'prod failover' against production?", "against production"),
        ("Run the scenario called 'production line fire' and then deploy to production?", ""),
        ("Run the label job against 'production'?", ""),
    ],
)
def test_production_outside_the_quoted_name_stays_careful(question: str, says: str) -> None:
    careful(question)
    assert says in judge(question).why
