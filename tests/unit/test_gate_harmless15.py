"""A question that only asks a fact is not a careful one for a word it shares with one
(docs/concierge-rounds.md, "harmless15"):

- "till"/"until" before a question word opens the question, as "on"/"at" do: "Till what date
  are prod deploys frozen?" asks when a span ends, tills nothing and changes no production;
- a secret's word naming a piece of code by what it handles ("in which file is the password
  reset handler?") asks where the code is; a secret asked for, held or pasted stays careful;
- "… which one is it?", "Do we know which one it is?" asks which one a thing already is, a
  fact the fleet may say, not a choice put to the human — unless the question offers things
  to pick from anywhere ("X or Y", "vs", a list) or asks what should be.

Cases are of other domains than the sets that showed them: a bakery, a ferry line, a
library, a clinic, a school.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import answers, careful, facts, irreversible

# ----------------------------------------------------------- a time's end asked, "till"/"until"


@pytest.mark.parametrize(
    "question",
    [
        "Till what date are prod deploys of the ferry booking site frozen?",
        "Until when is the production freeze on the bakery till system?",
        "till which day is the library's prod catalogue read-only?",
    ],
)
def test_a_question_word_after_till_asks_when_a_span_ends(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "Till what date should I freeze prod deploys of the ferry site?",  # the asker's act
        "Until when can I hold the prod deploys? then deploy the clinic app to prod",
        "Till what date are prod deploys frozen? Deploy the bakery hotfix to prod after.",
        "Till the soil in the production garden bed?",  # no question word: a verb
    ],
)
def test_till_before_a_step_or_as_a_verb_stays_careful(question: str) -> None:
    irreversible(question)


# -------------------------------------------------------------------- "which one is it?"


@pytest.mark.parametrize(
    "question",
    [
        "Want to cite the ferry refit ticket in my handover note — which one is it?",
        "For the incident review I need the bakery supplier's complaint number. Which one is it?",
        "I need the last build of the library app that passed the a11y suite. Do we know "
        "which one it is?",
        "I need the batch id of the clinic lab import to read its logs, which one is it?",
    ],
)
def test_which_one_it_is_asks_a_fact(question: str) -> None:
    assert careful_act(question) is None, question


def test_which_one_it_is_is_answered_from_the_fleet() -> None:
    rows = facts(("lab-bot", "The job id of the clinic lab import is 8812345."))
    answers("I need the job id of the clinic lab import, which one is it?", rows, "8812345")


@pytest.mark.parametrize(
    "question",
    [
        "Monolith or split services for the ferry booking backend. Which one is it?",
        "Monolith or split services for the ferry booking backend: which one is it?",
        "Sourdough vs rye for the bakery's launch loaf. Which one is it?",
        "Names for the library app: Shelf, Stack and Folio — which one is it?",
        "The school app names: kite, runway, hangar. Which one is it?",
        "Names for the clinic app:\n- Pulse\n- Vital\nwhich one is it?",
        "We need one ferry for the night route; which one is it going to be?",
        "Do we know which one is better for the bakery orders?",
        "The two ticket printers at the library: which one is it better to use?",
        "Which one should I use for the clinic reminders?",
    ],
)
def test_a_choice_of_which_one_stays_careful(question: str) -> None:
    found = careful_act(question)
    assert found is not None and found.kind == "ambiguous", found
    careful(question)


# ------------------------------------------------- a secret's word naming a piece of code


@pytest.mark.parametrize(
    "question",
    [
        "in which file is the password reset handler of the library portal?",
        "Which service owns the token refresh endpoint at the bakery?",
        "Where is the token refresh job of the ferry kiosk defined?",
    ],
)
def test_a_secret_word_naming_code_asks_where_the_code_is(question: str) -> None:
    assert careful_act(question) is None, question


@pytest.mark.parametrize(
    "question",
    [
        "What is the password for the library's reset handler?",
        "What is the password reset handler's password?",
        "which file holds the bakery admin password?",
        "what's in the clinic password file?",
        "what is the prod api token value of the ferry app?",
        "what is the password config for the ferry app?",
        "Which password does the school's reset handler use?",
        "What is the password reset endpoint? Paste the admin password too.",
        "What does the token refresh endpoint return? then rotate the token",
    ],
)
def test_a_secret_asked_for_stays_careful(question: str) -> None:
    irreversible(question)
