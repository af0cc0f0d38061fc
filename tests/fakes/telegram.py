"""A wire-level loopback fake of the Telegram Bot API for tests.

The real python-telegram-bot (or any HTTP client) talks to it over a real socket::

    async with FakeTelegram() as fake:
        app = ApplicationBuilder().token(fake.token).base_url(fake.base_url).build()

It is written from the Bot API documentation (https://core.telegram.org/bots/api), not from
any SDK's internals: methods live at ``{base_url}{token}/{method}`` (method names are
case-insensitive), parameters arrive as a query string, JSON, urlencoded or multipart body
(in the form encodings every value is a string and objects are JSON strings), and every
answer is ``{"ok": true, "result": ...}`` or ``{"ok": false, "error_code": ...,
"description": ..., "parameters": {...}}`` with the HTTP status equal to ``error_code``.

Modelled because crewline's users trip over them: ``getUpdates`` long polling with offset
confirmation and 409 conflicts, webhooks with the secret header, callback queries that can be
answered once, the 64-byte ``callback_data`` limit, "message is not modified", forum topics
and "message thread not found", flood limits (429 ``retry_after``) and injected faults.

Known simplifications: message text is stored and echoed as sent (Telegram strips the
formatting of ``parse_mode`` text and returns entities instead); webhooks may use plain http on
any port (Telegram wants https on 443/80/88/8443); the "General" forum topic is not modelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import json
import math
import re
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self

import aiohttp
from aiohttp import web

from tests.bounds import WAIT
from tests.fakes.chaos import FaultPlan

JSONDict = dict[str, Any]
Params = dict[str, Any]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DEFAULT_TOKEN = "123456789:AAFakeTokenForCrewlineTests_abcdefghij"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"

# Telegram's documented default when allowed_updates is empty or never set.
_DEFAULT_ALLOWED = _words(
    "message edited_message channel_post edited_channel_post business_connection "
    "business_message edited_business_message deleted_business_messages inline_query "
    "chosen_inline_result callback_query shipping_query pre_checkout_query "
    "purchased_paid_media poll poll_answer my_chat_member chat_join_request chat_boost "
    "removed_chat_boost"
)

# Form and query encodings carry only strings: these names are decoded to their API types.
_JSON_PARAMS = _words(
    "reply_markup reply_parameters allowed_updates commands scope entities link_preview_options"
)
_INT_PARAMS = _words(
    "message_id message_thread_id reply_to_message_id offset limit max_connections "
    "cache_time icon_color user_id"
)
_FLOAT_PARAMS = frozenset({"timeout"})  # integer in the docs; fractions keep tests fast
_BOOL_PARAMS = _words(
    "show_alert disable_notification protect_content drop_pending_updates "
    "allow_sending_without_reply disable_web_page_preview"
)

# The methods that count against Telegram's per-chat and global message flood limits.
_FLOOD_METHODS = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})

_PARSE_MODES = frozenset({"HTML", "MarkdownV2", "Markdown"})
_HTML_TAGS = _words(
    "b strong i em u ins s strike del span tg-spoiler a code pre blockquote tg-emoji tg-time"
)
_MDV2_RESERVED = frozenset("#+-={}.!|>")
_BUTTON_ACTIONS = _words(
    "url callback_data web_app login_url switch_inline_query "
    "switch_inline_query_current_chat switch_inline_query_chosen_chat copy_text "
    "callback_game pay"
)
_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
_SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
_WELL_FORMED_TOKEN = re.compile(r"\d+:[A-Za-z0-9_-]+")

_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
_QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden: bot was blocked by the user",
    404: "Not Found",
    409: "Conflict",
    500: "Internal Server Error",
    502: "Bad Gateway",
}


class _Configured(enum.Enum):
    """Sentinel type: send the webhook secret that the bot registered with setWebhook."""

    SECRET = "configured"


CONFIGURED_SECRET = _Configured.SECRET
SecretArg = str | None | _Configured


class ApiError(Exception):
    """A Bot API error answer: HTTP status ``code`` with ``description`` (and parameters)."""

    def __init__(self, code: int, description: str, parameters: JSONDict | None = None) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.parameters = parameters


@dataclass
class FakeUser:
    """A Telegram user (or the bot itself); its private chat has the same id."""

    id: int
    first_name: str
    username: str | None = None
    is_bot: bool = False
    has_topics_enabled: bool = False

    def to_api(self) -> JSONDict:
        """The ``User`` object as Telegram serialises it in updates and results."""
        data: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.username:
            data["username"] = self.username
        return data


@dataclass
class ForumTopic:
    """A topic of a forum supergroup or of a private chat in threaded mode."""

    message_thread_id: int
    name: str
    icon_color: int
    state: Literal["open", "closed", "deleted"] = "open"


@dataclass
class FakeChat:
    """A chat with its own message id sequence, stored messages and topics."""

    id: int
    type: Literal["private", "group", "supergroup"]
    title: str | None = None
    first_name: str | None = None
    username: str | None = None
    is_forum: bool = False
    topics: dict[int, ForumTopic] = field(default_factory=dict)
    store: dict[int, StoredMessage] = field(default_factory=dict)
    pinned_message_id: int | None = None
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1), repr=False)

    def next_message_id(self) -> int:
        """Message ids increase per chat, shared by the bot's and the humans' messages."""
        return next(self._ids)

    def to_api(self) -> JSONDict:
        """The ``Chat`` object as embedded in messages."""
        data: JSONDict = {"id": self.id, "type": self.type}
        for key in ("title", "first_name", "username"):
            value = getattr(self, key)
            if value:
                data[key] = value
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass
class MessageEdit:
    """One edit of a message: the content it had after the edit."""

    text: str | None
    reply_markup: JSONDict | None
    edit_date: int


@dataclass
class StoredMessage:
    """A message in a chat as the fake keeps it, with its edit history."""

    message_id: int
    chat_id: int
    sender: FakeUser
    text: str | None
    date: int
    message_thread_id: int | None = None
    reply_to_message_id: int | None = None
    reply_markup: JSONDict | None = None
    parse_mode: str | None = None
    entities: list[JSONDict] | None = None
    edits: list[MessageEdit] = field(default_factory=list)
    pinned: bool = False
    deleted: bool = False
    service: JSONDict | None = None  # e.g. {"forum_topic_created": {...}}

    @property
    def from_bot(self) -> bool:
        """Whether the bot sent this message."""
        return self.sender.is_bot

    @property
    def buttons(self) -> list[JSONDict]:
        """The inline keyboard buttons, row by row flattened (empty without a keyboard)."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [button for row in rows for button in row]

    @property
    def callback_data(self) -> list[str]:
        """The ``callback_data`` of every inline button, in order."""
        return [b["callback_data"] for b in self.buttons if "callback_data" in b]


@dataclass
class CallbackQueryState:
    """A callback query the fake sent, and how (or whether) the bot answered it."""

    id: str
    chat_id: int
    message_id: int
    data: str
    from_user: FakeUser
    created_at: float
    answered: bool = False
    expired: bool = False
    answer_text: str | None = None
    show_alert: bool = False
    answer_url: str | None = None


@dataclass
class Call:
    """One HTTP request to the fake Bot API, its decoded parameters and the answer."""

    method: str
    params: Params
    http_method: str
    content_type: str
    at: float
    status: int | None = None  # None while a long poll is still open
    response: JSONDict | None = None


@dataclass
class UpdateSent:
    """An update the human side produced, and what happened to it.

    ``status`` is the webhook's HTTP status (0 if the connection failed) in webhook mode and
    ``None`` in polling mode; ``dropped`` is true when ``allowed_updates`` excluded its type.
    """

    update: JSONDict
    status: int | None = None
    dropped: bool = False
    error: str | None = None

    @property
    def update_id(self) -> int:
        """The update's id, as the bot sees it."""
        return int(self.update["update_id"])

    @property
    def message_id(self) -> int:
        """The id of the (edited) message this update carries."""
        body = self.update.get("message") or self.update.get("edited_message")
        if body is None:
            body = self.update["callback_query"]["message"]
        return int(body["message_id"])

    @property
    def query_id(self) -> str:
        """The callback query id of a ``callback_query`` update."""
        return str(self.update["callback_query"]["id"])


@dataclass
class _Fault:
    error_code: int
    description: str
    retry_after: int | None
    remaining: int


ChatRef = int | FakeChat | FakeUser
UserRef = int | FakeUser


def _utf16_len(text: str) -> int:
    # Telegram measures text lengths and entity offsets in UTF-16 code units.
    return len(text.encode("utf-16-le")) // 2


def _markdown_v2_error(text: str) -> str | None:
    """Finds the first unescaped reserved MarkdownV2 character outside code and link URLs.

    Only the always-reserved characters are checked, not the balance of ``*_~`` markers: this
    catches the common "Character '.' is reserved" mistake without a full parser.
    """
    i, n, in_code, in_pre = 0, len(text), False, False
    while i < n:
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if text.startswith("```", i) and not in_code:
            in_pre, i = not in_pre, i + 3
            continue
        if char == "`" and not in_pre:
            in_code, i = not in_code, i + 1
            continue
        if in_code or in_pre:
            i += 1
            continue
        if text.startswith("](", i):
            end = i + 2
            while end < n and text[end] != ")":
                end += 2 if text[end] == "\\" else 1
            i = end + 1
            continue
        if char == "|" and text.startswith("||", i):
            i += 2
            continue
        if char == ">" and (i == 0 or text[i - 1] == "\n"):
            i += 1
            continue
        if char in _MDV2_RESERVED:
            return (
                f"Bad Request: can't parse entities: Character '{char}' is reserved and must "
                "be escaped with the preceding '\\'"
            )
        i += 1
    return None


def _html_error(text: str) -> str | None:
    """Finds the first ``<`` that does not open or close a tag Telegram supports."""
    for match in re.finditer("<", text):
        tag = re.match(r"</?([A-Za-z][\w-]*)", text[match.start() :])
        if tag is None or tag.group(1).lower() not in _HTML_TAGS:
            name = tag.group(1) if tag else ""
            offset = len(text[: match.start()].encode())
            return (
                f'Bad Request: can\'t parse entities: Unsupported start tag "{name}" '
                f"at byte offset {offset}"
            )
    return None


def _coerce(name: str, value: Any) -> Any:
    """Decodes one string-valued parameter to the type the Bot API documents for it."""
    if not isinstance(value, str):
        return value
    if name in _JSON_PARAMS:
        try:
            return json.loads(value)
        except ValueError as exc:
            raise ApiError(400, f"Bad Request: can't parse {name} JSON object") from exc
    if name == "chat_id":
        return int(value) if re.fullmatch(r"-?\d+", value) else value
    if name in _INT_PARAMS and re.fullmatch(r"-?\d+", value):
        return int(value)
    if name in _FLOAT_PARAMS:
        try:
            return float(value)
        except ValueError:
            return value
    if name in _BOOL_PARAMS:
        return value.lower() in ("true", "1")
    return value


def _free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


class FakeTelegram:
    """A loopback Telegram Bot API server with a scriptable human side.

    Use as ``async with FakeTelegram(...) as fake``; point the bot at ``fake.base_url`` with
    ``fake.token``. The owner and every added user get a private chat (id = user id); a forum
    supergroup exists when ``forum=True`` (``fake.forum``).
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "crewline_test_bot",
        has_topics_enabled: bool = False,
        owner_id: int = 1001,
        owner_name: str = "Owner",
        forum: bool = False,
        per_chat_interval: float | None = None,
        global_per_second: int | None = None,
        callback_query_ttl: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Configures the bot, owner, optional forum supergroup, flood limits and clock.

        ``per_chat_interval`` is the minimum gap in seconds between flood-counted sends to one
        chat, ``global_per_second`` the cap across all chats; ``callback_query_ttl`` makes
        answers later than that fail like Telegram's; ``clock`` drives all of these.
        """
        self.token = token
        self.bot = FakeUser(
            id=int(token.split(":", 1)[0]),
            first_name="Crewline Test Bot",
            username=bot_username,
            is_bot=True,
            has_topics_enabled=has_topics_enabled,
        )
        self.per_chat_interval = per_chat_interval
        self.global_per_second = global_per_second
        self.callback_query_ttl = callback_query_ttl
        self.clock = clock

        self.calls: list[Call] = []
        self.updates: list[JSONDict] = []  # every update ever produced, in order
        self.rate_limited_count = 0
        self.webhook_url: str | None = None
        self.webhook_secret: str | None = None
        self.webhook_last_error: str | None = None

        self._users: dict[int, FakeUser] = {}
        self._chats: dict[int, FakeChat] = {}
        self._queries: dict[str, CallbackQueryState] = {}
        self._commands: dict[tuple[str, str], list[JSONDict]] = {}
        self._faults: dict[str, list[_Fault]] = {}
        self._holds: dict[str, list[asyncio.Event]] = {}
        self._refusals: list[tuple[str, Callable[[Params], bool], int, str]] = []
        self.faults: FaultPlan | None = None  # seeded random faults (tests/fakes/chaos.py)
        self._pending: dict[int, JSONDict] = {}
        self._confirmed: set[int] = set()
        self._allowed_updates: frozenset[str] = _DEFAULT_ALLOWED
        self._update_ids = itertools.count(100_000_001)
        self._query_ids = itertools.count(4_000_000_000_000_001)
        self._group_ids = itertools.count(1_000_000_001)
        self._last_send: dict[int | str, float] = {}
        self._recent_sends: deque[float] = deque()
        self._active_poll: object | None = None
        self._wake = asyncio.Event()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._port: int | None = None

        self.owner = self.add_user(owner_name, user_id=owner_id, username="owner")
        self.forum: FakeChat | None = self.add_group("Crew", is_forum=True) if forum else None

        handlers: dict[str, Callable[[Params], Awaitable[Any]]] = {
            "getMe": self._get_me,
            "getUpdates": self._get_updates,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "sendMessage": self._send_message,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "answerCallbackQuery": self._answer_callback_query,
            "createForumTopic": self._create_forum_topic,
            "deleteForumTopic": self._delete_forum_topic,
            "pinChatMessage": self._pin_chat_message,
            "getChat": self._get_chat,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "deleteMessage": self._delete_message,
        }
        # Bot API method names are case-insensitive.
        self._handlers = {name.lower(): (name, fn) for name, fn in handlers.items()}

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Self:
        """Starts the HTTP server on 127.0.0.1 at a free port."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = _free_socket()
        self._port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Releases open long polls, then stops the server and the webhook client."""
        self._closing = True
        self._notify()
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        """The API root in PTB's form: the bot appends its token and then ``/method``."""
        if self._port is None:
            raise RuntimeError("FakeTelegram is not started; use 'async with'")
        return f"http://127.0.0.1:{self._port}/bot"

    @property
    def api_url(self) -> str:
        """The full method root for this bot's token, e.g. for raw HTTP clients."""
        return f"{self.base_url}{self.token}/"

    # ------------------------------------------------------------------ world setup

    def add_user(
        self, first_name: str, *, user_id: int | None = None, username: str | None = None
    ) -> FakeUser:
        """Adds a human user and their private chat with the bot."""
        uid = user_id if user_id is not None else 2000 + len(self._users)
        user = FakeUser(id=uid, first_name=first_name, username=username)
        self._users[uid] = user
        self._chats[uid] = FakeChat(
            id=uid, type="private", first_name=first_name, username=username
        )
        return user

    def add_group(self, title: str, *, is_forum: bool = True) -> FakeChat:
        """Adds a supergroup (a forum unless ``is_forum=False``) containing the bot."""
        chat_id = -1_000_000_000_000 - next(self._group_ids)
        chat = FakeChat(id=chat_id, type="supergroup", title=title, is_forum=is_forum)
        self._chats[chat_id] = chat
        return chat

    def chat(self, chat: ChatRef) -> FakeChat:
        """The chat for an id, a user (their private chat) or a chat."""
        chat_id = chat.id if isinstance(chat, FakeChat | FakeUser) else chat
        return self._chats[chat_id]

    def add_topic(self, chat: ChatRef, name: str) -> int:
        """Creates a topic as a human would (no API call); returns its message_thread_id."""
        return int(self._open_topic(self.chat(chat), name, 7322096)["message_thread_id"])

    def close_topic(self, chat: ChatRef, message_thread_id: int) -> None:
        """Makes a topic unusable, so later sends to it fail with "message thread not found".

        Stands for a topic the human closed or deleted, and for Telegram's Bot API 10.0
        rollout in which sending to private-chat topics failed this way.
        """
        self.chat(chat).topics[message_thread_id].state = "closed"

    # ------------------------------------------------------------------ inspection

    def calls_to(self, method: str) -> list[Call]:
        """Every recorded call of one method (case-insensitive, as in the Bot API)."""
        wanted = method.lower()
        return [c for c in self.calls if c.method.lower() == wanted]

    def messages(
        self, chat: ChatRef, *, from_bot: bool | None = True, message_thread_id: int | None = None
    ) -> list[StoredMessage]:
        """Non-deleted messages of a chat in id order: the bot's by default, all with None."""
        result = []
        for msg in sorted(self.chat(chat).store.values(), key=lambda m: m.message_id):
            if msg.deleted or msg.service is not None:
                continue
            if from_bot is not None and msg.from_bot != from_bot:
                continue
            if message_thread_id is not None and msg.message_thread_id != message_thread_id:
                continue
            result.append(msg)
        return result

    def message(self, chat: ChatRef, message_id: int) -> StoredMessage:
        """One stored message (deleted ones included, flagged); KeyError if it never existed."""
        return self.chat(chat).store[message_id]

    def callback_query(self, query_id: str) -> CallbackQueryState:
        """A callback query sent by ``press_button`` and the bot's answer to it."""
        return self._queries[query_id]

    def expire_callback_query(self, query_id: str) -> None:
        """Makes a later answer fail as if the bot answered too late."""
        self._queries[query_id].expired = True

    def commands(self, scope: JSONDict | None = None, language_code: str = "") -> list[JSONDict]:
        """The bot's command list for a scope and language, as set by setMyCommands."""
        return list(self._commands.get(self._command_key(scope, language_code), []))

    def is_confirmed(self, update_id: int) -> bool:
        """Whether the bot confirmed the update (getUpdates offset or a 2xx webhook answer)."""
        return update_id in self._confirmed

    @property
    def long_poll_open(self) -> bool:
        """Whether a getUpdates long poll is held open (its client may have gone already)."""
        return self._active_poll is not None

    @property
    def pending_updates(self) -> list[JSONDict]:
        """Updates produced but not yet confirmed by the bot, in order."""
        return list(self._pending.values())

    # ------------------------------------------------------------------ failures

    def fail_next(
        self,
        method: str,
        error_code: int = 500,
        description: str | None = None,
        *,
        times: int = 1,
        retry_after: int | None = None,
    ) -> None:
        """Answers the next ``times`` calls of ``method`` with an error instead of handling them.

        ``retry_after`` adds ``parameters.retry_after`` (as Telegram does for 429).
        """
        canonical = self._handlers.get(method.lower(), (method, None))[0]
        if description is None:
            if error_code == 429:
                description = f"Too Many Requests: retry after {retry_after or 1}"
                retry_after = retry_after or 1
            else:
                description = _DEFAULT_DESCRIPTIONS.get(error_code, "Internal Server Error")
        fault = _Fault(error_code, description, retry_after, times)
        self._faults.setdefault(canonical, []).append(fault)

    def refuse(
        self,
        method: str,
        *,
        where: Callable[[Params], bool] = lambda _params: True,
        error_code: int = 500,
        description: str | None = None,
    ) -> Callable[[], None]:
        """Answers every call of ``method`` whose parameters satisfy ``where`` with an error,
        not carrying it out, until the returned function is called: one kind of call failing
        for a while (the calls are recorded, as refused)."""
        canonical = self._handlers.get(method.lower(), (method, None))[0]
        text = description or _DEFAULT_DESCRIPTIONS.get(error_code, "Internal Server Error")
        refusal = (canonical, where, error_code, text)
        self._refusals.append(refusal)
        return lambda: self._refusals.remove(refusal)

    def hold_next(self, method: str) -> asyncio.Event:
        """Holds the next call of ``method`` (received and recorded, not yet carried out)
        until the returned event is set."""
        canonical = self._handlers.get(method.lower(), (method, None))[0]
        release = asyncio.Event()
        self._holds.setdefault(canonical, []).append(release)
        return release

    # ------------------------------------------------------------------ waiting

    async def wait_for(
        self,
        predicate: Callable[[], bool],
        *,
        timeout: float = WAIT,
    ) -> None:
        """Waits until ``predicate()`` holds; re-checked whenever the fake's state changes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = ", ".join(f"{c.method}→{c.status}" for c in self.calls[-8:])
                raise TimeoutError(f"condition not met within {timeout}s; last calls: {recent}")
            # Also re-check now and then: predicates may read state outside the fake.
            await self._sleep_until_woken(min(remaining, 0.05))

    async def wait_for_call(
        self,
        method: str,
        *,
        predicate: Callable[[Call], bool] | None = None,
        count: int = 1,
        timeout: float = WAIT,
    ) -> Call:
        """Waits for the ``count``-th answered call of ``method`` matching ``predicate``."""

        def matching() -> list[Call]:
            return [
                c
                for c in self.calls_to(method)
                if c.status is not None and (predicate is None or predicate(c))
            ]

        await self.wait_for(lambda: len(matching()) >= count, timeout=timeout)
        return matching()[count - 1]

    async def wait_for_message(
        self,
        chat: ChatRef,
        *,
        predicate: Callable[[StoredMessage], bool] | None = None,
        timeout: float = WAIT,
    ) -> StoredMessage:
        """Waits for a (non-deleted) bot message in the chat matching ``predicate``."""

        def found() -> StoredMessage | None:
            for msg in self.messages(chat):
                if predicate is None or predicate(msg):
                    return msg
            return None

        await self.wait_for(lambda: found() is not None, timeout=timeout)
        result = found()
        assert result is not None
        return result

    async def wait_for_confirmed(
        self,
        update_id: int,
        *,
        timeout: float = WAIT,
    ) -> None:
        """Waits until the bot confirmed the update."""
        await self.wait_for(lambda: self.is_confirmed(update_id), timeout=timeout)

    # ------------------------------------------------------------------ human side

    async def send_text(
        self,
        chat: ChatRef,
        text: str,
        *,
        from_user: UserRef | None = None,
        message_thread_id: int | None = None,
        reply_to_message_id: int | None = None,
        entities: list[JSONDict] | None = None,
        secret: SecretArg = CONFIGURED_SECRET,
    ) -> UpdateSent:
        """A human writes ``text`` in the chat (a ``message`` update)."""
        target = self.chat(chat)
        sender = self._sender(target, from_user)
        if message_thread_id is not None and message_thread_id not in target.topics:
            raise ValueError(f"chat {target.id} has no topic {message_thread_id}")
        if reply_to_message_id is not None and reply_to_message_id not in target.store:
            raise ValueError(f"chat {target.id} has no message {reply_to_message_id}")
        if reply_to_message_id is None and message_thread_id is not None and target.is_forum:
            # In forum topics Telegram makes plain messages replies to the topic's creation.
            reply_to_message_id = message_thread_id
        msg = StoredMessage(
            message_id=target.next_message_id(),
            chat_id=target.id,
            sender=sender,
            text=text,
            date=int(time.time()),
            message_thread_id=message_thread_id,
            reply_to_message_id=reply_to_message_id,
            entities=entities,
        )
        target.store[msg.message_id] = msg
        return await self._emit("message", self._message_api(msg), secret)

    async def send_command(
        self,
        chat: ChatRef,
        command: str,
        *,
        from_user: UserRef | None = None,
        message_thread_id: int | None = None,
        reply_to_message_id: int | None = None,
        secret: SecretArg = CONFIGURED_SECRET,
    ) -> UpdateSent:
        """A human sends a command such as ``"/roster"`` or ``"/concierge undo"``."""
        if not command.startswith("/"):
            raise ValueError("a command starts with '/'")
        word = command.split(maxsplit=1)[0]
        entity = {"type": "bot_command", "offset": 0, "length": _utf16_len(word)}
        return await self.send_text(
            chat,
            command,
            from_user=from_user,
            message_thread_id=message_thread_id,
            reply_to_message_id=reply_to_message_id,
            entities=[entity],
            secret=secret,
        )

    async def edit_text(
        self,
        chat: ChatRef,
        message_id: int,
        new_text: str,
        *,
        secret: SecretArg = CONFIGURED_SECRET,
    ) -> UpdateSent:
        """A human edits their own message (an ``edited_message`` update)."""
        msg = self.message(chat, message_id)
        if msg.from_bot or msg.deleted:
            raise ValueError(f"message {message_id} is not a human's live message")
        msg.text = new_text
        if msg.entities and msg.entities[0].get("type") == "bot_command":
            word = new_text.split(maxsplit=1)[0] if new_text.startswith("/") else ""
            msg.entities = [{**msg.entities[0], "length": _utf16_len(word)}] if word else None
        edit_date = int(time.time())
        msg.edits.append(MessageEdit(new_text, msg.reply_markup, edit_date))
        return await self._emit("edited_message", self._message_api(msg), secret)

    async def press_button(
        self,
        chat: ChatRef,
        message_id: int,
        callback_data: str,
        *,
        from_user: UserRef | None = None,
        strict: bool = True,
        secret: SecretArg = CONFIGURED_SECRET,
    ) -> UpdateSent:
        """A human presses an inline button of a bot message (a ``callback_query`` update).

        With ``strict`` the message must currently show a button with that data, as in a
        real client; ``strict=False`` forges any data (e.g. a stale client).
        """
        target = self.chat(chat)
        msg = self.message(target, message_id)
        if strict and (not msg.from_bot or callback_data not in msg.callback_data):
            raise ValueError(
                f"message {message_id} shows no button with callback_data {callback_data!r}; "
                f"it has {msg.callback_data}"
            )
        sender = self._sender(target, from_user)
        query = CallbackQueryState(
            id=str(next(self._query_ids)),
            chat_id=target.id,
            message_id=message_id,
            data=callback_data,
            from_user=sender,
            created_at=self.clock(),
        )
        self._queries[query.id] = query
        payload = {
            "id": query.id,
            "from": sender.to_api(),
            "message": self._message_api(msg),
            "chat_instance": str(abs(target.id) * 7919 % 10**18),
            "data": callback_data,
        }
        return await self._emit("callback_query", payload, secret)

    async def redeliver(
        self, update_id: int, *, secret: SecretArg = CONFIGURED_SECRET
    ) -> UpdateSent:
        """Delivers an already produced update again with the same update_id.

        In webhook mode it is POSTed again; in polling mode it is queued again even if it was
        confirmed, as when Telegram repeats an update after a bot crash.
        """
        update = next(u for u in self.updates if u["update_id"] == update_id)
        if self.webhook_url is not None:
            return await self._push(update, secret)
        self._confirmed.discard(update_id)
        self._pending[update_id] = update
        self._pending = dict(sorted(self._pending.items()))
        self._notify()
        return UpdateSent(update)

    # ------------------------------------------------------------------ update plumbing

    def _sender(self, chat: FakeChat, from_user: UserRef | None) -> FakeUser:
        if from_user is None:
            return self._users[chat.id] if chat.type == "private" else self.owner
        return from_user if isinstance(from_user, FakeUser) else self._users[from_user]

    async def _emit(self, kind: str, payload: JSONDict, secret: SecretArg) -> UpdateSent:
        update_id = next(self._update_ids)
        update: JSONDict = {"update_id": update_id, kind: payload}
        self.updates.append(update)
        if kind not in self._allowed_updates:
            return UpdateSent(update, dropped=True)
        if self.webhook_url is not None:
            return await self._push(update, secret)
        self._pending[update_id] = update
        self._notify()
        return UpdateSent(update)

    async def _push(self, update: JSONDict, secret: SecretArg) -> UpdateSent:
        """POSTs one update to the webhook; an answer outside 2xx leaves it pending."""
        assert self.webhook_url is not None
        assert self._session is not None, "FakeTelegram is not started"
        header = self.webhook_secret if secret is CONFIGURED_SECRET else secret
        headers = {"Content-Type": "application/json"}
        if isinstance(header, str):
            headers[SECRET_HEADER] = header
        uid = update["update_id"]
        try:
            async with self._session.post(
                self.webhook_url,
                data=json.dumps(update),
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=10),
            ) as resp:
                await resp.read()
                status = resp.status
            error = None if 200 <= status < 300 else f"Wrong response from the webhook: {status}"
        except (aiohttp.ClientError, TimeoutError) as exc:
            status, error = 0, f"Connection failed: {exc!r}"
        if error is None:
            self._pending.pop(uid, None)
            self._confirmed.add(uid)
        else:
            self._pending[uid] = update
            self._confirmed.discard(uid)
            self.webhook_last_error = error
        self._notify()
        return UpdateSent(update, status=status, error=error)

    async def _sleep_until_woken(self, seconds: float) -> None:
        """Sleeps until the next state change or for ``seconds``, whichever comes first.

        Not ``asyncio.wait_for``: on Python 3.11 it swallows a cancel that lands in the turn
        the change wakes it, and the waiter then ran on to its full timeout (a killed
        life's lane of the kill test went on for its 60-s wait)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._wake.wait()

    def _notify(self) -> None:
        """Wakes every waiter (long polls and await helpers) to re-check the state."""
        self._wake.set()
        self._wake = asyncio.Event()

    def _message_api(self, msg: StoredMessage, *, nested: bool = False) -> JSONDict:
        chat = self._chats[msg.chat_id]
        data: JSONDict = {
            "message_id": msg.message_id,
            "from": msg.sender.to_api(),
            "chat": chat.to_api(),
            "date": msg.date,
        }
        if msg.message_thread_id is not None:
            data["message_thread_id"] = msg.message_thread_id
            data["is_topic_message"] = True
        if msg.text is not None:
            data["text"] = msg.text
        if msg.entities:
            data["entities"] = msg.entities
        if msg.service:
            data.update(msg.service)
        if msg.edits:
            data["edit_date"] = msg.edits[-1].edit_date
        if msg.reply_markup and "inline_keyboard" in msg.reply_markup:
            data["reply_markup"] = msg.reply_markup
        if not nested and msg.reply_to_message_id is not None:
            replied = chat.store.get(msg.reply_to_message_id)
            if replied is not None:
                data["reply_to_message"] = self._message_api(replied, nested=True)
        return data

    # ------------------------------------------------------------------ HTTP layer

    async def _not_found(self, request: web.Request) -> web.Response:
        return web.json_response(self._error_body(ApiError(404, "Not Found")), status=404)

    @staticmethod
    def _error_body(err: ApiError) -> JSONDict:
        body: JSONDict = {"ok": False, "error_code": err.code, "description": err.description}
        if err.parameters:
            body["parameters"] = err.parameters
        return body

    async def _read_params(self, request: web.Request) -> Params:
        raw: dict[str, Any] = dict(request.query)
        if request.method == "POST" and request.can_read_body:
            ctype = request.content_type
            if ctype == "application/json":
                try:
                    body = await request.json()
                except ValueError as exc:
                    raise ApiError(400, "Bad Request: can't parse JSON object") from exc
                if not isinstance(body, dict):
                    raise ApiError(400, "Bad Request: can't parse JSON object")
                raw.update(body)
            elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
                form = await request.post()
                for key, value in form.items():
                    if isinstance(value, web.FileField):
                        raw[key] = {
                            "filename": value.filename,
                            "content_type": value.content_type,
                            "data": value.file.read(),
                        }
                    else:
                        raw[key] = value
        return {key: _coerce(key, value) for key, value in raw.items()}

    async def _handle(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        name, handler = self._handlers.get(
            request.match_info["method"].lower(), (request.match_info["method"], None)
        )
        call = Call(
            method=name,
            params={},
            http_method=request.method,
            content_type=request.content_type,
            at=self.clock(),
        )
        self.calls.append(call)
        try:
            call.params = await self._read_params(request)
            self._notify()
            if token != self.token:
                # Telegram: 401 for a well-formed token it does not know, 404 otherwise.
                if _WELL_FORMED_TOKEN.fullmatch(token):
                    raise ApiError(401, "Unauthorized")
                raise ApiError(404, "Not Found")
            if handler is None:
                raise ApiError(404, "Not Found")
            if self._random_fault(name, request):
                return web.Response(status=500)  # never read: the connection is gone
            self._inject_fault(name)
            self._refuse(name, call.params)
            held = self._holds.get(name)
            if held:
                await held.pop(0).wait()
            self._check_flood(name, call.params)
            result = await handler(call.params)
            self._count_send(name, call.params)
            body: JSONDict = {"ok": True, "result": result}
            if name in ("setWebhook", "deleteWebhook"):
                body["description"] = self._webhook_description
            call.status, call.response = 200, body
        except ApiError as err:
            call.status, call.response = err.code, self._error_body(err)
        except Exception as exc:
            # A bug in the fake must surface in the test, not as a hung or garbled request.
            bug = ApiError(500, f"Internal Server Error: FakeTelegram bug: {exc!r}")
            call.status, call.response = 500, self._error_body(bug)
        self._notify()
        return web.json_response(call.response, status=call.status)

    def _random_fault(self, method: str, request: web.Request) -> bool:
        """Apply the fault plan's draw: True when the connection was reset."""
        fault = self.faults.draw(method) if self.faults is not None else None
        if fault == "reset":
            assert request.transport is not None
            request.transport.close()
            return True
        if fault == "429":
            raise ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})
        if fault == "409" and method == "getUpdates":
            raise ApiError(409, "Conflict: terminated by other getUpdates request")
        if fault in ("500", "502", "409"):
            raise ApiError(500, "Internal Server Error")
        return False

    def _inject_fault(self, method: str) -> None:
        faults = self._faults.get(method)
        if not faults:
            return
        fault = faults[0]
        fault.remaining -= 1
        if fault.remaining <= 0:
            faults.pop(0)
        params = {"retry_after": fault.retry_after} if fault.retry_after is not None else None
        raise ApiError(fault.error_code, fault.description, params)

    def _refuse(self, method: str, params: Params) -> None:
        for name, where, error_code, description in self._refusals:
            if name == method and where(params):
                raise ApiError(error_code, description)

    def _check_flood(self, method: str, params: Params) -> None:
        if method not in _FLOOD_METHODS:
            return
        now = self.clock()
        chat_key = params.get("chat_id", "")
        waits: list[float] = []
        if self.per_chat_interval is not None and chat_key in self._last_send:
            elapsed = now - self._last_send[chat_key]
            if elapsed < self.per_chat_interval:
                waits.append(self.per_chat_interval - elapsed)
        if self.global_per_second is not None:
            while self._recent_sends and now - self._recent_sends[0] >= 1.0:
                self._recent_sends.popleft()
            if len(self._recent_sends) >= self.global_per_second:
                waits.append(1.0 - (now - self._recent_sends[0]))
        if waits:
            self.rate_limited_count += 1
            retry_after = max(1, math.ceil(max(waits)))
            raise ApiError(
                429,
                f"Too Many Requests: retry after {retry_after}",
                {"retry_after": retry_after},
            )

    def _count_send(self, method: str, params: Params) -> None:
        # Only messages actually sent or edited use up the flood allowance.
        if method in _FLOOD_METHODS:
            now = self.clock()
            self._last_send[params.get("chat_id", "")] = now
            self._recent_sends.append(now)

    # ------------------------------------------------------------------ parameter helpers

    @staticmethod
    def _require(params: Params, name: str) -> Any:
        value = params.get(name)
        if value is None or value == "":
            raise ApiError(400, f"Bad Request: {name} is empty")
        return value

    def _target_chat(self, params: Params) -> FakeChat:
        chat_id = self._require(params, "chat_id")
        if isinstance(chat_id, str):
            by_name = [c for c in self._chats.values() if f"@{c.username}" == chat_id]
            if by_name:
                return by_name[0]
        elif chat_id in self._chats:
            return self._chats[chat_id]
        raise ApiError(400, "Bad Request: chat not found")

    @staticmethod
    def _int_param(params: Params, name: str) -> int:
        value = FakeTelegram._require(params, name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ApiError(400, f"Bad Request: invalid {name} specified")
        return value

    @staticmethod
    def _check_text(text: Any, parse_mode: Any) -> str:
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if _utf16_len(text) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        if parse_mode is not None and parse_mode != "":
            if parse_mode not in _PARSE_MODES:
                raise ApiError(400, f"Bad Request: unsupported parse_mode {parse_mode!r}")
            error = None
            if parse_mode == "MarkdownV2":
                error = _markdown_v2_error(text)
            elif parse_mode == "HTML":
                error = _html_error(text)
            if error:
                raise ApiError(400, error)
        return text

    @staticmethod
    def _check_markup(markup: Any, *, inline_only: bool) -> JSONDict | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise ApiError(400, "Bad Request: inline keyboard expected")
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise ApiError(400, "Bad Request: can't parse inline keyboard button")
        for button in (b for row in rows for b in row):
            if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                raise ApiError(400, "Bad Request: can't parse inline keyboard button")
            if not _BUTTON_ACTIONS & button.keys():
                raise ApiError(
                    400,
                    "Bad Request: can't parse inline keyboard button: Text buttons are "
                    "unallowed in the inline keyboard",
                )
            if "callback_data" in button:
                data = button["callback_data"]
                if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
        return markup

    def _check_thread(self, chat: FakeChat, params: Params) -> int | None:
        thread_id = params.get("message_thread_id")
        if thread_id is None:
            return None
        topic = chat.topics.get(thread_id)
        if topic is None or topic.state != "open":
            raise ApiError(400, "Bad Request: message thread not found")
        return int(thread_id)

    def _editable(self, params: Params, *, action: str = "edit") -> StoredMessage:
        if params.get("inline_message_id"):
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        chat = self._target_chat(params)
        message_id = self._int_param(params, "message_id")
        msg = chat.store.get(message_id)
        if msg is None or msg.deleted or msg.service is not None:
            raise ApiError(400, f"Bad Request: message to {action} not found")
        return msg

    # ------------------------------------------------------------------ API methods

    async def _get_me(self, params: Params) -> JSONDict:
        data = self.bot.to_api() | {
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }
        if self.bot.has_topics_enabled:
            data["has_topics_enabled"] = True
        return data

    async def _get_updates(self, params: Params) -> list[JSONDict]:
        if self.webhook_url is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use "
                "deleteWebhook to delete the webhook first",
            )
        offset = params.get("offset")
        if isinstance(offset, int) and offset != 0:
            ids = list(self._pending)
            # A negative offset keeps only the last -offset updates; the rest are forgotten.
            drop = (
                [u for u in ids if u < offset] if offset > 0 else ids[: max(0, len(ids) + offset)]
            )
            for uid in drop:
                del self._pending[uid]
                self._confirmed.add(uid)
            if drop:
                self._notify()
        limit = params.get("limit", 100)
        limit = min(max(limit, 1), 100) if isinstance(limit, int) else 100
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(allowed) or _DEFAULT_ALLOWED
        timeout = params.get("timeout", 0)
        timeout = float(timeout) if isinstance(timeout, int | float) else 0.0

        # Telegram serves one long poll per bot: a newer getUpdates terminates the open one.
        ticket = object()
        self._active_poll = ticket
        self._notify()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(timeout, 0.0)
        try:
            while True:
                if self._active_poll is not ticket:
                    raise ApiError(
                        409,
                        "Conflict: terminated by other getUpdates request; make sure that only "
                        "one bot instance is running",
                    )
                if self.webhook_url is not None:
                    raise ApiError(409, "Conflict: terminated by setWebhook request")
                ready = list(self._pending.values())[:limit]
                remaining = deadline - loop.time()
                if ready or remaining <= 0 or self._closing:
                    return ready
                await self._sleep_until_woken(remaining)
        finally:
            if self._active_poll is ticket:
                self._active_poll = None

    @property
    def _webhook_description(self) -> str:
        return "Webhook was set" if self.webhook_url else "Webhook was deleted"

    async def _set_webhook(self, params: Params) -> bool:
        url = params.get("url", "")
        if not isinstance(url, str):
            raise ApiError(400, "Bad Request: invalid webhook URL specified")
        if url == "":
            return await self._delete_webhook(params)
        if not url.startswith(("http://", "https://")):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided")
        secret = params.get("secret_token")
        if secret is not None and not _SECRET_TOKEN.fullmatch(str(secret)):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        if params.get("drop_pending_updates"):
            self._drop_pending()
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(allowed) or _DEFAULT_ALLOWED
        self.webhook_url = url
        self.webhook_secret = None if secret is None else str(secret)
        self.webhook_last_error = None
        self._notify()
        return True

    async def _delete_webhook(self, params: Params) -> bool:
        if params.get("drop_pending_updates"):
            self._drop_pending()
        self.webhook_url = None
        self.webhook_secret = None
        return True

    def _drop_pending(self) -> None:
        self._confirmed.update(self._pending)
        self._pending.clear()
        self._notify()

    async def _get_webhook_info(self, params: Params) -> JSONDict:
        info: JSONDict = {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }
        if self.webhook_url:
            info["max_connections"] = 40
            info["allowed_updates"] = sorted(self._allowed_updates)
            if self.webhook_last_error:
                info["last_error_date"] = int(time.time())
                info["last_error_message"] = self.webhook_last_error
        return info

    async def _send_message(self, params: Params) -> JSONDict:
        chat = self._target_chat(params)
        text = self._check_text(params.get("text"), params.get("parse_mode"))
        markup = self._check_markup(params.get("reply_markup"), inline_only=False)
        thread_id = self._check_thread(chat, params)
        reply_to = self._reply_target(chat, params)
        msg = StoredMessage(
            message_id=chat.next_message_id(),
            chat_id=chat.id,
            sender=self.bot,
            text=text,
            date=int(time.time()),
            message_thread_id=thread_id,
            reply_to_message_id=reply_to,
            reply_markup=markup,
            parse_mode=params.get("parse_mode") or None,
        )
        chat.store[msg.message_id] = msg
        return self._message_api(msg)

    def _reply_target(self, chat: FakeChat, params: Params) -> int | None:
        reply = params.get("reply_parameters")
        if isinstance(reply, dict):
            message_id = reply.get("message_id")
            allow_missing = bool(reply.get("allow_sending_without_reply"))
            if reply.get("chat_id") not in (None, chat.id):
                raise ApiError(400, "Bad Request: replies to other chats are not modelled")
        else:
            message_id = params.get("reply_to_message_id")
            allow_missing = bool(params.get("allow_sending_without_reply"))
        if message_id is None:
            return None
        target = chat.store.get(message_id)
        if target is None or target.deleted:
            if allow_missing:
                return None
            raise ApiError(400, "Bad Request: message to be replied not found")
        return int(message_id)

    def _apply_edit(self, msg: StoredMessage, text: str | None, markup: JSONDict | None) -> None:
        if text == msg.text and markup == msg.reply_markup:
            raise ApiError(400, _NOT_MODIFIED)
        msg.text = text
        msg.reply_markup = markup
        msg.edits.append(MessageEdit(text, markup, int(time.time())))

    async def _edit_message_text(self, params: Params) -> JSONDict:
        msg = self._editable(params)
        text = self._check_text(params.get("text"), params.get("parse_mode"))
        if not msg.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        # Omitting reply_markup in an edit removes the inline keyboard.
        markup = self._check_markup(params.get("reply_markup"), inline_only=True)
        self._apply_edit(msg, text, markup)
        msg.parse_mode = params.get("parse_mode") or None
        return self._message_api(msg)

    async def _edit_message_reply_markup(self, params: Params) -> JSONDict:
        msg = self._editable(params)
        if not msg.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        markup = self._check_markup(params.get("reply_markup"), inline_only=True)
        self._apply_edit(msg, msg.text, markup)
        return self._message_api(msg)

    async def _answer_callback_query(self, params: Params) -> bool:
        query = self._queries.get(str(params.get("callback_query_id", "")))
        if query is None or query.answered or query.expired:
            raise ApiError(400, _QUERY_TOO_OLD)
        ttl = self.callback_query_ttl
        if ttl is not None and self.clock() - query.created_at > ttl:
            query.expired = True
            raise ApiError(400, _QUERY_TOO_OLD)
        text = params.get("text")
        if text is not None and _utf16_len(str(text)) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        query.answered = True
        query.answer_text = text
        query.show_alert = bool(params.get("show_alert"))
        query.answer_url = params.get("url")
        return True

    def _open_topic(self, chat: FakeChat, name: str, icon_color: int) -> JSONDict:
        # A topic's id is the message id of its "forum_topic_created" service message.
        thread_id = chat.next_message_id()
        chat.topics[thread_id] = ForumTopic(thread_id, name, icon_color)
        created = {"name": name, "icon_color": icon_color}
        chat.store[thread_id] = StoredMessage(
            message_id=thread_id,
            chat_id=chat.id,
            sender=self.bot,
            text=None,
            date=int(time.time()),
            message_thread_id=thread_id,
            service={"forum_topic_created": created},
        )
        return {"message_thread_id": thread_id, "name": name, "icon_color": icon_color}

    async def _create_forum_topic(self, params: Params) -> JSONDict:
        chat = self._target_chat(params)
        private_ok = chat.type == "private" and self.bot.has_topics_enabled
        if not chat.is_forum and not private_ok:
            raise ApiError(400, "Bad Request: the chat is not a forum")
        name = params.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 128:
            raise ApiError(400, "Bad Request: TOPIC_NAME_INVALID")
        icon_color = params.get("icon_color", 7322096)
        return self._open_topic(chat, name, int(icon_color))

    async def _delete_forum_topic(self, params: Params) -> bool:
        chat = self._target_chat(params)
        thread_id = params.get("message_thread_id")
        topic = chat.topics.get(thread_id) if isinstance(thread_id, int) else None
        if topic is None or topic.state == "deleted":
            raise ApiError(400, "Bad Request: TOPIC_ID_INVALID")
        topic.state = "deleted"
        for msg in chat.store.values():
            if msg.message_thread_id == thread_id:
                msg.deleted = True
        return True

    async def _pin_chat_message(self, params: Params) -> bool:
        msg = self._editable(params, action="pin")
        msg.pinned = True
        self._chats[msg.chat_id].pinned_message_id = msg.message_id
        return True

    async def _get_chat(self, params: Params) -> JSONDict:
        """A ``ChatFullInfo``: the chat, its required fields, and the pinned message."""
        chat = self._target_chat(params)
        data = chat.to_api() | {
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }
        pinned = chat.store.get(chat.pinned_message_id or 0)
        if pinned is not None and not pinned.deleted:
            data["pinned_message"] = self._message_api(pinned)
        return data

    async def _delete_message(self, params: Params) -> bool:
        msg = self._editable(params, action="delete")
        msg.deleted = True
        return True

    @staticmethod
    def _command_key(scope: Any, language_code: Any) -> tuple[str, str]:
        scope_obj = scope if isinstance(scope, Mapping) else {"type": "default"}
        return json.dumps(scope_obj, sort_keys=True), str(language_code or "")

    async def _set_my_commands(self, params: Params) -> bool:
        commands = self._require(params, "commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise ApiError(400, "Bad Request: can't parse commands JSON object")
        for cmd in commands:
            if not isinstance(cmd, dict) or not _COMMAND_NAME.fullmatch(str(cmd.get("command"))):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            description = cmd.get("description")
            if not isinstance(description, str) or not 1 <= len(description) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        key = self._command_key(params.get("scope"), params.get("language_code"))
        self._commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    async def _get_my_commands(self, params: Params) -> list[JSONDict]:
        key = self._command_key(params.get("scope"), params.get("language_code"))
        return list(self._commands.get(key, []))

    async def _delete_my_commands(self, params: Params) -> bool:
        key = self._command_key(params.get("scope"), params.get("language_code"))
        self._commands.pop(key, None)
        return True
