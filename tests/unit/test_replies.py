"""The one reply-matching rule (SPEC §2), as a pure function."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from crewline.bot.replies import Ambiguous, Answer, NoMatch, Refusal, match_click, match_text
from crewline.models import AnsweredVia, Escalation, EscalationState

NOW = datetime(2026, 11, 30, tzinfo=UTC)
A = Escalation(
    id="a" * 16,
    member="radar",
    row_id="ra",
    session="s",
    message="A?",
    options=("yes", "no"),
    created_at=NOW,
)
B = replace(A, id="b" * 16, row_id="rb", message="B?", options=())


def test_an_owners_press_answers_with_the_option_and_index() -> None:
    """Rule 1: a well-formed press by the owner on a pending record answers it."""
    decision = match_click(record=A, member="radar", choice=1, presser_is_owner=True)
    assert decision == Answer(escalation=A, text="no", choice=1, via=AnsweredVia.CHIP)


def test_presses_that_must_not_answer_are_refused_with_their_reason() -> None:
    """Rule 1: someone else, a settled record, another member, a forged index — refused."""
    cases = {
        "not_owner": match_click(record=A, member="radar", choice=0, presser_is_owner=False),
        "already_settled": match_click(
            record=replace(A, state=EscalationState.ANSWERED),
            member="radar",
            choice=0,
            presser_is_owner=True,
        ),
        "unknown_escalation": match_click(
            record=A, member="probe", choice=0, presser_is_owner=True
        ),
        "invalid_choice": match_click(record=A, member="radar", choice=2, presser_is_owner=True),
    }
    for code, decision in cases.items():
        assert isinstance(decision, Refusal) and decision.code == code


def test_text_answers_only_when_exactly_one_is_pending() -> None:
    """Rule 2: one pending → answered; two → ambiguous; none → nothing."""
    one = match_text(text="Yes", pending=[A], author_is_owner=True)
    assert one == Answer(escalation=A, text="Yes", choice=0, via=AnsweredVia.TEXT)
    assert match_text(text="yes", pending=[A, B], author_is_owner=True) == Ambiguous(pending=(A, B))
    assert match_text(text="yes", pending=[], author_is_owner=True) == NoMatch(
        reason="nothing_pending"
    )


def test_a_non_owner_never_answers() -> None:
    """Rule 4: text from anyone but the owner answers nothing, even with one pending."""
    assert match_text(text="yes", pending=[A], author_is_owner=False) == NoMatch(reason="not_owner")


def test_a_named_record_is_answered_even_with_others_pending() -> None:
    """Rule 5: a reply naming its one record answers that one, not the ambiguity."""
    decision = match_text(text="free text", pending=[A, B], author_is_owner=True, named=B)
    assert decision == Answer(escalation=B, text="free text", choice=None, via=AnsweredVia.TEXT)
