"""A day of a month the question names must be the row's: "the 4 Mar sweep" of a row about
the 3 Mar sweep is its near miss. The question is read in lower case, where a month's name
has lost the capital by which values are read, so the days are read apart, in any case and
either order ("4 mar", "Mar 4", "2026-03-04"). Cases of other domains than the one that
showed it (a parcel hub): a lab's assay runs, a ferry timetable."""

from __future__ import annotations

from tests.unit.gate_kit import answers, facts, no_answer


def test_another_day_of_the_month_is_a_near_miss() -> None:
    rows = facts(("assays", "3 Oct sweep flagged 38 wells"))
    no_answer("How many wells did the 4 Oct sweep flag?", rows)
    no_answer("how many wells did the oct 4 sweep flag?", rows)
    no_answer("How many wells did the sweep on 3 Nov flag?", rows)


def test_the_same_day_said_either_way_still_answers() -> None:
    rows = facts(("assays", "3 Oct sweep flagged 38 wells"))
    answers("How many wells did the 3 Oct sweep flag?", rows, "38 wells")
    answers("how many wells did the Oct 3rd sweep flag?", rows, "38 wells")


def test_may_is_not_read_as_a_month_in_lower_case() -> None:
    rows = facts(("ferries", "the 4 crossings today may run late; 2 sailings cancelled"))
    answers("How many sailings were cancelled today?", rows, "2 sailings")
