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


# ------------------------------------------------- the one value said with no label of its own


def test_the_one_bare_value_beside_one_with_a_label_the_question_does_not_say_answers() -> None:
    rows = facts(("oven-line", "Dough reject rate over the last shift: 2.1%, alarm threshold 3%."))
    answers("What was the dough reject rate over the last shift?", rows, "2.1%")


def test_a_value_the_reporting_verb_gives_answers_over_a_bound_said_after() -> None:
    rows = facts(
        (
            "printer",
            "Reprinted the shelf labels for aisle 4, took 6m12s, no job queued longer than 9s.",
        )
    )
    answers("How long did the aisle 4 label reprint take?", rows, "6m12s")


def test_two_values_each_with_a_modifier_of_the_asked_noun_give_no_answer() -> None:
    # "p95 latency 212ms": the first is labelled before the asked noun, so none is bare
    rows = facts(("catalogue", "Timing the catalogue search: p95 latency 212ms, p99 480ms."))
    no_answer("What latency did the catalogue search take?", rows)
