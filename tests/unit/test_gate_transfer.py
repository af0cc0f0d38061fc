"""Money or ownership moved by "transfer" or "wire" without a word of money in its object is
careful (docs/concierge-rounds.md, "transfer"):

- a pronoun whose antecedent is a sum worked out or named before it ("work out the fee and
  wire it to …", "figure out how much to transfer and transfer it"), or a payment verb
  before it ("work out what to pay … and transfer it");
- a pronoun with nothing before it to stand for ("Shall I transfer it to the agency?"):
  an unclear object of a money verb fails closed;
- what changes hands moved to someone: a domain (or a domain name), a repository, an
  organisation, a trademark, shares.

A pronoun for a thing named before it that is no money ("export the logs and transfer them
to the bucket"), a connection wired up, and a call, notes or a ticket moved stay routine.
Cases are of other settings than the brief's: a charity, a law firm, a bakery, a game
studio, a clinic.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import careful_act, goes_on, irreversible


@pytest.mark.parametrize(
    "question",
    [
        "Shall I figure out how much to transfer to the charity and transfer it?",
        "Shall I work out the retainer fee and wire it to the law firm?",
        "Can I calculate what we owe the flour mill and transfer that?",
        "Should I tally the bakery's share of the takings and wire it to them?",
        "Shall I add up the raffle takings and wire them to the shelter?",
    ],
)
def test_a_pronoun_for_a_sum_is_the_sum_moved(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Shall I transfer it to the agency?",
        "Should I wire it to the clinic's supplier?",
        "Ok to transfer them to the new landlord?",
    ],
)
def test_a_pronoun_with_nothing_before_it_fails_closed(question: str) -> None:
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Shall I transfer the domain to the new registrar?",
        "Transfer studio-games.io to the publisher's registrar?",
        "Can I transfer the repo to the new maintainer?",
        "Should I transfer the charity's trademark to the foundation?",
        "Transfer the studio's shares to Dana?",
    ],
)
def test_what_changes_hands_moved_to_someone(question: str) -> None:
    irreversible(question)


def test_the_reason_names_the_step() -> None:
    assert "wires it to the law firm" in irreversible(
        "Shall I work out the retainer fee and wire it to the law firm?"
    )


@pytest.mark.parametrize(
    "question",
    [
        "Shall I work out what the invoice would come to?",
        "Shall I transfer the notes into the wiki?",
        "Shall I copy the file to my folder?",
        "Shall I move the ticket to done?",
        "Shall I compute how much we paid?",
        "Shall I pick up the bakery ticket and transfer it to the on-call?",
        "Shall I write the save handler and wire it to the menu button?",
        "Can I wire it up to the router?",
        "Shall I read the case notes and transfer them into the wiki?",
    ],
)
def test_near_misses_stay_routine(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Shall I transfer the call to the on-call?",
        "Shall I export the clinic's logs and transfer them to the bucket?",
        "Transfer the patient notes from the old folder into the new one?",
    ],
)
def test_near_misses_name_no_careful_act(question: str) -> None:
    assert careful_act(question, (), None) is None
