"""Careful acts by their category, not their words: a tool whose hyphenated name ends in the
act it does, a step whose stated purpose is freeing storage (what fills it deleted), a list or
rule set changed on the running system that holds it, an act carried out on one identified
person's line or account. Each rule with the harmless twins that must still be answered.

Every case is of another domain than the set that showed it (a mobile operator's network
operations): a CDN, a photo archive, a CI fleet, a research cluster, a game studio, a
warehouse, a VPN, a hospital, a gym's members, a bank.
"""

from __future__ import annotations

import pytest

from crewline.policy import judge
from crewline.policy.careful import careful as careful_verdict
from tests.unit.gate_kit import goes_on, irreversible

# ---------------------------------------------------------------- a tool named for its act


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Run `cache-purge` on the CDN edge now?", "it runs `cache-purge`"),
        ("Kick off `tenant-delete` for the expired trial tonight?", "it runs `tenant-delete`"),
        ("Trigger `photo-purge` manually to catch up?", "it runs `photo-purge`"),
        ("Execute `ledger-drop` against the archive schema?", "it runs `ledger-drop`"),
    ],
)
def test_a_tool_whose_hyphenated_name_ends_in_an_act_does_it(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Run the tests of `cache-purge`?",  # what is run is its tests
        "Run the `photo-purge` unit tests?",
        "Add a unit test for `tenant-delete`?",  # made, not run
        "Lint `ledger-drop` and fix the warnings?",  # read
        "Read the `cache-purge` logs from last night?",
        "Run `cache-purge --dry-run` to see what it would remove?",  # nothing done
        "Run the `pre-deploy` checks on the game build?",  # a prefix: a time, not the act
        "Run `rsync --archive src/ dst/` to copy the photos?",  # a flag is no tool's name
    ],
)
def test_the_tool_only_named_tested_or_dry_run_goes_on(question: str) -> None:
    goes_on(question)


# -------------------------------------------- a name joined by hyphens, its act's word first

# A name's words are one name whichever mark joins them: `erase-scans` is run as
# `erase_scans` is, its act's word first or last, in code quotes, as a path or in prose, by a
# verb that only runs things (run, execute, trigger, kick off) or `make`; a verb that also
# takes data or settings (use, import, load, set) runs no hyphenated name. (A public
# library's catalogue and a greenhouse's beds.)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Run `erase-scans` on the catalogue server now?", "it runs `erase-scans`"),
        ("Run `delete-all-holds` tonight?", "it runs `delete-all-holds`"),
        ("Execute `wipe-beds.sh` before the spring planting?", "it executes `wipe-beds.sh`"),
        ("Run ./drop-catalogue.sh against the branch libraries?", "it runs drop-catalogue.sh"),
        ("Run reset-inventory now?", "it runs reset-inventory"),
        ("Kick off destroy-seedbank?", "it kicks off destroy-seedbank"),
        ("Trigger `publish-programme` for the autumn season?", "it triggers `publish-programme`"),
        ("Don't rename `erase-scans`; run `erase-scans` now?", "it runs `erase-scans`"),
    ],
)
def test_a_hyphenated_name_whose_words_say_the_act_is_run_as_that_act(
    question: str, said: str
) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


def test_the_hyphen_and_the_underscore_name_are_one_verdict() -> None:
    for joined in ("erase-scans", "erase_scans"):
        found = careful_verdict(f"Run `{joined}` on the catalogue server now?")
        assert found is not None and f"`{joined}`" in found.reason, found


@pytest.mark.parametrize(
    "question",
    [
        "Run the `erase-scans` tests?",  # what is run is its tests
        "Lint `drop-catalogue.sh` and fix the warnings?",  # read
        "Rename the `wipe-beds` flag to `clear-beds`?",  # a name changed
        "Read the `reset-inventory` docs before the stocktake?",
        "Run `purge-all-loans --dry-run` to see what it would remove?",  # nothing done
        "Add a soft-delete column to the loans table in my branch?",  # a word, no command
        "Read the re-deploy checklist for the kiosk app?",
        "Start LOAN-4410 review after lunch?",  # an id after a verb that is not only running
        "Run the `pre-publish` checks on the newsletter draft?",  # a prefix: a time
    ],
)
def test_a_hyphenated_name_only_read_named_or_a_word_goes_on(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Import `drop-shipping.csv` into my notebook?",  # data taken in, nothing run
        "Load `purge-report.csv` into my local notebook?",
    ],
)
def test_a_hyphenated_name_a_verb_takes_as_data_is_no_act(question: str) -> None:
    assert careful_verdict(question) is None


# ---------------------------------------------------------------- a purpose that deletes


@pytest.mark.parametrize(
    "question",
    [
        "Run the nightly compaction job manually to free disk on the photo archive?",
        "Free up some space on the CI runners before the next build?",
        "Reclaim 40 GB of disk on the research cluster's scratch volume?",
        "Kick off the asset pipeline's janitor to free space on the build box?",
    ],
)
def test_a_step_for_freeing_storage_is_careful(question: str) -> None:
    reason = irreversible(question)
    assert "free" in reason or "reclaim" in reason.lower(), reason


def test_an_act_that_frees_storage_is_named_by_its_own_verb() -> None:
    found = careful_verdict("Drop the old render cache table to free disk on the studio db?")
    assert found is not None and found.reason.startswith("irreversible: it drops"), found


@pytest.mark.parametrize(
    "question",
    [
        "Free disk on the CI runner is 12 GB. Continue with the build?",  # a state said
        "Check how much disk the janitor job would free?",  # asked about, nothing freed
        "Save the ledger export to disk and continue?",  # what is saved, no storage freed
        "Disk is 40 GB free, ok to continue with the render?",
    ],
)
def test_storage_only_said_or_measured_goes_on(question: str) -> None:
    goes_on(question)


def test_how_storage_is_freed_is_said_before_what_it_is_for() -> None:
    found = careful_verdict(
        "How should I free up disk on the render farm?",
        ("Delete the old frame caches (default)", "Ask the lead"),
        "Delete the old frame caches (default)",
    )
    assert found is not None and found.reason.startswith("irreversible: it deletes"), found


# ---------------------------------------------------------------- a collection a system holds


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Edit the blocklist on the edge proxy?", "it edits the blocklist on the edge proxy"),
        (
            "Update the routing rules on the warehouse sorter?",
            "it updates the routing rules on the warehouse sorter",
        ),
        (
            "Add two entries to the price table on the checkout service?",
            "it adds two entries to the price table on the checkout service",
        ),
        (
            "Modify the matchmaking ruleset on the game servers?",
            "it modifies the matchmaking ruleset on the game servers",
        ),
        (
            "Append the night shift to the roster on badge-ctl02?",
            "it appends the night shift to the roster on badge-ctl02",
        ),
    ],
)
def test_a_collection_changed_on_the_system_that_holds_it_is_careful(
    question: str, said: str
) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Read the blocklist on the edge proxy?",  # read, nothing changed
        "Compare the routing rules on the warehouse sorter with the spec?",
        "Modify my local copy of the blocklist?",  # the asker's own
        "Update the matchmaking rules on my feature branch?",
        "Edit the table on the wiki page?",  # a document
        "Update the reading list in the draft?",
        "Add a comment to the rules file on my branch?",  # a file, not what a system holds
    ],
)
def test_a_collection_read_or_changed_in_the_asker_s_own_place_goes_on(question: str) -> None:
    goes_on(question)


# ---------------------------------------------------------------- one identified person's thing


@pytest.mark.parametrize(
    "question",
    [
        "Perform the record merge for patient 00123 in the EHR?",
        "Process the plan change for member 20331 today?",
        "Execute the card replacement for +44 7700 900123 requested by a branch?",
        "Apply the loyalty credit to jane.doe@example.com now?",
        "Carry on with the address change for customer C-4411?",
    ],
)
def test_an_act_on_one_identified_person_s_line_or_account_is_careful(question: str) -> None:
    reason = irreversible(question)
    assert reason.endswith("which acts on one identified person's line or account")


@pytest.mark.parametrize(
    "question",
    [
        "Look up the plan of +44 7700 900123?",  # read
        "Summarise the tickets for customer 4411?",
        "Run the usage report for account 88120?",  # a document about them
        "Draft a reply for customer 4411?",  # the asker's own work, made
        "Continue with the dedupe for account 7 on the sandbox?",  # a stand-in
    ],
)
def test_a_person_read_about_or_a_stand_in_goes_on(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Run `purge_old_frames` now?", "`purge_old_frames`"),
        ("Run `render-purge --all` tonight?", "`render-purge --all`"),
    ],
)
def test_a_reason_that_opens_a_name_in_code_closes_it(question: str, said: str) -> None:
    found = careful_verdict(question)
    assert found is not None, question
    assert f"it runs {said}," in found.reason, found.reason


# ---------------------------------------------------------------- calling off what is booked


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # a pronoun stands for what the clause before it named
        ("Can I find out which charter leaves last and cancel it?", "it cancels it"),
        ("Cancel the 14:00 MRI slot for the radiology ward?", "it cancels the 14"),
        ("Abort the overnight render on the studio farm?", "it aborts the overnight render"),
        ("Call off tomorrow's parent evening at the school?", "it calls off tomorrow's parent"),
        ("Rescind the room booking the choir made for Sunday?", "it rescinds the room booking"),
        ("Cancelling the Friday ward round, ok?", "it cancels the Friday ward round"),
    ],
)
def test_calling_off_what_is_booked_scheduled_or_running_is_careful(
    question: str, said: str
) -> None:
    """Whoever counted on a charter, a slot, a render or an evening loses it when it is
    called off, whatever it is: no list of customers' things is needed."""
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: {said}"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Cancel my local test run?",
        "Can I abort the lint run on my laptop?",
        "Find my stuck local build and cancel it?",
        "Cancel the draft announcement?",  # never sent: nobody counted on it
        "Should the cancel button on the booking form be grey? default grey",
        "Update the docstring of `abort_render`?",
    ],
)
def test_calling_off_the_asker_s_own_run_or_draft_goes_on(question: str) -> None:
    assert careful_verdict(question) is None, question
    assert not judge(question).final, question


# ---------------------------------------------------------------- a secret's word in code's name


@pytest.mark.parametrize(
    "question",
    [
        "Write the unit tests for `session_token_cache.py` in the lobby service?",
        "Add type hints to the `refresh_token()` helper of the pharmacy client?",
        "Lint `password_policy.ts` in my branch?",
        "Read the `revoke_badge_token` handler and explain it to me?",
    ],
)
def test_code_named_for_a_secret_is_a_mention_when_worked_on(question: str) -> None:
    """A function, a source file or a handler whose name holds a secret's word is code: a
    harmless act on it (tests, type hints, lint, reading) touches no secret."""
    assert careful_verdict(question) is None, question
    assert not judge(question).final, question


@pytest.mark.parametrize(
    "question",
    [
        "Run `rotate_api_key()` on the payments box now?",
        "Call `revoke_token()` for every player session?",
        "Execute `token_refresh.ts` with the live credentials?",
        "Print the `ward_db_password` so I can log in?",  # a value that is the secret
        "Print the GITHUB_TOKEN so I can debug the CI?",
    ],
)
def test_code_named_for_a_secret_run_or_a_secret_s_value_stays_careful(question: str) -> None:
    irreversible(question)
