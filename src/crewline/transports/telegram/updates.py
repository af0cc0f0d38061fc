"""Updates in, receipts out: each update becomes a human event for the core, and what the
core answers is said to the person who acted, and to nobody else.

PTB hands every update to :meth:`UpdateHandler.handle`, one at a time in arrival order
(long polling and the webhook alike). A button press is answered at once: the core's
receipt normally arrives within milliseconds and becomes the answer itself (a refusal as an
alert); should the core take longer, the spinner is stopped first and the receipt follows
as a message.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable

from telegram import Update
from telegram.ext import ContextTypes

from crewline.errors import TransportError
from crewline.models import HumanCommand, Receipt
from crewline.transports.base import HumanEventSink
from crewline.transports.telegram import render
from crewline.transports.telegram.calls import BotCalls
from crewline.transports.telegram.parse import Inbound, Scope, parse_update

__all__ = ["ANSWER_WITHIN", "UpdateHandler", "UpdateObserver"]

log = logging.getLogger(__name__)

ANSWER_WITHIN = 2.0  # seconds a button press waits for the core before the spinner stops
_REMEMBERED = 2048  # recent update ids kept to spot a redelivery within this run

UpdateObserver = Callable[[int, Receipt | None], None]


class UpdateHandler:
    """Passes updates to the core while ``sink`` and ``scope`` are set (the bot runs)."""

    def __init__(self, calls: BotCalls, *, on_update: UpdateObserver | None = None) -> None:
        self.calls = calls
        self.on_update = on_update
        self.sink: HumanEventSink | None = None
        self.scope: Scope | None = None
        self._seen: OrderedDict[int, None] = OrderedDict()

    async def handle(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """PTB's callback for every update."""
        receipt: Receipt | None = None
        try:
            if update.update_id in self._seen or self.scope is None:
                return  # a redelivery within this run: the core saw it already
            self._seen[update.update_id] = None
            while len(self._seen) > _REMEMBERED:
                self._seen.popitem(last=False)
            inbound = parse_update(update, self.scope)
            if inbound is not None:
                receipt = await self._deliver(inbound)
        finally:
            if self.on_update is not None:
                self.on_update(update.update_id, receipt)

    async def failed(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """PTB's error handler: PTB itself would only log a bare traceback."""
        log.error("telegram: handling an update failed", exc_info=context.error)

    async def _deliver(self, inbound: Inbound) -> Receipt | None:
        sink = self.sink
        if sink is None:
            return None
        if inbound.query_id is not None:
            return await self._press(inbound, sink)
        receipt = await sink(inbound.event)
        if receipt.notice:
            await self._tell(inbound, receipt.notice)
        if isinstance(inbound.event, HumanCommand) and receipt.code == "not_owner":
            # How a new user learns the id to bind: crewline member add … --owner telegram:<id>
            log.info(
                "telegram: user %s, who owns no member, sent /%s (their identity is telegram:%s)",
                inbound.event.user_id,
                inbound.event.name,
                inbound.event.user_id,
            )
        return receipt

    async def _press(self, inbound: Inbound, sink: HumanEventSink) -> Receipt:
        """Answer the callback at once with what the core said: a refusal as an alert."""
        assert inbound.query_id is not None
        judged = asyncio.ensure_future(sink(inbound.event))
        done, _ = await asyncio.wait({judged}, timeout=ANSWER_WITHIN)
        if judged not in done:
            await self.calls.answer(inbound.query_id, None, alert=False)  # stop the spinner
            receipt = await judged
            if receipt.notice:
                await self._tell(inbound, receipt.notice)
            return receipt
        if judged.exception() is not None:
            await self.calls.answer(
                inbound.query_id, "crewline could not take this press; try again.", alert=True
            )
        receipt = judged.result()
        await self.calls.answer(inbound.query_id, receipt.notice, alert=not receipt.accepted)
        return receipt

    async def _tell(self, inbound: Inbound, notice: str) -> None:
        """Say a receipt's notice to the person alone: in their own chat, replying to them."""
        private = inbound.private
        try:
            await self.calls.send(
                inbound.chat_id if private else int(inbound.event.user_id),
                render.notice_html(notice),
                reply_to=inbound.message_id if private else None,
                topic=inbound.topic_id if private else None,
            )
        except TransportError as error:
            log.warning("telegram: could not tell user %s: %s", inbound.event.user_id, error)
