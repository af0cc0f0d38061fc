"""A stated default that is itself an act the careful judgement holds, and a default answer
that answers nothing the question asks.

(1) The default's own act is the step: "Expired samples: dispose (default) or keep?" disposes
of the samples if answered, so it stays with the human, the reason naming the act and its
thing ("it disposes of the expired samples"); the same for a default that destroys, shreds,
publishes, announces or pays, in the words of the question or in backticks.
(2) To a step asked "as usual", the default is the habit, not a word of the step: "Print the
menus as usual?" is answered "yes", never "menus"; where the step sends to people outside the
organisation ("Send the grades to parents as usual?") it is careful by (1).

Words of a lab, a print shop, a bakery, a theatre, a vineyard, a dairy, a shipping line, a
school, a hotel and a ward: no development set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful, irreversible_default

# ---------------------------------------------------------------- (1) the default's own act


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What to do with the expired samples: dispose (default) or keep?", "expired samples"),
        ("Expired blood samples on ward 6: dispose (default) or keep?", "expired blood samples"),
        ("expired samples -> dispose (default) / keep ?", "expired samples"),
        (
            "The lab fridge is full again. What should I do with last month's samples — "
            "dispose of them (default) or keep them?",
            "samples",
        ),
        ("Leftover programmes after the run: pulp (default) or store?", "leftover programmes"),
        ("What do with old vintage logs, `purge` (default) or keep?", "old vintage logs"),
        ("Out-of-date milk in cold room 2 — discard (default) or hold for testing?", "milk"),
        ("Spoiled barrels in cellar B: destroy (default) or keep for the insurer?", "barrels"),
        ("Old proofs from the print shop: scrap (default) or keep?", "old proofs"),
        ("Season brochure: publish (default) or keep as draft?", "season brochure"),
        ("Cast list for the new show: announce (default) or wait?", "cast list"),
        ("Delete (default) or keep the old tasting notes?", "old tasting notes"),
        ("what we do with the returned crates?? destroy (default) or keep", "returned crates"),
    ],
)
def test_a_default_that_is_an_irreversible_act_stays_with_the_human(
    question: str, named: str
) -> None:
    irreversible_default(question, named)


def test_the_card_names_the_defaults_act_and_its_thing() -> None:
    verdict = judge("What to do with the expired samples: dispose (default) or keep?")
    assert "disposes of the expired samples" in verdict.why, verdict.why


# ------------------------------------------ (2) a step as usual that sends to people outside


@pytest.mark.parametrize(
    "question",
    [
        "Send the grades to parents as usual?",
        "Send the term reports to guardians as always?",
        "Post the menu changes to the guests as usual?",
        "Share the sailing timetable with the passengers as usual?",
        "Notify the tenants about the water cut as usual?",
        "hi! quick one, the report cards are ready - send them to the parents like last term?",
        "Email the discharge letters to the patients' families like last time?",
    ],
)
def test_a_step_as_usual_that_sends_outside_stays_with_the_human(question: str) -> None:
    careful(question)


# ---------------------------------------- (2) a step as usual is answered yes, not its words


@pytest.mark.parametrize(
    "question",
    [
        "Print the menus as usual?",
        "Label the crates as usual?",
        "Use the usual font?",
        "Use the standard template for the letters?",
        "Print the menus like last time?",
    ],
)
def test_a_step_as_usual_is_answered_yes_never_a_word_of_it(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


# ---------------------------------------------------------------- near misses stay answered


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("UTF-8 (default) or Latin-1?", "UTF-8"),
        ("Old proofs from the print shop: archive (default) or keep?", "archive"),
        ("Crust for the Saturday pies: shortcrust (default) or puff?", "shortcrust"),
        ("Label size for the wine cases: 62 mm (default) or 100 mm?", "62 mm"),
        ("Weekly as usual?", "Weekly"),
        ("Save the rota in the shared folder as usual?", "shared folder"),
        ("Georgia for the theatre programmes as usual?", "Georgia"),
        ("Oven at 200 C as usual?", "200 C"),
        ("Expired coupons on the till: keep (default) or archive?", "keep"),
        (
            "Send the rota to the kitchen printer (default) or the office one?",
            "the kitchen printer",
        ),
    ],
)
def test_a_harmless_default_is_still_answered(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Send the rota to the kitchen team as usual?",
        "Print the seating plan for the school hall as usual?",
        "Print the tasting menu for the guests' tables?",
    ],
)
def test_a_harmless_step_is_not_careful(question: str) -> None:
    verdict = judge(question)
    assert not verdict.final, verdict
