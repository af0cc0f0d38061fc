"""What a failed Bot API call means for crewline: wait, retry, reopen the thread, or give up.

python-telegram-bot rewrites Telegram's error descriptions (drops "Bad Request: ",
capitalises the first letter), so descriptions are matched case-insensitively on the words
Telegram itself uses.
"""

from __future__ import annotations

from datetime import timedelta

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from crewline.errors import (
    PermanentTransportError,
    RateLimited,
    ThreadGone,
    TransientTransportError,
    TransportError,
)

__all__ = ["MessageGone", "is_not_modified", "is_query_too_old", "translate"]

_THREAD_GONE = ("message thread not found", "topic_deleted", "topic_closed", "topic_id_invalid")
_MESSAGE_GONE = ("message to edit not found", "message_id_invalid")


class MessageGone(PermanentTransportError):
    """The message to edit no longer exists (deleted by the human, or with its topic)."""

    default_code = "message_gone"


def is_not_modified(error: TelegramError) -> bool:
    """An edit to exactly what the message shows: a success, not an error."""
    return isinstance(error, BadRequest) and "message is not modified" in error.message.lower()


def is_query_too_old(error: TelegramError) -> bool:
    """A callback query answered already, or too late: nothing more can be said to it."""
    return isinstance(error, BadRequest) and "query is too old" in error.message.lower()


def retry_seconds(retry_after: int | timedelta) -> float:
    return retry_after.total_seconds() if isinstance(retry_after, timedelta) else float(retry_after)


def translate(error: TelegramError, *, call: str) -> TransportError:
    """The crewline error for a failed call (``call`` names it in the message)."""
    text = f"Telegram {call}: {error.message}"
    lowered = error.message.lower()
    match error:
        case RetryAfter():
            return RateLimited(text, retry_after=retry_seconds(error.retry_after))
        case BadRequest() if any(words in lowered for words in _THREAD_GONE):
            return ThreadGone(text)
        case BadRequest() if any(words in lowered for words in _MESSAGE_GONE):
            return MessageGone(text)
        case BadRequest():
            return PermanentTransportError(text, code="bad_request")
        case Forbidden():
            return PermanentTransportError(text, code="forbidden")
        case InvalidToken() | EndPointNotFound():
            return PermanentTransportError(text, code="invalid_token")
        case ChatMigrated():
            return PermanentTransportError(
                text, code="chat_migrated", new_chat_id=error.new_chat_id
            )
        case Conflict() | NetworkError():
            return TransientTransportError(text)
    return TransientTransportError(text)
