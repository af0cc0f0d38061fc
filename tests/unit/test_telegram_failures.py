"""What failed Bot API calls mean for the outbox, and how calls into one chat are paced."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut

from crewline.errors import (
    PermanentTransportError,
    RateLimited,
    ThreadGone,
    TransientTransportError,
)
from crewline.transports.telegram import failures
from crewline.transports.telegram.pacing import ChatPacer


def test_retry_after_becomes_rate_limited_in_seconds() -> None:
    """A 429's retry_after (a timedelta under PTB_TIMEDELTA) is the outbox's wait."""
    translated = failures.translate(RetryAfter(timedelta(seconds=7)), call="sendMessage")
    assert isinstance(translated, RateLimited) and translated.retry_after == 7.0


@pytest.mark.parametrize(
    ("error", "kind", "code"),
    [
        (BadRequest("Message thread not found"), ThreadGone, "thread_gone"),
        (BadRequest("TOPIC_DELETED"), ThreadGone, "thread_gone"),
        (BadRequest("Message to edit not found"), failures.MessageGone, "message_gone"),
        (BadRequest("Button_data_invalid"), PermanentTransportError, "bad_request"),
        (Forbidden("Forbidden: bot was blocked by the user"), PermanentTransportError, "forbidden"),
        (ChatMigrated(-100123), PermanentTransportError, "chat_migrated"),
        (TimedOut(), TransientTransportError, "transport_transient"),
        (NetworkError("Bad Gateway"), TransientTransportError, "transport_transient"),
    ],
)
def test_each_failure_maps_to_what_the_outbox_should_do(
    error: Exception, kind: type[Exception], code: str
) -> None:
    """Gone threads are reopened, bad requests buried, network trouble retried."""
    assert isinstance(error, (BadRequest, Forbidden, ChatMigrated, NetworkError))
    translated = failures.translate(error, call="sendMessage")
    assert type(translated) is kind
    assert translated.code == code
    assert translated.message.startswith("Telegram sendMessage: ")


def test_not_modified_and_query_too_old_are_recognised_whatever_the_case() -> None:
    """PTB rewrites Telegram's descriptions; the words are matched case-insensitively."""
    assert failures.is_not_modified(BadRequest("Message is not modified: specified new ..."))
    assert not failures.is_not_modified(BadRequest("Message to edit not found"))
    assert failures.is_query_too_old(BadRequest("Query is too old and response timeout ..."))


async def test_calls_into_one_chat_take_turns_and_other_chats_do_not_wait() -> None:
    """Three calls into one chat are spaced by the interval; another chat goes at once."""
    pacer = ChatPacer(0.05)
    done: dict[str, float] = {}
    started = time.monotonic()

    async def call(name: str, chat_id: int) -> None:
        async with pacer.turn(chat_id):
            done[name] = time.monotonic() - started

    await asyncio.gather(call("a1", 1), call("a2", 1), call("a3", 1), call("b1", 2))
    assert done["b1"] < done["a2"]  # the other chat did not queue behind chat 1
    assert done["a2"] - done["a1"] >= 0.05 and done["a3"] - done["a2"] >= 0.05


async def test_a_hold_keeps_the_whole_chat_waiting() -> None:
    """After a 429 no call goes into that chat until retry_after has passed."""
    pacer = ChatPacer(0.0)
    pacer.hold(1, 0.1)
    started = time.monotonic()
    async with pacer.turn(1):
        waited = time.monotonic() - started
    async with pacer.turn(2):
        other = time.monotonic() - started - waited
    assert waited >= 0.1 and other < waited
