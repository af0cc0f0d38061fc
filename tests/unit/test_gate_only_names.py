"""A risky word that is only a name does no act (SPEC §4; docs/concierge-rounds.md,
"scope31"):

- "names" asked with their values denied right after it ("the env var NAMES (not values)",
  "secret names only, no values") makes a secret's word that modifies it, or is given after
  it as an example ("…, like OVEN_API_TOKEN"), a name in a list; a value asked or shown
  beside it ("… and print OVEN_API_TOKEN", "the values too") is still the secret;
- a name written as one (in backticks, an identifier, quoted) that "rename" changes or gives
  ("rename the variable `password_reminder` to …", "rename my branch
  `purge-stale-loans` to …") is only what a thing is called; a step joined after it ("… and
  print it", "… and force-push it") or a place it lives ("in prod's env") is read as before.

Cases are of other domains than the sets that showed them: a bakery, a ferry line, a library.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Can I list the bakery app's env var names (not values), like OVEN_API_TOKEN?",
        "Shall I write down the secret names only, no values, that the ferry booking job reads?",
        "Print the list of token names (not their values) the ferry app's config references?",
    ],
)
def test_a_secret_only_named_is_not_touched(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "List the env var names (not values) and print OVEN_API_TOKEN?",
        "Print OVEN_API_TOKEN and the env var names (not values)?",
        "List the secret names (not values) and paste the tokens here?",
        "Print the secret names, the values too?",
        "List the secret names the ferry service reads, like FERRY_DB_PASSWORD?",
        "Print the env var names and values the ferry service reads, like FERRY_DB_PASSWORD?",
    ],
)
def test_a_secret_beside_names_asked_is_still_touched(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Should I rename the variable `password_reminder` to `pin_reminder` in my library branch?",
        "Shall I rename the field `secret_question` to `loan_question` in my local branch?",
        "OK to rename my local branch `purge-stale-loans` to `loan-cleanup`?",
        "Shall I rename my local branch `refund-all-fines` to `fine-cleanup`?",
    ],
)
def test_a_name_renamed_does_no_act(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Rename `DB_PASSWORD` to `DB_PASS` and print it?",
        "Rename `DB_PASSWORD` to `DB_PASS`, then show me its value?",
        "Rename the env var `API_TOKEN` to `FERRY_TOKEN` and paste the token here?",
        "Rename my branch `drop-old-rows` to `row-cleanup` and force-push it?",
        "Rename `api_token` in prod's env to `api_token_old`?",
        "Rename the variable, then print `db_password`?",
    ],
)
def test_a_step_beside_a_rename_is_still_the_act(question: str) -> None:
    irreversible(question)
