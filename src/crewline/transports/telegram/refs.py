"""Thread and message refs on Telegram, written as the strings the store keeps.

A member's thread is either a topic (``<chat id>/<message_thread_id>``: a topic of the
owner's private chat or of a forum supergroup) or a reply chain in the owner's private chat
(``<chat id>#<member slug>``), whose messages are headed with the member's name and the
hashtag ``#<slug>`` (dashes written as underscores, which slugs never contain). Both can be
recognised again from an incoming update alone, so buttons and replies keep working after a
restart without any state kept by the transport.

A message ref is ``<chat id>:<message id>``. The concierge's Edit prompt ends with a line
naming its record (:func:`edit_line`), read back from the reply to it (:func:`edited_record`),
so that reply answers that record even when several are open, after a restart too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ReplyThread",
    "Thread",
    "TopicThread",
    "edit_line",
    "edited_record",
    "hashtag",
    "parse_message_ref",
    "parse_thread",
    "slug_of_hashtag",
    "to_message_ref",
]

_TOPIC = re.compile(r"(?P<chat>-?\d+)/(?P<topic>\d+)")
_REPLIES = re.compile(r"(?P<chat>-?\d+)#(?P<slug>[a-z0-9][a-z0-9-]{0,62})")
_MESSAGE = re.compile(r"(?P<chat>-?\d+):(?P<message>\d+)")
_HASHTAG = re.compile(r"(?<!\S)#(?P<tag>[a-z0-9][a-z0-9_]{0,62})")
_EDIT_LINE = "Your reply to this message answers that card alone (record {record})."
_EDITED = re.compile(
    re.escape(_EDIT_LINE).replace(re.escape("{record}"), r"(?P<record>[0-9a-z]{1,64})")
)


@dataclass(frozen=True, kw_only=True, slots=True)
class TopicThread:
    """A forum topic: of the owner's private chat (threaded mode) or of a supergroup."""

    chat_id: int
    topic_id: int

    def __str__(self) -> str:
        return f"{self.chat_id}/{self.topic_id}"


@dataclass(frozen=True, kw_only=True, slots=True)
class ReplyThread:
    """A member's reply chain in a chat without topics, headed ``<name> · #<slug>``."""

    chat_id: int
    slug: str

    def __str__(self) -> str:
        return f"{self.chat_id}#{self.slug}"


Thread = TopicThread | ReplyThread


def parse_thread(ref: str) -> Thread:
    """The thread a ref names; ValueError when it is not a Telegram thread ref."""
    if match := _TOPIC.fullmatch(ref):
        return TopicThread(chat_id=int(match["chat"]), topic_id=int(match["topic"]))
    if match := _REPLIES.fullmatch(ref):
        return ReplyThread(chat_id=int(match["chat"]), slug=match["slug"])
    raise ValueError(f"not a Telegram thread ref: {ref!r}")


def to_message_ref(chat_id: int, message_id: int) -> str:
    return f"{chat_id}:{message_id}"


def parse_message_ref(ref: str) -> tuple[int, int]:
    """(chat id, message id) of a message ref; ValueError when malformed."""
    match = _MESSAGE.fullmatch(ref)
    if match is None:
        raise ValueError(f"not a Telegram message ref: {ref!r}")
    return int(match["chat"]), int(match["message"])


def hashtag(slug: str) -> str:
    """The hashtag that heads a member's messages in a reply chain (tap it to see them all)."""
    return "#" + slug.replace("-", "_")


def slug_of_hashtag(line: str) -> str | None:
    """The member slug of the hashtag that ends a header line, if it ends with one."""
    found = list(_HASHTAG.finditer(line.rstrip()))
    if not found or found[-1].end() != len(line.rstrip()):
        return None
    return found[-1]["tag"].replace("_", "-")


def edit_line(record: str) -> str:
    """The last line of the concierge's Edit prompt: the record a reply to it answers."""
    return _EDIT_LINE.format(record=record)


def edited_record(text: str) -> str | None:
    """The record an Edit prompt (its text as Telegram gives it back) names on its last
    line; None for any other message."""
    lines = text.rstrip().rsplit("\n", 1)
    match = _EDITED.fullmatch(lines[-1].strip())
    return match["record"] if match else None
