"""Pure reading: a Telegram update as the human event crewline's core understands.

Deciding what an update is (here) is kept apart from acting on it (the transport): a
message, an edit, a command or a button press becomes one typed event carrying an id that
is the same every time Telegram delivers that update again, so the core can recognise a
redelivery. Edits are always edits: an edited ``/command`` never runs the command again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from telegram import Chat, Message, MessageEntity, Update

from crewline.models import HumanClick, HumanCommand, HumanEdit, HumanEvent, HumanMessage
from crewline.transports.telegram.refs import (
    ReplyThread,
    TopicThread,
    edited_record,
    slug_of_hashtag,
    to_message_ref,
)

__all__ = ["Inbound", "Scope", "header_slug", "parse_command", "parse_update", "thread_of"]

_COMMAND = re.compile(r"/(?P<name>[A-Za-z0-9_]{1,32})(?:@(?P<bot>[A-Za-z0-9_]{1,64}))?")
# Telegram's own convention: the first message of a chat with a bot is /start.
_ALIASES = {"start": "help"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Scope:
    """What parsing needs to know about this bot and where it listens."""

    transport: str
    bot_id: int
    bot_username: str
    forum_chat_id: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Inbound:
    """A human event and where its private answer goes.

    ``private`` says the chat is the person's own chat with the bot, where a reply is seen
    by nobody else; ``query_id`` is the callback query to answer for a button press.
    """

    event: HumanEvent
    chat_id: int
    topic_id: int | None = None
    message_id: int | None = None
    query_id: str | None = None
    private: bool = True


def parse_update(update: Update, scope: Scope) -> Inbound | None:
    """The event an update carries, or None when it is none of crewline's business."""
    if update.callback_query is not None:
        return _click(update, scope)
    message = update.message or update.edited_message
    if message is None or not _listened(message.chat, scope):
        return None
    sender = message.from_user
    text = message.text if message.text is not None else message.caption
    if sender is None or sender.is_bot or text is None:
        return None
    chat_id = message.chat.id
    ref = to_message_ref(chat_id, message.message_id)
    user_id, thread = str(sender.id), thread_of(message, bot_id=scope.bot_id)
    event: HumanEvent
    if update.edited_message is not None:
        edited = message.edit_date.timestamp() if message.edit_date else 0
        event = HumanEdit(
            transport=scope.transport,
            event_id=f"e:{ref}:{edited:.0f}",
            user_id=user_id,
            thread=thread,
            message_ref=ref,
            text=text,
        )
    elif _is_command(message):
        command = parse_command(text, bot_username=scope.bot_username)
        if command is None:
            return None  # addressed to another bot in a group
        event = HumanCommand(
            transport=scope.transport,
            event_id=f"m:{ref}",
            user_id=user_id,
            thread=thread,
            name=command[0],
            args=command[1],
            message_ref=_reply_target(message, command),
        )
    else:
        event = HumanMessage(
            transport=scope.transport,
            event_id=f"m:{ref}",
            user_id=user_id,
            thread=thread,
            text=text,
            message_ref=ref,
            escalation_id=_edit_target(message, bot_id=scope.bot_id),
        )
    return Inbound(
        event=event,
        chat_id=chat_id,
        topic_id=message.message_thread_id if message.is_topic_message else None,
        message_id=message.message_id,
        private=_own_chat(message.chat, sender.id),
    )


def _reply_target(message: Message, command: tuple[str, tuple[str, ...]]) -> str | None:
    """``/rewind`` or ``/fork NEW-SLUG`` sent as a reply to a message: that message is the
    one it acts on. (In a topic, a message that replies to nothing is a reply to the topic's
    first message: not a target.)"""
    replied = message.reply_to_message
    name, args = command
    acts_on_a_message = (name == "rewind" and not args) or (name == "fork" and len(args) == 1)
    if not acts_on_a_message or replied is None:
        return None
    if message.is_topic_message and replied.message_id == message.message_thread_id:
        return None
    return to_message_ref(message.chat.id, replied.message_id)


def _edit_target(message: Message, *, bot_id: int) -> str | None:
    """The record a reply to the concierge's Edit prompt answers: the one the prompt (a
    message of this bot's) names on its last line. The core still checks that the record
    is the thread member's and waits for an answer."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.id != bot_id:
        return None
    return edited_record(replied.text or "")


def parse_command(text: str, *, bot_username: str) -> tuple[str, tuple[str, ...]] | None:
    """``/name@bot arg …`` as (name, args); None when it is not a command for this bot."""
    words = text.split()
    match = _COMMAND.fullmatch(words[0]) if words else None
    if match is None:
        return None
    if match["bot"] and match["bot"].lower() != bot_username.lower():
        return None
    name = match["name"].lower()
    return _ALIASES.get(name, name), tuple(words[1:])


def thread_of(message: Message, *, bot_id: int) -> str | None:
    """The member thread a message belongs to: its topic, or the chain it replies into.

    For a bot message (a card whose button was pressed) its own header names the chain.
    """
    chat_id = message.chat.id
    if message.is_topic_message and message.message_thread_id is not None:
        return str(TopicThread(chat_id=chat_id, topic_id=message.message_thread_id))
    sender = message.from_user
    headed = message if sender is not None and sender.id == bot_id else message.reply_to_message
    if headed is None or headed.from_user is None or headed.from_user.id != bot_id:
        return None
    slug = header_slug(headed.text or "")
    return None if slug is None else str(ReplyThread(chat_id=chat_id, slug=slug))


def header_slug(text: str) -> str | None:
    """The member slug a chain message's first line names with its hashtag."""
    return slug_of_hashtag(text.split("\n", 1)[0])


def _click(update: Update, scope: Scope) -> Inbound | None:
    query = update.callback_query
    assert query is not None
    shown = query.message
    chat = shown.chat if shown is not None else None
    if chat is not None and not _listened(chat, scope):
        return None
    thread = thread_of(shown, bot_id=scope.bot_id) if isinstance(shown, Message) else None
    topic = shown.message_thread_id if isinstance(shown, Message) else None
    return Inbound(
        event=HumanClick(
            transport=scope.transport,
            event_id=f"q:{query.id}",
            user_id=str(query.from_user.id),
            thread=thread,
            payload=query.data or "",
        ),
        chat_id=chat.id if chat is not None else query.from_user.id,
        topic_id=topic,
        query_id=query.id,
        private=chat is None or _own_chat(chat, query.from_user.id),
    )


def _listened(chat: Chat, scope: Scope) -> bool:
    """Private chats with the bot, and the forum supergroup of member topics."""
    return chat.type == Chat.PRIVATE or chat.id == scope.forum_chat_id


def _own_chat(chat: Chat, user_id: int) -> bool:
    """The person's private chat with the bot: what is said there, nobody else sees."""
    return chat.type == Chat.PRIVATE and chat.id == user_id


def _is_command(message: Message) -> bool:
    return any(
        e.type == MessageEntity.BOT_COMMAND and e.offset == 0 for e in message.entities or ()
    )
