"""Routine structures said in other words: yes/no options drawn as pictographs or as "give
up", a default named by the asker's proposal or a bare "standard" number, the other option
of "X as usual, or Y?" offered as an option, and go-aheads asked as "on to the next…",
"step 2?", "is okay I…", "would you permit me to…". Each beside the near-misses the careful
judgement still keeps."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful


@pytest.mark.parametrize(
    ("question", "options", "answer"),
    [
        ("🧪 run the tests next? (local only)", ("👍", "👎"), "👍"),
        ("Rerun the linter? ✅ or ❌", ("✅", "❌"), "✅"),
        (
            "The download of the public test fixture timed out. Retry it?",
            ("Retry", "Give up"),
            "Retry",
        ),
    ],
)
def test_yes_no_options_in_pictographs_or_give_up_go_on(
    question: str, options: tuple[str, ...], answer: str
) -> None:
    verdict = judge(question, options=options)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, answer), verdict


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Drop the table?", ("👍", "👎")),
        ("Delete the old snapshots?", ("Retry", "Give up")),
        ("Which one?", ("✅", "❌", "🤷")),
    ],
)
def test_pictograph_options_keep_the_careful_judgement(
    question: str, options: tuple[str, ...]
) -> None:
    careful(question, options)


@pytest.mark.parametrize(
    ("question", "options", "value"),
    [
        ("which locale for the fake sample data, en_US (the usual one)?", (), "en_US"),
        ("Which CSV delimiter? I'd go with the default comma.", (), "comma"),
        ("Threshold for flagging late pickups — standard 15 minutes?", (), "15 minutes"),
        (
            "Use the default EDI test partner profile `TESTPARTNER01` for the parser fixtures?",
            (),
            "TESTPARTNER01",
        ),
        (
            "Geocoder for the test run: Nominatim local instance as usual, or the paid API?",
            ("Nominatim local", "Paid API"),
            "Nominatim local",
        ),
    ],
)
def test_a_default_said_in_other_words_is_the_stated_default(
    question: str, options: tuple[str, ...], value: str
) -> None:
    verdict = judge(question, options=options)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Geocoder: Nominatim as usual, or the paid API?", ("Nominatim", "Pay the vendor")),
        ("Geocoder: Nominatim as usual, or pay for the API?", ()),
        ("Which CSV delimiter? I'd go with the default yes.", ()),
    ],
)
def test_a_default_in_other_words_keeps_the_careful_judgement(
    question: str, options: tuple[str, ...]
) -> None:
    careful(question, options)


@pytest.mark.parametrize(
    "question",
    [
        "I've drafted the README section locally. On to the next section?",
        "👍 step 1 done. step 2?",
        "I am finish the parsing part. Is okay I start now with the writing of unit test for it?",
        "I have completed the analysis. Would you permit me to proceed with writing the summary "
        "document in my workspace?",
        "Should I recreate my local dev venv and rerun the tests?",
        "The refactor compiles. Commit it locally on my branch and keep going?",
        "weiter machen? I am now parsing the remaining samples in the test folder.",
    ],
)
def test_a_go_ahead_in_other_words_goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "On to the deploy?",
        "step 1 done. step 2: drop the legacy tables?",
        "Is okay I drop the users table now?",
        "Would you permit me to proceed with the purge?",
        "Should I recreate the shared staging database?",
        "Commit it to main and keep going?",
        "weiter machen? I am now deploying to prod.",
    ],
)
def test_a_go_ahead_in_other_words_keeps_the_careful_judgement(question: str) -> None:
    careful(question)


def test_a_permission_for_a_step_the_gate_does_not_know_is_for_the_human() -> None:
    verdict = judge("Would you allow me to hand the repo over?")
    assert verdict.kind is VerdictKind.UNKNOWN and verdict.answer is None, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Want a summary of the GitHub issue titled 'rm -rf in install script wipes home dir'?",
        "Want a summary of the flaky test report?",
        "Shall I write a design note comparing how we send EDI 990 responses vs. how partners "
        "expect them?",
    ],
)
def test_an_offered_write_up_and_a_comparison_with_vs_go_on(question: str) -> None:
    """ "vs." ends no sentence; an offer of a summary is the step of writing it."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Want a summary of the purge and then run it?",
        "Want a recap of the deploy? I'll then push to main.",
        "Use redis vs. memcached?",
    ],
)
def test_an_offered_write_up_keeps_the_careful_judgement(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Shall I commit to the annual contract?",
        "Commit to the terms of the NDA?",
        "Should I recreate the users table?",
        "Recreate the orders topic?",
        "Recreate it?",
    ],
)
def test_a_newly_known_step_keeps_the_careful_judgement(question: str) -> None:
    """ "commit" and "recreate" start known steps only because the careful judgement reads
    their objects: a pledge, or anything not the asker's own recreated, stays careful."""
    careful(question)


def test_a_proposal_using_a_real_thing_stays_a_choice() -> None:
    """ "using Postgres" chooses; only "using a fake token" (a stand-in) does not."""
    verdict = judge("Build it using Postgres?")
    assert verdict.kind is VerdictKind.AMBIGUOUS and verdict.final, verdict


def test_a_verb_whose_objects_are_never_read_is_no_known_step() -> None:
    """ "strip" names no act, so the careful judgement never read its object: the human."""
    verdict = judge("Strip the PII columns from the export?")
    assert verdict.kind is VerdictKind.UNKNOWN and verdict.answer is None, verdict


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Want a summary of the outage posted to the status page?", "posts to the status page"),
        ("Want a draft of the release notes published to npm?", "publishes to npm"),
    ],
)
def test_an_act_a_wanting_verb_asks_done_is_that_act(question: str, named: str) -> None:
    """ "want X posted to Y": the participle is what is to be done, not a description."""
    careful(question)
    verdict = judge(question)
    assert named in verdict.why, verdict.why


def test_a_participle_of_a_past_time_describes_a_thing() -> None:
    """ "the branches merged last week" were merged before: nothing is asked to be done."""
    verdict = judge("Want a list of the branches merged last week?")
    assert not verdict.final, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Add a --dry-run flag (on by default) to the cleanup script?",
        "Run terraform plan in the staging workspace (plan only, nothing applied) to see what "
        "the 'destroy old buckets' change would remove?",
        "Run the linter (it's quick) and continue?",
        "Tests pass, and I pushed a fix. Continue?",
    ],
)
def test_a_clause_reads_on_past_an_aside(question: str) -> None:
    """An aside in brackets is read on its own; the clause around it reads as one."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Proceed, and hand the repo over?",
        "Proceed (and hand the repo over)?",
        "Run the linter (then hand the repo over) and continue?",
        "Run the build, and then archive the old artifacts?",
    ],
)
def test_a_step_joined_by_a_verb_the_gate_does_not_know_is_for_the_human(
    question: str,
) -> None:
    """A step after "and" or "then", in an aside or not, is read like the step it joins."""
    verdict = judge(question)
    assert verdict.kind is VerdictKind.UNKNOWN and verdict.answer is None, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Is it okay I continue with the proofing-time notebook? Nothing leaves my laptop.",
        "Would it be fine we start the tasting-panel survey analysis now?",
        "Is it ok that I rerun the shelf-label renderer locally?",
        "The sensor CSVs are parsed. Shall I go on and compute the hourly rainfall totals?",
        "Can I calculate the loan-return rates per branch from last year's export?",
        "Ok to walk through the checkout of the kiosk app on my emulator?",
    ],
)
def test_a_lead_with_its_subject_and_a_step_that_works_a_result_out_go_on(
    question: str,
) -> None:
    """A lead may name the step's subject without "if" ("is it okay I…"), and a step that
    computes, derives or walks through what the asker holds is a step the gate knows."""
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Is it okay I drop the loans table now?",
        "Would it be fine we deploy the kiosk app to the stores tonight?",
        "Compute the members' late fees and charge their cards?",
        "Calculate the refunds for the cancelled classes and pay them out?",
        "Walk the subscribers through the new prices by email?",
    ],
)
def test_a_lead_with_its_subject_or_a_computing_step_keeps_the_careful_judgement(
    question: str,
) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "average proofing time in the north bakery last week?",
        "Is it okay I am out on friday?",
        "Shall I replay the failed webhooks to the merchants?",
    ],
)
def test_a_noun_a_state_or_a_step_that_may_send_is_no_known_step(question: str) -> None:
    """ "average" is also a noun (a value asked for), a state is no step, and "replay" may
    send again to whoever got it first: none is read as a step to go on with."""
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.PROCEED and verdict.answer is None, verdict
