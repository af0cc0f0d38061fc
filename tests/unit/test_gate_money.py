"""A value's kind by the sign right before it: a number after a currency's sign is money,
its "m" a million and never minutes nor metres ("£3.8m"). On sentences of their own, with
the near misses that keep their unit."""

from __future__ import annotations

import pytest

from crewline.policy.values import Kind, values_in
from tests.unit.gate_kit import answers, facts, no_answer


def _kinds(text: str) -> list[tuple[str, Kind]]:
    return [(v.text, v.kind) for v in values_in(text)]


# ---------------------------------------------------------------- money, never a duration


@pytest.mark.parametrize(
    ("text", "money"),
    [
        ("payout batch settled, total paid out £3.8m", "£3.8m"),
        ("the grant came through: $ 40m over three years", "$ 40m"),
        ("cloud bill for November was €1.2m, up from last month", "€1.2m"),
        ("tender priced at £3 m all in", "£3 m"),
    ],
)
def test_a_number_after_a_currency_sign_is_money(text: str, money: str) -> None:
    found = _kinds(text)
    assert (money, Kind.MONEY) in found, found
    assert not any(k in (Kind.DURATION, Kind.LENGTH) for _, k in found), found


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("the reindex took 3.8m on the big shard", "3.8m", Kind.DURATION),
        ("budget €40m; the import ran 12m", "12m", Kind.DURATION),
        ("the trench is 412 m long", "412 m", Kind.LENGTH),
    ],
)
def test_a_number_with_no_currency_sign_keeps_its_unit(text: str, value: str, kind: Kind) -> None:
    assert (value, kind) in _kinds(text)


def test_how_long_is_never_answered_by_an_amount_of_money() -> None:
    rows = facts(("finance", "payout batch for the hail event done in 37 min, total now £2.4m"))
    answers("roughly how long did the hail payout batch run for?", rows, "37 min")


def test_how_long_with_only_an_amount_of_money_is_not_answered() -> None:
    rows = facts(("finance", "payout batch for the hail event is done, total now £2.4m"))
    no_answer("roughly how long did the hail payout batch run for?", rows)
