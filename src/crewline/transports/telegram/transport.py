"""TelegramTransport: crewline on Telegram through python-telegram-bot's ``Application``.

The thin part: it starts and stops the bot, opens member threads and draws the outbox's
messages. What they look like is decided in :mod:`.render`, the calls themselves are made
(paced, failures translated) by :mod:`.calls`, and updates are turned into the core's
events by :mod:`.updates` — one at a time, in order, by long polling or through the
webhook crewline's server mounts (:mod:`.webhook`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from telegram import BotCommand, Message, Update
from telegram.error import BadRequest, InvalidToken, TelegramError
from telegram.ext import Application, ApplicationBuilder, TypeHandler

from crewline.errors import ConfigError, NotFound, PermanentTransportError, ThreadGone
from crewline.models import Bell, Member, OutboundMessage, RosterEntry
from crewline.transports.base import Connection, DeliveryLimits, Fence, HumanEventSink, Transport
from crewline.transports.telegram import failures, render
from crewline.transports.telegram.calls import BotCalls
from crewline.transports.telegram.markup import plain_text
from crewline.transports.telegram.pacing import ChatPacer
from crewline.transports.telegram.parse import Scope
from crewline.transports.telegram.polling import HandledFirst
from crewline.transports.telegram.refs import (
    ReplyThread,
    Thread,
    TopicThread,
    parse_message_ref,
    parse_thread,
    to_message_ref,
)
from crewline.transports.telegram.settings import ResolvedMode, TelegramSettings, resolve_mode
from crewline.transports.telegram.updates import UpdateHandler, UpdateObserver
from crewline.transports.telegram.webhook import MOUNT_PATH, webhook_app

__all__ = ["COMMANDS", "TelegramTransport"]

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ("message", "edited_message", "callback_query")
COMMANDS = (
    ("concierge", "The concierge: answer never|routine|always, undo, act on|off"),
    ("roster", "Every member, whether it needs you, and its open requests"),
    ("help", "What crewline understands"),
)
_REMEMBERED = 2048  # posted keys kept to spot a repeated post
MAX_MARKS = 20  # rewound messages redrawn per rewind, the latest (each edit is paced)
DRAIN_TIMEOUT = 5.0  # seconds the updates in hand get to be answered when the bot stops


class TelegramTransport(Transport):
    """One Telegram bot. Identities on it are ``telegram:<user id>``."""

    marks_need_drawing = True  # a bot cannot read a chat's messages back

    def __init__(
        self,
        settings: TelegramSettings,
        *,
        name: str = "telegram",
        on_update: UpdateObserver | None = None,
    ) -> None:
        """``on_update(update_id, receipt)`` is called after each update was handled (the
        receipt is None when the update was none of crewline's business)."""
        self.name = name
        self.settings = settings
        self.limits = DeliveryLimits(
            per_thread_interval=settings.per_chat_interval,
            global_per_second=settings.global_per_second,
        )
        # What a test or an operator may read: threads opened and bells shown by this process.
        self.opened_threads: dict[str, str] = {}  # member slug -> thread ref
        self.bell_messages: dict[str, str] = {}  # bell group key -> message ref
        self.mode: ResolvedMode | None = None
        self._calls = BotCalls(ChatPacer(settings.per_chat_interval))
        self._updates = UpdateHandler(self._calls, on_update=on_update)
        self._app: Application[Any, Any, Any, Any, Any, Any] | None = None
        self._names: dict[str, str] = {}  # thread ref -> its member's name
        self._gone: set[str] = set()  # thread refs Telegram no longer has
        self._fresh: set[str] = set()  # topics created here that never took a message yet
        self._no_topics: set[int] = set()  # chats where topics cannot be used
        self._chain_tail: dict[str, int] = {}  # reply-chain thread -> its last bot message
        self._status: dict[int, int] = {}  # chat -> the pinned status message
        self._status_looked_up: set[int] = set()
        self._open_locks: dict[str, asyncio.Lock] = {}  # member slug -> one open at a time
        self._posted: OrderedDict[str, str] = OrderedDict()  # key -> message ref
        self._in_order = asyncio.Lock()
        self._fence: Fence | None = None

    # life cycle -----------------------------------------------------------------------------
    async def start(self, sink: HumanEventSink) -> None:
        settings = self.settings
        builder = ApplicationBuilder().token(settings.bot_token).base_url(settings.api_url)
        if settings.webhook:
            builder = builder.updater(None)
        else:  # an update is confirmed to Telegram only once handled
            builder = builder.get_updates_request(
                HandledFirst(
                    self._updates.handled, fetched=self._updates.fetched, fence=self._fence
                )
            )
        app = builder.build()
        app.add_handler(TypeHandler(Update, self._updates.handle))
        app.add_error_handler(self._updates.failed)
        try:
            await self._connect(app, sink)
        except BaseException:
            self._detach()
            await _close(app)
            raise

    async def _connect(
        self, app: Application[Any, Any, Any, Any, Any, Any], sink: HumanEventSink
    ) -> None:
        settings = self.settings
        try:
            await app.initialize()  # getMe: checks the token
        except InvalidToken:
            raise ConfigError(
                "Telegram refused the bot token (revoked, or another bot's?)",
                key="telegram.bot_token",
            ) from None
        except TelegramError as error:
            raise failures.translate(error, call="getMe") from error
        me = app.bot.bot
        scope = Scope(
            transport=self.name,
            bot_id=me.id,
            bot_username=me.username or "",
            forum_chat_id=settings.forum_chat_id,
        )
        self.mode = resolve_mode(
            settings.threads,
            has_topics=bool(me.has_topics_enabled),
            forum_chat_id=settings.forum_chat_id,
        )
        self._app, self._calls.client = app, app.bot
        self._updates.sink, self._updates.scope = sink, scope
        try:
            await app.bot.set_my_commands([BotCommand(c, d) for c, d in COMMANDS])
        except TelegramError as error:
            log.warning("telegram: setting the bot's commands failed: %s", error)
        await app.start()
        if settings.webhook:
            assert settings.webhook_url is not None
            await app.bot.set_webhook(
                settings.webhook_url,
                secret_token=settings.webhook_secret,
                allowed_updates=list(ALLOWED_UPDATES),
                max_connections=1,
            )
        else:
            assert app.updater is not None
            await app.updater.start_polling(
                timeout=timedelta(seconds=self._poll_timeout()),
                allowed_updates=list(ALLOWED_UPDATES),
            )
        log.info(
            "telegram: @%s started (%s, threads: %s)",
            me.username,
            "webhook" if settings.webhook else "polling",
            self.mode,
        )

    def share_pacing(self, pace: Callable[[str, float], Awaitable[float]]) -> None:
        self._calls.pacer.shared = pace  # a chat's flood limit is the bot's, not a replica's

    def fence(self, fence: Fence) -> None:
        self._fence = self._calls.fence = fence

    def _poll_timeout(self) -> float:
        """The long poll's timeout: under a lease at most a third of it, so a poll fits in
        what is left of the lease between two renewals (polling.py)."""
        if self._fence is None:
            return self.settings.poll_timeout
        return min(self.settings.poll_timeout, self._fence.ttl / 3)

    @property
    def exclusive(self) -> bool:
        return not self.settings.webhook  # Telegram allows one getUpdates consumer per bot

    def connection(self) -> Connection:
        app = self._app
        if app is None:
            return Connection(connected=False, reason="not started")
        if app.updater is not None and not app.updater.running:
            return Connection(connected=False, reason="polling for updates has stopped")
        return Connection(connected=True)

    async def stop(self) -> None:
        app = self._app
        if app is not None and app.updater is not None and app.updater.running:
            await app.updater.stop()  # no new updates; the ones in hand are answered
        await self._updates.drain(timeout=DRAIN_TIMEOUT)
        self._detach()
        if app is not None:
            await _close(app)

    def _detach(self) -> None:
        """Events arriving from now on are dropped; calls fail as not started."""
        self._app, self._calls.client = None, None
        self._updates.sink = self._updates.scope = None

    def http_mount(self) -> tuple[str, Any] | None:
        if not self.settings.webhook:
            return None
        assert self.settings.webhook_secret is not None
        return MOUNT_PATH, webhook_app(
            secret=self.settings.webhook_secret,
            handle=self._pushed,
            refuse=self._refused,
            now=self.now,
        )

    def forget_member(self, slug: str) -> None:
        self.opened_threads.pop(slug, None)

    # threads --------------------------------------------------------------------------------
    async def open_thread(self, member: Member) -> str:
        """The member's thread: a topic, or a reply chain where topics do not work (``_open``).

        One member's thread is opened by one call at a time: a bell rung before the member's
        first card opens it too (``ring``), and the thread's lane then finds it here. What is
        opened is recorded at once, the first recorded kept: Telegram cannot list a chat's
        topics, so another replica (whose bell, or whose lane after a takeover, opened the
        member's thread too) is known only by the record, and a topic opened twice is
        closed again rather than left empty beside the member's.
        """
        async with self._open_locks.setdefault(member.slug, asyncio.Lock()):
            known = self.opened_threads.get(member.slug)
            if known is not None and known not in self._gone:
                return known
            owner_chat = await self._owner_chat(member.slug)
            opened = str(await self._open(member, owner_chat))
            ref = await self._settle(member.slug, opened, replacing=known)
            if ref != opened:
                await self._discard(opened)
            self.opened_threads[member.slug] = ref
            self._names[ref] = member.name
            return ref

    async def _settle(self, slug: str, opened: str, *, replacing: str | None) -> str:
        """The member's thread once ``opened`` was: the one recorded first (by any process);
        a recorded thread Telegram no longer has is replaced."""
        if self.context is None:
            return opened
        ref = await self.context.settle_thread(self.name, slug, opened, replacing=replacing)
        if ref != opened and ref in self._gone:
            ref = await self.context.settle_thread(self.name, slug, opened, replacing=ref)
        return ref

    async def _discard(self, opened: str) -> None:
        """Delete a topic opened for a member that already had one (best effort)."""
        self._fresh.discard(opened)
        thread = parse_thread(opened)
        if not isinstance(thread, TopicThread):
            return  # a reply chain is no object of its own: nothing was made
        try:
            await self._calls.bot.delete_forum_topic(thread.chat_id, thread.topic_id)
        except TelegramError as error:
            log.warning("telegram: a second topic %s is left: %s", opened, error)

    async def _open(self, member: Member, owner_chat: int | None) -> Thread:
        """A topic where topics work (the owner's chat, else the forum), else a reply chain."""
        candidates: list[int] = []
        if self.mode == "private-topics" and owner_chat is not None:
            candidates.append(owner_chat)
        if self.mode in ("private-topics", "forum") and self.settings.forum_chat_id is not None:
            candidates.append(self.settings.forum_chat_id)
        for chat_id in candidates:
            if chat_id in self._no_topics:
                continue
            topic = await self._create_topic(chat_id, member.name)
            if topic is not None:
                return topic
        if owner_chat is None:
            raise PermanentTransportError(
                f"no Telegram user owns {member.slug!r}: bind its owner as telegram:<user id>",
                code="no_owner",
            )
        return ReplyThread(chat_id=owner_chat, slug=member.slug)

    async def _create_topic(self, chat_id: int, name: str) -> TopicThread | None:
        try:
            topic = await self._calls.bot.create_forum_topic(chat_id, name[:128] or "member")
        except BadRequest as error:
            log.warning(
                "telegram: cannot create topics in chat %s (%s); using the next "
                "place for member threads",
                chat_id,
                error.message,
            )
            self._no_topics.add(chat_id)
            return None
        except TelegramError as error:
            raise failures.translate(error, call="createForumTopic") from error
        thread = TopicThread(chat_id=chat_id, topic_id=topic.message_thread_id)
        self._fresh.add(str(thread))
        return thread

    async def _owner_chat(self, member: str | None) -> int | None:
        """The private chat with the member's owner (a private chat's id is the user's)."""
        if self.context is None:
            return None
        for user_id in await self.context.owner_ids(self.name, member=member):
            if user_id.lstrip("-").isdigit():
                return int(user_id)
        return None

    # posting --------------------------------------------------------------------------------
    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        # Telegram has no idempotency key and no way to read a chat back: a message posted by
        # this process is remembered by key, so a retry after a lost record is not a repeat.
        if key in self._posted:
            return self._posted[key]
        where = self._thread(thread)
        if message.kind in ("card", "question"):
            self._names[thread] = message.author  # a card always speaks for its thread
        reply_to = self._chain_tail.get(thread)
        try:
            sent = await self._calls.send(
                where.chat_id,
                self._text(thread, where, message),
                topic=where.topic_id if isinstance(where, TopicThread) else None,
                keyboard=render.keyboard(message.buttons),
                reply_to=reply_to,
            )
        except ThreadGone:
            self._gone.add(thread)
            if thread in self._fresh:  # a topic made a moment ago already fails: topics do
                self._no_topics.add(where.chat_id)
            raise
        self._fresh.discard(thread)
        ref = to_message_ref(where.chat_id, sent.message_id)
        if isinstance(where, ReplyThread):
            self._chain_tail[thread] = sent.message_id
        _remember(self._posted, key, ref)
        return ref

    async def update(self, thread: str, message_ref: str, message: OutboundMessage) -> None:
        chat_id, message_id = _message(message_ref)
        where = self._thread(thread)
        await self._calls.edit(
            chat_id,
            message_id,
            self._text(thread, where, message),
            keyboard=render.keyboard(message.buttons),
        )

    async def mark_rewound(
        self,
        thread: str,
        message_refs: Sequence[str],
        *,
        drawn: Mapping[str, OutboundMessage] | None = None,
    ) -> None:
        """crewline's own messages are redrawn labelled, struck through, without buttons.

        Telegram cannot read a message back, so they are drawn from ``drawn``; a person's
        message cannot be edited by a bot (the thread's note says what left). Each edit
        takes its turn in the chat, so only the latest :data:`MAX_MARKS` are redrawn; one
        that cannot be edited any more (deleted by hand) is passed over.
        """
        drawn = drawn or {}
        where = self._thread(thread)
        for ref in [r for r in message_refs if r in drawn][-MAX_MARKS:]:
            chat_id, message_id = _message(ref)
            text = render.rewound_html(
                drawn[ref],
                header=self._header(thread, where),
                member_name=self._names.get(thread),
            )
            try:
                await self._calls.edit(chat_id, message_id, text)
            except PermanentTransportError as error:
                log.info("telegram: rewound message %s not redrawn: %s", ref, error)

    async def ring(self, bell: Bell, *, message_ref: str | None) -> str:
        chat_id = await self._owner_chat(bell.member) or self.settings.forum_chat_id
        if chat_id is None:
            raise PermanentTransportError(
                f"no Telegram chat to ring {bell.member!r}'s bell in", code="no_owner"
            )
        thread = await self.bell_thread(bell.member, known=self.opened_threads.get(bell.member))
        text, links = render.bell_html(bell), await self._links(thread, bell.member)
        if message_ref is not None:
            shown_chat, message_id = _message(message_ref)
            try:
                await self._calls.edit(shown_chat, message_id, text, keyboard=links)
                self.bell_messages[bell.group_key] = message_ref
                return message_ref
            except failures.MessageGone:
                pass  # the human deleted it: ring anew
        sent = await self._calls.send(chat_id, text, keyboard=links)
        ref = to_message_ref(sent.chat.id, sent.message_id)
        self.bell_messages[bell.group_key] = ref
        return ref

    async def show_roster(self, roster: Sequence[RosterEntry]) -> None:
        chats = []
        if self.context is not None:
            chats = [
                int(u) for u in await self.context.owner_ids(self.name) if u.lstrip("-").isdigit()
            ]
        for chat_id in dict.fromkeys(chats):
            await self._show_status(chat_id, render.roster_html(roster))

    async def _show_status(self, chat_id: int, text: str) -> None:
        """Edit the pinned status message in place; post and pin it when there is none."""
        message_id = self._status.get(chat_id) or await self._find_status(chat_id)
        if message_id is not None:
            try:
                await self._calls.edit(chat_id, message_id, text)
                self._status[chat_id] = message_id
                return
            except failures.MessageGone:
                pass
        sent = await self._calls.send(chat_id, text, silent=True)
        self._status[chat_id] = sent.message_id
        try:
            await self._calls.bot.pin_chat_message(
                chat_id, sent.message_id, disable_notification=True
            )
        except TelegramError as error:
            log.warning("telegram: pinning the status message in %s failed: %s", chat_id, error)

    async def _find_status(self, chat_id: int) -> int | None:
        """After a restart: the status message pinned before, if it is still the pinned one."""
        if chat_id in self._status_looked_up:
            return None
        self._status_looked_up.add(chat_id)
        try:
            pinned = (await self._calls.bot.get_chat(chat_id)).pinned_message
        except TelegramError as error:
            log.info("telegram: reading chat %s failed (%s); posting a new status", chat_id, error)
            return None
        if not isinstance(pinned, Message) or pinned.from_user is None:
            return None
        ours = pinned.from_user.id == self._calls.bot.id
        first_line = plain_text((pinned.text or "").split("\n", 1)[0])
        return pinned.message_id if ours and first_line == render.STATUS_TITLE else None

    # updates --------------------------------------------------------------------------------
    async def _pushed(self, update_json: dict[str, Any]) -> bool:
        """A webhook push with the right secret: handled before it is acknowledged."""
        app = self._app
        if app is None:
            return False
        update = Update.de_json(update_json, app.bot)
        async with self._in_order:  # admitted one at a time, in arrival order, as when polling
            await app.process_update(update)
        # Acknowledged once handled: until then Telegram keeps the update and sends it again.
        await self._updates.finished(update.update_id)
        return True

    async def _refused(self, code: str, client: str | None, unrecorded: int) -> None:
        log.warning(
            "telegram: refused a webhook push from %s (%s; %d more since the last record)",
            client,
            code,
            unrecorded,
        )
        if self.context is not None:
            await self.context.audit_refusal(
                self.name, code, actor=client, unrecorded_since=unrecorded
            )

    # plumbing -------------------------------------------------------------------------------
    def _thread(self, ref: str) -> Thread:
        try:
            return parse_thread(ref)
        except ValueError as error:
            raise PermanentTransportError(str(error), code="bad_thread_ref") from None

    def _text(self, ref: str, where: Thread, message: OutboundMessage) -> str:
        return render.message_html(
            message, header=self._header(ref, where), member_name=self._names.get(ref)
        )

    def _header(self, ref: str, where: Thread) -> str | None:
        """A reply chain's messages name their member first; a topic needs no header."""
        if not isinstance(where, ReplyThread):
            return None
        return render.chain_header(self._names.get(ref) or where.slug, where.slug)

    async def _links(self, thread: str | None, slug: str) -> render.Keyboard:
        """A button opening the member's topic, where Telegram has links (supergroups)."""
        where = parse_thread(thread) if thread is not None else None
        if not isinstance(where, TopicThread):
            return render.Keyboard()
        url = render.topic_link(where.chat_id, where.topic_id)
        if url is None:
            return render.Keyboard()
        name = self._names.get(str(where)) or await self._member_name(slug)
        return render.Keyboard(links=((f"Open {name}'s topic" if name else "Open the topic", url),))

    async def _member_name(self, slug: str) -> str | None:
        """The member's name as the store has it. A thread is recorded before its name is
        known here: another lane of this process may be between the two, and another
        replica may have opened it."""
        if self.context is None:
            return None
        try:
            return (await self.context.member(slug)).name
        except NotFound:
            return None


async def _close(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """PTB's order: stop fetching updates, then the application, then the bot's HTTP."""
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
    await app.shutdown()
    await app.bot.shutdown()  # after a failed start the app was never up, but its HTTP was


def _message(ref: str) -> tuple[int, int]:
    try:
        return parse_message_ref(ref)
    except ValueError as error:
        raise PermanentTransportError(str(error), code="bad_message_ref") from None


def _remember(seen: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    seen[key] = value
    seen.move_to_end(key)
    while len(seen) > _REMEMBERED:
        seen.popitem(last=False)
