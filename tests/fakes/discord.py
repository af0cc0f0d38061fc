"""Wire-level loopback fake of Discord's REST API (v10) and gateway websocket.

The real discord.py client talks to it over real sockets on 127.0.0.1, so tests exercise the
same HTTP requests, gateway frames, zlib stream, sequence numbers, RESUME replays, rate-limit
headers and interaction callbacks that Discord would see. Behaviour follows Discord's developer
documentation; `point_discord_py_at` is the only place that knows discord.py's internals.
"""

# Every wait helper takes its own bounded `timeout`, so tests never need a fixed sleep.

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
import secrets
import time
import warnings
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from tests.bounds import WAIT
from tests.fakes.chaos import FaultPlan

Json = dict[str, Any]
T = TypeVar("T")

API_VERSION = 10
API_PREFIX = f"/api/v{API_VERSION}"
GATEWAY_PATH = "/gateway-ws/"
RESUME_GATEWAY_PATH = "/resume-gateway-ws/"
DISCORD_EPOCH_MS = 1_420_070_400_000

# Gateway opcodes.
OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_VOICE_STATE_UPDATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

# Gateway intents.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Channel types.
GUILD_TEXT = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# Interaction types and callback types.
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_MESSAGE_COMPONENT = 3
INTERACTION_MODAL_SUBMIT = 5
CALLBACK_CHANNEL_MESSAGE = 4
CALLBACK_DEFERRED_CHANNEL_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE_MESSAGE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_MODAL = 9

# Message flags and types.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_IS_COMPONENTS_V2 = 1 << 15
MESSAGE_DEFAULT = 0
MESSAGE_REPLY = 19
MESSAGE_CHAT_INPUT_COMMAND = 20

# Application command option types that nest other options.
OPTION_SUB_COMMAND = 1
OPTION_SUB_COMMAND_GROUP = 2

# Which intent a dispatch needs; events not listed are always delivered.
_EVENT_INTENTS: Mapping[str, int] = {
    "GUILD_CREATE": INTENT_GUILDS,
    "CHANNEL_CREATE": INTENT_GUILDS,
    "CHANNEL_PINS_UPDATE": INTENT_GUILDS,
    "THREAD_CREATE": INTENT_GUILDS,
    "THREAD_UPDATE": INTENT_GUILDS,
    "THREAD_MEMBERS_UPDATE": INTENT_GUILD_MEMBERS,
    "GUILD_MEMBER_ADD": INTENT_GUILD_MEMBERS,
    "MESSAGE_CREATE": INTENT_GUILD_MESSAGES,
    "MESSAGE_UPDATE": INTENT_GUILD_MESSAGES,
    "MESSAGE_DELETE": INTENT_GUILD_MESSAGES,
}

_PERMISSIONS = (
    (1 << 6)  # ADD_REACTIONS
    | (1 << 10)  # VIEW_CHANNEL
    | (1 << 11)  # SEND_MESSAGES
    | (1 << 13)  # MANAGE_MESSAGES
    | (1 << 14)  # EMBED_LINKS
    | (1 << 15)  # ATTACH_FILES
    | (1 << 16)  # READ_MESSAGE_HISTORY
    | (1 << 31)  # USE_APPLICATION_COMMANDS
    | (1 << 34)  # MANAGE_THREADS
    | (1 << 35)  # CREATE_PUBLIC_THREADS
    | (1 << 36)  # CREATE_PRIVATE_THREADS
    | (1 << 38)  # SEND_MESSAGES_IN_THREADS
)

_MENTION = re.compile(r"<@!?(\d+)>")
_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class _Snowflakes:
    """Unique, increasing snowflake ids whose timestamp bits are the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


@dataclass
class FakeUser:
    """A Discord user (bot or human) known to the fake, always a member of its one guild."""

    id: int
    username: str
    bot: bool = False
    joined_at: str = field(default_factory=_now_iso)

    def payload(self) -> Json:
        """The user object as Discord serialises it."""
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": None if self.bot else self.username,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }

    def member_payload(self, *, with_user: bool = True, permissions: bool = False) -> Json:
        """The guild member object; `permissions` is only part of interaction payloads."""
        member: Json = {
            "roles": [],
            "joined_at": self.joined_at,
            "nick": None,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            member["user"] = self.payload()
        if permissions:
            member["permissions"] = str(_PERMISSIONS)
        return member


@dataclass(frozen=True)
class RecordedCall:
    """One REST request as received, with the status the fake answered."""

    method: str
    path: str  # below /api/v10, e.g. "/channels/1/messages"
    query: Mapping[str, str]
    json: Any
    status: int


class Delayed:
    """A call held back by ``FakeDiscord.delay_next`` until ``release()``."""

    def __init__(self) -> None:
        self.arrived = asyncio.Event()
        self.released = asyncio.Event()

    def release(self) -> None:
        self.released.set()


@dataclass(frozen=True)
class InteractionCallback:
    """One POST /interactions/{id}/{token}/callback, accepted or refused."""

    interaction_id: int
    token: str
    type: int
    data: Json
    status: int

    @property
    def ephemeral(self) -> bool:
        """Whether the response asked for flag 64, seen only by the presser."""
        return bool(int(self.data.get("flags") or 0) & FLAG_EPHEMERAL)


@dataclass(frozen=True)
class Dispatch:
    """A gateway dispatch the human side caused; `redeliver` can send it again."""

    event: str
    data: Json

    @property
    def id(self) -> int:
        """The id of the message or interaction carried."""
        return int(self.data["id"])


@dataclass
class _Interaction:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    message_id: int | None
    created: float
    acknowledged: bool = False
    original_message_id: int | None = None


@dataclass
class _RateLimit:
    limit: int
    per: float
    advertise: bool
    renew_after_429: bool


@dataclass
class _Window:
    started: float = -math.inf
    used: int = 0
    hit: float | None = None  # when the last 429 was answered, for `renew_after_429`


class _ApiError(Exception):
    """What Discord would answer; also raised to tests when a human-side action is invalid."""

    def __init__(self, status: int, body: Json, headers: Mapping[str, str] | None = None):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body
        self.headers = dict(headers or {})


_MESSAGES_PATH = re.compile(r"/channels/\d+/messages(?:/\d+)?")


def _random_error(fault: str) -> _ApiError:
    """A drawn 5xx, or a 429 as Discord sends it (body and headers agree on the wait)."""
    if fault == "429":
        body = {"message": "You are being rate limited.", "retry_after": 0.2, "global": False}
        headers = {"Retry-After": "1", "X-RateLimit-Scope": "user"}
        return _ApiError(429, body, headers)
    return _error(int(fault), 0, f"{fault}: Server Error")


def _error(status: int, code: int, message: str) -> _ApiError:
    return _ApiError(status, {"message": message, "code": code})


def _unknown(what: str, code: int) -> _ApiError:
    return _error(404, code, f"Unknown {what}")


def _form_error(errors: Sequence[tuple[tuple[str, ...], str, str]]) -> _ApiError:
    """Discord's 50035 body: errors nested along the JSON path of each bad field."""
    root: Json = {}
    for path, code, message in errors:
        node = root
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return _ApiError(400, {"message": "Invalid Form Body", "code": 50035, "errors": root})


def _json_response(
    body: Any, *, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    # discord.py only decodes bodies whose Content-Type is exactly "application/json".
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(status=status, body=_dumps(body).encode(), headers=all_headers)


def _no_content() -> web.Response:
    return web.Response(status=204)


def _check_components(
    components: Any,
    path: tuple[str, ...],
    errors: list[tuple[tuple[str, ...], str, str]],
    seen: set[str],
) -> None:
    if not isinstance(components, list):
        errors.append((path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType."))
        return
    for index, component in enumerate(components):
        _check_component(component, (*path, str(index)), errors, seen)


def _check_component(
    component: Any,
    here: tuple[str, ...],
    errors: list[tuple[tuple[str, ...], str, str]],
    seen: set[str],
) -> None:
    if not isinstance(component, dict):
        errors.append((here, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType."))
        return
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if custom_id is not None:
        if not 1 <= len(str(custom_id)) <= 100:
            errors.append(
                (
                    (*here, "custom_id"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
            )
        elif custom_id in seen:
            errors.append(
                (
                    (*here, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        seen.add(str(custom_id))
    if kind == 1:
        children = component.get("components") or []
        if not 1 <= len(children) <= 5:
            errors.append(
                (
                    (*here, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 5 in length.",
                )
            )
    if kind == 2:
        label = component.get("label")
        if label is not None and len(str(label)) > 80:
            errors.append(
                ((*here, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
            )
        style = component.get("style")
        if style == 5 and not component.get("url"):
            errors.append(((*here, "url"), "BASE_TYPE_REQUIRED", "This field is required"))
        if style in (1, 2, 3, 4) and custom_id is None:
            errors.append(((*here, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
    if kind in (3, 5, 6, 7, 8):
        placeholder = component.get("placeholder")
        if placeholder is not None and len(str(placeholder)) > 150:
            errors.append(
                ((*here, "placeholder"), "BASE_TYPE_MAX_LENGTH", "Must be 150 or fewer in length.")
            )
    if isinstance(component.get("components"), list):
        _check_components(component["components"], (*here, "components"), errors, seen)
    accessory = component.get("accessory")
    if accessory is not None:
        _check_component(accessory, (*here, "accessory"), errors, seen)


def _validate_message_body(body: Json, *, require_payload: bool = True) -> None:
    """Refuse what Discord refuses: empty messages, oversized fields, bad components."""
    errors: list[tuple[tuple[str, ...], str, str]] = []
    content = body.get("content")
    if content is not None and len(str(content)) > 2000:
        errors.append((("content",), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."))
    embeds = body.get("embeds")
    if embeds is not None and len(embeds) > 10:
        errors.append((("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    components = body.get("components")
    flags = int(body.get("flags") or 0)
    if components is not None:
        if not flags & FLAG_IS_COMPONENTS_V2 and len(components) > 5:
            errors.append(
                (("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
            )
        _check_components(components, ("components",), errors, set())
    if errors:
        raise _form_error(errors)
    has_payload = bool(content) or bool(embeds) or bool(components) or bool(body.get("sticker_ids"))
    if require_payload and not has_payload:
        raise _error(400, 50006, "Cannot send an empty message")


def _find_component(components: Sequence[Json], custom_id: str) -> Json | None:
    for component in components:
        if component.get("custom_id") == custom_id:
            return component
        found = _find_component(component.get("components") or [], custom_id)
        if found is not None:
            return found
        accessory = component.get("accessory")
        if isinstance(accessory, dict) and accessory.get("custom_id") == custom_id:
            return accessory
    return None


class _Compressor:
    """Transport compression the client asked for in the gateway URL's `compress` query."""

    def __init__(self, kind: str | None) -> None:
        self.kind = kind
        self._zlib = zlib.compressobj() if kind == "zlib-stream" else None
        self._zstd: Any = None
        if kind == "zstd-stream":
            self._zstd = _zstd_stream()

    def frame(self, text: str) -> bytes | str:
        data = text.encode()
        if self._zlib is not None:
            # Z_SYNC_FLUSH ends each message with 00 00 ff ff, the marker clients wait for.
            return self._zlib.compress(data) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._zstd is not None:
            return bytes(self._zstd(data))
        return text


def _zstd_stream() -> Callable[[bytes], bytes]:
    """One zstd stream, flushed per message; discord.py asks for it when it can decode it."""
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        from compression import zstd  # type: ignore[import-not-found]

        compressor = zstd.ZstdCompressor()
        return lambda data: compressor.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
    stream = zstandard.ZstdCompressor().compressobj()
    return lambda data: stream.compress(data) + stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)


@dataclass
class _Connection:
    ws: web.WebSocketResponse
    request: web.Request
    compressor: _Compressor
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, frame: Json) -> None:
        # One lock per socket: a compression stream must be sent in the order it was produced.
        async with self.lock:
            data = self.compressor.frame(_dumps(frame))
            if isinstance(data, bytes):
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(data)


@dataclass
class _Session:
    id: str
    intents: int
    seq: int = 0
    frames: list[Json] = field(default_factory=list)
    conn: _Connection | None = None
    valid: bool = True
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class _Route:
    method: str
    pattern: re.Pattern[str]
    handler: Callable[[_Req], Awaitable[web.StreamResponse]]
    auth: bool


@dataclass
class _Req:
    method: str
    path: str
    params: dict[str, str]
    query: Mapping[str, str]
    body: Any

    def int_param(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            # Discord validates snowflakes in the path before looking anything up.
            raise _form_error(
                [((name,), "NUMBER_TYPE_COERCE", "Value is not snowflake.")]
            ) from None


class FakeDiscord:
    """Discord's REST API and gateway on 127.0.0.1, with one guild, a crew channel and a bot.

    Use as `async with FakeDiscord() as fake:` and point discord.py at it with
    `point_discord_py_at(fake)`. Human actions (`send_message`, `press_button`, `run_command`,
    ...) become gateway dispatches; the bot's REST calls are stored and recorded.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        heartbeat_interval_ms: int = 41_250,
        privileged_intents: bool = True,
        interaction_deadline: float | None = 3.0,
    ) -> None:
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = privileged_intents
        self.interaction_deadline = interaction_deadline

        self._ids = _Snowflakes()
        self.application_id = self._ids.next()
        self.bot_user = FakeUser(self.application_id, "crewline", bot=True)
        self.owner = FakeUser(self._ids.next(), "owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guild_id = self._ids.next()
        self.guild_name = "Crew HQ"
        self._channels: dict[int, Json] = {}
        self._thread_members: dict[int, dict[int, str]] = {}
        self._messages: dict[int, Json] = {}
        self._history: dict[int, list[int]] = {}
        self._interactions: dict[int, _Interaction] = {}
        self.modals: list[Json] = []  # modals the bot opened (CALLBACK_MODAL), in order
        self._commands: dict[int | None, list[Json]] = {}

        self.calls: list[RecordedCall] = []
        self.faults: FaultPlan | None = None  # seeded random faults (tests/fakes/chaos.py)
        self._refusals: list[tuple[str, re.Pattern[str]]] = []
        self._delays: list[tuple[str, re.Pattern[str], Delayed]] = []
        self.interaction_callbacks: list[InteractionCallback] = []
        self.gateway_connections: list[str] = []  # path?query of every websocket opened
        self.heartbeats = 0
        self.identifies = 0
        # IDENTIFYs answered while another session still had its connection open: two
        # gateway sessions of one bot at once (each would get every event).
        self.overlapping_identifies = 0
        self.resumes = 0
        self.replayed: list[Json] = []  # frames re-sent by RESUME, in order
        self.rate_limit_hits = 0

        self._rate_limits: dict[int | None, _RateLimit] = {}
        self._windows: dict[int, _Window] = {}
        self._sessions: dict[str, _Session] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._gateway_open: asyncio.Event | None = None
        self._changed: asyncio.Event | None = None
        self._runner: web.AppRunner | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._routes = self._build_routes()
        self.port = 0
        self.crew_channel_id = int(self.create_channel("crew")["id"])

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> FakeDiscord:
        self._gateway_open = asyncio.Event()
        self._gateway_open.set()
        self._changed = asyncio.Event()
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._entry)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._gateway_open is not None:
            self._gateway_open.set()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=1001, message=b"Going away"), 2.0)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        """http://127.0.0.1:port"""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What discord.py's `Route.BASE` must be: the REST root including /api/v10."""
        return f"{self.url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """The gateway websocket URL that GET /gateway returns."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    @property
    def resume_gateway_url(self) -> str:
        """The URL READY hands out for resuming; a separate path so tests can tell them apart."""
        return f"ws://127.0.0.1:{self.port}{RESUME_GATEWAY_PATH}"

    # ------------------------------------------------------------------ world setup

    def add_user(self, username: str) -> FakeUser:
        """A new human member of the guild; GUILD_MEMBER_ADD goes to sessions with that intent."""
        user = FakeUser(self._ids.next(), username)
        self.users[user.id] = user
        self._spawn_dispatch(
            "GUILD_MEMBER_ADD", {**user.member_payload(), "guild_id": str(self.guild_id)}
        )
        return user

    def create_channel(self, name: str) -> Json:
        """A new text channel in the guild; dispatched as CHANNEL_CREATE to live sessions."""
        channel: Json = {
            "id": str(self._ids.next()),
            "type": GUILD_TEXT,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self._channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "default_auto_archive_duration": 1440,
            "flags": 0,
        }
        self._channels[int(channel["id"])] = channel
        self._spawn_dispatch("CHANNEL_CREATE", channel)
        return dict(channel)

    def set_message_rate_limit(
        self,
        limit: int,
        per: float,
        *,
        channel_id: int | None = None,
        advertise: bool = True,
        renew_after_429: bool = False,
    ) -> None:
        """Limit POST /channels/{id}/messages to `limit` per `per` seconds, per channel.

        With `advertise` the X-RateLimit-* headers tell the client its budget, as Discord does
        for route buckets; without it the limit is invisible until the 429, as with Discord's
        shared and sub-limits. `channel_id=None` applies it to every channel.

        With `renew_after_429` a spent budget is renewed only `per` seconds after a 429 was
        answered, never by the clock alone: a client that sends more than `limit` messages
        meets the limit however slowly it sends them, so a test of the 429 path does not
        depend on the machine's speed.
        """
        self._rate_limits[channel_id] = _RateLimit(limit, per, advertise, renew_after_429)

    def refuse(self, method: str, path_pattern: str) -> Callable[[], None]:
        """Answer every ``method`` call whose path fully matches the regex with 503, not
        carrying it out, until the returned function is called: one kind of call failing
        for a while (the calls are recorded, as refused)."""
        refusal = (method, re.compile(path_pattern))
        self._refusals.append(refusal)
        return lambda: self._refusals.remove(refusal)

    def delay_next(self, method: str, path_pattern: str) -> Delayed:
        """Carry out the next ``method`` call whose path fully matches the regex only once
        the returned handle is released: a request slow on its way to Discord, or one whose
        caller froze as it sent it. ``arrived`` is set when the call has come in."""
        delayed = Delayed()
        self._delays.append((method, re.compile(path_pattern), delayed))
        return delayed

    def clear_rate_limits(self) -> None:
        """Lift every message rate limit."""
        self._rate_limits.clear()
        self._windows.clear()

    # ------------------------------------------------------------------ inspection

    def channel(self, channel_id: int) -> Json:
        """The stored channel or thread object."""
        return dict(self._channels[channel_id])

    @property
    def threads(self) -> list[Json]:
        """Every thread created so far."""
        return [dict(c) for c in self._channels.values() if c["type"] in THREAD_TYPES]

    def thread_member_ids(self, thread_id: int) -> set[int]:
        """Users who were added to (or created) a thread."""
        return set(self._thread_members.get(thread_id, {}))

    def messages(self, channel_id: int) -> list[Json]:
        """Non-ephemeral messages of a channel or thread, oldest first."""
        return [dict(self._messages[m]) for m in self._history.get(channel_id, [])]

    def message(self, message_id: int) -> Json:
        """A stored message (ephemeral interaction responses included)."""
        return dict(self._messages[message_id])

    def commands(self, guild_id: int | None = None) -> list[Json]:
        """Registered application commands: global ones, or those of `guild_id`."""
        return [dict(c) for c in self._commands.get(guild_id, [])]

    def calls_to(self, method: str, path_pattern: str) -> list[RecordedCall]:
        """Recorded calls whose path fully matches the regex."""
        pattern = re.compile(path_pattern)
        return [c for c in self.calls if c.method == method and pattern.fullmatch(c.path)]

    # ------------------------------------------------------------------ waiting

    def _bump(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    async def wait_until(
        self, predicate: Callable[[], T | None], *, timeout: float = WAIT, what: str = "condition"
    ) -> T:
        """Wait until `predicate()` returns something truthy (re-checked on every change)."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    result = predicate()
                    if result:
                        return result
                    assert self._changed is not None, "FakeDiscord is not running"
                    await self._changed.wait()
        except TimeoutError:
            raise TimeoutError(f"FakeDiscord: no {what} within {timeout}s") from None

    @property
    def connected_sessions(self) -> int:
        """Gateway sessions with a connection open now."""
        return sum(1 for session in self._sessions.values() if session.conn is not None)

    async def wait_for_ready(self, *, count: int = 1, timeout: float = WAIT) -> None:
        """Wait until `count` IDENTIFYs were answered with READY and GUILD_CREATE."""
        await self.wait_until(lambda: self.identifies >= count, timeout=timeout, what="READY")

    async def wait_for_resume(self, *, count: int = 1, timeout: float = WAIT) -> None:
        """Wait until `count` RESUMEs were answered with replay and RESUMED."""
        await self.wait_until(lambda: self.resumes >= count, timeout=timeout, what="RESUME")

    async def wait_for_call(
        self,
        method: str,
        path_pattern: str,
        *,
        status: int | None = None,
        start: int = 0,
        timeout: float = WAIT,
    ) -> RecordedCall:
        """The first call from index `start` on whose path fully matches the regex."""
        pattern = re.compile(path_pattern)

        def find() -> RecordedCall | None:
            for call in self.calls[start:]:
                matches = call.method == method and pattern.fullmatch(call.path)
                if matches and (status is None or call.status == status):
                    return call
            return None

        return await self.wait_until(find, timeout=timeout, what=f"{method} {path_pattern}")

    async def wait_for_callback(
        self, interaction_id: int, *, timeout: float = WAIT
    ) -> InteractionCallback:
        """The first callback recorded for the interaction."""

        def find() -> InteractionCallback | None:
            for callback in self.interaction_callbacks:
                if callback.interaction_id == interaction_id:
                    return callback
            return None

        return await self.wait_until(find, timeout=timeout, what=f"callback for {interaction_id}")

    async def wait_for_message(
        self,
        channel_id: int,
        where: Callable[[Json], bool] | None = None,
        *,
        timeout: float = WAIT,
    ) -> Json:
        """The first stored message of the channel matching `where` (any message if None)."""

        def find() -> Json | None:
            for message in self.messages(channel_id):
                if where is None or where(message):
                    return message
            return None

        return await self.wait_until(find, timeout=timeout, what=f"message in {channel_id}")

    # ------------------------------------------------------------------ human side

    async def send_message(
        self,
        channel_id: int,
        content: str,
        *,
        author: FakeUser | None = None,
        reply_to: int | None = None,
    ) -> Dispatch:
        """A human posts in a channel or thread: stored, then dispatched as MESSAGE_CREATE."""
        self._require_channel(channel_id)
        body: Json = {"content": content}
        if reply_to is not None:
            body["message_reference"] = {"message_id": str(reply_to)}
        message = self._create_message(channel_id, author or self.owner, body)
        data = self._gateway_message(message)
        await self._dispatch("MESSAGE_CREATE", data)
        return Dispatch("MESSAGE_CREATE", data)

    async def edit_message(self, channel_id: int, message_id: int, content: str) -> Dispatch:
        """A human edits their message: stored, then dispatched as MESSAGE_UPDATE."""
        message = self._require_message(channel_id, message_id)
        message["content"] = content
        message["mentions"] = self._mentions(content)
        message["edited_timestamp"] = _now_iso()
        data = self._gateway_message(message)
        await self._dispatch("MESSAGE_UPDATE", data)
        return Dispatch("MESSAGE_UPDATE", data)

    async def press_button(
        self, message: Json | Dispatch | int, custom_id: str, *, user: FakeUser | None = None
    ) -> Dispatch:
        """A human presses a button of a stored message: INTERACTION_CREATE type 3."""
        message_id = (
            message.id
            if isinstance(message, Dispatch)
            else (int(message["id"]) if isinstance(message, dict) else message)
        )
        stored = self._messages.get(message_id)
        if stored is None:
            raise LookupError(f"no stored message {message_id}")
        component = _find_component(stored.get("components") or [], custom_id)
        if component is None or component.get("type") != 2:
            raise LookupError(f"message {message_id} has no button {custom_id!r}")
        if component.get("disabled"):
            raise ValueError(f"button {custom_id!r} is disabled; Discord would not send a press")
        channel_id = int(stored["channel_id"])
        interaction = self._new_interaction(
            INTERACTION_MESSAGE_COMPONENT,
            channel_id,
            user or self.owner,
            {"custom_id": custom_id, "component_type": 2},
            message_id=message_id,
        )
        interaction["message"] = dict(stored)
        await self._dispatch("INTERACTION_CREATE", interaction)
        return Dispatch("INTERACTION_CREATE", interaction)

    async def submit_modal(
        self, modal: Json, values: Mapping[str, str], *, user: FakeUser | None = None
    ) -> Dispatch:
        """A human submits a modal the bot opened: INTERACTION_CREATE type 5, each text
        input (by its custom_id) holding ``values``, the rest their defaults."""
        rows = []
        for row in modal["components"]:
            inputs = [
                {
                    "type": 4,
                    "custom_id": item["custom_id"],
                    "value": values.get(item["custom_id"], item.get("value") or ""),
                }
                for item in row.get("components", [])
            ]
            rows.append({"type": 1, "components": inputs})
        interaction = self._new_interaction(
            INTERACTION_MODAL_SUBMIT,
            int(modal["channel_id"]),
            user or self.owner,
            {"custom_id": modal["custom_id"], "components": rows},
        )
        await self._dispatch("INTERACTION_CREATE", interaction)
        return Dispatch("INTERACTION_CREATE", interaction)

    async def run_command(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | None = None,
        channel_id: int | None = None,
    ) -> Dispatch:
        """A human runs a registered slash command: INTERACTION_CREATE type 2.

        `name` is the command path as typed, e.g. "concierge answer"; `options` are the leaf
        options by name, e.g. {"policy": "routine"}. The command must have been registered
        (guild first, then global), and choices and required options are checked as Discord's
        client would.
        """
        words = name.split()
        command = self._find_command(words[0])
        data: Json = {"id": command["id"], "name": command["name"], "type": command["type"]}
        if command.get("guild_id") is not None:
            data["guild_id"] = command["guild_id"]
        leaf_options = self._command_options(command, words, dict(options or {}))
        if leaf_options:
            data["options"] = leaf_options
        channel = channel_id if channel_id is not None else self.crew_channel_id
        interaction = self._new_interaction(
            INTERACTION_APPLICATION_COMMAND, channel, user or self.owner, data
        )
        await self._dispatch("INTERACTION_CREATE", interaction)
        return Dispatch("INTERACTION_CREATE", interaction)

    async def run_message_command(
        self,
        name: str,
        message_id: int,
        *,
        user: FakeUser | None = None,
        channel_id: int,
    ) -> Dispatch:
        """A human uses a registered message context-menu command (type 3) on a message:
        INTERACTION_CREATE type 2 whose data names the target and resolves it."""
        command = next(
            (
                c
                for scope in (self.guild_id, None)
                for c in self._commands.get(scope, [])
                if c["name"] == name and c.get("type") == 3
            ),
            None,
        )
        if command is None:
            raise ValueError(f"no message command {name!r} is registered")
        data: Json = {
            "id": command["id"],
            "name": command["name"],
            "type": 3,
            "target_id": str(message_id),
            "resolved": {"messages": {str(message_id): dict(self._messages[message_id])}},
        }
        if command.get("guild_id") is not None:
            data["guild_id"] = command["guild_id"]
        interaction = self._new_interaction(
            INTERACTION_APPLICATION_COMMAND, channel_id, user or self.owner, data
        )
        await self._dispatch("INTERACTION_CREATE", interaction)
        return Dispatch("INTERACTION_CREATE", interaction)

    async def redeliver(self, dispatch: Dispatch) -> None:
        """Send an identical event again (with a new sequence number), as at-least-once
        delivery can."""
        await self._dispatch(dispatch.event, dispatch.data)

    # ------------------------------------------------------------------ gateway control

    @contextlib.contextmanager
    def gateway_paused(self) -> Iterator[None]:
        """While inside, new gateway connections wait before HELLO, so whatever is dispatched
        meanwhile is certain to be missed by a client that lost its connection."""
        assert self._gateway_open is not None, "FakeDiscord is not running"
        self._gateway_open.clear()
        try:
            yield
        finally:
            self._gateway_open.set()

    async def drop_connection(self, *, code: int | None = 4000) -> None:
        """Cut every live gateway connection; sessions stay resumable.

        `code` is sent in a close frame (4000 "Unknown error" is resumable); None closes the
        TCP connection without a close frame, which clients see as 1006.
        """
        for session in list(self._sessions.values()):
            async with session.lock:
                conn, session.conn = session.conn, None
            if conn is None:
                continue
            if code is None:
                if conn.request.transport is not None:
                    conn.request.transport.close()
            else:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.ws.close(code=code, message=b"Dropped"), 5.0)

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; unless `resumable`, the sessions and their buffers die and
        the client has to IDENTIFY again (events in between are lost)."""
        for session in list(self._sessions.values()):
            async with session.lock:
                if not resumable:
                    session.valid = False
                    session.frames.clear()
                conn = session.conn
                if conn is not None:
                    with contextlib.suppress(ConnectionError, RuntimeError):
                        await conn.send({"op": OP_INVALID_SESSION, "d": resumable})
                if not resumable:
                    session.conn = None
            if not resumable:
                self._sessions.pop(session.id, None)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the client should close and RESUME."""
        for session in list(self._sessions.values()):
            async with session.lock:
                if session.conn is not None:
                    with contextlib.suppress(ConnectionError, RuntimeError):
                        await session.conn.send({"op": OP_RECONNECT, "d": None})

    # ------------------------------------------------------------------ dispatching

    def _shape(self, session: _Session, event: str, data: Json) -> Json | None:
        """The payload this session may see, or None if its intents exclude the event."""
        needed = _EVENT_INTENTS.get(event)
        if needed is not None and not session.intents & needed:
            return None
        if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE") and not (
            session.intents & INTENT_MESSAGE_CONTENT
        ):
            author_id = int(data.get("author", {}).get("id", 0))
            mentioned = any(int(m["id"]) == self.bot_user.id for m in data.get("mentions", []))
            if author_id != self.bot_user.id and not mentioned:
                # Without the privileged intent Discord blanks these fields of others' messages.
                return {**data, "content": "", "embeds": [], "attachments": [], "components": []}
        return data

    async def _emit(
        self, session: _Session, event: str, data: Json, *, buffer: bool = True
    ) -> None:
        """Send one dispatch with the session's next sequence number; caller holds the lock."""
        session.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        if buffer:
            session.frames.append(frame)
        if session.conn is not None:
            try:
                await session.conn.send(frame)
            except (ConnectionError, RuntimeError):
                # The client is gone; the frame stays buffered for its RESUME.
                session.conn = None

    async def _dispatch(self, event: str, data: Json) -> None:
        for session in list(self._sessions.values()):
            async with session.lock:
                if not session.valid:
                    continue
                shaped = self._shape(session, event, data)
                if shaped is not None:
                    await self._emit(session, event, shaped)
        self._bump()

    def _spawn_dispatch(self, event: str, data: Json) -> None:
        # Setup helpers are synchronous; their dispatches only matter to live sessions.
        if self._sessions:
            task = asyncio.get_running_loop().create_task(self._dispatch(event, data))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        self.gateway_connections.append(request.path_qs)
        self._bump()
        session: _Session | None = None
        conn: _Connection | None = None
        try:
            if request.query.get("v") != str(API_VERSION):
                await ws.close(code=4012, message=b"Invalid API version")
                return ws
            if request.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"Error while decoding payload.")
                return ws
            compress = request.query.get("compress")
            if compress not in (None, "zlib-stream", "zstd-stream"):
                await ws.close(code=4002, message=b"Error while decoding payload.")
                return ws
            assert self._gateway_open is not None
            await self._gateway_open.wait()
            conn = _Connection(ws, request, _Compressor(compress))
            hello = {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-gateway"]}
            await conn.send({"op": OP_HELLO, "d": hello, "s": None, "t": None})
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                try:
                    frame = json.loads(msg.data)
                    op = frame["op"]
                except (ValueError, KeyError, TypeError):
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                data = frame.get("d")
                if op == OP_HEARTBEAT:
                    self.heartbeats += 1
                    await conn.send({"op": OP_HEARTBEAT_ACK})
                elif op == OP_IDENTIFY:
                    if session is not None:
                        await ws.close(code=4005, message=b"Already authenticated.")
                        break
                    session = await self._identify(conn, data or {})
                elif op == OP_RESUME:
                    session = await self._resume(conn, data or {})
                elif op == OP_REQUEST_GUILD_MEMBERS and session is not None:
                    await self._send_member_chunk(session, data or {})
                elif op in (OP_PRESENCE_UPDATE, OP_VOICE_STATE_UPDATE):
                    pass
                elif session is None:
                    await ws.close(code=4003, message=b"Not authenticated.")
                    break
                else:
                    await ws.close(code=4001, message=b"Unknown opcode.")
                    break
        except (ConnectionError, RuntimeError):
            pass  # the client went away mid-send; its session stays resumable
        finally:
            if session is not None and conn is not None:
                async with session.lock:
                    if session.conn is conn:
                        session.conn = None
                        if ws.close_code in (1000, 1001):
                            # Discord ends the session of a client that closes normally.
                            session.valid = False
                            self._sessions.pop(session.id, None)
            self._sockets.discard(ws)
            self._bump()
        return ws

    async def _identify(self, conn: _Connection, data: Json) -> _Session | None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0:
            await conn.ws.close(code=4013, message=b"Invalid intent(s).")
            return None
        if intents & PRIVILEGED_INTENTS and not self.privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        if self.connected_sessions:
            self.overlapping_identifies += 1
        session = _Session(secrets.token_hex(16), intents)
        self._sessions[session.id] = session
        ready = self._ready_payload(session)
        if data.get("shard") is not None:
            ready["shard"] = data["shard"]
        async with session.lock:
            session.conn = conn
            await self._emit(session, "READY", ready)
            if intents & INTENT_GUILDS:
                await self._emit(session, "GUILD_CREATE", self._guild_create_payload(session))
        self.identifies += 1
        self._bump()
        return session

    async def _resume(self, conn: _Connection, data: Json) -> _Session | None:
        session = self._sessions.get(str(data.get("session_id")))
        if session is None or not session.valid or data.get("token") != self.token:
            await conn.send({"op": OP_INVALID_SESSION, "d": False})
            return None
        last_seq = int(data.get("seq") or 0)
        async with session.lock:
            old, session.conn = session.conn, conn
            if old is not None and old is not conn and old.request.transport is not None:
                old.request.transport.close()
            for frame in session.frames:
                if frame["s"] > last_seq:
                    await conn.send(frame)
                    self.replayed.append(frame)
            # RESUMED closes the replay; it is not buffered, a later RESUME must not repeat it.
            await self._emit(session, "RESUMED", {"_trace": ["fake-gateway"]}, buffer=False)
        self.resumes += 1
        self._bump()
        return session

    async def _send_member_chunk(self, session: _Session, data: Json) -> None:
        members = [u.member_payload() for u in self.users.values()]
        chunk: Json = {
            "guild_id": str(self.guild_id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        async with session.lock:
            await self._emit(session, "GUILD_MEMBERS_CHUNK", chunk)

    def _ready_payload(self, session: _Session) -> Json:
        application_flags = (1 << 13) | (1 << 15) | (1 << 19) if self.privileged_intents else 0
        return {
            "v": API_VERSION,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": str(self.application_id), "flags": application_flags},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-gateway"],
        }

    def _guild_payload(self) -> Json:
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "color": 0,
                    "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                    "hoist": False,
                    "icon": None,
                    "unicode_emoji": None,
                    "position": 0,
                    "permissions": str(_PERMISSIONS),
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(self.crew_channel_id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500_000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def _guild_create_payload(self, session: _Session) -> Json:
        # Without GUILD_MEMBERS Discord only includes the bot's own member.
        if session.intents & INTENT_GUILD_MEMBERS:
            members = [u.member_payload() for u in self.users.values()]
        else:
            members = [self.bot_user.member_payload()]
        return {
            **self._guild_payload(),
            "joined_at": self.bot_user.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.users),
            "voice_states": [],
            "members": members,
            "channels": [dict(c) for c in self._channels.values() if c["type"] not in THREAD_TYPES],
            # Discord lists the active threads only: an archived one is not in the cache of a
            # client that connects after it was archived.
            "threads": [
                self._thread_payload(int(t["id"]))
                for t in self.threads
                if not t["thread_metadata"]["archived"]
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ------------------------------------------------------------------ model helpers

    def _require_channel(self, channel_id: int) -> Json:
        channel = self._channels.get(channel_id)
        if channel is None:
            raise _unknown("Channel", 10003)
        return channel

    def _require_message(self, channel_id: int, message_id: int) -> Json:
        self._require_channel(channel_id)
        message = self._messages.get(message_id)
        if message is None or int(message["channel_id"]) != channel_id:
            raise _unknown("Message", 10008)
        return message

    def _require_user(self, user_id: int) -> FakeUser:
        user = self.users.get(user_id)
        if user is None:
            raise _unknown("User", 10013)
        return user

    def _mentions(self, content: str) -> list[Json]:
        ids = dict.fromkeys(int(m) for m in _MENTION.findall(content or ""))
        return [
            {**self.users[i].payload(), "member": self.users[i].member_payload(with_user=False)}
            for i in ids
            if i in self.users
        ]

    def _thread_payload(self, thread_id: int, *, for_user: int | None = None) -> Json:
        thread = dict(self._channels[thread_id])
        members = self._thread_members.get(thread_id, {})
        thread["member_count"] = min(len(members), 50)
        if for_user is not None and for_user in members:
            thread["member"] = {
                "id": str(thread_id),
                "user_id": str(for_user),
                "join_timestamp": members[for_user],
                "flags": 0,
            }
        return thread

    def _create_message(
        self,
        channel_id: int,
        author: FakeUser,
        body: Json,
        *,
        kind: int | None = None,
        ephemeral: bool = False,
        extra: Json | None = None,
    ) -> Json:
        channel = self._require_channel(channel_id)
        reference = body.get("message_reference")
        referenced: Json | None = None
        if reference:
            ref_id = int(reference["message_id"])
            referenced = self._messages.get(ref_id)
            if referenced is None and reference.get("fail_if_not_exists", True):
                raise _form_error(
                    [
                        (
                            ("message_reference",),
                            "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                            "Unknown message",
                        )
                    ]
                )
        content = str(body.get("content") or "")
        message_id = self._ids.next()
        flags = int(body.get("flags") or 0) | (FLAG_EPHEMERAL if ephemeral else 0)
        message: Json = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": author.payload(),
            "content": content,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": self._mentions(content),
            "mention_roles": [],
            "attachments": [],
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "reactions": [],
            "pinned": False,
            "type": kind
            if kind is not None
            else (MESSAGE_REPLY if referenced else MESSAGE_DEFAULT),
            "flags": flags,
            **(extra or {}),
        }
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        if referenced is not None:
            message["message_reference"] = {
                "type": 0,
                "message_id": referenced["id"],
                "channel_id": referenced["channel_id"],
                "guild_id": str(self.guild_id),
            }
            message["referenced_message"] = dict(referenced)
        self._messages[message_id] = message
        if not ephemeral:
            self._history.setdefault(channel_id, []).append(message_id)
            channel["last_message_id"] = str(message_id)
            if channel["type"] in THREAD_TYPES:
                channel["message_count"] = channel.get("message_count", 0) + 1
                channel["total_message_sent"] = channel.get("total_message_sent", 0) + 1
        self._bump()
        return message

    def _gateway_message(self, message: Json) -> Json:
        """MESSAGE_CREATE/UPDATE payloads add guild_id and the author's member to the message."""
        author = self.users.get(int(message["author"]["id"]))
        data = {**message, "guild_id": str(self.guild_id)}
        if author is not None and not message.get("webhook_id"):
            data["member"] = author.member_payload(with_user=False)
        return data

    def _apply_edit(self, message: Json, body: Json) -> None:
        for key in ("content", "embeds", "components", "attachments"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if "content" in body:
            message["mentions"] = self._mentions(str(body.get("content") or ""))
        if body.get("flags") is not None:
            # Only SUPPRESS_EMBEDS (4) may be toggled; the others are Discord's to keep.
            message["flags"] = (int(message["flags"]) & ~4) | (int(body["flags"]) & 4)
        message["flags"] = int(message["flags"]) & ~FLAG_LOADING
        message["edited_timestamp"] = _now_iso()
        self._bump()

    def _new_interaction(
        self,
        kind: int,
        channel_id: int,
        user: FakeUser,
        data: Json,
        *,
        message_id: int | None = None,
    ) -> Json:
        channel = self._require_channel(channel_id)
        interaction_id = self._ids.next()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        self._interactions[interaction_id] = _Interaction(
            interaction_id, token, kind, user.id, channel_id, message_id, time.monotonic()
        )
        return {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
            "guild_id": str(self.guild_id),
            "channel": dict(channel),
            "channel_id": str(channel_id),
            "member": user.member_payload(permissions=True),
            "token": token,
            "version": 1,
            "app_permissions": str(_PERMISSIONS),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def _find_command(self, name: str) -> Json:
        for scope in (self.guild_id, None):
            for command in self._commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        raise LookupError(f"no registered slash command /{name}")

    def _command_options(
        self, command: Json, words: Sequence[str], values: dict[str, Any]
    ) -> list[Json]:
        declared: list[Json] = list(command.get("options") or [])
        path: list[Json] = []
        for word in words[1:]:
            sub = next((o for o in declared if o["name"] == word), None)
            if sub is None or sub.get("type") not in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
                raise LookupError(f"/{' '.join(words)}: no subcommand {word!r}")
            path.append(sub)
            declared = list(sub.get("options") or [])
        if any(o.get("type") in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP) for o in declared):
            raise LookupError(f"/{' '.join(words)} needs a subcommand")
        leaves: list[Json] = []
        for option in declared:
            if option["name"] not in values:
                if option.get("required"):
                    raise ValueError(f"option {option['name']!r} is required")
                continue
            value = values.pop(option["name"])
            choices = option.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ValueError(f"{value!r} is not a choice of {option['name']!r}")
            leaves.append({"name": option["name"], "type": option["type"], "value": value})
        if values:
            raise ValueError(f"unknown options {sorted(values)}")
        for sub in reversed(path):
            leaves = [{"name": sub["name"], "type": sub["type"], "options": leaves}]
        return leaves

    # ------------------------------------------------------------------ REST plumbing

    async def _entry(self, request: web.Request) -> web.StreamResponse:
        if request.path in (GATEWAY_PATH, RESUME_GATEWAY_PATH):
            return await self._gateway(request)
        if not request.path.startswith(API_PREFIX + "/"):
            return _json_response({"message": "404: Not Found", "code": 0}, status=404)
        path = request.path[len(API_PREFIX) :]
        body = await self._read_body(request)
        for delay in self._delays:
            if delay[0] == request.method and delay[1].fullmatch(path):
                self._delays.remove(delay)
                delay[2].arrived.set()
                await delay[2].released.wait()
                break
        response: web.StreamResponse
        fault = self._random_fault(request.method, path)
        if fault == "reset":  # the connection drops before Discord saw the call
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=500)
        try:
            if fault is not None and fault != "landed-reset":
                raise _random_error(fault)
            if any(m == request.method and p.fullmatch(path) for m, p in self._refusals):
                raise _error(503, 0, "503: Service Unavailable")
            response = await self._route(request, path, body)
        except _ApiError as exc:
            response = _json_response(exc.body, status=exc.status, headers=exc.headers)
        self.calls.append(
            RecordedCall(request.method, path, dict(request.query), body, response.status)
        )
        self._bump()
        if fault == "landed-reset":  # Discord carried the call out; its answer never arrived
            assert request.transport is not None
            request.transport.close()
        return response

    def _random_fault(self, method: str, path: str) -> str | None:
        """The fault plan's draw for a message create or edit (``"POST messages"``…)."""
        if self.faults is None or _MESSAGES_PATH.fullmatch(path) is None:
            return None
        return self.faults.draw(f"{method} messages")

    @staticmethod
    async def _read_body(request: web.Request) -> Any:
        if not request.body_exists:
            return None
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            raw = form.get("payload_json")
            return json.loads(str(raw)) if raw is not None else None
        text = await request.text()
        return json.loads(text) if text else None

    async def _route(self, request: web.Request, path: str, body: Any) -> web.StreamResponse:
        path_matched = False
        for route in self._routes:
            match = route.pattern.fullmatch(path)
            if match is None:
                continue
            path_matched = True
            if route.method != request.method:
                continue
            if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise _error(401, 0, "401: Unauthorized")
            req = _Req(request.method, path, match.groupdict(), request.query, body)
            return await route.handler(req)
        if path_matched:
            raise _error(405, 0, "405: Method Not Allowed")
        raise _error(404, 0, "404: Not Found")

    def _build_routes(self) -> list[_Route]:
        snowflake = r"(?P<{}>[^/]+)"
        table: list[tuple[str, str, Callable[[_Req], Awaitable[web.StreamResponse]], bool]] = [
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("GET", "/users/@me", self._get_me, True),
            ("GET", "/users/{user_id}", self._get_user, True),
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/applications/@me", self._get_application, True),
            ("GET", "/guilds/{guild_id}", self._get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member, True),
            ("GET", "/channels/{channel_id}", self._get_channel, True),
            ("PATCH", "/channels/{channel_id}", self._patch_thread, True),
            ("GET", "/channels/{channel_id}/messages", self._list_messages, True),
            ("POST", "/channels/{channel_id}/messages", self._post_message, True),
            ("GET", "/channels/{channel_id}/messages/pins", self._list_pins_v2, True),
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self._pin, True),
            ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self._unpin, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message, True),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._thread_from_message,
                True,
            ),
            ("POST", "/channels/{channel_id}/threads", self._create_thread, True),
            ("GET", "/channels/{channel_id}/thread-members", self._list_thread_members, True),
            (
                "PUT",
                "/channels/{channel_id}/thread-members/{user_id}",
                self._add_thread_member,
                True,
            ),
            ("GET", "/channels/{channel_id}/pins", self._list_pins, True),
            ("PUT", "/channels/{channel_id}/pins/{message_id}", self._pin, True),
            ("DELETE", "/channels/{channel_id}/pins/{message_id}", self._unpin, True),
            ("POST", "/channels/{channel_id}/typing", self._typing, True),
            ("GET", "/applications/{app_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{app_id}/commands", self._put_commands, True),
            ("POST", "/applications/{app_id}/commands", self._post_command, True),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands, True),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self._post_command, True),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, False),
            ("POST", "/webhooks/{app_id}/{token}", self._post_followup, False),
            (
                "GET",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self._get_webhook_msg,
                False,
            ),
            (
                "PATCH",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self._patch_webhook_msg,
                False,
            ),
            (
                "DELETE",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self._delete_webhook_msg,
                False,
            ),
        ]
        routes: list[_Route] = []
        for method, template, handler, auth in table:
            regex = re.sub(r"\{(\w+)\}", lambda m: snowflake.format(m.group(1)), template)
            routes.append(_Route(method, re.compile(regex), handler, auth))
        return routes

    # ------------------------------------------------------------------ REST: identity

    async def _get_gateway(self, req: _Req) -> web.StreamResponse:
        return _json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, req: _Req) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return _json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    async def _get_me(self, req: _Req) -> web.StreamResponse:
        return _json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, req: _Req) -> web.StreamResponse:
        return _json_response(self._require_user(req.int_param("user_id")).payload())

    async def _get_application(self, req: _Req) -> web.StreamResponse:
        return _json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot": self.bot_user.payload(),
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "team": None,
                "verify_key": secrets.token_hex(32),
                "flags": (1 << 13) | (1 << 15) | (1 << 19) if self.privileged_intents else 0,
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "install_params": None,
                "integration_types_config": {"0": {}},
            }
        )

    def _require_guild(self, req: _Req) -> None:
        if req.int_param("guild_id") != self.guild_id:
            raise _unknown("Guild", 10004)

    async def _get_guild(self, req: _Req) -> web.StreamResponse:
        self._require_guild(req)
        guild = self._guild_payload()
        if req.query.get("with_counts") == "true":
            guild["approximate_member_count"] = len(self.users)
            guild["approximate_presence_count"] = 0
        return _json_response(guild)

    async def _get_guild_channels(self, req: _Req) -> web.StreamResponse:
        self._require_guild(req)
        channels = [dict(c) for c in self._channels.values() if c["type"] not in THREAD_TYPES]
        return _json_response(channels)

    async def _get_member(self, req: _Req) -> web.StreamResponse:
        self._require_guild(req)
        user = self.users.get(req.int_param("user_id"))
        if user is None:
            raise _unknown("Member", 10007)
        return _json_response(user.member_payload())

    # ------------------------------------------------------------------ REST: channels

    async def _get_channel(self, req: _Req) -> web.StreamResponse:
        channel_id = req.int_param("channel_id")
        channel = self._require_channel(channel_id)
        if channel["type"] in THREAD_TYPES:
            return _json_response(self._thread_payload(channel_id, for_user=self.bot_user.id))
        return _json_response(dict(channel))

    async def _patch_thread(self, req: _Req) -> web.StreamResponse:
        """Modify Channel, for a thread's ``archived`` and ``locked`` (all crewline sets)."""
        thread_id = req.int_param("channel_id")
        channel = self._require_channel(thread_id)
        body = req.body if isinstance(req.body, dict) else {}
        if channel["type"] not in THREAD_TYPES or set(body) - {"archived", "locked"}:
            raise _error(400, 50035, "Invalid Form Body")
        await self._set_thread_state(thread_id, **{k: bool(v) for k, v in body.items()})
        return _json_response(self._thread_payload(thread_id, for_user=self.bot_user.id))

    async def archive_thread(self, thread_id: int) -> None:
        """Archive a thread as Discord does after its ``auto_archive_duration`` without
        activity: it leaves the active threads a newly connected client is given."""
        await self._set_thread_state(thread_id, archived=True)

    async def _set_thread_state(self, thread_id: int, **state: bool) -> None:
        metadata = self._channels[thread_id]["thread_metadata"]
        metadata.update(state)
        if "archived" in state:
            metadata["archive_timestamp"] = _now_iso()
        await self._dispatch("THREAD_UPDATE", self._thread_payload(thread_id))

    async def _list_messages(self, req: _Req) -> web.StreamResponse:
        channel_id = req.int_param("channel_id")
        self._require_channel(channel_id)
        limit = max(1, min(100, int(req.query.get("limit", "50"))))
        ids = list(self._history.get(channel_id, []))
        if "before" in req.query:
            ids = [i for i in ids if i < int(req.query["before"])]
        if "after" in req.query:
            ids = [i for i in ids if i > int(req.query["after"])]
            ids = ids[:limit]
        newest_first = sorted(ids, reverse=True)[:limit]
        return _json_response([dict(self._messages[i]) for i in newest_first])

    async def _get_message(self, req: _Req) -> web.StreamResponse:
        message = self._require_message(req.int_param("channel_id"), req.int_param("message_id"))
        return _json_response(dict(message))

    def _take_rate_limit(self, channel_id: int) -> dict[str, str]:
        """Count one message create against the channel's window; raise 429 when spent."""
        config = self._rate_limits.get(channel_id) or self._rate_limits.get(None)
        if config is None:
            return {}
        now = time.monotonic()
        window = self._windows.setdefault(channel_id, _Window())
        if config.renew_after_429:
            if window.hit is not None and now - window.hit >= config.per:
                window.used, window.hit = 0, None
            if window.used >= config.limit and window.hit is None:
                window.hit = now
            renewed = now if window.hit is None else window.hit
        else:
            if now - window.started >= config.per:
                window.started, window.used = now, 0
            renewed = window.started
        reset_after = max(0.0, config.per - (now - renewed))
        headers = {
            "X-RateLimit-Limit": str(config.limit),
            "X-RateLimit-Bucket": f"fake-message-create-{config.limit}-{config.per}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        }
        if window.used >= config.limit:
            self.rate_limit_hits += 1
            # discord.py treats a 429 without Via as a Cloudflare ban; Discord's carry it.
            raise _ApiError(
                429,
                {
                    "message": "You are being rate limited.",
                    "retry_after": round(reset_after, 3),
                    "global": False,
                    "code": 20028,
                },
                {
                    **headers,
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Scope": "user" if config.advertise else "shared",
                    "Retry-After": str(math.ceil(reset_after)),
                    "Via": "1.1 google",
                },
            )
        window.used += 1
        if not config.advertise:
            return {}
        return {**headers, "X-RateLimit-Remaining": str(config.limit - window.used)}

    async def _post_message(self, req: _Req) -> web.StreamResponse:
        channel_id = req.int_param("channel_id")
        self._require_channel(channel_id)
        body = req.body if isinstance(req.body, dict) else {}
        _validate_message_body(body)
        headers = self._take_rate_limit(channel_id)
        earlier = self._same_nonce(channel_id, body)
        if earlier is not None:  # Discord returns the first message and creates none
            return _json_response(dict(earlier), headers=headers)
        await self._reopen_if_archived(channel_id)
        message = self._create_message(channel_id, self.bot_user, body)
        await self._dispatch("MESSAGE_CREATE", self._gateway_message(message))
        return _json_response(dict(message), headers=headers)

    async def _reopen_if_archived(self, channel_id: int) -> None:
        """A message sent into an archived thread unarchives it; a locked one refuses it."""
        metadata = self._channels[channel_id].get("thread_metadata")
        if metadata is None or not metadata["archived"]:
            return
        if metadata["locked"]:
            raise _error(400, 50083, "Thread is archived")
        await self._set_thread_state(channel_id, archived=False)

    def _same_nonce(self, channel_id: int, body: Json) -> Json | None:
        """The bot's earlier message in the channel with this nonce, when ``enforce_nonce``
        asks for it. Discord remembers nonces for a few minutes; the fake for its lifetime."""
        nonce = body.get("nonce")
        if not body.get("enforce_nonce") or nonce is None:
            return None
        for message_id in self._history.get(channel_id, []):
            message = self._messages[message_id]
            if message.get("nonce") == nonce and int(message["author"]["id"]) == self.bot_user.id:
                return message
        return None

    async def _patch_message(self, req: _Req) -> web.StreamResponse:
        message = self._require_message(req.int_param("channel_id"), req.int_param("message_id"))
        body = req.body if isinstance(req.body, dict) else {}
        if int(message["author"]["id"]) != self.bot_user.id and set(body) - {"flags"}:
            raise _error(403, 50005, "Cannot edit a message authored by another user")
        _validate_message_body(body, require_payload=False)
        self._apply_edit(message, body)
        await self._dispatch("MESSAGE_UPDATE", self._gateway_message(message))
        return _json_response(dict(message))

    async def _delete_message(self, req: _Req) -> web.StreamResponse:
        channel_id = req.int_param("channel_id")
        message_id = req.int_param("message_id")
        self._require_message(channel_id, message_id)
        await self._remove_message(channel_id, message_id)
        return _no_content()

    async def _remove_message(self, channel_id: int, message_id: int) -> None:
        self._messages.pop(message_id, None)
        history = self._history.get(channel_id, [])
        if message_id in history:
            history.remove(message_id)
            data = {"id": str(message_id), "channel_id": str(channel_id)}
            await self._dispatch("MESSAGE_DELETE", {**data, "guild_id": str(self.guild_id)})

    async def _typing(self, req: _Req) -> web.StreamResponse:
        self._require_channel(req.int_param("channel_id"))
        return _no_content()

    async def _list_pins(self, req: _Req) -> web.StreamResponse:
        channel_id = req.int_param("channel_id")
        self._require_channel(channel_id)
        return _json_response([m for m in self.messages(channel_id) if m["pinned"]][::-1])

    async def _list_pins_v2(self, req: _Req) -> web.StreamResponse:
        channel_id = req.int_param("channel_id")
        self._require_channel(channel_id)
        pinned = [m for m in self.messages(channel_id) if m["pinned"]][::-1]
        items = [{"pinned_at": m["timestamp"], "message": m} for m in pinned]
        return _json_response({"items": items, "has_more": False})

    async def _pin(self, req: _Req) -> web.StreamResponse:
        return await self._set_pinned(req, pinned=True)

    async def _unpin(self, req: _Req) -> web.StreamResponse:
        return await self._set_pinned(req, pinned=False)

    async def _set_pinned(self, req: _Req, *, pinned: bool) -> web.StreamResponse:
        channel_id = req.int_param("channel_id")
        message = self._require_message(channel_id, req.int_param("message_id"))
        message["pinned"] = pinned
        now = _now_iso()
        await self._dispatch(
            "CHANNEL_PINS_UPDATE",
            {
                "guild_id": str(self.guild_id),
                "channel_id": str(channel_id),
                "last_pin_timestamp": now if pinned else None,
            },
        )
        return _no_content()

    # ------------------------------------------------------------------ REST: threads

    def _new_thread(self, parent_id: int, thread_id: int, name: str, kind: int, body: Json) -> Json:
        now = _now_iso()
        thread: Json = {
            "id": str(thread_id),
            "type": kind,
            "guild_id": str(self.guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(self.bot_user.id),
            "name": name,
            "last_message_id": None,
            "message_count": 0,
            "total_message_sent": 0,
            "member_count": 1,
            "rate_limit_per_user": int(body.get("rate_limit_per_user") or 0),
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(body.get("auto_archive_duration") or 4320),
                "archive_timestamp": now,
                "locked": False,
                "create_timestamp": now,
                **(
                    {"invitable": bool(body.get("invitable", True))}
                    if kind == PRIVATE_THREAD
                    else {}
                ),
            },
        }
        self._channels[thread_id] = thread
        self._thread_members[thread_id] = {self.bot_user.id: now}
        return thread

    def _thread_name(self, body: Json) -> str:
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise _form_error(
                [(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")]
            )
        return name

    async def _create_thread(self, req: _Req) -> web.StreamResponse:
        parent_id = req.int_param("channel_id")
        parent = self._require_channel(parent_id)
        body = req.body if isinstance(req.body, dict) else {}
        name = self._thread_name(body)
        # Discord defaults to a private thread when no type is given.
        kind = int(body.get("type") or PRIVATE_THREAD)
        if parent["type"] != GUILD_TEXT or kind not in THREAD_TYPES:
            raise _error(400, 50024, "Cannot execute action on this channel type")
        thread_id = self._ids.next()
        self._new_thread(parent_id, thread_id, name, kind, body)
        await self._dispatch(
            "THREAD_CREATE",
            {**self._thread_payload(thread_id, for_user=self.bot_user.id), "newly_created": True},
        )
        return _json_response(
            self._thread_payload(thread_id, for_user=self.bot_user.id), status=201
        )

    async def _thread_from_message(self, req: _Req) -> web.StreamResponse:
        parent_id = req.int_param("channel_id")
        message_id = req.int_param("message_id")
        message = self._require_message(parent_id, message_id)
        if self._channels[parent_id]["type"] != GUILD_TEXT:
            raise _error(400, 50024, "Cannot execute action on this channel type")
        if message_id in self._channels:
            raise _error(400, 160004, "A thread has already been created for this message")
        body = req.body if isinstance(req.body, dict) else {}
        name = self._thread_name(body)
        # A thread started from a message is public and shares the message's id.
        self._new_thread(parent_id, message_id, name, PUBLIC_THREAD, body)
        message["thread"] = self._thread_payload(message_id)
        await self._dispatch(
            "THREAD_CREATE",
            {**self._thread_payload(message_id, for_user=self.bot_user.id), "newly_created": True},
        )
        return _json_response(
            self._thread_payload(message_id, for_user=self.bot_user.id), status=201
        )

    async def _add_thread_member(self, req: _Req) -> web.StreamResponse:
        thread_id = req.int_param("channel_id")
        channel = self._require_channel(thread_id)
        if channel["type"] not in THREAD_TYPES:
            raise _error(400, 50024, "Cannot execute action on this channel type")
        raw_user = req.params["user_id"]
        user_id = self.bot_user.id if raw_user == "@me" else req.int_param("user_id")
        if user_id not in self.users:
            raise _unknown("Member", 10007)
        members = self._thread_members.setdefault(thread_id, {})
        if user_id not in members:
            now = _now_iso()
            members[user_id] = now
            await self._dispatch(
                "THREAD_MEMBERS_UPDATE",
                {
                    "id": str(thread_id),
                    "guild_id": str(self.guild_id),
                    "member_count": min(len(members), 50),
                    "added_members": [
                        {
                            "id": str(thread_id),
                            "user_id": str(user_id),
                            "join_timestamp": now,
                            "flags": 0,
                            "member": self.users[user_id].member_payload(),
                        }
                    ],
                },
            )
        return _no_content()

    async def _list_thread_members(self, req: _Req) -> web.StreamResponse:
        thread_id = req.int_param("channel_id")
        self._require_channel(thread_id)
        members = self._thread_members.get(thread_id, {})
        return _json_response(
            [
                {"id": str(thread_id), "user_id": str(uid), "join_timestamp": ts, "flags": 0}
                for uid, ts in members.items()
            ]
        )

    # ------------------------------------------------------------------ REST: app commands

    def _command_scope(self, req: _Req) -> int | None:
        if req.int_param("app_id") != self.application_id:
            raise _unknown("Application", 10002)
        if "guild_id" in req.params:
            self._require_guild(req)
            return self.guild_id
        return None

    def _store_command(self, scope: int | None, spec: Json, index: int) -> Json:
        name = str(spec.get("name") or "")
        kind = int(spec.get("type") or 1)
        errors: list[tuple[tuple[str, ...], str, str]] = []
        # Chat-input names are lowercase words; user and message commands (types 2 and 3)
        # are labels shown in a menu: any case, spaces allowed, 1..32 characters.
        valid = (
            _COMMAND_NAME.fullmatch(name) and name == name.lower()
            if kind == 1
            else 1 <= len(name) <= 32 and name == name.strip()
        )
        if not valid:
            errors.append(
                (
                    (str(index), "name"),
                    "APPLICATION_COMMAND_INVALID_NAME",
                    "Command name is invalid",
                )
            )
        if kind == 1 and not 1 <= len(str(spec.get("description") or "")) <= 100:
            errors.append(
                (
                    (str(index), "description"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
            )
        if errors:
            raise _form_error(errors)
        existing = self._commands.get(scope, [])
        same = next((c for c in existing if c["name"] == name and c["type"] == kind), None)
        command: Json = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **spec,
            "id": same["id"] if same else str(self._ids.next()),
            "application_id": str(self.application_id),
            "type": kind,
            "version": str(self._ids.next()),
        }
        if scope is not None:
            command["guild_id"] = str(scope)
        return command

    async def _get_commands(self, req: _Req) -> web.StreamResponse:
        return _json_response(self.commands(self._command_scope(req)))

    async def _put_commands(self, req: _Req) -> web.StreamResponse:
        scope = self._command_scope(req)
        specs = req.body if isinstance(req.body, list) else []
        stored = [self._store_command(scope, spec, i) for i, spec in enumerate(specs)]
        self._commands[scope] = stored
        self._bump()
        return _json_response(stored)

    async def _post_command(self, req: _Req) -> web.StreamResponse:
        scope = self._command_scope(req)
        spec = req.body if isinstance(req.body, dict) else {}
        command = self._store_command(scope, spec, 0)
        existing = [c for c in self._commands.get(scope, []) if c["id"] != command["id"]]
        self._commands[scope] = [*existing, command]
        self._bump()
        return _json_response(command, status=201)

    # ------------------------------------------------------------------ REST: interactions

    def _interaction_for(self, req: _Req, id_param: str) -> _Interaction:
        try:
            key = int(req.params[id_param])
        except ValueError:
            key = -1
        interaction = self._interactions.get(key)
        if interaction is None or interaction.token != req.params["token"]:
            raise _unknown("interaction", 10062)
        return interaction

    async def _callback(self, req: _Req) -> web.StreamResponse:
        body = req.body if isinstance(req.body, dict) else {}
        kind = int(body.get("type") or 0)
        data: Json = dict(body.get("data") or {})
        try:
            interaction = self._interaction_for(req, "interaction_id")
            result = await self._accept_callback(interaction, kind, data)
        except _ApiError as exc:
            self._record_callback(req, kind, data, exc.status)
            raise
        self._record_callback(req, kind, data, 200)
        if req.query.get("with_response") not in ("1", "true", "True"):
            return _no_content()
        return _json_response(result)

    def _record_callback(self, req: _Req, kind: int, data: Json, status: int) -> None:
        try:
            interaction_id = int(req.params["interaction_id"])
        except ValueError:
            interaction_id = -1
        self.interaction_callbacks.append(
            InteractionCallback(interaction_id, req.params["token"], kind, data, status)
        )
        self._bump()

    async def _accept_callback(self, interaction: _Interaction, kind: int, data: Json) -> Json:
        """Apply one interaction response and build Discord's `with_response` body."""
        if interaction.acknowledged:
            raise _error(400, 40060, "Interaction has already been acknowledged.")
        deadline = self.interaction_deadline
        if deadline is not None and time.monotonic() - interaction.created > deadline:
            raise _unknown("interaction", 10062)
        on_component = interaction.type == INTERACTION_MESSAGE_COMPONENT
        allowed = {CALLBACK_CHANNEL_MESSAGE, CALLBACK_DEFERRED_CHANNEL_MESSAGE, CALLBACK_MODAL}
        if on_component:
            allowed |= {CALLBACK_DEFERRED_UPDATE_MESSAGE, CALLBACK_UPDATE_MESSAGE}
        if kind not in allowed:
            raise _form_error(
                [
                    (
                        ("type",),
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        "Invalid interaction response type",
                    )
                ]
            )
        if kind == CALLBACK_MODAL:
            if not str(data.get("custom_id") or "") or not data.get("components"):
                raise _form_error([(("data",), "BASE_TYPE_REQUIRED", "a modal needs components")])
            self.modals.append({**data, "channel_id": interaction.channel_id})
        flags = int(data.get("flags") or 0)
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        resource: Json | None = None
        if kind in (CALLBACK_CHANNEL_MESSAGE, CALLBACK_DEFERRED_CHANNEL_MESSAGE):
            body = dict(data)
            if kind == CALLBACK_CHANNEL_MESSAGE:
                _validate_message_body(body)
            else:
                body = {"flags": flags | FLAG_LOADING}
            message = self._create_message(
                interaction.channel_id,
                self.bot_user,
                {**body, "flags": int(body.get("flags") or 0) & ~FLAG_EPHEMERAL},
                kind=MESSAGE_DEFAULT if on_component else MESSAGE_CHAT_INPUT_COMMAND,
                ephemeral=ephemeral,
                extra=self._interaction_metadata(interaction),
            )
            interaction.original_message_id = int(message["id"])
            resource = message
            if not ephemeral:
                await self._dispatch("MESSAGE_CREATE", self._gateway_message(message))
        elif kind in (CALLBACK_DEFERRED_UPDATE_MESSAGE, CALLBACK_UPDATE_MESSAGE):
            interaction.original_message_id = interaction.message_id
            if kind == CALLBACK_UPDATE_MESSAGE and interaction.message_id is not None:
                _validate_message_body(data, require_payload=False)
                message = self._messages[interaction.message_id]
                self._apply_edit(message, data)
                resource = message
                if not int(message["flags"]) & FLAG_EPHEMERAL:
                    await self._dispatch("MESSAGE_UPDATE", self._gateway_message(message))
        interaction.acknowledged = True
        result: Json = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": kind == CALLBACK_DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": ephemeral,
            }
        }
        if interaction.original_message_id is not None:
            result["interaction"]["response_message_id"] = str(interaction.original_message_id)
        if resource is not None:
            result["resource"] = {"type": kind, "message": dict(resource)}
        return result

    def _interaction_metadata(self, interaction: _Interaction) -> Json:
        metadata: Json = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": self.users[interaction.user_id].payload(),
            "authorizing_integration_owners": {"0": str(self.guild_id)},
        }
        if interaction.message_id is not None:
            metadata["interacted_message_id"] = str(interaction.message_id)
        return {
            "application_id": str(self.application_id),
            "webhook_id": str(self.application_id),
            "interaction_metadata": metadata,
        }

    def _webhook_interaction(self, req: _Req) -> _Interaction:
        if req.params["app_id"] != str(self.application_id):
            raise _unknown("Webhook", 10015)
        for interaction in self._interactions.values():
            if interaction.token == req.params["token"]:
                return interaction
        raise _unknown("Webhook", 10015)

    def _webhook_message(self, req: _Req, interaction: _Interaction) -> Json:
        raw = req.params["message_id"]
        message_id = interaction.original_message_id if raw == "@original" else int(raw)
        message = self._messages.get(message_id) if message_id is not None else None
        if message is None:
            raise _unknown("Message", 10008)
        return message

    async def _post_followup(self, req: _Req) -> web.StreamResponse:
        interaction = self._webhook_interaction(req)
        body = req.body if isinstance(req.body, dict) else {}
        _validate_message_body(body)
        ephemeral = bool(int(body.get("flags") or 0) & FLAG_EPHEMERAL)
        message = self._create_message(
            interaction.channel_id,
            self.bot_user,
            {**body, "flags": int(body.get("flags") or 0) & ~FLAG_EPHEMERAL},
            ephemeral=ephemeral,
            extra=self._interaction_metadata(interaction),
        )
        if not ephemeral:
            await self._dispatch("MESSAGE_CREATE", self._gateway_message(message))
        if req.query.get("wait") in ("true", "1", "True"):
            return _json_response(dict(message))
        return _no_content()

    async def _get_webhook_msg(self, req: _Req) -> web.StreamResponse:
        interaction = self._webhook_interaction(req)
        return _json_response(dict(self._webhook_message(req, interaction)))

    async def _patch_webhook_msg(self, req: _Req) -> web.StreamResponse:
        interaction = self._webhook_interaction(req)
        message = self._webhook_message(req, interaction)
        body = req.body if isinstance(req.body, dict) else {}
        _validate_message_body(body, require_payload=False)
        self._apply_edit(message, body)
        if not int(message["flags"]) & FLAG_EPHEMERAL:
            await self._dispatch("MESSAGE_UPDATE", self._gateway_message(message))
        return _json_response(dict(message))

    async def _delete_webhook_msg(self, req: _Req) -> web.StreamResponse:
        interaction = self._webhook_interaction(req)
        message = self._webhook_message(req, interaction)
        await self._remove_message(int(message["channel_id"]), int(message["id"]))
        return _no_content()


@contextlib.contextmanager
def point_discord_py_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at the fake, restoring both on exit.

    Both are class attributes (process-wide), so clients created inside the block and
    everything they do use the fake: REST (`discord.http.Route.BASE`, also used for interaction
    callbacks and webhooks) and IDENTIFY (`DiscordWebSocket.DEFAULT_GATEWAY`; discord.py does not
    ask GET /gateway for a plain Client). Resumes go to READY's resume_gateway_url.
    """
    with warnings.catch_warnings():
        # discord.py's voice support imports the stdlib audioop, deprecated since Python 3.11.
        warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
        import discord.gateway
        import discord.http
    import yarl

    route = discord.http.Route
    websocket = discord.gateway.DiscordWebSocket
    saved_base, saved_gateway = route.BASE, websocket.DEFAULT_GATEWAY
    route.BASE = fake.api_base
    websocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        route.BASE = saved_base
        websocket.DEFAULT_GATEWAY = saved_gateway


@contextlib.asynccontextmanager
async def running_fake(**options: Any) -> AsyncIterator[FakeDiscord]:
    """`FakeDiscord(**options)` started and discord.py pointed at it, for fixtures."""
    async with FakeDiscord(**options) as fake:
        with point_discord_py_at(fake):
            yield fake
