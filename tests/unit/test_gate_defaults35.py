"""A default named after the choice by what marks a habit or a rule of the house.

(1) "Font size 11 or 12? 12 is our house style.": a clause after the choice names one of its
options as what is done by rule or habit ("our house style", "standard here", "unless told
otherwise", "what the team prefers", "the usual choice", "we stick to"), and that option is
the default; a number said as a word ("Two is standard here") is its figure.
(2) The answer is the option whole as the choice writes it: a time ("9:00"), a number with
its unit ("2 cm").
(3) Near misses stay "a choice with no stated default": one person's liking, a fact that is
no rule, a past one-off, a question, a rule of another thing, a rule that was or will be,
two rules that disagree, a rule naming no option.
(4) A default that is a careful act stays with the human, the careful judgement first.

Words of a bakery, a hospital ward, a shipping line, a school, a dairy, a theatre, a
vineyard, a print shop, a brewery and a ski resort: no development set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful

# ------------------------------------------------- (1) an option named by a habit or a rule


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Menu font size 11 or 12? 12 is our house style.", "12"),
        ("Loaf tins: 900 g or 450 g? 900 g is our house style.", "900 g"),
        ("Round the dosage chart to 1 or 2 decimals? Two is standard here.", "2"),
        ("Pallets per container, 20 or 24? Twenty is standard here.", "20"),
        (
            "Use the cream or the white card for the programmes? White unless told otherwise.",
            "white",
        ),
        ("Seal the crates with wax or tape? Tape unless told otherwise.", "tape"),
        (
            "Order the class list by surname or by form — surname is what the team prefers?",
            "surname",
        ),
        ("Rota by week or by shift? Week is what we prefer.", "week"),
        ("Print the posters in colour or grey? Grey is cheaper and the usual choice.", "grey"),
        ("Cork or screwcap for the rosé? Screwcap is the usual choice.", "Screwcap"),
        ("Skim or whole milk for the ward tea? We stick to skim.", "skim"),
        ("Lager in kegs or casks for the festival? We always stick with kegs.", "kegs"),
        ("Matte or gloss for the flyers? Matte is our house style.", "Matte"),
        ("Label the bottles in English or French? English is the norm here.", "English"),
        ("Piste map in A3 or A2? A3 is our standard.", "A3"),
        ("Bread rolls: 6 or 12 per bag? Twelve is our house rule.", "12"),
        ("Ferry tickets as PDF or PNG? PDF is our convention.", "PDF"),
        ("Stage lights warm or cold for the matinee? Warm, as always.", "Warm"),
        ("Cheese wheels turned daily or weekly? Daily is the rule here.", "daily"),
        ("Harvest by hand or by machine? Hand is the house style.", "hand"),
        ("Seat the parents by class or by surname? Class is the standard here.", "class"),
    ],
)
def test_an_option_a_habit_names_is_the_default(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


# --------------------------------------------------- (2) the option whole, as the choice writes it


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Open the box office at 9:00 or 10:00? 9:00 is our house style.", "9:00"),
        ("Bell for lunch at 12:15 or 12:30? 12:30 is standard here.", "12:30"),
        ("Margins on the order forms: the standard 2 cm, or 1.5?", "2 cm"),
        ("Gutter: the usual 5 mm, or 8?", "5 mm"),
    ],
)
def test_the_answer_is_the_option_whole(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    ("question", "choice"),
    [
        ("Open the box office at 9:00 or 10:00?", "(9:00 or 10:00)"),
        ("Bell for lunch at 12:15 or 12:30 tomorrow?", "12:15 or 12:30"),
        ("Milking at 5:30 or 6:00: which suits the new herd?", "(5:30 or 6:00)"),
    ],
)
def test_a_time_stays_one_option_of_the_choice(question: str, choice: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None, verdict
    assert choice in verdict.why, verdict.why


# ---------------------------------------------------------- (3) near misses: no stated default


@pytest.mark.parametrize(
    "question",
    [
        # one person's liking
        "Menu font size 11 or 12? Sam likes 12.",
        "Menu font size 11 or 12? 12 is what Sam prefers.",
        # a fact that is no rule
        "Menu font size 11 or 12? 12 is bigger.",
        "Print the posters in colour or grey? Grey is cheaper.",
        # a past one-off
        "Menu font size 11 or 12? Last time we used 12, by mistake.",
        # a question
        "Menu font size 11 or 12? Is 12 our house style?",
        "Menu font size 11 or 12 — is 12 standard here?",
        # a rule of another thing
        "Menu font size 11 or 12? 12 is our house style for the wine list.",
        "Ward 3 rota by week or by shift? Week is standard on ward 5.",
        # a rule that was, or will be
        "Menu font size 11 or 12? 12 was our house style until May.",
        "Menu font size 11 or 12? 12 will be our house style next term.",
        # a rule denied
        "Menu font size 11 or 12? 12 is not our house style.",
        # two rules that disagree
        "Menu font size 11 or 12? 12 is our house style, but 11 is standard here.",
        "Seal the crates with wax or tape? Tape unless told otherwise. Wax is the usual choice.",
        # a rule that names no option, or needs reasoning to reach one
        "Tag the vintage v2.3.0 or v2.3.1? Patch bumps are our default for fixes like this.",
        "Cork or screwcap for the rosé? Glass stoppers are the usual choice.",
        # a fact asked, not a pick: the house's habit is no evidence of what it is
        "Is the ward chart in 11 or 12 point? 12 is our house style.",
        "What size did the printer use for the menus, 11 or 12? 12 is our house style.",
        # doubt, or a tag asking to be told it is so
        "Menu font size 11 or 12? Not sure, but 12 is our house style.",
        "Menu font size 11 or 12? 12 is our house style, right?",
        # the habit set aside for this time, or another option wished after it
        "Matte or gloss for the flyers? Matte is our house style, but the client wants gloss.",
        "Matte or gloss for the flyers? Matte is our house style. The client wants gloss.",
        "Cheese wheels turned daily or weekly? Daily is the rule here, though not this week.",
        # a rule of one of several matching options
        "Pallets per container, 20 or 24? 24 and 20 are both standard here.",
    ],
)
def test_a_near_miss_is_a_choice_with_no_stated_default(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None, verdict


# ---------------------------------------------- (4) a default that is a careful act stays careful


@pytest.mark.parametrize(
    "question",
    [
        "Purge (our usual) or keep the old ward rota?",
        "Shred the old exam papers or file them? Shredding is our house style.",
        "Delete the old tasting notes or archive them? Delete is the usual choice.",
        "Send the invoices to the dairy now or on Friday? Now is our house style.",
        "Publish the programme tonight or tomorrow? Tonight unless told otherwise.",
        "Pay the brewery invoice today or next week? Today is standard here.",
    ],
)
def test_a_careful_default_stays_with_the_human(question: str) -> None:
    careful(question)
