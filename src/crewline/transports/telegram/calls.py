"""The Bot API calls crewline makes, each paced per chat and its failure translated.

Every message and edit goes through :class:`BotCalls`, whether the outbox asked for it (a
card, a bell, the status) or an update did (a notice to the person who acted), so all of
them share one pacer per chat and one reading of Telegram's errors. Under a replica's
lease (``fence``) a message or edit is sent only while the lease has its margin left: after
a stall past the deadline another replica may be sending the same card.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import (
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import TelegramError

from crewline.errors import (
    PermanentTransportError,
    RateLimited,
    TransientTransportError,
    TransportError,
)
from crewline.transports.base import Fence
from crewline.transports.telegram import failures
from crewline.transports.telegram.pacing import ChatPacer
from crewline.transports.telegram.render import Keyboard

__all__ = ["MAX_ANSWER", "BotCalls"]

log = logging.getLogger(__name__)

MAX_ANSWER = 200  # characters Telegram shows in a callback answer
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


class BotCalls:
    """sendMessage, editMessageText and answerCallbackQuery for one bot."""

    def __init__(self, pacer: ChatPacer) -> None:
        self.pacer = pacer
        self.client: Any = None  # the PTB Bot while the transport runs
        self.fence: Fence | None = None  # the replica's lease on the bot, if under one

    @property
    def bot(self) -> Any:
        if self.client is None:
            raise PermanentTransportError(
                "the Telegram transport is not started", code="not_started"
            )
        return self.client

    async def send(
        self,
        chat_id: int,
        text: str,
        *,
        topic: int | None = None,
        keyboard: Keyboard | None = None,
        reply_to: int | None = None,
        silent: bool = False,
        force_reply: str | None = None,
    ) -> Message:
        """Post HTML ``text`` (in a topic, as a reply, with buttons, without a sound);
        ``force_reply``: open the person's reply box on it, with that placeholder."""
        reply = (
            ReplyParameters(reply_to, allow_sending_without_reply=True)
            if reply_to is not None
            else None
        )
        async with self.pacer.turn(chat_id):
            self._fenced()
            try:
                sent: Message = await self.bot.send_message(
                    chat_id,
                    text,
                    parse_mode=ParseMode.HTML,
                    message_thread_id=topic,
                    reply_markup=(
                        ForceReply(selective=True, input_field_placeholder=force_reply[:64])
                        if force_reply is not None
                        else markup(keyboard)
                    ),
                    reply_parameters=reply,
                    disable_notification=silent,
                    link_preview_options=_NO_PREVIEW,
                )
            except TelegramError as error:
                raise await self._failed(error, chat_id, call="sendMessage") from error
        return sent

    async def edit(
        self, chat_id: int, message_id: int, text: str, *, keyboard: Keyboard | None = None
    ) -> None:
        """Redraw a message; without a keyboard its buttons go. "Not modified" (it already
        shows exactly this) is a success."""
        async with self.pacer.turn(chat_id):
            self._fenced()
            try:
                await self.bot.edit_message_text(
                    text,
                    chat_id,
                    message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup(keyboard),
                    link_preview_options=_NO_PREVIEW,
                )
            except TelegramError as error:
                if not failures.is_not_modified(error):
                    raise await self._failed(error, chat_id, call="editMessageText") from error

    async def answer(self, query_id: str, text: str | None, *, alert: bool) -> None:
        """Stop a button's spinner, showing ``text`` (as an alert) to the presser alone."""
        shown = text if text is None or len(text) <= MAX_ANSWER else text[: MAX_ANSWER - 1] + "…"
        try:
            await self.bot.answer_callback_query(
                query_id, text=shown, show_alert=alert and shown is not None
            )
        except TelegramError as error:
            # Nothing more can be said to this press; the core has its result either way.
            level = logging.DEBUG if failures.is_query_too_old(error) else logging.WARNING
            log.log(level, "telegram: answering a button press failed: %s", error)

    def _fenced(self) -> None:
        """Raise when the replica's lease is too close to its end for one more call."""
        if self.fence is not None and self.fence.remaining() < self.fence.margin:
            raise TransientTransportError(
                "this replica's lease on the Telegram bot is running out", code="lease_ending"
            )

    async def _failed(self, error: TelegramError, chat_id: int, *, call: str) -> TransportError:
        translated = failures.translate(error, call=call)
        if isinstance(translated, RateLimited):  # the whole chat waits, on every replica
            await self.pacer.hold_everywhere(chat_id, translated.retry_after)
        return translated


def markup(keyboard: Keyboard | None) -> InlineKeyboardMarkup | None:
    """The PTB keyboard for drawn buttons (None: no keyboard, which also removes one)."""
    if not keyboard:
        return None
    rows = [
        [InlineKeyboardButton(b.label, callback_data=b.payload) for b in row]
        for row in keyboard.rows
    ]
    rows += [[InlineKeyboardButton(label, url=url)] for label, url in keyboard.links]
    return InlineKeyboardMarkup(rows)
