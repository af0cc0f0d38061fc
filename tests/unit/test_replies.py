"""The one reply-matching rule (SPEC §2), as a pure function."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from crewline.bot.escalations.replies import Ambiguous, Answer, NoMatch, match_click, match_text
from crewline.bot.ports import Refusal
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
    assert match_text(text="maybe", pending=[A, B], author_is_owner=True) == Ambiguous(
        pending=(A, B)
    )
    assert match_text(text="yes", pending=[], author_is_owner=True) == NoMatch(
        reason="no_open_request"
    )


def test_a_non_owner_never_answers() -> None:
    """Rule 4: text from anyone but the owner answers nothing, even with one pending."""
    assert match_text(text="yes", pending=[A], author_is_owner=False) == NoMatch(reason="not_owner")


def test_a_named_record_is_answered_even_with_others_pending() -> None:
    """Rule 5: a reply naming its one record answers that one, not the ambiguity."""
    decision = match_text(text="free text", pending=[A, B], author_is_owner=True, named=B)
    assert decision == Answer(escalation=B, text="free text", choice=None, via=AnsweredVia.TEXT)


C = replace(A, id="c" * 16, row_id="rc", message="C?", options=("Deploy now", "wait"))


def test_an_option_of_exactly_one_pending_record_answers_it_among_several() -> None:
    """Rule 2: with several open, text equal to an option of only one of them — ignoring
    case and spacing — answers that one with the option's index."""
    decision = match_text(text="  deploy   NOW ", pending=[A, B, C], author_is_owner=True)
    assert decision == Answer(escalation=C, text="  deploy   NOW ", choice=0, via=AnsweredVia.TEXT)
    assert match_text(text="no", pending=[A, C], author_is_owner=True) == Answer(
        escalation=A, text="no", choice=1, via=AnsweredVia.TEXT
    )


def test_an_option_shared_by_two_pending_records_or_a_near_miss_stays_ambiguous() -> None:
    """Rule 2: an option two open records offer, or text that only contains an option,
    names no single record: it answers none."""
    twin = replace(C, id="d" * 16, row_id="rd", options=("wait", "yes"))
    assert match_text(text="wait", pending=[A, C, twin], author_is_owner=True) == Ambiguous(
        pending=(A, C, twin)
    )
    assert match_text(text="yes please", pending=[A, C], author_is_owner=True) == Ambiguous(
        pending=(A, C)
    )
