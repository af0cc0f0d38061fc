"""Words of a question that frame it rather than name the thing asked, and a thing said in
other words a domain always uses: a pronoun of a third person ("what's *her* email?"), "past"
before a period ("over the *past* week", as "last week"), a rate of requests by its unit
("request rate" of "640 rps"), a switch from one thing to another by its other names
("switch" of "cutover", "change"), a tracker's record by its id ("the freezer alarm *ticket*"
of "Opened MNT-4410: walk-in freezer alarm"). Each near miss keeps refusing: another person,
another period, another test, another system's cutover, "past" that says which one, a row
with no id, an id the question names itself."""

from __future__ import annotations

from crewline.policy import routine
from crewline.policy.fleet.about import about_entity, frame_words
from crewline.policy.fleet.rows import Fact
from crewline.policy.values import values_in
from tests.unit.gate_kit import answers, facts, no_answer


def test_a_pronoun_names_no_word_of_the_thing() -> None:
    rows = facts(("pharmacy", "on-call pharmacist tonight is Dana Holt, dana.holt@clinic.example"))
    answers("The on-call pharmacist: what's her email address?", rows, "dana.holt@clinic.example")


def test_a_pronoun_does_not_forgive_the_person() -> None:
    rows = facts(("pharmacy", "day pharmacist is Dana Holt, dana.holt@clinic.example"))
    no_answer("The on-call pharmacist: what's her email address?", rows)


def test_past_before_a_period_is_last() -> None:
    # the row is about the question; the period itself is read apart (periods.py)
    row = facts(("depot", "Leeds depot on-time rate: 96.2% over the last 7 days"))[0]
    assert about_value("What was the Leeds depot on-time rate over the past week?", row, "96.2%")


def test_past_before_another_word_stays_unsaid() -> None:
    row = facts(("depot", "Leeds depot on-time rate: 96.2% over the last 7 days"))[0]
    assert not about_value("What was the past Leeds depot on-time rate?", row, "96.2%")


def test_past_that_says_which_one_is_the_things() -> None:
    assert frame_words_of("Who was the past owner of the kennel?") == frozenset()
    assert frame_words_of("after how long does past usage count half?") == frozenset()
    assert frame_words_of("the error rate over the past 7 days?")


def test_a_request_rate_by_its_unit() -> None:
    rows = facts(("perf", "ticketing soak test held 640 rps, p95 210 ms"))
    answers("What request rate did the ticketing soak test hold?", rows, "640 rps")


def test_a_request_rate_of_another_test() -> None:
    rows = facts(("perf", "booking soak test held 640 rps, p95 210 ms"))
    no_answer("What request rate did the ticketing soak test hold?", rows)


def test_a_switch_by_its_other_name() -> None:
    rows = facts(("hr", "payroll cutover to the new vendor is planned for 2027-03-01"))
    answers("On what date is the payroll switch to the new vendor planned?", rows, "2027-03-01")


def test_another_systems_cutover() -> None:
    rows = facts(("hr", "pension cutover to the new vendor is planned for 2027-03-01"))
    no_answer("On what date is the payroll switch to the new vendor planned?", rows)


def test_a_ticket_by_its_id() -> None:
    rows = facts(("facilities", "MNT-4410 (dock 2 freezer alarm) opened 09:12, owner Priya Shah"))
    answers("Who is the owner of the ticket about the dock 2 freezer alarm?", rows, "Priya Shah")


def test_a_ticket_the_row_does_not_name() -> None:
    rows = facts(("facilities", "dock 2 freezer alarm opened 09:12, owner Priya Shah"))
    no_answer("Who is the owner of the ticket about the dock 2 freezer alarm?", rows)


def test_an_id_the_question_names_is_no_record_of_it() -> None:
    rows = facts(("facilities", "DOCK-2 freezer alarm opened 09:12, owner Priya Shah"))
    no_answer("Who is the owner of the ticket about the DOCK-2 freezer alarm?", rows)


def frame_words_of(question: str) -> frozenset[str]:
    ask = routine._read(question, (), None).ask
    assert ask is not None
    return frame_words(ask)


def about_value(question: str, row: Fact, value: str) -> bool:
    ask = routine._read(question, (), None).ask
    assert ask is not None
    found = next(v for v in values_in(row.text) if v.text == value)
    return about_entity(ask, row, found.kind, value=found)
