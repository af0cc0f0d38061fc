"""A duration said as a recurrence ("every 90 min", "each 12 h", "per 10 s") says how often
something happens, or the window a rate counts in — never how long one occurrence took or
lasts. A question asking how long something took, lasted or ran is answered by the duration
the row ties to that (``picking.how_often_unasked``), and a row whose only duration is a recurrence
does not answer it; a question that asks how often, or the interval, cadence or period, is
still answered by the recurrence. Domains apart from the dev sets (a brewery, a kiln, a
library's book sorter). A model citing the recurrence is held to the same rule."""

from __future__ import annotations

from crewline.policy.fleet.citing import Refusal
from tests.unit.gate_kit import answers, by_model, facts, model_refusal, no_answer

_MASH = facts(("brewhouse", "Mash tun 2 is filled every 90 min; the last fill took 72 min."))
_KILN = facts(("kiln", "Kiln 3 fires every 12 h on the glaze schedule."))
_SORTER = facts(("library", "The returns sorter empties its bins each 40 min."))


def test_how_long_it_took_is_the_duration_taken_not_the_recurrence() -> None:
    answers("How long did the last fill of mash tun 2 take?", _MASH, "72 min")


def test_the_duration_taken_by_another_tun_is_no_answer() -> None:
    no_answer("How long did the last fill of mash tun 3 take?", _MASH)


def test_a_recurrence_alone_is_no_answer_to_how_long_it_lasted() -> None:
    no_answer("How long did the last firing of kiln 3 last?", _KILN)
    no_answer("How long does emptying the returns sorter bins take?", _SORTER)


def test_a_recurrence_still_answers_how_often_it_recurs() -> None:
    answers("What's the firing interval of kiln 3?", _KILN, "12 h")
    answers("What's the cadence of the returns sorter emptying its bins?", _SORTER, "40 min")


def test_a_model_citing_the_recurrence_for_how_long_it_took_is_refused() -> None:
    row = "Mash tun 2 is filled every 90 min; the last fill took 72 min."
    question = "How long did the last fill of mash tun 2 take?"
    assert model_refusal(question, row, "90 min") is Refusal.RECURRENCE
    assert by_model(question, _MASH, "72 min") == "72 min"  # the duration taken still stands


def test_a_model_citing_the_recurrence_for_how_often_still_holds() -> None:
    assert by_model("What's the firing interval of kiln 3?", _KILN, "12 h") == "12 h"
