"""The careful judgement's scope, by structure: a careful step described before "go on?" is
the step asked about; a request for a value does no act, and a risky word in it is its
topic; a risky word that names an identifier, or the object of a harmless act, is not the
act; and a request for a value is never answered "yes"."""

from __future__ import annotations

import pytest

from crewline.policy import Placement, VerdictKind, check_placement, judge
from tests.unit.gate_kit import careful as _careful


def _goes_on(question: str) -> None:
    """The question is a step the agent may take: the verdict says go on, with "yes"."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


def _stays_careful_naming(question: str, named: str) -> None:
    """The question is an irreversible step, final, and the verdict's reason names it."""
    verdict = judge(question)
    assert verdict.kind is VerdictKind.IRREVERSIBLE and verdict.final, verdict
    assert named in verdict.why, verdict.why


# ------------------------------------------- a careful step described before "go on?"


@pytest.mark.parametrize(
    ("question", "named"),
    [
        (
            "Heads-up: the next stage of the pipeline emails the revised quote to every "
            "customer on the list. Carry on?",
            "emails the revised quote",
        ),
        ("my script will now wire the refunds to the 12 merchants. continue?", "wires the refunds"),
        (
            "The next step sends the shipment manifest to the carrier. OK to continue?",
            "sends the shipment manifest to the carrier",
        ),
        (
            "Next, the bot notifies every customer whose order is late. Proceed?",
            "notifies every customer",
        ),
        (
            "fyi the next phase of the sync job posts the new prices to our resellers 🙂 go ahead?",
            "posts the new prices to our resellers",
        ),
        (
            "Context first: the ledger tool moved to v3 last week. The nightly workflow will then "
            "transfer the payouts to the affiliates. Good to go on?",
            "transfer",
        ),
        (
            "the agent will automaticaly sends the contract copy to the lawyer. continue pls",
            "sends the contract copy to the lawyer",
        ),
        (
            "next the stage of the `billing` pipeline emails all 40 recipients their invoice. ok?",
            "emails all 40 recipients",
        ),
        ("FYI stage 4 = send the invoices to every client. go on?", "sends the invoices"),
        (
            "the next task in the queue notifies our partners about the outage. ok?",
            "notifies our partners",
        ),
        (
            "the bot gonna post the announcement in #general next. carry on?",
            "posts the announcement",
        ),
        ("my cron will next refund the 5 orders. ok to let it run?", "refunds the 5 orders"),
    ],
)
def test_a_careful_step_described_before_the_go_ahead_is_the_step_asked_about(
    question: str, named: str
) -> None:
    _stays_careful_naming(question, named)


@pytest.mark.parametrize(
    "question",
    [
        "Step 4 runs the unit tests. go on?",
        "the next stage compiles the docs site locally. carry on?",
        "Now I'll run the linter. Continue?",
        "I'll skip the step that emails the customers. Continue with the rest?",
        "I'll skip the stage that posts to the partners and just build the image. ok to continue?",
        "The next step of the pipeline lints the notifier. Proceed?",
        "Type-check the billing code that sends invoices?",
        "the next stage writes the report to a local file. carry on?",
        "the stage that emailed customers already ran yesterday. Continue with the lint stage?",
        "Draft — locally, not sending it — an email template for the password expiry notice?",
    ],
)
def test_a_harmless_or_skipped_step_before_the_go_ahead_still_goes_on(question: str) -> None:
    _goes_on(question)


# ------------------------------------------- a request for a value is never a "yes"


@pytest.mark.parametrize(
    "question",
    [
        "link to the on-call rota pls?",
        "the staging broker's hostname, pls",
        "can you confirm the cut-off time so I put it in the config?",
        "could you tell me the TTL?",
        "confirm the timeout value for the retry job?",
        "Hi! quick one 🙏 — the build number of last night's run, please?",
        "mind sharing the path of the coverage report?",
        "pls remind me the version of `parser-core`?",
        "could u confirm the deadline for the freeze, i write it in my notes",
        "build number?",
        "just confirm the version we pinned for ruff",
        "quick confirm: the deadline for the freeze is friday, yes?",
    ],
)
def test_a_request_for_a_value_is_never_answered_yes(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.PROCEED and verdict.answer != "yes", verdict
    placed = check_placement(question, Placement(kind="proceed"))
    assert placed.kind is not VerdictKind.PROCEED, placed


@pytest.mark.parametrize(
    "question",
    [
        "bump the version?",
        "pin the version of ruff?",
        "set the timeout to 30s?",
        "update the link in the README?",
        "ok to bump the version?",
        "confirm the plan?",
        "please confirm I can continue with task 3.",
        "Alright if I resume indexing our own docs folder for the local search?",
        "Estimate the disk the old table takes (just query the table size)?",
    ],
)
def test_a_step_on_a_value_still_goes_on(question: str) -> None:
    _goes_on(question)


# ------------------------------------------- a request for a value does no act


@pytest.mark.parametrize(
    "question",
    [
        "When is the payments service's go-live planned?",
        "Which host serves the invoice SFTP?",
        "The DNS in the lab is flaky — what's the IP of the staging broker?",
        "Whom do I put as the contact for the deploy approvals in my note?",
        "Which Slack channel gets the release alerts? I'm adding it to my alert rule.",
        "when was the last deploy to production?",
        "who approves the deployments to production?",
        "who do I contact about the payment gateway outage?",
        "the newsletter goes out on which day?",
        "Which mail provider server name do we use for transactional mail?",
        "At what time on Sundays does the archive purge job run? I want to avoid it.",
        "hey 👋 under which public DNS name did the new gateway go out?",
        "the refund job is slow today. what's its queue name?",
        "plz what is the adress of the `billing-db` replica, the migration runs from there",
    ],
)
def test_a_request_for_a_value_is_not_careful_for_the_words_it_is_about(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final and verdict.kind is not VerdictKind.IRREVERSIBLE, verdict


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What's the tag of the release? then push it to prod", "pushes it to prod"),
        ("What's the tag? I'll push it to prod after.", "pushes it to prod"),
        ("what's the password for the staging db?", "password"),
        ("which day should I run the payment batch?", "runs the payment"),
        ("when should the newsletter go out? I'll send it then", "newsletter"),
        (
            "The deletion of the old buckets is next — which region are they in? then go "
            "ahead with it",
            "deletion of the old buckets",
        ),
        ("The payout to the vendor is queued — what's the batch id? and release it", "payout"),
        ("what's the ip of the dns server? also flush the dns cache on prod", "flushes"),
    ],
)
def test_a_careful_act_asked_for_beside_the_request_stays_careful(
    question: str, named: str
) -> None:
    _stays_careful_naming(question, named)


# ------------------------------------------- a name, or the object of a harmless act


@pytest.mark.parametrize(
    "question",
    [
        "write a docstring for `purge_cache()`?",
        "rename the variable `send` to `send_fn`?",
        "rename `pay` to `pay_invoice` in utils.py, ok?",
        "the variable `refund` shadows a builtin, rename it to `refund_amt`?",
        "add a docstring to `send`?",
        "count how many rows the old overwrite bug touched (SELECT on the replica)?",
        "draft a note comparing how we publish events vs how consumers read them?",
        "Write up the differences between the blue and green pools vs the canary ones?",
        "run the cleanup with `--dry-run` — it only lists what it would delete. ok?",
        "execute the prune script with --dry-run? it only prints",
        "should I run `test_drop_column_flow` again? it flaked",
        "Write up the differences between how we deploy and how they release? just prose",
        "write a doc on how we deploy to prod?",
    ],
)
def test_a_name_or_the_object_of_a_harmless_act_is_not_the_act(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "just run `purge_cache()`, it's harmless. ok?",  # a claim of safety is no flag
        "run the cleanup, it's a dry run really. ok?",
        "run the cleanup with --dry-run and then for real?",
        "run the prune job with --dry-run, then run it again to apply?",
        "run `purge` now?",
        "`deploy` it?",
        "shall I `push`?",
        "run the purge_all job?",
        "run the `purge_all` job?",
        "kick off `refund_all`?",
        "compare redis vs memcached and pick one?",
        "document how we deploy to prod, then do it?",
        "write down how I should deploy to prod?",
    ],
)
def test_the_act_itself_stays_careful(question: str) -> None:
    _careful(question)


# ------------------------- what wipes data is an edit on code: reformat, the cleanup of


@pytest.mark.parametrize(
    "question",
    [
        "Tests pass. Shall I carry on with the cleanup of unused helpers in the billing module?",
        "Want me to continue with the cleanup of dead imports in `inventory/api.py`?",
        "ok to reformat `checkout/cart.ts` with prettier, nothing else?",
        "Reformat src/recipes/parser.py with ruff?",
        "Rerun the linter and reformat the code in the scheduler module?",
    ],
)
def test_reformat_or_a_cleanup_of_code_is_an_edit(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Continue with the cleanup of the old invoice exports?",
        "Continue with the cleanup?",
        "Reformat the scratch disk on build-agent-3?",
        "Reformat the SD card in the lab's data logger?",
        "Clean up the dump.sql files on the shared volume?",
        "Reformat `checkout/cart.ts` and push to main?",
    ],
)
def test_reformat_or_a_cleanup_of_data_stays_careful(question: str) -> None:
    _careful(question)


# --------------- "when", "where", "why" open what is explained, though they start a clause


@pytest.mark.parametrize(
    "question",
    [
        "Add a comment explaining when we refund the orders?",
        "Update the README section that says where we deploy the docs site?",
        "Fix the docstring that describes when we purge stale carts?",
        "Update the code comment in `billing/invoices.py` that explains why we drop the cache?",
    ],
)
def test_what_a_subordinate_question_word_opens_after_a_doc_is_written_about(
    question: str,
) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Write a note on when we email the customers, then email them?",
        "Read the runbook that explains when we restart the broker, then restart it?",
        "when we publish the recipes, update the comment?",
        "Update the comment, when we publish the recipes?",
    ],
)
def test_a_subordinate_clause_that_does_the_act_stays_careful(question: str) -> None:
    _careful(question)


# ----------------------------- a tool named for checking, run, reads what it is named for


@pytest.mark.parametrize(
    "question",
    [
        "Run the migration linter over the migrations folder (it only reads)?",
        "Run the deploy checker on the release branch?",
        "Run the secrets analyzer over the repo?",
    ],
)
def test_a_checking_tool_named_for_an_act_reads(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Run the migration linter and then run the migrations?",
        "Run the purge linter, then purge?",
        "Run the migration checker against the prod database?",
    ],
)
def test_a_checking_tool_beside_the_act_stays_careful(question: str) -> None:
    _careful(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        # an act's verb as a command line's subcommand
        ("Run `zfs destroy tank/home@old`?", "zfs destroy tank/home@old"),
        ("Run `virsh destroy web-vm-3` to free the host?", "virsh destroy web-vm-3"),
        ("Shall I run `rclone purge remote:photos/2019`?", "rclone purge"),
        # a run tool named for the act, a letter or two aside
        ("Run `dropdb orders_old` on the shared server?", "dropdb orders_old"),
        ("Should I `bkill 1234` so the queue moves?", "bkill 1234"),
    ],
)
def test_a_command_whose_subcommand_or_name_is_an_act_is_careful(question: str, named: str) -> None:
    """What a command line does is said by its subcommand, or by its tool's name: run, the
    act is done, whatever the tool."""
    _stays_careful_naming(question, named)


@pytest.mark.parametrize(
    "question",
    [
        "Run `kubectl get pods -n shop`?",
        "Run `docker compose up` on my laptop?",
        "Run `dropbox status` on my laptop?",
        "Read the man page of `virsh destroy`?",
        "Add a unit test for `drop_table`?",
        "Run `pytest tests/test_delete.py`?",
    ],
)
def test_a_command_that_reads_or_an_act_only_named_goes_on(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final, verdict


# ----------------------------------------- an act confined to a throwaway place


@pytest.mark.parametrize(
    "question",
    [
        "Run the kiosk tests? they truncate the menu table in an ephemeral container",
        "May I run the catalogue importer tests (they create and drop tables in a disposable "
        "sqlite file)?",
        "Can I run the import tests? They drop and recreate the sample tables in a disposable "
        "sqlite file.",
        # what a job is explained to do there, then run, is done there too
        "Explain how the fixture job drops the tables in a throwaway sqlite file and then run it?",
    ],
)
def test_an_act_in_a_throwaway_place_goes_on(question: str) -> None:
    _goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        # a production word or a shared thing in the clause wins
        ("Drop the loans table in the throwaway copy of the production database?", "drops"),
        # a step after the throwaway one is read apart
        (
            "Wipe the reservations table in a disposable sqlite file and then drop the real one?",
            "drop",
        ),
        # a throwaway place sends nothing less to people
        ("Email every library member from a throwaway inbox?", "email"),
        # "scratch" names a place people keep
        ("Run the oven job? It wipes the scratch disk on every node first.", "wipe"),
    ],
)
def test_a_throwaway_place_beside_the_act_stays_careful(question: str, named: str) -> None:
    _stays_careful_naming(question, named)
