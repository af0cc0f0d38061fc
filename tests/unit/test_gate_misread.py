"""A right citation misread as wrong: the rules that refuse on evidence (the value is not in
the row, not of the asked kind, not live) read the value as it is written and the kind as
it is asked. Each reading with the near misses that must stay refused, in settings of no
dev set (a bakery, a greenhouse, a library, a print shop)."""

from __future__ import annotations

import pytest

from crewline.policy import Fact
from crewline.policy.fleet import Chooser, Refusal, cite, loose_ask
from crewline.policy.routine import _read
from crewline.policy.values import Kind, values_in
from tests.unit.gate_kit import by_model, facts

# The rules that refuse a citation on evidence that it is wrong: a right one gets past them
# (the positive-proof rules after them are other tests')
MISREAD = {Refusal.NOT_IN_ROW, Refusal.OTHER_KIND, Refusal.NOT_LIVE}


def _one(row: str) -> list[Fact]:
    return facts(("scout", row))


def _refused(question: str, row: str, answer: str) -> Refusal | None:
    """The rule that refuses a model citing ``answer`` of ``row``, or None."""
    reading = _read(question, (), None)
    ask = reading.ask or loose_ask(reading.code)
    rows = _one(row)
    return cite(ask, rows, rows[0].row_id, answer, by=Chooser.MODEL).refused


def _past_misreads(question: str, row: str, answer: str) -> bool:
    return _refused(question, row, answer) not in MISREAD


# ----------------------------------------- how the value is written


@pytest.mark.parametrize(
    ("row", "kind"),
    [
        ("Nightly dump written to backup-2026-12-05.tar.gz.", Kind.PATH),
        ("Shelf report saved as /reports/shelves/low-stock-2026-12-05.csv", Kind.URL_PATH),
    ],
)
def test_a_date_glued_into_a_file_name_is_a_piece_of_that_name(row: str, kind: Kind) -> None:
    (value,) = values_in(row)
    assert value.kind is kind and "2026-12-05" in value.text


def test_a_date_of_its_own_stays_a_date() -> None:
    assert [v.kind for v in values_in("Oven serviced on 2026-12-05.")] == [Kind.DATE]
    assert [v.kind for v in values_in("from 2026-12-01 to 2026-12-05")] == [Kind.DATE] * 2


def test_so_many_of_so_many_is_two_numbers_not_a_path() -> None:
    assert [v.text for v in values_in("48/50 label jobs printed.")] == ["48", "50"]
    assert [v.kind for v in values_in("templates in labels/shipping")] == [Kind.PATH]


def test_a_number_written_with_its_sign_is_cited_by_its_digits() -> None:
    row = "Oven fault is tracked as ticket #5521 since Monday."
    assert by_model("Which ticket number tracks the oven fault?", _one(row), "5521") == "5521"


def test_a_signed_number_is_cited_by_all_its_digits() -> None:
    row = "Oven fault is tracked as ticket #5521 since Monday."
    assert _refused("Which ticket number tracks the oven fault?", row, "552") is Refusal.NOT_IN_ROW


def test_one_token_holding_a_value_is_cited_whole() -> None:
    row = "The label-printer driver ships under GPL-3.0."
    assert _past_misreads("What license is the label-printer driver under?", row, "GPL-3.0")


@pytest.mark.parametrize("answer", ["GPL", "under GPL-3.0", "3.0-beta"])
def test_a_piece_of_a_token_or_words_around_it_are_no_value_of_the_row(answer: str) -> None:
    row = "The label-printer driver ships under GPL-3.0."
    question = "What license is the label-printer driver under?"
    assert _refused(question, row, answer) is Refusal.NOT_IN_ROW


# ----------------------------------------- how the kind is asked


def test_a_kind_noun_written_as_an_acronyms_plural_asks_that_kind() -> None:
    row = "The greenhouse climate controllers answer on 10.8.1.20."
    assert by_model("What are the greenhouse climate controller IPs?", _one(row), "10.8.1.20") == (
        "10.8.1.20"
    )


def test_the_head_after_a_long_possessor_is_the_asked_noun() -> None:
    row = "The north greenhouse irrigation controller is at 10.8.1.20, Modbus on port 502."
    question = "What's the north greenhouse irrigation controller's IP?"
    assert by_model(question, _one(row), "10.8.1.20") == "10.8.1.20"
    assert by_model(question, _one(row), "502") is None  # a port for an IP


def test_a_host_asked_as_a_name_is_a_host() -> None:
    row = "The new library catalogue went out as catalogue.citylib.org; certificate renewed."
    question = "Under which public DNS name did the new library catalogue go out?"
    assert _past_misreads(question, row, "catalogue.citylib.org")
    assert _refused(question, row, "2026-12-05") is Refusal.NOT_IN_ROW


def test_a_name_of_another_kind_asks_a_name() -> None:
    row = "Sensor bed-7 reports into the greenhouse feed, firmware 4.2.1."
    assert _refused("What's the name of the greenhouse sensor?", row, "4.2.1") is Refusal.OTHER_KIND


def test_a_measure_per_a_thing_asks_the_measure() -> None:
    row = "Invoice scans are capped at 15 MB per file; uploads time out after 30 s."
    question = "What's the max upload size per invoice scan?"
    assert _past_misreads(question, row, "15 MB")
    assert _refused(question, row, "30 s") is Refusal.OTHER_KIND  # a duration for a size


def test_a_measure_per_a_unit_of_time_asks_a_rate() -> None:
    row = "Menu API: limit is 300 requests per minute; 5s timeout on each call."
    question = "What is the menu API's request limit per minute?"
    assert by_model(question, _one(row), "300 requests per minute") == "300 requests per minute"
    assert by_model(question, _one(row), "5s") is None  # a duration for a rate


def test_a_noun_and_a_number_after_in_name_a_time_not_a_unit() -> None:
    row = "Elm Street bakery forecast: 4,200 loaves in week 12."
    question = "What loaf output is forecast for the Elm Street bakery in week 12?"
    assert _past_misreads(question, row, "4,200")
    assert _refused("What is the bake time, in minutes?", row, "4,200") is Refusal.OTHER_KIND


def test_where_after_the_one_is_a_relative_not_the_request() -> None:
    row = "Till 4 (terminal T-0412) freezes since firmware 2.1.0."
    question = "Till 4's terminal id please -- the one where the screen freezes"
    assert _past_misreads(question, row, "T-0412")
    # the request before the relative is still read: "which" asks the till
    ask = _read("Which till is the one where the screen freezes?", (), None).ask
    assert ask is not None and ask.noun == "till"


def test_how_far_behind_asks_a_lag() -> None:
    row = "The backup till syncs about 40 seconds behind the main tills."
    question = "How far behind the main tills is the backup till?"
    assert by_model(question, _one(row), "40 seconds") == "40 seconds"
