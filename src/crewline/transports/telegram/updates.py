"""Updates in, receipts out: each update becomes a human event for the core, and what the
core answers is said to the person who acted, and to nobody else.

PTB hands every update to :meth:`UpdateHandler.handle`, one at a time in arrival order
(long polling and the webhook alike). ``handle`` admits the update to the core there and
then — the core keeps that order — and leaves the rest to a task of its own: the core's
durable commit and the answer to Telegram take milliseconds each, and the next update must
not queue behind them (at 100 presses a second it did, for a second and more).

A button press is answered at once: the core's receipt normally arrives within
milliseconds and becomes the answer itself (a refusal as an alert); should the core take
longer, the spinner is stopped first and the receipt follows as a message.

An update delivered again (the same ``update_id``: a webhook push retried because its 200
was lost, a ``getUpdates`` batch fetched again) goes to the core like the first, in this
run as after a restart: the core knows the event (its dedupe mark) and answers with the
first delivery's receipt, marked a repeat. A press's query is answered with that receipt's
text — Telegram takes one answer per query, so it is shown only if the first answer never
landed (the presser's spinner still turns); a typed message's repeat is told nothing
(docs/telegram.md, "Updates delivered twice").
"""

from __future__ import annotations

import asyncio
import contextlib
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
from crewline.transports.telegram.refs import ReplyThread, parse_thread

__all__ = ["ANSWER_WITHIN", "UpdateHandler", "UpdateObserver"]

log = logging.getLogger(__name__)

ANSWER_WITHIN = 2.0  # seconds a button press waits for the core before the spinner stops
_REMEMBERED = 2048  # recent handled update ids kept for polling's confirmation

UpdateObserver = Callable[[int, Receipt | None], None]


class UpdateHandler:
    """Passes updates to the core while ``sink`` and ``scope`` are set (the bot runs)."""

    def __init__(self, calls: BotCalls, *, on_update: UpdateObserver | None = None) -> None:
        self.calls = calls
        self.on_update = on_update
        self.sink: HumanEventSink | None = None
        self.scope: Scope | None = None
        # Each delivery's task: an update pushed again while its first is in hand has two.
        self._handling: dict[int, set[asyncio.Task[None]]] = {}
        self._done: OrderedDict[int, None] = OrderedDict()  # recent updates handled
        self._pulse = asyncio.Event()  # set (and replaced) each time one is

    async def handle(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """PTB's callback for every update: admitted now, answered by a task of its own."""
        update_id = update.update_id
        sink, scope = self.sink, self.scope
        inbound = None if sink is None or scope is None else parse_update(update, scope)
        if inbound is None or sink is None:  # not ours, or the bot is not running
            self._handled(update_id, None)
            return
        # Started here, the core's coroutines start in the order updates arrive.
        judged = asyncio.ensure_future(sink(inbound.event))
        task = asyncio.create_task(self._finish(update_id, inbound, judged))
        tasks = self._handling.setdefault(update_id, set())
        tasks.add(task)
        task.add_done_callback(lambda _: self._let_go(update_id, task))

    def _let_go(self, update_id: int, task: asyncio.Task[None]) -> None:
        tasks = self._handling.get(update_id, set())
        tasks.discard(task)
        if not tasks:
            self._handling.pop(update_id, None)

    def fetched(self, update_ids: list[int]) -> None:
        """Polling fetched these updates (some may be fetched again): each is handled
        anew before it is confirmed, whatever an earlier delivery of it did."""
        for update_id in update_ids:
            self._done.pop(update_id, None)

    async def finished(self, update_id: int) -> None:
        """Wait until an admitted update was answered (a webhook acknowledges only then)."""
        tasks = self._handling.get(update_id)
        if tasks:
            await asyncio.shield(asyncio.gather(*tasks, return_exceptions=True))

    async def handled(self, update_id: int) -> None:
        """Wait until ``update_id`` was handled (answered, or found not to be crewline's):
        polling confirms an update to Telegram only then (:mod:`.polling`)."""
        while update_id not in self._done:
            await self._pulse.wait()

    async def drain(self, *, timeout: float) -> None:
        """Let the updates in hand be answered (bounded), before the bot stops."""
        tasks = [task for each in self._handling.values() for task in each]
        if tasks:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await asyncio.gather(*tasks, return_exceptions=True)

    async def _finish(
        self, update_id: int, inbound: Inbound, judged: asyncio.Future[Receipt]
    ) -> None:
        receipt: Receipt | None = None
        try:
            receipt = await self._deliver(inbound, judged)
        except Exception:
            log.exception("telegram: handling update %s failed", update_id)
        finally:
            self._handled(update_id, receipt)

    def _handled(self, update_id: int, receipt: Receipt | None) -> None:
        self._done[update_id] = None
        while len(self._done) > _REMEMBERED:
            self._done.popitem(last=False)
        self._pulse.set()
        self._pulse = asyncio.Event()
        if self.on_update is not None:
            self.on_update(update_id, receipt)

    async def failed(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """PTB's error handler: PTB itself would only log a bare traceback."""
        log.error("telegram: handling an update failed", exc_info=context.error)

    async def _deliver(self, inbound: Inbound, judged: asyncio.Future[Receipt]) -> Receipt:
        if inbound.query_id is not None:
            return await self._press(inbound, judged)
        receipt = await judged
        if receipt.notice_to_post:
            await self._tell(inbound, receipt.notice_to_post)
        if isinstance(inbound.event, HumanCommand) and receipt.code == "not_owner":
            # How a new user learns the id to bind: crewline member add … --owner telegram:<id>
            log.info(
                "telegram: user %s, who owns no member, sent /%s (their identity is telegram:%s)",
                inbound.event.user_id,
                inbound.event.name,
                inbound.event.user_id,
            )
        return receipt

    async def _press(self, inbound: Inbound, judged: asyncio.Future[Receipt]) -> Receipt:
        """Answer the callback at once with what the core said: a refusal as an alert."""
        assert inbound.query_id is not None
        done, _ = await asyncio.wait({judged}, timeout=ANSWER_WITHIN)
        if judged not in done:
            await self.calls.answer(inbound.query_id, None, alert=False)  # stop the spinner
            receipt = await judged
            if receipt.notice_to_post:
                await self._tell(inbound, receipt.notice_to_post)
            return receipt
        if judged.exception() is not None:
            await self.calls.answer(
                inbound.query_id, "crewline could not take this press; try again.", alert=True
            )
        receipt = judged.result()
        # A repeat's text too: Telegram shows one answer per query, so it is seen only
        # where the first answer never landed (the spinner still turns).
        await self.calls.answer(inbound.query_id, receipt.notice, alert=not receipt.accepted)
        if receipt.prefill is not None and receipt.reply_to is not None and not receipt.repeat:
            await self._prompt_edit(inbound, receipt.prefill, record=receipt.reply_to)
        return receipt

    async def _prompt_edit(self, inbound: Inbound, text: str, *, record: str) -> None:
        """Open the person's reply box on the suggestion (a ForceReply whose placeholder
        shows it; the text itself tap-to-copy), in the card's thread, so the reply they send
        is a reply in that thread; the prompt names ``record``, which that reply answers
        alone (read back from the reply itself: nothing is kept in this process)."""
        header = None
        if inbound.event.thread is not None:
            thread = parse_thread(inbound.event.thread)
            if isinstance(thread, ReplyThread):
                header = render.chain_header(thread.slug, thread.slug)
        try:
            await self.calls.send(
                inbound.chat_id,
                render.edit_prompt_html(text, record=record, header=header),
                topic=inbound.topic_id,
                force_reply=text,
            )
        except TransportError as error:
            log.warning("telegram: could not open the reply for an edit: %s", error)

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
