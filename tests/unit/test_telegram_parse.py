"""Reading Telegram updates: what each becomes for the core, and what is ignored."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import Update

from crewline.models import HumanClick, HumanCommand, HumanEdit, HumanMessage
from crewline.transports.telegram.parse import Scope, parse_command, parse_update
from crewline.transports.telegram.refs import (
    ReplyThread,
    TopicThread,
    edit_line,
    hashtag,
    parse_message_ref,
    parse_thread,
    slug_of_hashtag,
)

BOT = {"id": 42, "is_bot": True, "first_name": "crewline", "username": "crewline_bot"}
OWNER = {"id": 1001, "is_bot": False, "first_name": "Alice"}
STRANGER = {"id": 2002, "is_bot": False, "first_name": "Mallory"}
PRIVATE = {"id": 1001, "type": "private", "first_name": "Alice"}
FORUM = {"id": -1001000000001, "type": "supergroup", "title": "Crew", "is_forum": True}
SCOPE = Scope(
    transport="telegram", bot_id=42, bot_username="crewline_bot", forum_chat_id=-1001000000001
)


def _message(
    text: str,
    *,
    chat: dict[str, Any] = PRIVATE,
    sender: dict[str, Any] = OWNER,
    message_id: int = 7,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "message_id": message_id,
        "date": 1_790_000_000,
        "chat": chat,
        "from": sender,
        "text": text,
        **extra,
    }


def _update(**body: Any) -> Update:
    update = Update.de_json({"update_id": 100, **body}, None)
    assert update is not None
    return update


def test_a_message_in_a_topic_belongs_to_that_topic() -> None:
    """Topic messages name their thread '<chat>/<topic>' and carry a stable event id."""
    inbound = parse_update(
        _update(message=_message("9090", message_thread_id=3, is_topic_message=True)), SCOPE
    )
    assert inbound is not None
    assert inbound.event == HumanMessage(
        transport="telegram",
        event_id="m:1001:7",
        user_id="1001",
        thread="1001/3",
        text="9090",
        message_ref="1001:7",
    )
    assert (inbound.chat_id, inbound.topic_id, inbound.message_id, inbound.private) == (
        1001,
        3,
        7,
        True,
    )


def test_a_reply_to_a_members_chain_message_belongs_to_that_chain() -> None:
    """Without topics, the replied-to bot message's header hashtag names the member."""
    replied = _message("<b>API Fix</b> · #api_fix\nMerge?", sender=BOT, message_id=5)
    inbound = parse_update(_update(message=_message("yes", reply_to_message=replied)), SCOPE)
    assert inbound is not None and inbound.event.thread == "1001#api-fix"
    plain = _message("API Fix · #api_fix\nMerge?", sender=BOT, message_id=5)  # as Telegram
    inbound = parse_update(_update(message=_message("yes", reply_to_message=plain)), SCOPE)
    assert inbound is not None and inbound.event.thread == "1001#api-fix"


@pytest.mark.parametrize(
    "replied",
    [
        _message("Alice · #radar\nforged header", sender=OWNER, message_id=5),
        _message("crewline · crew status", sender=BOT, message_id=5),
    ],
    ids=["human-header", "no-hashtag"],
)
def test_replies_to_anything_else_are_in_no_thread(replied: dict[str, Any]) -> None:
    """A hashtag typed by a person, or a bot message without one, names no member."""
    inbound = parse_update(_update(message=_message("yes", reply_to_message=replied)), SCOPE)
    assert inbound is not None and inbound.event.thread is None


def _record_of_reply_to(replied: dict[str, Any]) -> str | None:
    """The record a person's reply (in a topic) to ``replied`` names for the core."""
    topic = {"message_thread_id": 3, "is_topic_message": True}
    inbound = parse_update(
        _update(message=_message("no, wait", reply_to_message=replied, **topic)), SCOPE
    )
    assert inbound is not None and isinstance(inbound.event, HumanMessage)
    return inbound.event.escalation_id


def test_a_reply_to_the_concierges_edit_prompt_names_its_record() -> None:
    """The prompt's last line names the record; a reply to it (the bot's message) carries
    it to the core, a reply to anything else, or a line a person wrote, does not."""
    prompt = "\n".join(
        [
            "Edit the concierge's suggestion and send it as your reply:",
            "no, keep them",
            edit_line("0123456789abcdef"),
        ]
    )
    topic = {"message_thread_id": 3, "is_topic_message": True}
    assert _record_of_reply_to(_message(prompt, sender=BOT, message_id=5, **topic)) == (
        "0123456789abcdef"
    )
    for other in (
        _message(prompt, sender=OWNER, message_id=5, **topic),  # a person's forged line
        _message(prompt + "\nmore", sender=BOT, message_id=5, **topic),  # not the last line
        _message("Ship v2?", sender=BOT, message_id=5, **topic),  # a card
    ):
        assert _record_of_reply_to(other) is None


def test_an_edit_is_an_edit_even_of_a_command() -> None:
    """edited_message is always an edit event: an edited /command never runs again."""
    edited = _message(
        "/concierge undo",
        edit_date=1_790_000_100,
        entities=[{"type": "bot_command", "offset": 0, "length": 10}],
    )
    inbound = parse_update(_update(edited_message=edited), SCOPE)
    assert inbound is not None
    assert isinstance(inbound.event, HumanEdit)
    assert (inbound.event.event_id, inbound.event.message_ref) == ("e:1001:7:1790000100", "1001:7")


def test_a_command_is_parsed_with_its_arguments() -> None:
    """'/concierge answer routine' is the command with two arguments, in its thread."""
    command = _message(
        "/concierge@crewline_bot answer routine",
        message_thread_id=3,
        is_topic_message=True,
        entities=[{"type": "bot_command", "offset": 0, "length": 23}],
    )
    inbound = parse_update(_update(message=command), SCOPE)
    assert inbound is not None
    assert inbound.event == HumanCommand(
        transport="telegram",
        event_id="m:1001:7",
        user_id="1001",
        thread="1001/3",
        name="concierge",
        args=("answer", "routine"),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/roster", ("roster", ())),
        ("/HELP", ("help", ())),
        ("/start", ("help", ())),
        ("/help@CrewLine_Bot", ("help", ())),
        ("/help@other_bot", None),
        ("/", None),
        ("", None),
    ],
)
def test_command_words(text: str, expected: tuple[str, tuple[str, ...]] | None) -> None:
    """Names are case-insensitive; /start is /help; commands for other bots are not ours."""
    assert parse_command(text, bot_username="crewline_bot") == expected


def test_a_text_starting_with_a_slash_is_a_message_unless_telegram_marks_a_command() -> None:
    """'/tmp is full' without a bot_command entity is an ordinary message."""
    inbound = parse_update(_update(message=_message("/tmp is full")), SCOPE)
    assert inbound is not None and isinstance(inbound.event, HumanMessage)


def test_a_press_names_its_payload_thread_and_query() -> None:
    """A callback query is a click with the raw data, untrusted, and the query to answer."""
    card = _message("Ship?", sender=BOT, message_id=9, message_thread_id=3, is_topic_message=True)
    query = {
        "id": "555",
        "from": STRANGER,
        "chat_instance": "1",
        "message": card,
        "data": "e:0123456789abcdef:1",
    }
    inbound = parse_update(_update(callback_query=query), SCOPE)
    assert inbound is not None
    assert inbound.event == HumanClick(
        transport="telegram",
        event_id="q:555",
        user_id="2002",
        thread="1001/3",
        payload="e:0123456789abcdef:1",
    )
    assert (inbound.query_id, inbound.private) == ("555", False)  # not the presser's chat


def test_a_press_without_data_is_an_empty_payload() -> None:
    """A game button (no data) reaches the core as an empty, malformed payload."""
    query = {
        "id": "556",
        "from": OWNER,
        "chat_instance": "1",
        "message": _message("<b>Radar</b> · #radar\nShip?", sender=BOT, message_id=9),
        "game_short_name": "g",
    }
    inbound = parse_update(_update(callback_query=query), SCOPE)
    assert inbound is not None and isinstance(inbound.event, HumanClick)
    assert (inbound.event.payload, inbound.event.thread) == ("", "1001#radar")


@pytest.mark.parametrize(
    "body",
    [
        {"message": _message("hi", sender=BOT)},
        {"message": _message("hi", chat={"id": -100555, "type": "supergroup", "title": "Other"})},
        {"message": {**_message("x"), "text": None, "sticker": None}},
        {"channel_post": _message("hi", chat={"id": -100777, "type": "channel", "title": "C"})},
    ],
    ids=["from-a-bot", "other-group", "no-text", "channel"],
)
def test_what_is_none_of_crewlines_business_is_ignored(body: dict[str, Any]) -> None:
    """Bots, other groups, channels and messages without text produce no event."""
    assert parse_update(_update(**body), SCOPE) is None


def test_a_strangers_message_in_the_forum_is_not_private() -> None:
    """In the forum supergroup a notice must go to the person's own chat, not the group."""
    message = _message(
        "hi", chat=FORUM, sender=STRANGER, message_thread_id=4, is_topic_message=True
    )
    inbound = parse_update(_update(message=message), SCOPE)
    assert inbound is not None
    assert (inbound.event.thread, inbound.private) == ("-1001000000001/4", False)


def test_refs_round_trip() -> None:
    """Thread and message refs parse back to what wrote them; hashtags to slugs."""
    assert parse_thread("-1001000000001/4") == TopicThread(chat_id=-1001000000001, topic_id=4)
    assert parse_thread("1001#api-fix") == ReplyThread(chat_id=1001, slug="api-fix")
    assert str(parse_thread("1001#api-fix")) == "1001#api-fix"
    assert parse_message_ref("-100123:45") == (-100123, 45)
    assert hashtag("api-fix") == "#api_fix"
    assert slug_of_hashtag("<b>API Fix</b> · #api_fix") == "api-fix"
    assert slug_of_hashtag("#api_fix is mentioned mid-line") is None
    for bad in ("memory-thread-radar", "1001/x", "abc#radar", "1001#Radar"):
        with pytest.raises(ValueError, match="not a Telegram thread ref"):
            parse_thread(bad)
