"""The Telegram harness: crewline's TelegramTransport (real python-telegram-bot) against
FakeTelegram, by long polling (``telegram``) or by webhook (``telegram-webhook``).

The human's hands are the fake's: messages, edits, commands and button presses become
Bot API updates that the bot fetches with ``getUpdates`` or that the fake pushes to
crewline's real webhook endpoint, through a relay standing in for the public URL (as a
reverse proxy would). What the human sees is read back from the fake: the topic's
messages, the callback answers, the bell messages and their edits.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from crewline.models import Receipt
from crewline.transports.telegram import TelegramSettings, TelegramTransport
from crewline.transports.telegram.markup import plain_text
from crewline.transports.telegram.parse import header_slug
from crewline.transports.telegram.refs import (
    ReplyThread,
    Thread,
    TopicThread,
    parse_message_ref,
    parse_thread,
    to_message_ref,
)
from crewline.transports.telegram.webhook import MOUNT_PATH, SECRET_HEADER, WEBHOOK_PATH
from tests.bounds import WAIT
from tests.fakes.telegram import FakeTelegram, StoredMessage, UpdateSent
from tests.harness import Harness, Shown

if TYPE_CHECKING:
    from crewline.config import Config
    from crewline.testing import FakeClock
    from tests.driver import Crew

WAIT_SECONDS = WAIT
WEBHOOK_SECRET = "crewline-test-secret_0123"


class WebhookRelay:
    """The public webhook URL: forwards Telegram's pushes to wherever crewline serves now."""

    def __init__(self) -> None:
        self.upstream: str | None = None
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> WebhookRelay:
        app = web.Application()
        app.router.add_post(MOUNT_PATH + WEBHOOK_PATH, self._forward)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}{MOUNT_PATH}{WEBHOOK_PATH}"
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        if self.upstream is None or self._session is None:
            return web.Response(status=502)
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() in ("content-type", SECRET_HEADER.lower())
        }
        try:
            async with self._session.post(
                self.upstream + MOUNT_PATH + WEBHOOK_PATH,
                data=await request.read(),
                headers=headers,
            ) as answer:
                return web.Response(status=answer.status, body=await answer.read())
        except aiohttp.ClientError:
            return web.Response(status=502)


class TelegramHarness(Harness):
    name = "telegram"

    def __init__(self, *, webhook: bool = False, **fake_options: Any) -> None:
        self.webhook = webhook
        fake_options.setdefault("has_topics_enabled", True)
        self.fake = FakeTelegram(**fake_options)
        self.owner = str(self.fake.owner.id)
        self.stranger = str(self.fake.add_user("Mallory", user_id=2002, username="mallory").id)
        self.relay = WebhookRelay()
        self.transports: list[TelegramTransport] = []
        self.receipts: dict[int, Receipt | None] = {}  # update id -> the core's receipt
        self.settings_options: dict[str, Any] = {}
        self._hands = asyncio.Lock()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[TelegramHarness]:
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(self.fake)
            if self.webhook:
                await stack.enter_async_context(self.relay)
            yield self

    def settings(self) -> TelegramSettings:
        """The settings a user would write for this bot, pointed at the fake."""
        options: dict[str, Any] = {
            "poll_timeout": 5.0,
            "per_chat_interval": 0.0,
            "global_per_second": 0.0,
            **self.settings_options,
        }
        if self.fake.forum is not None:
            options.setdefault("forum_chat_id", self.fake.forum.id)
        if self.webhook:
            options |= {"webhook_secret": WEBHOOK_SECRET, "webhook_url": self.relay.url}
        return TelegramSettings(bot_token=self.fake.token, api_url=self.fake.base_url, **options)

    def transport(self) -> TelegramTransport:
        made = TelegramTransport(self.settings(), on_update=self._handled)
        self.transports.append(made)
        return made

    def serving(self, url: str) -> None:
        self.relay.upstream = url

    def _handled(self, update_id: int, receipt: Receipt | None) -> None:
        self.receipts[update_id] = receipt

    async def handled(self, sent: UpdateSent, *, timeout: float = WAIT_SECONDS) -> Receipt | None:
        """The core's receipt for an update, once the transport has handled it."""
        await self.fake.wait_for(lambda: sent.update_id in self.receipts, timeout=timeout)
        return self.receipts[sent.update_id]

    # where things are -------------------------------------------------------------------------
    def thread(self, member: str) -> Thread | None:
        """The member's thread as the latest transport opened it (None: not yet)."""
        for transport in reversed(self.transports):
            if member in transport.opened_threads:
                return parse_thread(transport.opened_threads[member])
        return None

    def _thread_messages(self, member: str) -> list[StoredMessage]:
        where = self.thread(member)
        if isinstance(where, TopicThread):
            found = self.fake.messages(where.chat_id, message_thread_id=where.topic_id)
        elif isinstance(where, ReplyThread):
            found = [
                m
                for m in self.fake.messages(where.chat_id)
                if m.message_thread_id is None and header_slug(m.text or "") == member
            ]
        else:
            return []
        return [m for m in found if not self._is_notice(m)]

    def _is_notice(self, message: StoredMessage) -> bool:
        """A private answer to a person (a reply to their message), not a thread message."""
        if message.reply_to_message_id is None:
            return False
        replied = self.fake.chat(message.chat_id).store.get(message.reply_to_message_id)
        return replied is not None and not replied.from_bot

    def _user(self, user: str | None) -> int:
        return int(user or self.owner)

    # the human's hands ------------------------------------------------------------------------
    async def say(
        self, member: str, text: str, *, user: str | None = None, reply_to: int | None = None
    ) -> Receipt | None:
        """``text`` typed in the member's thread; as a reply to message ``reply_to`` when
        given (a ForceReply prompt's reply), else to nothing in a topic and to the chain's
        latest message without topics."""
        async with self._hands:  # one update at a time, as Telegram delivers them
            where = self.thread(member)
            assert where is not None, f"{member} has no thread yet"
            if isinstance(where, TopicThread):
                sent = await self.fake.send_text(
                    where.chat_id,
                    text,
                    from_user=self._user(user),
                    message_thread_id=where.topic_id,
                    reply_to_message_id=reply_to,
                )
            else:
                last = self._thread_messages(member)[-1]
                sent = await self.fake.send_text(
                    where.chat_id,
                    text,
                    from_user=self._user(user),
                    reply_to_message_id=reply_to if reply_to is not None else last.message_id,
                )
            return await self.handled(sent)

    async def press(
        self, member: str, message: Shown, choice: int, *, user: str | None = None
    ) -> str | None:
        chat_id, message_id = parse_message_ref(message.ref)
        return await self._press(chat_id, message_id, message.payloads[choice], user)

    async def press_payload(
        self, member: str, payload: str, *, user: str | None = None
    ) -> str | None:
        """A press carrying any data on the thread's latest message: a stale or forged one."""
        shown = self._thread_messages(member)
        with_it = [m for m in shown if payload in m.callback_data]
        target = (with_it or shown)[-1]
        return await self._press(target.chat_id, target.message_id, payload, user)

    async def _press(
        self, chat_id: int, message_id: int, payload: str, user: str | None
    ) -> str | None:
        async with self._hands:
            sent = await self.fake.press_button(
                chat_id, message_id, payload, from_user=self._user(user), strict=False
            )
            await self.handled(sent)
            await self.fake.wait_for(
                lambda: self.fake.callback_query(sent.query_id).answered, timeout=WAIT_SECONDS
            )
            return self.fake.callback_query(sent.query_id).answer_text

    async def command(self, name: str, *args: str, member: str | None = None) -> str | None:
        async with self._hands:
            line = " ".join(("/" + name, *args))
            owner_chat = int(self.owner)
            where = self.thread(member) if member else None
            if isinstance(where, TopicThread):
                sent = await self.fake.send_command(
                    where.chat_id, line, message_thread_id=where.topic_id
                )
            else:
                sent = await self.fake.send_command(owner_chat, line)
            receipt = await self.handled(sent)
            answers = [
                m
                for m in self.fake.messages(sent.update["message"]["chat"]["id"])
                if m.reply_to_message_id == sent.message_id
            ]
            if answers:
                return plain_text(answers[-1].text or "")
            return receipt.notice if receipt is not None else None

    # what the human sees ----------------------------------------------------------------------
    def messages(self, member: str) -> list[Shown]:
        return [_shown(m) for m in self._thread_messages(member)]

    def bells(self) -> dict[str, list[str]]:
        shown: dict[str, str] = {}
        for transport in self.transports:
            shown.update(transport.bell_messages)
        return {key: self._versions(ref) for key, ref in shown.items()}

    def _versions(self, ref: str) -> list[str]:
        """A bell's bodies, first as sent, then after each edit."""
        chat_id, message_id = parse_message_ref(ref)
        sent = next(
            (
                c.params["text"]
                for c in self.fake.calls_to("sendMessage")
                if c.status == 200
                and c.response is not None
                and to_message_ref(
                    c.response["result"]["chat"]["id"], c.response["result"]["message_id"]
                )
                == ref
            ),
            None,
        )
        edits = [e.text for e in self.fake.message(chat_id, message_id).edits]
        return [_bell_body(text) for text in (sent, *edits) if text]

    async def wait_until(
        self, condition: Callable[[], bool], *, timeout: float = WAIT_SECONDS
    ) -> None:
        await self.fake.wait_for(condition, timeout=timeout)


@asynccontextmanager
async def telegram_crew(
    config: Config,
    clock: FakeClock,
    *,
    webhook: bool = False,
    settings: dict[str, Any] | None = None,
    **fake_options: Any,
) -> AsyncIterator[tuple[TelegramHarness, Crew]]:
    """crewline serving with one Telegram harness (its fake configured by the options)."""
    from tests.driver import Crew  # tests.harness imports this module while it loads

    harness = TelegramHarness(webhook=webhook, **fake_options)
    harness.settings_options.update(settings or {})
    async with harness.running():
        crew = Crew(config, clock, [harness])
        await crew.start()
        try:
            yield harness, crew
        finally:
            await crew.stop()


def _shown(message: StoredMessage) -> Shown:
    text = message.text or ""
    if message.message_thread_id is None and header_slug(text) is not None:
        text = text.split("\n", 1)[1] if "\n" in text else ""  # the chain's header is chrome
    buttons = [b for b in message.buttons if "callback_data" in b]
    return Shown(
        ref=to_message_ref(message.chat_id, message.message_id),
        text=plain_text(text),
        buttons=tuple(str(b["text"]) for b in buttons),
        payloads=tuple(str(b["callback_data"]) for b in buttons),
    )


def _bell_body(text: str) -> str:
    """The words of a bell, without its bold title line."""
    return plain_text(text.split("\n\n", 1)[-1])


def register(harnesses: dict[str, Callable[[], Harness]]) -> None:
    harnesses["telegram"] = TelegramHarness
    harnesses["telegram-webhook"] = lambda: TelegramHarness(webhook=True)
