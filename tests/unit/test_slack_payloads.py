"""Reading Slack payloads into human events (pure functions: Slack JSON in, values out)."""

from __future__ import annotations

from typing import Any

import pytest

from crewline.models import HumanClick, HumanCommand, HumanEdit, HumanMessage
from crewline.transports.slack import payloads


def _message(**changes: Any) -> dict[str, Any]:
    event = {
        "type": "message",
        "channel": "D1",
        "channel_type": "im",
        "user": "U1",
        "text": "hello",
        "ts": "20.000002",
        "thread_ts": "10.000001",
        "team": "T1",
    }
    event.update(changes)
    return event


def test_a_thread_reply_is_a_message_in_the_thread_of_its_root() -> None:
    """thread_ts maps back to the thread ref crewline opened; the reply's ts is its ref."""
    parsed = payloads.parse_message(_message(), transport="slack", event_id="Ev1")
    assert parsed == HumanMessage(
        transport="slack",
        event_id="Ev1",
        user_id="U1",
        thread="D1:10.000001",
        text="hello",
        message_ref="D1:20.000002",
    )


def test_slacks_encoding_is_undone_before_the_core_sees_the_text() -> None:
    """Entities are unescaped, links and mentions become their text."""
    text = "a &lt;b&gt; &amp; <https://x.test|docs> <https://y.test> <@U9> <!here>"
    assert payloads.from_mrkdwn(text) == "a <b> & docs https://y.test @U9 @here"


@pytest.mark.parametrize(
    "event",
    [
        _message(bot_id="B1"),
        _message(subtype="bot_message"),
        _message(subtype="channel_join"),
        _message(channel_type="channel"),
        _message(subtype="message_deleted", deleted_ts="20.000002"),
        {"type": "app_mention", "channel": "D1", "channel_type": "im"},
    ],
)
def test_bots_channels_deletions_and_other_subtypes_are_ignored(event: dict[str, Any]) -> None:
    """Only a person's own words in a DM become events."""
    assert payloads.parse_message(event, transport="slack", event_id="Ev1") is None


def test_an_edit_of_the_text_is_an_edit_event_and_other_changes_are_not() -> None:
    """message_changed with new text is an edit; a changed reply count or unfurl is not."""
    before = {
        "type": "message",
        "user": "U1",
        "text": "tpyo",
        "ts": "20.000002",
        "thread_ts": "10.000001",
    }
    changed = _message(
        subtype="message_changed", message={**before, "text": "typo"}, previous_message=before
    )
    assert payloads.parse_message(changed, transport="slack", event_id="Ev2") == HumanEdit(
        transport="slack",
        event_id="Ev2",
        user_id="U1",
        thread="D1:10.000001",
        message_ref="D1:20.000002",
        text="typo",
    )
    same = _message(
        subtype="message_changed", message={**before, "reply_count": 1}, previous_message=before
    )
    redraw = _message(subtype="message_changed", message={**before, "bot_id": "B1"})
    assert payloads.parse_message(same, transport="slack", event_id="Ev3") is None
    assert payloads.parse_message(redraw, transport="slack", event_id="Ev4") is None


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("roster", ("roster", ())),
        ("/roster", ("roster", ())),
        ("concierge undo", ("concierge", ("undo",))),
        ("Concierge answer routine", ("concierge", ("answer", "routine"))),
        ("/crew help", ("help", ())),
        ("/crew", ("help", ())),
        ("rewind r12", ("rewind", ("r12",))),
        ("/help me please", ("help", ("me", "please"))),
        ("help me please", None),
        ("roster is fine", None),
        ("concierge", None),
        ("rewind the tape now", None),
        ("/usr/bin is full", None),
        ("yes", None),
        ("", None),
    ],
)
def test_command_words_are_recognised_without_catching_answers(
    text: str, command: tuple[str, tuple[str, ...]] | None
) -> None:
    """Typed in a thread, a command is a known word alone or slashed; anything else is an answer."""
    assert payloads.text_command(text) == command


def test_command_words_in_a_thread_become_a_command_event() -> None:
    """'concierge undo' typed in a member's thread is a command carrying that thread."""
    parsed = payloads.parse_message(
        _message(text="concierge undo"), transport="slack", event_id="Ev5"
    )
    assert parsed == HumanCommand(
        transport="slack",
        event_id="Ev5",
        user_id="U1",
        thread="D1:10.000001",
        name="concierge",
        args=("undo",),
    )


def test_a_button_press_carries_its_value_untrusted_and_its_thread() -> None:
    """The click's payload is the button value as sent; the thread is the card's thread."""
    body = {
        "type": "block_actions",
        "user": {"id": "U1", "team_id": "T1"},
        "trigger_id": "123.abc",
        "container": {"channel_id": "D1", "message_ts": "30.1", "thread_ts": "10.000001"},
        "actions": [
            {"action_id": "crewline:0", "value": "e:0123456789abcdef:0", "action_ts": "31.1"}
        ],
    }
    assert payloads.parse_click(body, transport="slack") == HumanClick(
        transport="slack",
        event_id="click:123.abc",
        user_id="U1",
        thread="D1:10.000001",
        payload="e:0123456789abcdef:0",
    )
    no_value = {**body, "actions": [{"action_id": "crewline:0", "action_ts": "31.1"}]}
    clicked = payloads.parse_click(no_value, transport="slack")
    assert clicked is not None and clicked.payload == ""
    assert payloads.parse_click({**body, "actions": []}, transport="slack") is None


def test_slash_commands_name_their_command_and_words() -> None:
    """/crew NAME ARGS, /concierge ARGS and /roster all become the same command events."""
    form = {
        "command": "/crew",
        "text": "rewind r3",
        "user_id": "U1",
        "channel_id": "D1",
        "trigger_id": "9.z",
    }
    assert payloads.parse_slash_command(form, transport="slack") == HumanCommand(
        transport="slack", event_id="command:9.z", user_id="U1", name="rewind", args=("r3",)
    )
    concierge = {**form, "command": "/concierge", "text": "act on"}
    parsed = payloads.parse_slash_command(concierge, transport="slack")
    assert parsed is not None and (parsed.name, parsed.args) == ("concierge", ("act", "on"))
    assert payloads.parse_slash_command({"text": "x"}, transport="slack") is None


def test_every_team_a_payload_names_is_collected() -> None:
    """A payload is ours only if every team id in it is: envelope, team, user, authorizations."""
    body = {
        "team_id": "T1",
        "team": {"id": "T1"},
        "user": {"id": "U1", "team_id": "T2"},
        "authorizations": [{"team_id": "T3"}],
        "event": {"type": "message", "team": "T4"},
    }
    assert payloads.payload_teams(body) == {"T1", "T2", "T3", "T4"}
    assert payloads.payload_teams({"type": "url_verification"}) == set()


def test_requests_are_ordered_by_their_channel() -> None:
    """Events, clicks and commands of one DM share one order key."""
    assert payloads.order_key({"event": {"channel": "D1"}}) == "D1"
    assert payloads.order_key({"container": {"channel_id": "D1"}, "channel": {"id": "D1"}}) == "D1"
    assert payloads.order_key({"channel_id": "D1"}) == "D1"
    assert payloads.order_key({}) == ""


def test_refs_are_channel_and_ts() -> None:
    """A ref splits back into its channel and ts; anything else is refused."""
    assert payloads.split_ref(payloads.thread_ref("D1", "10.000001")) == ("D1", "10.000001")
    with pytest.raises(ValueError, match="CHANNEL:TS"):
        payloads.split_ref("radar")


def test_regenerate_and_reset_are_commands_only_with_their_slash() -> None:
    """A bare "reset" typed in a thread is an answer; "/reset" is the command."""
    from crewline.transports.slack.payloads import text_command

    assert text_command("reset") is None
    assert text_command("regenerate") is None
    assert text_command("/reset") == ("reset", ())
    assert text_command("rewind 2") == ("rewind", ("2",))
