"""Text the gate cannot read as plain English, and text that would cost it time.

A word broken by markup or by an escape code ("wi<!-- -->pe", "del&#101;te", "%44rop") is
no word any reading sees: the question is careful, and the card says which word. Ordinary
typography — curly quotes, dashes, emoji, accented names, markup around a whole word, a URL's
escapes — stays readable. A text past the gate's length is careful before any reading starts,
and a text with no word at all is no crash.
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, VerdictKind, check_placement, judge
from crewline.policy.careful import MAX_QUESTION_CHARS
from tests.unit.gate_kit import careful, facts, goes_on


def _unreadable(question: str, word: str) -> None:
    verdict = judge(question)
    assert verdict.final and verdict.answer is None, verdict
    assert "broken by markup or an escape code" in verdict.why, verdict
    assert repr(word) in verdict.why, verdict
    hostile = check_placement(question, Placement(kind="proceed"))
    assert hostile.answer is None, hostile


@pytest.mark.parametrize(
    ("question", "word"),
    [
        # a bakery, a hospital, a shipping line, a school, a newsroom
        ("wi<!-- -->pe the oven schedule for the night bakers, ok?", "wi<!-- -->pe"),
        (
            "<span>pu</span><span>rge</span> the ward's discharge notes, ok?",
            "<span>pu</span><span>rge</span>",
        ),
        ("`can``cel` the booking for container MSKU-2231, ok?", "`can``cel`"),
        ("Shall I dr**op** the pupils' grades table?", "dr**op**"),
        ("Shall I <b>era</b>se the pathology archive?", "<b>era</b>se"),
        ("OK to del&#101;te the sourdough orders?", "del&#101;te"),
        ("OK to &#x64;rop the berth allocations?", "&#x64;rop"),
        ("Can I %44elete the exam timetable now?", "%44elete"),
        ("Can I tr&shy;uncate the manifest table?", "tr&shy;uncate"),
        ("Shall I d\\x65lete the byline drafts?", "d\\x65lete"),
        ("Shall I pub-\nlish the front page now?", "pub- lish"),
    ],
)
def test_a_word_broken_by_markup_or_an_escape_is_careful(question: str, word: str) -> None:
    _unreadable(question, word)


def test_an_option_broken_by_markup_is_careful() -> None:
    verdict = judge("Which step next?", options=("re<i></i>fund the order", "wait"))
    assert verdict.final and verdict.answer is None, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Run the **spelling** check on the menu cards, ok?",
        "Run the linter on `ward_rota.py`, ok?",
        "Fetch https://tides.example.org/port%20of%20leith?d=caf%C3%A9 for the schedule, ok?",
        "Run the tests for Zoë's timetable script, ok?",
        "Run the “quick” lint on São Paulo's manifests — ok? 👍",
        "Read the <b>bold</b> headings of the handbook, ok?",
        "Run the tests for the R&D bakery scheduler, ok?",
    ],
)
def test_ordinary_typography_stays_readable(question: str) -> None:
    goes_on(question)


def test_an_escaped_quote_is_no_hidden_letter() -> None:
    verdict = judge("Run the tests for the don&#39;t-cache flag, ok?")
    assert "broken by markup" not in verdict.why, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Run " + "a" * 100_000 + "?",
        "Run the linter?\n" + "\n".join(f"- item {n} done" for n in range(10_000)),
        "Run the linter " + "(" * 5_000 + "x" + ")" * 5_000 + "?",
        "pay " + "$1 " * 300 + "?",
        "Run the linter on the bakery's " + "file and the " * 70 + "tests, ok?",
    ],
)
def test_a_text_past_the_length_is_careful_before_any_reading(question: str) -> None:
    assert len(question) > MAX_QUESTION_CHARS
    verdict = judge(question)
    assert verdict.kind is VerdictKind.UNKNOWN and verdict.final, verdict
    assert verdict.why == "it is too long to place safely", verdict
    hostile = check_placement(question, Placement(kind="proceed"))
    assert hostile.answer is None and hostile.final, hostile


def test_an_option_past_the_length_is_careful() -> None:
    careful("Which one?", options=("a" * (MAX_QUESTION_CHARS + 1), "b"))


def test_a_long_question_within_the_length_is_still_read() -> None:
    question = (
        "I'd like to keep going with the ward handover notes: "
        + "I read the notes of the night shift and the day shift, " * 6
        + "ok?"
    )
    assert 300 < len(question) <= MAX_QUESTION_CHARS
    goes_on(question)


@pytest.mark.parametrize("question", ["/?", "//?", "@@@?", "\\?", "/ ?"])
def test_a_question_of_no_word_is_no_crash(question: str) -> None:
    # as "👍?" is: a mark and a question mark name no value and no step
    verdict = judge(question, facts=facts(("probe", "staging answered on port 4321")))
    assert verdict.kind is not VerdictKind.FLEET_FACT and not verdict.evidence, verdict


def _unread_step(question: str, word: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and not verdict.kind.routine, verdict
    assert f"a word the gate cannot read ({word!r}" in verdict.why, verdict
    hostile = check_placement(question, Placement(kind="proceed"))
    assert hostile.answer is None, hostile


@pytest.mark.parametrize(
    ("question", "word"),
    [
        # another language: a bakery, a hospital, a school, a shipping line
        ("Borrar los pedidos de la panadería, ok?", "borrar"),
        ("Supprimer les dossiers des patients, ok?", "supprimer"),
        ("Löschen Sie die Frachtbriefe. OK?", "loschen"),
        ("Vernietig de leerlingdossiers. Alright?", "vernietig"),
        # a word broken apart by a space
        ("wi pe the sourdough orders, ok?", "wi"),
        ("pu rge the ward rota, ok?", "pu"),
        # a verb the gate knows no step by, before its object
        ("Frobnicate the berth allocations, ok?", "frobnicate"),
        ("Incinerate the old exam scripts, ok?", "incinerate"),
    ],
)
def test_a_tag_after_a_step_the_gate_cannot_read_is_no_yes(question: str, word: str) -> None:
    _unread_step(question, word)


@pytest.mark.parametrize(
    "question",
    [
        "Run the bakery's oven tests, ok?",
        "Mach weiter mit der Liste, ok?",
        "Tests for the ward rota pass, go?",
        "Found a typo in the school handbook; fixing it in my branch. OK?",
        "Going to lint the berth planner, whitespace-only changes. ok?",
        "Lint the pupils' timetable script, ok?",
        "I'll read the ward's discharge notes and summarise them for my draft. OK?",
    ],
)
def test_a_tag_after_a_step_it_reads_is_still_a_yes(question: str) -> None:
    goes_on(question)
