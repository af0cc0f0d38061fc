"""A word of the question a row need not say by its kind (about15): a plain modifier of a
thing the question names by a code the row says, and the verb of a clause that asks where a
thing is. Each beside the near misses it still refuses: another code, another modifier said
in its place, a rival row, another environment, the asked noun's own modifier, a moment."""

from __future__ import annotations

from tests.unit.gate_kit import answers, facts, no_answer

_CALIBRATED = "cascade 3.12 → 3.11 holding 15 Pa; transmitter PT-311 recalibrated on 2024-10-02"


def test_a_code_names_the_thing_its_plain_modifier_need_not_be_said() -> None:
    rows = facts(("envmon", _CALIBRATED))
    answers("When was pressure transmitter PT-311 last recalibrated?", rows, "2024-10-02")


def test_another_code_is_another_thing() -> None:
    rows = facts(("envmon", _CALIBRATED))
    no_answer("When was pressure transmitter PT-312 last recalibrated?", rows)


def test_another_modifier_said_in_its_place_is_another_thing() -> None:
    rows = facts(("envmon", "flow transmitter PT-311 recalibrated on 2024-10-02"))
    no_answer("When was pressure transmitter PT-311 last recalibrated?", rows)


def test_a_rival_row_with_another_modifier_refuses() -> None:
    rows = facts(
        ("envmon", "transmitter PT-311 recalibrated on 2024-10-02"),
        ("envmon", "temperature transmitter TT-4 recalibrated on 2024-09-01"),
    )
    no_answer("When was pressure transmitter PT-311 last recalibrated?", rows)


def test_another_environment_or_rank_is_never_a_plain_modifier() -> None:
    rows = facts(("envmon", "prod transmitter PT-311 recalibrated on 2024-10-02"))
    no_answer("When was the staging pressure transmitter PT-311 last recalibrated?", rows)
    rows = facts(("envmon", "transmitter PT-311 recalibrated on 2024-10-02"))
    no_answer("When was the backup transmitter PT-311 last recalibrated?", rows)
    no_answer("When was the weekly transmitter PT-311 check done?", rows)


def test_the_asked_nouns_own_modifier_is_never_left_out() -> None:
    rows = facts(("autoclave", "AC-02 cycle 5531 passed — 121.4 °C held 20 min, F0 24.8."))
    no_answer("What sterilisation temperature did AC-02 hold in cycle 5531?", rows)


def test_without_a_code_a_modifier_is_still_the_rows_to_say() -> None:
    rows = facts(("envmon", "transmitter recalibrated on 2024-10-02"))
    no_answer("When was the pressure transmitter last recalibrated?", rows)


def test_the_verb_that_asks_where_a_thing_is_need_not_be_said() -> None:
    rows = facts(("tvm", "list of stale TVMs in /reports/tvm/stale.csv"))
    answers("Where is the list of stale TVMs saved?", rows, "/reports/tvm/stale.csv")


def test_a_place_of_another_thing_or_environment_still_refuses() -> None:
    rows = facts(("tvm", "list of stale TVMs in /reports/tvm/stale.csv"))
    no_answer("Where is the list of broken TVMs saved?", rows)
    rows = facts(("tvm", "prod list of stale TVMs in /reports/tvm/stale.csv"))
    no_answer("Where is the staging list of stale TVMs saved?", rows)
