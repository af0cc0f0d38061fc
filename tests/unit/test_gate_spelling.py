"""What counts as a row saying a word of the question: another written form of the same word
(a day as an ordinal, a number glued to its unit, a percentile's short notation, a cadence as
a rate, initials and numeronyms, a compound's head, a phrasal verb's particle), found by
counting over the development sets and tested here in settings of none of them (a bakery, a
library, a choir, a museum). Each form has its near miss: the same letters that
are not the word."""

from __future__ import annotations

import pytest

from crewline.policy.fleet.spelling import said_in_question_forms, says_in_another_form
from crewline.policy.lemmas import root, tokens
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, no_answer


def _says(word: str, row: str) -> bool:
    return says_in_another_form(root(word), tokens(code_form(row)), row)


# ------------------------------------------------- a compound by its head


def test_a_compound_row_word_says_its_head() -> None:
    rows = facts(("museum", "Gallery humidity dashboard: https://grafana.museum.local/d/humid"))
    answers("link to the gallery humidity board?", rows, "https://grafana.museum.local/d/humid")


@pytest.mark.parametrize(
    ("word", "row"),
    [
        ("start", "restart took 4 s"),  # a prefix, not a modifier of its own
        ("field", "Brackfordfield answered"),  # a place's name, no compound of the dictionary
        ("load", "the download took 9 s"),  # a particle before a word makes another word
    ],
)
def test_a_word_ending_in_the_asked_one_is_no_compound_of_it(word: str, row: str) -> None:
    assert not _says(word, row)


def test_a_camel_cased_name_says_its_head() -> None:
    assert _says("positions", "rack feed: ShelfPositions on :7071")


# ------------------------------------------------- numbers written otherwise


def test_an_ordinal_is_said_by_the_day_of_a_date() -> None:
    rows = facts(("circulation", "Returns on 3 Feb: 212 books, the drop box jammed twice."))
    answers("How many books came in on the 3rd?", rows, "212 books")


def test_an_ordinal_is_not_said_by_the_same_number_counting_something() -> None:
    # "3 vans" is no "3rd": the row is about the 4th
    assert not _says("3rd", "3 vans delivered on 4 Feb")
    rows = facts(("bakery", "3 vans delivered 480 loaves on 4 Feb."))
    no_answer("How many loaves were delivered on the 3rd?", rows)


def test_a_number_glued_to_its_unit_is_said_with_the_unit_apart() -> None:
    assert _says("14d", "loans over the last 14 days: 1,204")
    assert not _says("14d", "loans over the last 14 weeks: 1,204")


def test_a_percentile_is_said_in_its_short_notation_and_only_its_own() -> None:
    assert _says("95th", "checkout p95 at 212 ms")
    assert _says("percentile", "checkout p95 at 212 ms")
    assert not _says("99th", "checkout p95 at 212 ms")


def test_a_cadence_is_said_as_a_rate() -> None:
    assert _says("daily", "the oven bakes 900 rolls per day")
    assert not _says("daily", "the oven bakes 900 rolls per batch")


# ------------------------------------------------- initials and numeronyms


def test_a_rows_initials_say_the_questions_words() -> None:
    rows = facts(("catalogue", "ILS runs on lib-ils-01.town.local since the upgrade."))
    answers("Which host runs the integrated library system?", rows, "lib-ils-01.town.local")


def test_initials_that_run_over_a_verb_are_no_name() -> None:
    # "data pulled over" is no DPO: initials name a run of the thing's words
    said, _ = said_in_question_forms(
        code_form("how often is the choir data pulled over?"), "DPO signed the choir consent form."
    )
    assert root("pull") not in said


def test_two_capitals_name_too_many_runs_to_be_initials() -> None:
    said, _ = said_in_question_forms(code_form("price of the tote in the uk store?"), "US: $12")
    assert not said


def test_a_numeronym_says_its_word_and_a_letter_to_letter_one_does_not() -> None:
    said, _ = said_in_question_forms(code_form("which localization file?"), "l10n: strings.po")
    assert root("localization") in said
    said, _ = said_in_question_forms(code_form("which edge proxy?"), "e2e suite green")
    assert root("edge") not in said


# ------------------------------------------------- a phrasal verb's particle


def test_a_phrasal_verbs_particle_names_no_thing() -> None:
    rows = facts(("catalogue", "The loans API returns 410 for a withdrawn ISBN."))
    answers("Which status code does the loans API send back for a withdrawn ISBN?", rows, "410")


def test_back_after_a_determiner_is_a_thing() -> None:
    _, idle = said_in_question_forms(code_form("what is on the back of the ticket?"), "")
    assert not idle


# ------------------------------------------------- which of a row's values, by another form


def test_a_rows_value_is_picked_by_the_label_the_question_writes_otherwise() -> None:
    rows = facts(("bakery", "Bakery till checkout latency: p50 80 ms, p95 212 ms."))
    answers("What was the 95th percentile checkout latency of the bakery till?", rows, "212 ms")
    no_answer("What was the 99th percentile checkout latency of the bakery till?", rows)


def test_an_age_label_picks_its_value_and_the_headings_date_names_none() -> None:
    rows = facts(("library", "M1 retention for the March 3 signups: 64%, M3 is 41%."))
    answers("What was month-3 retention for the March 3rd signups?", rows, "41%")
    answers("Month-1 retention of the March 3 signups?", rows, "64%")
