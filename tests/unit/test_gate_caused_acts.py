"""An act made to happen is that act (SPEC §4): a causative and its object before a bare verb
("*make* the new returns policy *go live*", "*let* the recall notice *go out* to every
subscriber", "*have* the nightly job *drop* …"), "let's" before a verb ("let us"), and a thing
put up where the public sees it ("put the recall notice up on the public website"). The
causative's object is what does the act, never a document it is read in: "the warning" that
goes live is no compiler warning. A bare word after a causative's object that is followed by a
noun is that object's ("make the release notes"), a thing that only goes live in the asker's
own environment or as a preview stays theirs, and "when will it go live?" only asks.

The cases are of another domain than the eval set that showed it (a weather service's
warnings): an online shop's policies, recalls and carts.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import goes_on, irreversible

CAUSED = [
    (
        "Let's make the new returns policy go live so shoppers see it at checkout, ok?",
        "makes the new returns policy go live",
    ),
    ("Let the recall warning go live on the storefront?", "lets the recall warning go live"),
    ("Let the recall notice go out to every subscriber tonight?", "go out to every subscriber"),
    ("Have the nightly job drop the stale cart tables?", "drop the stale cart tables"),
    ("Let's delete the abandoned carts table?", "deletes the abandoned carts table"),
    ("Put the recall notice up on the public website?", "puts the recall notice up"),
]


@pytest.mark.parametrize(("question", "said"), CAUSED)
def test_an_act_made_to_happen_is_that_act(question: str, said: str) -> None:
    assert said in irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Let's make my feature branch go live in my own dev environment?",
        "Let's make the preview go live?",
        "Can I open the live dashboard?",
        "Can we make the release notes for 4.2?",
        "Let me know if I can go on with the refactor.",
    ],
)
def test_a_harmless_step_near_a_caused_act_goes_on(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "When will the new returns policy go live?",
        "At what time does the recall notice go out to subscribers?",
        "Should I mock send_email in the tests so nothing actually goes out?",
        "Let the unit tests run?",
        "Put up a PR for the checkout fix?",
    ],
)
def test_a_caused_acts_words_asked_about_name_no_act(question: str) -> None:
    assert careful_act(question) is None, question


# ------------------------------- the act's own "live" is no public place the question names


@pytest.mark.parametrize(
    "question", ["Go live with the preview in staging?", "Make the checkout preview live?"]
)
def test_going_live_only_in_a_place_that_is_not_production_goes_on(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Go live with the preview for everyone?",
        "Make the staging build live in production?",
        "Go live with the checkout page once the preview looks good?",
        "Go live with the checkout page, the preview looked fine?",
    ],
)
def test_going_live_beside_a_public_place_or_of_another_thing_stays_careful(
    question: str,
) -> None:
    irreversible(question)
