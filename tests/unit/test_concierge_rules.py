"""The concierge's pure rules: who may answer what, and what a card says about it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from crewline.bot import cards
from crewline.bot.concierge import answer_allowed
from crewline.models import AnswerPolicy, Escalation, Suggestion
from crewline.policy.routine import Verdict, VerdictKind

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _verdict(kind: VerdictKind) -> Verdict:
    return Verdict(kind=kind, answer="yes" if kind.routine else None, why="w", evidence=())


@pytest.mark.parametrize("policy", list(AnswerPolicy))
@pytest.mark.parametrize("external", [False, True])
def test_an_irreversible_question_or_a_dialog_is_never_answered(
    policy: AnswerPolicy, external: bool
) -> None:
    """Under every policy, by every brain: irreversible and dialogs go to the human."""
    irreversible = _verdict(VerdictKind.IRREVERSIBLE)
    routine = _verdict(VerdictKind.PROCEED)
    assert answer_allowed(policy, irreversible, dialog=False, external=external) is False
    assert answer_allowed(policy, routine, dialog=True, external=external) is False


def test_each_policy_answers_what_it_says() -> None:
    """never: nothing; routine: routine kinds; always: also unknown, for an external brain."""
    allowed = {
        (policy, kind, external)
        for policy in AnswerPolicy
        for kind in VerdictKind
        for external in (False, True)
        if answer_allowed(policy, _verdict(kind), dialog=False, external=external)
    }
    routine = {k for k in VerdictKind if k.routine}
    expected = {
        (p, k, e)
        for p in (AnswerPolicy.ROUTINE, AnswerPolicy.ALWAYS)
        for k in routine
        for e in (False, True)
    } | {(AnswerPolicy.ALWAYS, VerdictKind.UNKNOWN, True)}
    assert allowed == expected


def _escalation(**more: object) -> Escalation:
    return Escalation(
        id="a" * 16,
        member="radar",
        row_id="r1",
        session="s1",
        message="Ship?",
        created_at=NOW,
        **more,  # type: ignore[arg-type]
    )


def test_a_pending_card_shows_the_suggestion_and_its_three_buttons() -> None:
    """The line names the text and why; the buttons carry c:<id>:<action> payloads."""
    suggestion = Suggestion(
        record_id="a" * 16, member="radar", text="no", why="irreversible", brain="b", at=NOW
    )
    card = cards.escalation_card(_escalation(options=("yes", "no")), "Radar", suggestion=suggestion)
    assert "concierge suggests: no — irreversible" in card.text
    assert [b.label for b in card.buttons] == ["yes", "no", "Send suggestion", "Edit", "Dismiss"]
    assert [b.payload for b in card.buttons[2:]] == [f"c:{'a' * 16}:{n}" for n in range(3)]
    press = cards.parse_payload(card.buttons[3].payload)
    assert press is not None and cards.CONCIERGE_ACTIONS[press.choice] == "edit"


def test_a_dismissed_suggestion_and_a_settled_card_show_none() -> None:
    """Dismissed: hidden; answered: a settled card has no buttons at all."""
    dismissed = Suggestion(
        record_id="a" * 16, member="radar", text="no", why="w", brain="b", at=NOW, dismissed=True
    )
    assert cards.escalation_card(_escalation(), "Radar", suggestion=dismissed).buttons == ()
    live = Suggestion(record_id="a" * 16, member="radar", text="no", why="w", brain="b", at=NOW)
    from crewline.models import EscalationState

    settled = _escalation(state=EscalationState.ANSWERED, answer="yes", settled_at=NOW)
    drawn = cards.escalation_card(settled, "Radar", suggestion=live)
    assert drawn.buttons == () and "concierge suggests" not in drawn.text


def test_the_answer_line_offers_undo_until_it_is_undone() -> None:
    """concierge answered: X — why · Undo; after undo it says withdrawn, with no button."""
    line = cards.concierge_answer_line(
        text="4321", why="probe said so", record_id="a" * 16, undoable=True, undone=False
    )
    assert line.text == "concierge answered: 4321 — probe said so"
    assert [b.label for b in line.buttons] == ["Undo"]
    undone = cards.concierge_answer_line(
        text="4321", why="probe said so", record_id="a" * 16, undoable=True, undone=True
    )
    assert undone.buttons == () and "Withdrawn" in undone.text
