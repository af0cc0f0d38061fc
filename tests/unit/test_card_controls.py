"""A card with and without a suggestion, drawn by every transport (pure rendering).

The concierge's Send / Edit / Dismiss stand apart from the answer buttons on every platform
(their own block, row or group, in a secondary style), and no option is drawn as recommended
unless the suggestion names it. A suggestion with no pick says why the question needs the
human, with Dismiss alone.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from crewline.bot import cards
from crewline.models import Escalation, EscalationState, OutboundMessage, Suggestion
from crewline.transports.discord.render import thread_message
from crewline.transports.local.render import message_json
from crewline.transports.local.view import ShownMessage, message_from_record, message_record
from crewline.transports.slack.blocks import message_blocks
from crewline.transports.telegram.render import keyboard

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
ID = "0123456789abcdef"
CONTROLS = ("Send suggestion", "Edit", "Dismiss")


def _card(suggestion: Suggestion | None) -> OutboundMessage:
    escalation = Escalation(
        id=ID,
        member="radar",
        session="s",
        row_id="r",
        message="Drop the users_v1 table? Default: keep",
        options=("keep", "drop"),
        state=EscalationState.PENDING,
        created_at=NOW,
    )
    return cards.escalation_card(escalation, "Radar", suggestion=suggestion)


def _suggestion(text: str, why: str) -> Suggestion:
    return Suggestion(record_id=ID, member="radar", text=text, why=why, brain="offline", at=NOW)


PICKED = _suggestion("keep", "the default the question states")
NO_PICK = _suggestion("", "irreversible: it drops the users_v1 table")


def test_the_core_marks_the_controls_and_only_the_suggested_option() -> None:
    card = _card(PICKED)
    assert [(b.label, b.role, b.recommended) for b in card.buttons] == [
        ("keep", "answer", True),
        ("drop", "answer", False),
        *((label, "control", False) for label in CONTROLS),
    ]
    assert "concierge suggests: keep — the default the question states" in card.text
    bare = _card(NO_PICK)
    assert [(b.label, b.role, b.recommended) for b in bare.buttons] == [
        ("keep", "answer", False),
        ("drop", "answer", False),
        ("Dismiss", "control", False),
    ]
    assert "needs you: irreversible: it drops the users_v1 table" in bare.text
    assert "concierge suggests" not in bare.text
    assert not any(b.recommended for b in _card(None).buttons)


@pytest.mark.parametrize(("suggestion", "primary"), [(PICKED, "keep"), (NO_PICK, None)])
def test_slack_draws_the_controls_in_their_own_actions_block(
    suggestion: Suggestion, primary: str | None
) -> None:
    actions = [b for b in message_blocks(_card(suggestion)) if b["type"] == "actions"]
    answers, controls = actions
    assert answers["block_id"].startswith("crewline-actions")
    assert controls["block_id"].startswith("crewline-controls")
    assert [e["text"]["text"] for e in answers["elements"]] == ["keep", "drop"]
    expected = CONTROLS if suggestion.text else ("Dismiss",)
    assert tuple(e["text"]["text"] for e in controls["elements"]) == expected
    assert all("style" not in e for e in controls["elements"])  # secondary: Slack's default
    styled = [e["text"]["text"] for e in answers["elements"] if e.get("style") == "primary"]
    assert styled == ([primary] if primary else [])
    ids = [e["action_id"] for block in actions for e in block["elements"]]
    assert len(ids) == len(set(ids))  # every button's action_id is its own


@pytest.mark.parametrize("suggestion", [PICKED, NO_PICK])
def test_telegram_puts_the_controls_on_a_row_of_their_own(suggestion: Suggestion) -> None:
    rows = keyboard(_card(suggestion).buttons).rows
    assert [b.label for b in rows[0]] == ["keep", "drop"]
    assert [b.label for b in rows[-1]] == list(CONTROLS if suggestion.text else ("Dismiss",))
    assert len(rows) == 2


@pytest.mark.parametrize(("suggestion", "primary"), [(PICKED, "keep"), (NO_PICK, None)])
def test_discord_draws_the_controls_on_their_own_row_in_secondary_style(
    suggestion: Suggestion, primary: str | None
) -> None:
    drawn = thread_message(_card(suggestion)).buttons
    answers = [b for b in drawn if b.label in ("keep", "drop")]
    controls = [b for b in drawn if b.label in CONTROLS]
    assert {b.row for b in answers} == {0} and {b.row for b in controls} == {1}
    assert {b.style for b in controls} == {"secondary"}
    assert [b.label for b in answers if b.style == "primary"] == ([primary] if primary else [])


def test_discord_builds_its_view_with_the_styles_and_rows() -> None:
    import discord

    from crewline.transports.discord.transport import _view

    view = _view(thread_message(_card(PICKED)))
    assert view is not None
    styles = {item.item.label: (item.item.style, item.item.row) for item in view.children}  # type: ignore[attr-defined]
    assert styles["keep"] == (discord.ButtonStyle.primary, 0)
    assert styles["drop"] == (discord.ButtonStyle.secondary, 0)
    assert styles["Dismiss"] == (discord.ButtonStyle.secondary, 1)


@pytest.mark.parametrize("suggestion", [PICKED, NO_PICK])
def test_the_local_inbox_gets_each_buttons_role_and_keeps_it(suggestion: Suggestion) -> None:
    card = _card(suggestion)
    shown = ShownMessage(ref="m1", thread="radar", key="row:r", versions=[card], at=NOW)
    buttons = message_json(shown)["buttons"]
    assert [(b["label"], b["role"], b["recommended"]) for b in buttons] == [
        (b.label, b.role, b.recommended) for b in card.buttons
    ]
    assert message_from_record(message_record(card)).buttons == card.buttons
    old = {**message_record(card), "buttons": [["keep", f"e:{ID}:0"]]}  # kept before roles
    assert message_from_record(old).buttons[0].role == "answer"
