"""A "go on" that is really a commitment to someone else, or a request to vouch for how things
are.

1. Confirming, booking, reserving, RSVPing, accepting, signing or agreeing something with or
   to a party outside the company (a caterer, a haulier, a florist, a hotel by name) commits
   the owner to them: careful, the reason naming the act ("it confirms the booking with the
   caterer"). A confirmed booking, reservation or attendance is one with someone else
   whoever is named.
2. Asking the human to assert a state ("confirm the fridge is fine", "we're good on the
   fridge, right?", "can you vouch that…", "is it safe to say…") is neither a go-ahead nor a
   value: a "yes" would be a fact nobody in the fleet stated. It goes to the human.

Near misses keep their verdict: a confirm that asks to go on, the asker's own check before a
go-on, a booking of the team's own room, the plan confirmed.

Words of a bakery, a hospital ward, a shipping line, a school, a dairy, a theatre, a vineyard
and a print shop: no development set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, VerdictKind, check_placement, judge
from crewline.policy.careful import careful as careful_act
from tests.unit.gate_kit import goes_on, irreversible

# ---------------------------------------------------------------- a commitment to others

COMMITMENTS = [
    ("Confirm the booking with the caterer?", "confirms the booking with the caterer"),
    ("Confirm the order with the flour mill for Monday's bake?", "confirms the order"),
    ("Confirm with the florist that we'll take the lilies for opening night?", "confirms"),
    ("Reserve two cabins with the ferry operator for the deck crew?", "reserves two cabins"),
    ("RSVP yes to the wine merchant's tasting on Friday?", "rsvp"),
    ("Agree the delivery date with the haulier?", "agrees the delivery date"),
    ("Book the coach company's coaches with the coach firm for the Year 9 trip?", "books"),
    ("Reserve the front row at the Lyceum theatre for the prize-giving?", "reserves"),
    # a party by its name, written with a capital
    ("Confirm the pickup with Maersk for Tuesday?", "confirms the pickup with maersk"),
    ("Confirm the 7am milk slot with DHL?", "confirms the 7am milk slot"),
    ("Please confirm our attendance at the distributor's trade fair.", "confirms our attendance"),
    (
        "The coach firm held two coaches for us until tonight, after that they go to another "
        "school. Confirm the coaches with the coach firm?",
        "confirms the coaches",
    ),
    ("Shall I confirm the slot with the printer for the theatre programmes?", "confirms the slot"),
    (
        "we confirm now the reservation at the hotel for the crew, yes?",
        "the reservation at the hotel",
    ),
    ("Confirm the reservation at `Trattoria Roma` for the cast party?", "confirms the reservation"),
    ("Accept the booking from Hotel Miramar for the touring cast?", "accepts the booking"),
    ("ok to book the vineyard tour with the grower for the 12th?", "books the vineyard tour"),
    ("Quick one: confirm the milk collection slot with the tanker contractor, go?", "confirms"),
]


@pytest.mark.parametrize(("question", "act"), COMMITMENTS)
def test_a_commitment_to_someone_outside_is_careful(question: str, act: str) -> None:
    why = irreversible(question)
    assert act in why.lower(), why
    assert "commits the owner" in why, why
    placed = check_placement(question, Placement(kind="proceed", answer="yes"))
    assert placed.answer is None and placed.final, placed


# ---------------------------------------------------------------- a state to vouch for

VOUCHES = [
    "Confirm the fridge is fine?",
    "Confirm the proofing cabinet is at temperature?",
    "Can you confirm the ward 4 fridge is within range?",
    "Please confirm that the reefer containers are holding -18?",
    "Night shift logged the readings at 02:00 and 04:00. Confirm the drug fridge on ward 7 is ok?",
    "Confirm `cold_room_2` is within range?",
    "pls confirm the vats r clean",
    "We're good on the fridge, right?",
    "Are we good on the dairy cold room?",
    "we are ok with the vat temperatures, yes?",
    "We're all set on the stage rigging?",
    "Can you vouch that the stage rigging is safe?",
    "Vouch for the night shift's fridge log?",
    "Is it safe to say the barrels are sealed?",
    "Safe to assume the lift on deck 3 is fixed?",
    "Fair to say the print run is clean?",
    "Can I tell the inspector the kitchen is clean?",
    # a confirm alone after the state it asks vouched for
    "Is the fridge fine, can you confirm?",
    "Fridge fine? Confirm pls.",
    "The walk-in is at 3 degrees, please confirm.",
]


@pytest.mark.parametrize("question", VOUCHES)
def test_a_state_to_vouch_for_goes_to_the_human(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and not verdict.kind.routine, verdict
    assert "vouch" in verdict.why or "whether something is so" in verdict.why or verdict.final, (
        verdict.why
    )


@pytest.mark.parametrize("question", VOUCHES)
def test_a_models_yes_to_a_state_to_vouch_for_does_not_hold(question: str) -> None:
    verdict = check_placement(question, Placement(kind="proceed", answer="yes"))
    assert verdict.answer is None and not verdict.kind.routine, verdict


# ---------------------------------------------------------------- near misses

GO_AHEADS = [
    "Confirm and continue with the export?",
    "Shall I check the fridge is fine and continue?",
    "Confirm the config parses, then continue?",
    "Confirm I should continue with the next ward's list?",
    "Please confirm I can carry on with the timetable export.",
    "Confirm: carry on with the bakery stock count?",
    "Confirm the plan looks right?",
    "Are we good to go with the berth list?",
    "Are we good with the plan?",
    "We're good to continue with the ward list, right?",
    "Shall I rerun the fridge log check to confirm it's clean?",
    "Run the tests to confirm the fridge alarm module is fine?",
    "Confirm the booking flow tests pass, then carry on?",
    "Draft the confirmation email to the caterer for your review?",
    "Check the booking sheet against the caterer's invoice and continue?",
    # the company's own team by its name is nobody outside
    "Confirm the fix with QA, then continue?",
    # a confirm alone after the asker's own step asks leave for it
    "I'll move on to the next ward, confirm?",
    "Continue with the export? Confirm please.",
    "Ready to continue with the list, can you confirm?",
]


@pytest.mark.parametrize("question", GO_AHEADS)
def test_a_go_ahead_that_looks_like_a_vouch_still_goes_on(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Book the meeting room for our own standup?",
        "Book a slot in the shared calendar for the retro?",
        "Reserve the staff room for the ward handover?",
        # the party alone as a booking verb's object: unknown to the gate, not careful
        "Book the photographer for prize day?",
        "Shall I book the courier for the slot dispatch mentioned?",
    ],
)
def test_an_internal_booking_keeps_its_verdict(question: str) -> None:
    # the gate does not know "book" as a harmless step: it stays unknown, never careful
    assert careful_act(question) is None, question
    verdict = judge(question)
    assert verdict.kind is VerdictKind.UNKNOWN and not verdict.final, verdict
