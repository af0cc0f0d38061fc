"""The asked noun, read as the question means it (docs/concierge-rounds.md, "asked35"):

- a terse "<thing> number / id of …?" asks the thing's number ("lot number of the Tuesday
  cheddar?": the lot's), never a count of what follows "of";
- a vague "what did <member> report / measure / find?" after a need or a topic put first
  ("I need the cold room temperature — what did dairybot report?") asks what the need or
  the topic names, of that member's word;
- a noun of an event whose verb the row says ("expiry" / "expires", "departure" /
  "departs", "arrival" / "arrives", "deadline" / "due") asks its date or time;
- "how often" asks a share of the occurrences ("jams in 4% of batches") or the span it
  recurs at ("every 6 hours"), not a duration alone.

Each near miss stays with the human: another thing's number, a number by another noun,
another member's row, another thing's date, the verb negated, planned or of another event,
a duration that does not recur, and two rows that disagree. The trades are ones the
development sets do not use: a bakery, a dairy, a shipping line, a print shop, a brewery, a
vineyard, a hospital ward, a school, a ski resort.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import answers, facts, no_answer

# ------------------------------------------------------------- a thing's number, asked tersely


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "lot number of the Tuesday cheddar?",
            "Tuesday's cheddar was packed as lot CH-2209",
            "CH-2209",
        ),
        ("voyage number of the Lisbon sailing?", "the Lisbon sailing runs as voyage 118", "118"),
        (
            "Work order number for the press roller swap?",
            "press roller swapped under work order WO-3317",
            "WO-3317",
        ),
        (
            "run id of the sourdough proof test?",
            "sourdough proof test done, run RUN-88-12",
            "RUN-88-12",
        ),
        ("Batch number of the winter stout?", "the winter stout was brewed as batch 212", "212"),
        ("tank number of the 2024 Syrah?", "the 2024 Syrah is resting in tank 9", "9"),
        (
            "job number for the wedding invitations?",
            "the wedding invitations are on the press as job 7731",
            "7731",
        ),
    ],
)
def test_a_terse_number_of_a_thing_asks_the_things_number(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("desk", row)), value)


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        # another thing's number: Wednesday's cheddar, the rye test
        (
            "lot number of the Tuesday cheddar?",
            [("desk", "Wednesday's cheddar was packed as lot CH-2210")],
        ),
        ("run id of the sourdough proof test?", [("desk", "rye proof test done, run RUN-88-11")]),
        # a number by another noun: the berth, the fermenter
        (
            "voyage number of the Lisbon sailing?",
            [("desk", "the Lisbon sailing leaves from berth 118")],
        ),
        ("Batch number of the winter stout?", [("desk", "the winter stout sits in fermenter 4")]),
        # two rows that disagree
        (
            "job number for the wedding invitations?",
            [
                ("press", "the wedding invitations are on the press as job 7731"),
                ("desk", "the wedding invitations are on the press as job 7732"),
            ],
        ),
        # a count of the things after "of" is another question
        ("number of Tuesday cheddars?", [("desk", "Tuesday's cheddar was packed as lot CH-2209")]),
    ],
)
def test_a_terse_number_of_another_thing_stays_unanswered(
    question: str, rows: list[tuple[str, str]]
) -> None:
    no_answer(question, facts(*rows))


# ------------------------------------------------- a need or a topic, then "what did X report?"


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "I need the cold room temperature — what did dairybot report?",
            "the cold room is holding at 3.5 °C",
            "3.5 °C",
        ),
        (
            "I need the press firmware version for the ticket — what did pressbot report?",
            "the press runs firmware 4.2.1",
            "4.2.1",
        ),
        (
            "Ward 6 occupancy tonight — what did bedbot report?",
            "ward 6 occupancy tonight is 92%",
            "92%",
        ),
        (
            "the cellar humidity in the barrel room, what did cellarbot measure?",
            "barrel room cellar humidity is 78%",
            "78%",
        ),
    ],
)
def test_a_vague_what_did_x_report_asks_the_need_before_it(
    question: str, row: str, value: str
) -> None:
    member = question.split("did ")[1].split()[0]
    answers(question, facts(("other", "the bakery van left at 06:10"), (member, row)), value)


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        # another member's row: the question asks dairybot's word
        (
            "I need the cold room temperature — what did dairybot report?",
            [
                ("dairybot", "the milk tanker arrived at 05:40"),
                ("cavebot", "the cold room is holding at 3.5 °C"),
            ],
        ),
        # no member of that name: another member's word is not the one asked
        (
            "I need the cold room temperature — what did dairybot report?",
            [("cavebot", "the cold room is holding at 3.5 °C")],
        ),
        # another thing, another kind, a value only supposed
        (
            "I need the cold room temperature — what did dairybot report?",
            [("dairybot", "the cheese cave is holding at 11 °C")],
        ),
        (
            "I need the cold room temperature — what did dairybot report?",
            [("dairybot", "the cold room door was open for 12 minutes")],
        ),
        (
            "I need the cold room temperature — what did dairybot report?",
            [("dairybot", "the cold room should hold 3 °C")],
        ),
        # another ward
        (
            "Ward 6 occupancy tonight — what did bedbot report?",
            [("bedbot", "ward 7 occupancy tonight is 92%")],
        ),
        # a need for another place than the asker's own document: still a word of the thing
        (
            "I need the press firmware version for the Komori press — what did pressbot report?",
            [("pressbot", "the Heidelberg press runs firmware 4.2.1")],
        ),
        # no need stated: nothing says what is asked
        ("what did dairybot report?", [("dairybot", "the cold room is holding at 3.5 °C")]),
    ],
)
def test_a_vague_what_did_x_report_of_another_row_stays_unanswered(
    question: str, rows: list[tuple[str, str]]
) -> None:
    no_answer(question, facts(*rows))


# ------------------------------------------------ a noun of an event, said by its verb


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "expiry of the flour supplier's certificate?",
            "the flour supplier's organic certificate expires on 2027-03-31",
            "2027-03-31",
        ),
        ("departure of the school trip bus?", "the school trip bus departs at 07:45", "07:45"),
        ("When is the departure of the Oslo ferry?", "the Oslo ferry departs at 21:15", "21:15"),
        (
            "arrival of MV Corra in Lisbon?",
            "MV Corra arrives in Lisbon on 2027-03-12",
            "2027-03-12",
        ),
        ("deadline for the wedding proof?", "the wedding proof is due 2026-12-10", "2026-12-10"),
        (
            "What's the expiry of the ski pass for the instructors?",
            "the instructors' ski pass expires on 2027-04-20",
            "2027-04-20",
        ),
    ],
)
def test_a_noun_of_an_event_is_answered_by_its_verb(question: str, row: str, value: str) -> None:
    answers(question, facts(("desk", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # another event of the thing, another thing
        (
            "expiry of the flour supplier's certificate?",
            "the flour supplier's certificate was issued on 2026-03-31",
        ),
        ("departure of the school trip bus?", "the school trip bus arrives back at 16:30"),
        ("arrival of MV Corra in Lisbon?", "MV Delta arrives in Lisbon on 2027-03-12"),
        ("deadline for the wedding proof?", "the menu proof is due 2026-12-10"),
        # the verb negated, or the event only planned
        ("departure of the school trip bus?", "the school trip bus no longer departs at 07:45"),
        ("departure of the school trip bus?", "the school trip bus is supposed to depart at 07:45"),
        # not a moment at all
        (
            "expiry of the flour supplier's certificate?",
            "the flour supplier's certificate expires in 30 days",
        ),
    ],
)
def test_a_noun_of_an_event_of_another_row_stays_unanswered(question: str, row: str) -> None:
    no_answer(question, facts(("desk", row)))


# ------------------------------------------------------------------ how often: a share or a span


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "How often does the dough mixer jam?",
            "the dough mixer jams in about 4% of batches",
            "4%",
        ),
        (
            "How often do the ward 6 call bells fail?",
            "ward 6 call bells fail in 2% of checks",
            "2%",
        ),
        (
            "How often is the cheese vat cleaned?",
            "the cheese vat is cleaned every 6 hours",
            "6 hours",
        ),
        (
            "How often are the vineyard rows sprayed?",
            "the vineyard rows are sprayed every 10 days",
            "10 days",
        ),
    ],
)
def test_how_often_asks_a_share_or_the_span_it_recurs_at(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("desk", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        ("How often does the dough mixer jam?", "the dough oven jams in about 4% of batches"),
        ("How often does the dough mixer jam?", "the dough mixer runs at 80% of capacity"),
        (
            "How often does the dough mixer jam?",
            "the dough mixer jammed twice today and runs at 80% of capacity",
        ),
        # another week
        (
            "How often did the dough mixer jam last week?",
            "this week the dough mixer jams in 4% of batches",
        ),
        ("How often is the cheese vat cleaned?", "cleaning the cheese vat takes 6 hours"),
        (
            "How often are the vineyard rows sprayed?",
            "the vineyard rows were last sprayed 10 days ago",
        ),
    ],
)
def test_how_often_of_another_share_or_a_duration_stays_unanswered(question: str, row: str) -> None:
    no_answer(question, facts(("desk", row)))


# ------------------------------------------------------- a code name the row writes shorter


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "In the matinee show file, `cueListId` is what now?",
            "matinee show file: cueList switched to 31, houseLights stays 4",
            "31",
        ),
        (
            "what is `pressProfileNumber` on the Heidelberg?",
            "Heidelberg: pressProfile set to 14 for the wedding run",
            "14",
        ),
    ],
)
def test_a_code_name_is_answered_where_the_row_writes_its_head(
    question: str, row: str, value: str
) -> None:
    answers(question, facts(("desk", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # another setting of the same file, another show, another press
        (
            "In the matinee show file, `cueListId` is what now?",
            "matinee show file: houseLights stays 4",
        ),
        (
            "In the matinee show file, `cueListId` is what now?",
            "evening show file: cueList switched to 31",
        ),
        ("what is `pressProfileNumber` on the Heidelberg?", "Komori: pressProfile set to 14"),
        # a plain word before the kind noun names too much to read the value by alone
        ("what is `firmwareVersion` on the Heidelberg?", "Heidelberg: firmware 7 crashed twice"),
    ],
)
def test_a_code_name_of_another_setting_stays_unanswered(question: str, row: str) -> None:
    no_answer(question, facts(("desk", row)))


# ------------------------------------------------------------- an id named by a kind's noun


def test_a_commit_id_asks_the_commit() -> None:
    rows = facts(("desk", "the ward rota app was deployed from commit 9b2e4f1, tag 3.1.0"))
    answers("commit id of the ward rota app?", rows, "9b2e4f1")


def test_a_commit_id_is_no_tag_nor_a_ticket() -> None:
    no_answer(
        "commit id of the ward rota app?", facts(("desk", "the ward rota app is on tag 3.1.0"))
    )
    no_answer(
        "commit id of the ward rota app?",
        facts(("desk", "the ward rota app fix is tracked in WARD-2231")),
    )
