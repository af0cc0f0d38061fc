"""What the gate's rule tests share: fleet rows said a minute apart, the two outcomes a fleet
question can have (its value from the rows, or no answer and the human decides), a careful
question's (final, and no answer), a harmless step's (no careful act, and a "yes"), and what a
model's fleet citation gets through."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from crewline.policy import Fact, Placement, VerdictKind, check_placement, judge
from crewline.policy.careful import careful as careful_act
from crewline.policy.clauses import shape_of
from crewline.policy.fleet import Chooser, Refusal, cite, value_ask
from crewline.policy.wording import code_form

AT = datetime(2026, 12, 1, 9, 12, tzinfo=UTC)


def facts(*said: tuple[str, str]) -> list[Fact]:
    """Rows of (member, what it said), in that order, a minute apart."""
    return [
        Fact(row_id=f"row-{n}", member=m, text=t, at=AT + timedelta(minutes=n))
        for n, (m, t) in enumerate(said)
    ]


def answers(question: str, rows: list[Fact], value: str) -> None:
    verdict = judge(question, facts=rows)
    assert (verdict.kind, verdict.answer) == (VerdictKind.FLEET_FACT, value), verdict


def by_model(question: str, rows: list[Fact], answer: str, row: int = 0) -> str | None:
    """The answer a model's fleet placement citing ``rows[row]`` gets through the checks, or
    None."""
    verdict = check_placement(
        question, Placement(kind="fleet", answer=answer, row=rows[row].row_id), facts=rows
    )
    assert verdict.kind in (VerdictKind.FLEET_FACT, VerdictKind.UNKNOWN), verdict
    return verdict.answer


def disputed(question: str, answer: tuple[str, str], rival: tuple[str, str], value: str) -> str:
    """The ``answer`` row alone answers ``value``; with the ``rival`` row beside it the
    question is left to the human, finally: the card's why."""
    answers(question, facts(answer), value)
    verdict = judge(question, facts=facts(answer, rival))
    assert verdict.answer is None and verdict.final, verdict
    return verdict.why


def no_answer(question: str, rows: list[Fact]) -> None:
    verdict = judge(question, facts=rows)
    assert verdict.answer is None and not verdict.kind.routine, verdict


def careful(question: str, options: tuple[str, ...] = ()) -> None:
    """The question stays careful: the verdict is final, and answers nothing."""
    verdict = judge(question, options=options)
    assert verdict.final and verdict.answer is None, verdict


def irreversible(question: str) -> str:
    """The question is an irreversible act, judged careful: its reason."""
    found = careful_act(question)
    assert found is not None and found.kind == "irreversible", found
    careful(question)
    return found.reason


def irreversible_default(question: str, named: str) -> None:
    """A default the question states is an irreversible act: final, nothing answered, and the
    card's reason names ``named``, the thing it is done to."""
    verdict = judge(question)
    assert verdict.answer is None and verdict.final, verdict
    assert verdict.kind is VerdictKind.IRREVERSIBLE, verdict
    assert named in verdict.why.lower(), verdict.why


def goes_on(question: str) -> None:
    """The question names no careful act, and the step is answered "yes"."""
    assert careful_act(question) is None, question
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


def model_refusal(question: str, row: str, value: str) -> Refusal | None:
    """The rule that refuses a model citing ``value`` of a probe's ``row`` for ``question``
    (read as the reader reads it), or None when the citation holds."""
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None
    rows = facts(("probe", row))
    return cite(ask, rows, rows[0].row_id, value, by=Chooser.MODEL).refused
