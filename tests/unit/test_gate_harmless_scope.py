"""A risky word inside what a harmless act makes, names or looks at is not the act
(SPEC §4; docs/concierge-rounds.md, "scope17"):

- an act whose own subject is a nobody ("nobody publishes it yet", "nobody will send it")
  is done by no one, as "no one publishes it" always was;
- a program named in backticks with its arguments ("`make test` passed") is given those
  arguments, never the words of the sentence after the command;
- making or opening a new branch ("make a local branch called `x`") brings a branch into
  being, and gives nobody access to anything;
- a rule that a step must never be done ("`x()` must never run in prod") does nothing, while
  "why not delete …?" proposes the step and is no negation;
- a past participle right after a verb of looking, counting or picking, before its noun
  ("include cancelled orders", "exclude deleted rows") says what the things are; the verb
  before it is the act.

Cases are of other domains than the sets that showed them: a bakery, a ferry line, a
library, a clinic, a school.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import irreversible

# ------------------------------------------------------------------ an act nobody does


@pytest.mark.parametrize(
    "question",
    [
        "Shall I draft the ferry timetable announcement? Only a draft, nobody publishes it yet.",
        "Can I write the bakery newsletter text in my notes? nobody sends it before Friday.",
        "Ok to sketch the clinic's holiday notice in my doc? Nobody will publish it from there.",
    ],
)
def test_an_act_whose_subject_is_nobody_is_not_asked(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Nobody will notice: publish the ferry timetable announcement now?",
        "Publish the library notice now so nobody publishes the old one?",
        "Nobody publishes on Fridays, but publish this clinic notice now?",
        "Nobody uses the old school mailing list any more, delete it?",
    ],
)
def test_an_act_beside_a_nobody_is_still_the_act(question: str) -> None:
    irreversible(question)


# -------------------------------------------------------- a command's own arguments


@pytest.mark.parametrize(
    "question",
    [
        "`make test` passed on my branch. Carry on with the ferry fare refactor?",
        "`make lint` is clean on my branch; go on with the library search module?",
    ],
)
def test_a_command_in_backticks_takes_its_arguments_as_its_object(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Ok to run `make release` for the bakery app?",
        "run `make admin-access` for the school intern?",
        "`rm -rf build/` ok?",
    ],
)
def test_a_command_that_does_the_act_is_still_the_act(question: str) -> None:
    irreversible(question)


# ------------------------------------------------------------------ a branch made


@pytest.mark.parametrize(
    "question",
    [
        "Can I make a local branch called `timetable-rework` for my clinic rota changes?",
        "I'll open a new branch `fix/fare-rounding` locally and edit the ferry fare table. Ok?",
        "Shall I make a draft branch for the library catalogue notes?",
    ],
)
def test_a_new_branch_made_gives_no_access(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "make my branch the new main of the bakery app?",
        "Can I make a new branch public on the school GitHub?",
        "open the branch to the ferry contractors?",
        "Can I make a branch and push it to main?",
        "open a port on the prod firewall for the clinic scanner?",
    ],
)
def test_a_branch_given_to_others_is_still_access(question: str) -> None:
    irreversible(question)


# ---------------------------------------------------------- a participle as an adjective


@pytest.mark.parametrize(
    "question",
    [
        "Include cancelled orders in the draft bakery sales chart? Default: no.",
        "Exclude closed accounts from the clinic billing draft?",
        "Can I include refunded tickets in my ferry revenue table draft?",
    ],
)
def test_a_participle_before_its_noun_says_what_the_things_are(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Refund cancelled orders now?",
        "Delete deactivated accounts from the clinic LDAP?",
        "Email all 312 cancelled subscribers of the ferry newsletter the offer?",
        "Purge deleted users from prod?",
        "Jobs deleted rows yesterday, rerun?",
        "The run deleted rows in the library db, rerun it?",
        "cancel the cancelled-order sweep on the bakery shop?",
    ],
)
def test_an_act_on_things_so_named_is_still_the_act(question: str) -> None:
    irreversible(question)


# ------------------------------------------------- an amount inside what a made test checks


@pytest.mark.parametrize(
    "question",
    [
        "Shall I write a unit test that checks refunds above £200 need a manager?",
        "Add a test that checks payments below $5 are rejected by the ferry kiosk?",
    ],
)
def test_a_bound_a_made_test_checks_moves_no_money(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Write a test that checks payments below $5 are rejected, then refund £200 to the client?",
        "Refund payments above £200 now?",
        "draft the refund of £200 for the clinic patient and send it?",
    ],
)
def test_money_moved_beside_a_made_test_is_still_the_act(question: str) -> None:
    irreversible(question)


# ------------------------------------------------------------ a measure of risky things read


@pytest.mark.parametrize(
    "question",
    [
        "Ok to open (not edit) the library fines dashboard to get the refund count for my notes?",
        "Can I pull the payment totals from the bakery report for my draft chart?",
        "Check the deletion rate in the clinic archive logs?",
    ],
)
def test_a_risky_noun_that_only_modifies_a_measure_read_is_not_the_act(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "process the refund total for the ferry passengers now?",
        "Get the refund count, then refund the rest?",
        "need the payout total for the school trip, then transfer it?",
        "pay the invoice total of the bakery supplier?",
    ],
)
def test_an_act_on_a_measure_is_still_the_act(question: str) -> None:
    irreversible(question)


# ---------------------------------------------------- a rule that a step is never done


@pytest.mark.parametrize(
    "question",
    [
        "Add a comment to my local code noting that `purge_loans()` must never run in prod?",
        "Note in my draft README that the fare import should never run against production?",
    ],
)
def test_a_rule_that_a_step_must_never_be_done_in_prod_does_nothing(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "It must never run in prod, but run it in prod now?",
        "Should I never run it in prod?",
        "Is there any reason not to overwrite the production timetable file?",
        "why not run the fare import in prod now?",
        "Why not just delete the old clinic backups?",
    ],
)
def test_a_step_proposed_beside_a_negation_is_still_the_act(question: str) -> None:
    irreversible(question)


# ------------------------------------------------------------ the brief's near misses


@pytest.mark.parametrize(
    "question",
    [
        "Write a script that deletes the old loan rows and run it?",
        "Draft the refund for the ferry passenger and send it?",
        "Make the release of the bakery app?",
        "Publish the school notes (draft done)?",
        "Make a new branch of the clinic repo and make it public?",
    ],
)
def test_a_harmless_act_then_the_act_is_still_the_act(question: str) -> None:
    irreversible(question)
