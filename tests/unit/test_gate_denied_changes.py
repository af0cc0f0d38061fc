"""A row that says a change to the answer's value never took ("ortho is still on SRTM-90 —
the GLO-30 switch never got merged") takes the value back, whatever words it names the thing
by; retrieval finds it by the value itself, an identifier of letters and digits included
(``rivals.retraction_terms``, ``rivals.retracts``)."""

from __future__ import annotations

from crewline.policy.fleet import retraction_terms, retracts
from tests.unit.gate_kit import answers, facts, no_answer

USES = ("pipeline", "L2 ortho uses the Copernicus GLO-30 DEM now.")
DENIED = "ortho is still on SRTM-90 — the GLO-30 switch never got merged."


def test_an_identifier_of_letters_and_digits_is_retrieved_by() -> None:
    assert "GLO-30" in retraction_terms(facts(USES))


def test_a_change_that_never_took_takes_the_value_back() -> None:
    assert retracts(DENIED, ["GLO-30"])
    assert retracts("the v4 cutover was reverted on Friday", ["v4"])


def test_a_change_that_took_takes_nothing_back() -> None:
    assert not retracts("the GLO-30 switch got merged on Monday", ["GLO-30"])
    assert not retracts(
        "ortho is still on SRTM-90 — the GLO-30 switch never got merged.", ["SRTM-90"]
    )


def test_the_retracted_value_is_disputed() -> None:
    no_answer("Which DEM does the L2 orthorectification use?", facts(USES, ("archive", DENIED)))


def test_the_value_alone_still_answers() -> None:
    answers("Which DEM does the L2 orthorectification use?", facts(USES), "GLO-30")
