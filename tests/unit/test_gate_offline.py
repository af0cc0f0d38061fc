"""The offline reader's fleet answers, by structure: rules found by counting over the
development sets, each tested here in settings of no set (a bakery, a greenhouse, a library,
a label printer)."""

from __future__ import annotations

from tests.unit.gate_kit import answers, facts, no_answer

# ------------------------------------------------- a count a heading names


def test_a_count_after_a_heading_that_names_the_counted_noun_answers() -> None:
    rows = facts(("stock", "Sourdough loaves: 14 on the rack, none in the freezer."))
    answers("How many sourdough loaves do we have?", rows, "14")


def test_a_count_after_a_heading_disputes_another_rows_count() -> None:
    rows = facts(
        ("till", "only 9 sourdough loaves left on the rack now, a café took five"),
        ("stock", "Sourdough loaves: 14 on the rack, none in the freezer."),
    )
    no_answer("How many sourdough loaves do we have on the rack?", rows)


def test_a_number_after_a_heading_that_counts_another_noun_is_no_count() -> None:
    # "Seed trays: 3 benches" counts benches, not trays
    rows = facts(
        ("greenhouse", "Seed trays: 3 benches by the south wall."),
        ("potting", "There are 40 seed trays in the potting shed."),
    )
    answers("How many seed trays are there?", rows, "40")
