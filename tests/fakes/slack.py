"""A wire-level loopback fake of the Slack platform, for tests that run the real SDKs.

The bot side talks to it exactly as to Slack: slack-sdk's ``AsyncWebClient`` calls the Web API
under ``api_url`` (JSON, form or query parameters, bearer token), slack-bolt's Socket Mode client
opens a websocket handed out by ``apps.connections.open``, and ``response_url`` posts land here.
The human side signs and POSTs Events API envelopes, ``block_actions`` forms and slash-command
forms to a bot's HTTP endpoint, or pushes Socket Mode envelopes. Every request is recorded and
every wait is bounded, so tests assert on what crossed the wire instead of sleeping.

Written from Slack's documented protocol, not from the SDKs' internals.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import hmac
import itertools
import json
import math
import secrets
import socket
import time
import uuid
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any
from urllib.parse import urlencode

from aiohttp import ClientSession, ClientTimeout, WSCloseCode, WSMsgType, web
from yarl import URL

from tests.bounds import WAIT
from tests.fakes.chaos import FaultPlan

__all__ = [
    "ApiCall",
    "Delayed",
    "FakeSlack",
    "HttpReply",
    "ResponseUrlPost",
    "SlackUser",
    "SocketAck",
]

JsonDict = dict[str, Any]

_ENVELOPE_TYPES = frozenset({"events_api", "interactive", "slash_commands"})
_APP_LEVEL_METHODS = frozenset({"apps.connections.open"})
_JSON_ENCODED_PARAMS = ("blocks", "attachments", "metadata", "view")
_BOT_SCOPES = "chat:write,chat:write.customize,commands,im:history,im:write,pins:write,users:read"
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
# Bounds teardown: a peer that never answers a close handshake must not stall a test for long.
_CLOSE_TIMEOUT = 2.0


@dataclass(frozen=True, kw_only=True, slots=True)
class ApiCall:
    """One Web API request as the fake received and answered it."""

    method: str
    params: JsonDict
    token: str | None
    http_method: str
    status: int
    error: str | None

    @property
    def ok(self) -> bool:
        """Whether Slack would have answered ``{"ok": true}``."""
        return self.status == 200 and self.error is None


@dataclass(frozen=True, kw_only=True, slots=True)
class SocketAck:
    """An acknowledgement a Socket Mode client sent back for one envelope."""

    envelope_id: str
    payload: JsonDict | None


@dataclass(frozen=True, kw_only=True, slots=True)
class ResponseUrlPost:
    """A bot's POST to a ``response_url`` that the fake handed out with an interaction."""

    response_id: str
    body: JsonDict


@dataclass(frozen=True, kw_only=True, slots=True)
class HttpReply:
    """A bot endpoint's answer to a request sent from the human side."""

    status: int
    body: str
    headers: dict[str, str]

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)


@dataclass(frozen=True, kw_only=True, slots=True)
class SlackUser:
    """A workspace member the fake knows."""

    id: str
    name: str
    real_name: str
    is_bot: bool = False


@dataclass(kw_only=True, slots=True)
class _Channel:
    id: str
    name: str
    members: set[str]
    is_im: bool = False
    messages: list[JsonDict] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True, slots=True)
class _Interaction:
    channel: str
    message_ts: str | None
    thread_ts: str | None
    user_id: str


class _ApiError(Exception):
    """A Web API refusal, answered as ``{"ok": false, "error": ...}``."""

    def __init__(self, error: str, detail: str | None = None) -> None:
        super().__init__(error)
        self.error = error
        self.detail = detail


class _RateLimited(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class Delayed:
    """A call held back by ``FakeSlack.delay_next`` until ``release()``."""

    def __init__(self) -> None:
        self.arrived = asyncio.Event()
        self.released = asyncio.Event()

    def release(self) -> None:
        self.released.set()


class FakeSlack:
    """A loopback Slack: Web API, Socket Mode and response_url server plus the human side.

    Use as ``async with FakeSlack() as fake:``; it binds 127.0.0.1 on a free port.
    ``post_interval_per_channel`` answers a ``chat.postMessage`` to a channel that had an
    accepted post less than that many seconds ago with HTTP 429 and ``Retry-After``; ``clock``
    (monotonic seconds) measures those intervals so tests can drive it.
    """

    def __init__(
        self,
        *,
        post_interval_per_channel: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.team_id = "T0FAKE0001"
        self.team_domain = "crewline-fake"
        self.api_app_id = "A0FAKE0001"
        self.bot_id = "B0FAKE0001"
        self.bot_user_id = "U0FAKEBOT1"
        self.owner_user_id = "U0FAKEOWN1"
        self.bot_token = f"xoxb-{secrets.token_hex(12)}"
        self.app_token = f"xapp-1-{self.api_app_id}-{secrets.token_hex(12)}"
        self.signing_secret = secrets.token_hex(16)
        self.verification_token = secrets.token_hex(12)

        self.calls: list[ApiCall] = []
        self.rate_limited_count = 0
        self.home_views: dict[str, JsonDict] = {}
        self.modals: list[JsonDict] = []  # views.open, in order
        self._used_triggers: set[str] = set()
        self.response_url_posts: list[ResponseUrlPost] = []
        self.socket_acks: dict[str, SocketAck] = {}
        self.socket_connection_count = 0

        self._post_interval = post_interval_per_channel
        self._clock = clock
        self._last_post: dict[str, float] = {}
        self._faults: defaultdict[str, deque[tuple[int, str]]] = defaultdict(deque)
        self._holds: list[tuple[str, Callable[[JsonDict], bool]]] = []
        self._resets: list[tuple[str, Callable[[JsonDict], bool]]] = []
        self._delays: list[tuple[str, Callable[[JsonDict], bool], Delayed]] = []
        self._refusals: list[tuple[str, Callable[[JsonDict], bool], int, str]] = []
        self.faults: FaultPlan | None = None  # seeded random faults (tests/fakes/chaos.py)
        self._stopping = asyncio.Event()
        self._users: dict[str, SlackUser] = {}
        self._channels: dict[str, _Channel] = {}
        self._dms: dict[str, str] = {}
        self._mpims: dict[frozenset[str], str] = {}
        self._ephemerals: list[JsonDict] = []
        self._interactions: dict[str, _Interaction] = {}
        self._tickets: set[str] = set()
        self._sockets: list[web.WebSocketResponse] = []
        self._ids = itertools.count(1)
        # Slack's own clock (epoch seconds), which stamps every message's ``ts``; a test moves
        # it to have messages posted earlier, or Slack's clock differ from crewline's.
        self.wall = wall
        self._last_ts = 0  # microseconds
        self._changed = asyncio.Condition()
        self._base_url: str | None = None
        self._runner: web.AppRunner | None = None
        self._http: ClientSession | None = None
        self._methods: dict[str, Callable[[JsonDict], JsonDict]] = {
            "auth.test": self._auth_test,
            "apps.connections.open": self._apps_connections_open,
            "chat.delete": self._chat_delete,
            "chat.getPermalink": self._chat_get_permalink,
            "chat.postEphemeral": self._chat_post_ephemeral,
            "chat.postMessage": self._chat_post_message,
            "chat.update": self._chat_update,
            "conversations.history": self._conversations_history,
            "conversations.open": self._conversations_open,
            "conversations.replies": self._conversations_replies,
            "pins.add": self._pins_add,
            "users.info": self._users_info,
            "views.publish": self._views_publish,
            "views.open": self._views_open,
        }
        self._users[self.bot_user_id] = SlackUser(
            id=self.bot_user_id, name="crewline", real_name="crewline", is_bot=True
        )
        self._users[self.owner_user_id] = SlackUser(
            id=self.owner_user_id, name="owner", real_name="Owner Human"
        )

    # -- lifecycle ------------------------------------------------------------------------

    async def __aenter__(self) -> FakeSlack:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._handle_api)
        app.router.add_get("/socket-mode", self._handle_socket)
        app.router.add_post("/response/{response_id}", self._handle_response_url)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=_CLOSE_TIMEOUT)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        await web.SockSite(self._runner, sock).start()
        self._base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self._http = ClientSession(timeout=ClientTimeout(total=WAIT))
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stopping.set()
        for ws in list(self._sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"fake slack stopped")
        if self._http is not None:
            await self._http.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        """The fake's root URL, ``http://127.0.0.1:PORT``."""
        if self._base_url is None:
            raise RuntimeError("FakeSlack is not started; use it as an async context manager")
        return self._base_url

    @property
    def api_url(self) -> str:
        """The Web API base, with the trailing slash ``AsyncWebClient(base_url=...)`` needs."""
        return f"{self.base_url}/api/"

    # -- workspace ------------------------------------------------------------------------

    def add_user(self, name: str, *, real_name: str | None = None) -> str:
        """Add a human member and return their user id."""
        user_id = self._new_id("U")
        self._users[user_id] = SlackUser(id=user_id, name=name, real_name=real_name or name)
        return user_id

    def add_channel(self, name: str, *, members: set[str] | None = None) -> str:
        """Add a public channel (everyone and the bot by default) and return its id."""
        channel_id = self._new_id("C")
        everyone = members if members is not None else set(self._users)
        self._channels[channel_id] = _Channel(
            id=channel_id, name=name, members=everyone | {self.bot_user_id}
        )
        return channel_id

    def dm_channel(self, user_id: str) -> str:
        """The id of the bot's DM with ``user_id``, the same one ``conversations.open`` gives."""
        if user_id not in self._users:
            raise KeyError(f"unknown user {user_id!r}")
        if user_id not in self._dms:
            channel_id = self._new_id("D")
            self._dms[user_id] = channel_id
            self._channels[channel_id] = _Channel(
                id=channel_id, name=user_id, members={user_id, self.bot_user_id}, is_im=True
            )
        return self._dms[user_id]

    def user(self, user_id: str) -> SlackUser:
        """The member with ``user_id``."""
        return self._users[user_id]

    # -- inspection -----------------------------------------------------------------------

    def calls_to(self, method: str) -> list[ApiCall]:
        """Every recorded call to ``method``, answered or refused, oldest first."""
        return [call for call in self.calls if call.method == method]

    def messages(self, channel: str) -> list[JsonDict]:
        """Copies of every message stored in ``channel`` (thread replies too), oldest first."""
        return copy.deepcopy(self._channels[channel].messages)

    def thread(self, channel: str, thread_ts: str) -> list[JsonDict]:
        """Copies of a thread's root and replies, oldest first."""
        return copy.deepcopy(self._thread_of(self._channels[channel], thread_ts))

    def add_replies(
        self, channel: str, thread_ts: str, count: int, *, user_id: str | None = None
    ) -> list[str]:
        """Store ``count`` replies by a person (the owner by default) in a thread, stamped by
        ``wall``, without sending their events: a history that was there before. Their
        timestamps, oldest first."""
        stored = self._channels[channel]
        user = user_id or self.owner_user_id
        added = []
        for n in range(count):
            ts = self._next_ts()
            text = f"earlier reply {n + 1}"
            self._store(
                stored,
                {"type": "message", "user": user, "text": text, "ts": ts, "thread_ts": thread_ts},
            )
            added.append(ts)
        return added

    def ephemeral_messages(self, channel: str) -> list[JsonDict]:
        """Copies of the ephemeral messages shown in ``channel``; each names its ``user``."""
        return [copy.deepcopy(m) for m in self._ephemerals if m["channel"] == channel]

    def pinned(self, channel: str) -> list[str]:
        """The timestamps of the messages pinned in ``channel``."""
        return list(self._channels[channel].pinned)

    def fail_next(
        self, method: str, *, status: int | None = None, error: str | None = None, times: int = 1
    ) -> None:
        """Make the next ``times`` calls to ``method`` fail before any other check.

        With only ``error``, the answer is HTTP 200 ``{"ok": false, "error": error}``; otherwise
        it is ``status`` (500 by default) with ``error`` (``internal_error`` by default).
        """
        answer_status = status if status is not None else (200 if error else 500)
        answer_error = error or "internal_error"
        self._faults[method].extend([(answer_status, answer_error)] * times)

    def refuse(
        self,
        method: str,
        *,
        where: Callable[[JsonDict], bool] = lambda _params: True,
        status: int = 500,
        error: str = "internal_error",
    ) -> Callable[[], None]:
        """Answer every call to ``method`` whose parameters satisfy ``where`` with ``status``
        and ``error``, not carrying it out, until the returned function is called: one kind
        of call failing for a while (the calls are recorded, as refused)."""
        refusal = (method, where, status, error)
        self._refusals.append(refusal)
        return lambda: self._refusals.remove(refusal)

    def hold_next(
        self, method: str, *, where: Callable[[JsonDict], bool] = lambda _params: True
    ) -> None:
        """Carry out the next call to ``method`` whose parameters satisfy ``where``, but never
        answer it: what a caller killed mid-call leaves behind (the call landed; the caller
        never learned so). The held request is answered with HTTP 503 when the fake stops.
        """
        self._holds.append((method, where))

    def delay_next(
        self, method: str, *, where: Callable[[JsonDict], bool] = lambda _params: True
    ) -> Delayed:
        """Carry out the next call to ``method`` whose parameters satisfy ``where`` only once
        the returned handle is released: a request slow on its way to Slack, which other
        callers' requests overtake. ``arrived`` is set when the call has come in."""
        delayed = Delayed()
        self._delays.append((method, where, delayed))
        return delayed

    def reset_next(
        self, method: str, *, where: Callable[[JsonDict], bool] = lambda _params: True
    ) -> None:
        """Carry out the next call to ``method`` whose parameters satisfy ``where``, then drop
        the connection before answering: the call landed, the caller saw a reset."""
        self._resets.append((method, where))

    @property
    def resets_pending(self) -> int:
        """How many ``reset_next`` calls have not met their call yet."""
        return len(self._resets)

    # -- bounded waits --------------------------------------------------------------------
    # These take a ``timeout`` (ASYNC109) on purpose: a default bound on every wait keeps a
    # broken bot from hanging a test, which callers would otherwise have to remember.

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        *,
        timeout: float = WAIT,
        what: str = "a condition",
    ) -> None:
        """Return once ``predicate()`` holds, re-checked whenever the fake records something.

        Only the fake's own state wakes it; wait on your own event for state outside the fake.
        """
        try:
            async with asyncio.timeout(timeout), self._changed:
                await self._changed.wait_for(predicate)
        except TimeoutError:
            raise TimeoutError(f"FakeSlack waited {timeout}s for {what}") from None

    async def wait_for_call(
        self,
        method: str,
        *,
        count: int = 1,
        timeout: float = WAIT,
    ) -> list[ApiCall]:
        """Return the calls to ``method`` once there are at least ``count`` of them."""
        await self.wait_until(
            lambda: len(self.calls_to(method)) >= count,
            timeout=timeout,
            what=f"{count} call(s) to {method}",
        )
        return self.calls_to(method)

    async def wait_for_ack(self, envelope_id: str, *, timeout: float = WAIT) -> SocketAck:
        """Return the Socket Mode client's ack of ``envelope_id`` once it arrives."""
        await self.wait_until(
            lambda: envelope_id in self.socket_acks, timeout=timeout, what=f"ack of {envelope_id}"
        )
        return self.socket_acks[envelope_id]

    async def wait_for_socket(self, *, connections: int = 1, timeout: float = WAIT) -> None:
        """Return once ``connections`` sockets have connected in total and one is open."""
        await self.wait_until(
            lambda: self.socket_connection_count >= connections and bool(self._open_sockets()),
            timeout=timeout,
            what=f"Socket Mode connection #{connections}",
        )

    async def wait_for_response_url_post(
        self,
        *,
        count: int = 1,
        timeout: float = WAIT,
    ) -> list[ResponseUrlPost]:
        """Return the response_url posts once there are at least ``count`` of them."""
        await self.wait_until(
            lambda: len(self.response_url_posts) >= count,
            timeout=timeout,
            what=f"{count} response_url post(s)",
        )
        return list(self.response_url_posts)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # -- Web API --------------------------------------------------------------------------

    async def _handle_api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await _read_params(request)
        form_token = params.pop("token", None)
        token = _bearer_token(request) or form_token
        held = self._take(self._holds, method, params)
        for entry in self._delays:
            if entry[0] == method and entry[1](params):
                self._delays.remove(entry)
                entry[2].arrived.set()
                await entry[2].released.wait()
                break
        fault = self.faults.draw(method) if self.faults is not None else None
        if self._take(self._resets, method, params):
            fault = "landed-reset"
        if fault == "reset":  # the connection drops before Slack saw the call
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=500)
        if fault in ("500", "503"):
            return web.json_response({"ok": False, "error": "internal_error"}, status=int(fault))
        if fault == "429":
            return web.json_response(
                {"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": "1"}
            )
        status, body, headers = self._answer(method, params, token)
        self.calls.append(
            ApiCall(
                method=method,
                params=params,
                token=token,
                http_method=request.method,
                status=status,
                error=None if body["ok"] else body["error"],
            )
        )
        await self._notify()
        if fault == "landed-reset":  # Slack carried the call out; its answer never arrived
            assert request.transport is not None
            request.transport.close()
        if held:
            await self._stopping.wait()
            return web.json_response({"ok": False, "error": "fake_stopped"}, status=503)
        return web.json_response(body, status=status, headers=headers)

    @staticmethod
    def _take(
        wanted: list[tuple[str, Callable[[JsonDict], bool]]], method: str, params: JsonDict
    ) -> bool:
        for entry in wanted:
            wanted_method, where = entry
            if wanted_method == method and where(params):
                wanted.remove(entry)
                return True
        return False

    def _answer(
        self, method: str, params: JsonDict, token: str | None
    ) -> tuple[int, JsonDict, dict[str, str]]:
        headers = {"X-OAuth-Scopes": _BOT_SCOPES}
        handler = self._methods.get(method)
        if handler is None:
            return 200, {"ok": False, "error": "unknown_method", "req_method": method}, headers
        if self._faults[method]:
            status, error = self._faults[method].popleft()
            return status, {"ok": False, "error": error}, headers
        for refused, where, status, error in self._refusals:
            if refused == method and where(params):
                return status, {"ok": False, "error": error}, headers
        try:
            self._authenticate(method, token)
            return 200, {"ok": True, **handler(params)}, headers
        except _RateLimited as limited:
            self.rate_limited_count += 1
            headers["Retry-After"] = str(limited.retry_after)
            return 429, {"ok": False, "error": "ratelimited"}, headers
        except _ApiError as refusal:
            body: JsonDict = {"ok": False, "error": refusal.error}
            if refusal.detail:
                body["response_metadata"] = {"messages": [f"[ERROR] {refusal.detail}"]}
            return 200, body, headers

    def _authenticate(self, method: str, token: str | None) -> None:
        if not token:
            raise _ApiError("not_authed")
        if token not in (self.bot_token, self.app_token):
            raise _ApiError("invalid_auth")
        if (token == self.app_token) != (method in _APP_LEVEL_METHODS):
            raise _ApiError("not_allowed_token_type")

    def _auth_test(self, params: JsonDict) -> JsonDict:
        return {
            "url": f"{self.base_url}/",
            "team": "Crewline Fake",
            "user": self._users[self.bot_user_id].name,
            "team_id": self.team_id,
            "user_id": self.bot_user_id,
            "bot_id": self.bot_id,
            "is_enterprise_install": False,
        }

    def _apps_connections_open(self, params: JsonDict) -> JsonDict:
        ticket = secrets.token_hex(8)
        self._tickets.add(ticket)
        ws_url = URL(self.base_url).with_scheme("ws") / "socket-mode"
        return {"url": str(ws_url.with_query(ticket=ticket, app_id=self.api_app_id))}

    def _conversations_open(self, params: JsonDict) -> JsonDict:
        if params.get("channel"):
            return {"channel": {"id": self._resolve_channel(params["channel"]).id}}
        users = [user for user in str(params.get("users", "")).split(",") if user]
        if not users:
            raise _ApiError("users_list_not_supplied")
        if any(user not in self._users for user in users):
            raise _ApiError("user_not_found")
        if len(users) == 1:
            return {"channel": {"id": self.dm_channel(users[0])}}
        members = frozenset(users) | {self.bot_user_id}
        if members not in self._mpims:
            channel_id = self._new_id("G")
            self._mpims[members] = channel_id
            self._channels[channel_id] = _Channel(
                id=channel_id, name="mpdm-" + "--".join(sorted(members)), members=set(members)
            )
        return {"channel": {"id": self._mpims[members]}}

    def _chat_post_message(self, params: JsonDict) -> JsonDict:
        channel = self._resolve_channel(_require(params, "channel"))
        self._check_rate_limit(channel.id)
        message = self._bot_message(params)
        message["ts"] = self._next_ts()
        if params.get("thread_ts"):
            message["thread_ts"] = str(params["thread_ts"])
        self._store(channel, message)
        self._last_post[channel.id] = self._clock()
        return {"channel": channel.id, "ts": message["ts"], "message": copy.deepcopy(message)}

    def _chat_update(self, params: JsonDict) -> JsonDict:
        channel = self._resolve_channel(_require(params, "channel"))
        message = self._find(channel, str(_require(params, "ts")))
        if message is None:
            raise _ApiError("message_not_found")
        if message.get("bot_id") != self.bot_id:
            raise _ApiError("cant_update_message")
        fresh = self._bot_message(params)
        # Slack keeps a message's blocks unless the update names them; [] removes them.
        for key in ("text", "blocks", "attachments", "metadata"):
            if key in params:
                message[key] = fresh.get(key, [] if key == "blocks" else "")
        message["edited"] = {"user": self.bot_user_id, "ts": self._next_ts()}
        return {
            "channel": channel.id,
            "ts": message["ts"],
            "text": message["text"],
            "message": copy.deepcopy(message),
        }

    def _chat_delete(self, params: JsonDict) -> JsonDict:
        channel = self._resolve_channel(_require(params, "channel"))
        message = self._find(channel, str(_require(params, "ts")))
        if message is None:
            raise _ApiError("message_not_found")
        if message.get("bot_id") != self.bot_id:
            raise _ApiError("cant_delete_message")
        channel.messages.remove(message)
        return {"channel": channel.id, "ts": message["ts"]}

    def _chat_post_ephemeral(self, params: JsonDict) -> JsonDict:
        channel = self._resolve_channel(_require(params, "channel"))
        user = str(_require(params, "user"))
        if user not in self._users:
            raise _ApiError("user_not_found")
        if user not in channel.members:
            raise _ApiError("user_not_in_channel")
        message = self._bot_message(params)
        message.update(channel=channel.id, user=user, ts=self._next_ts())
        if params.get("thread_ts"):
            message["thread_ts"] = str(params["thread_ts"])
        self._ephemerals.append(message)
        return {"message_ts": message["ts"]}

    def _chat_get_permalink(self, params: JsonDict) -> JsonDict:
        channel = self._resolve_channel(_require(params, "channel"))
        message = self._find(channel, str(_require(params, "message_ts")))
        if message is None:
            raise _ApiError("message_not_found")
        permalink = f"{self.base_url}/archives/{channel.id}/p{message['ts'].replace('.', '')}"
        if message.get("thread_ts", message["ts"]) != message["ts"]:
            permalink += f"?thread_ts={message['thread_ts']}&cid={channel.id}"
        return {"channel": channel.id, "permalink": permalink}

    def _conversations_history(self, params: JsonDict) -> JsonDict:
        channel = self._resolve_channel(_require(params, "channel"))
        in_window = _window(params)
        visible = [
            m
            for m in channel.messages
            if (_is_root(m) or m.get("reply_broadcast")) and in_window(m["ts"])
        ]
        visible.sort(key=lambda m: float(m["ts"]), reverse=True)
        page = _paginate(visible, params, include_metadata=params.get("include_all_metadata"))
        return {**page, "pin_count": len(channel.pinned)}

    def _conversations_replies(self, params: JsonDict) -> JsonDict:
        channel = self._resolve_channel(_require(params, "channel"))
        message = self._find(channel, str(_require(params, "ts")))
        if message is None:
            raise _ApiError("thread_not_found")
        parent, *replies = self._thread_of(channel, str(message.get("thread_ts", message["ts"])))
        # Oldest first; the parent always leads, whatever the window (as on Slack).
        in_window = _window(params)
        shown = [parent, *(m for m in replies if in_window(m["ts"]))]
        return _paginate(shown, params, include_metadata=params.get("include_all_metadata"))

    def _views_open(self, params: JsonDict) -> JsonDict:
        """A modal opened on a trigger (each trigger_id opens at most one, as on Slack)."""
        trigger = str(_require(params, "trigger_id"))
        view = _require(params, "view")
        if isinstance(view, str):
            view = json.loads(view)
        if not isinstance(view, dict) or view.get("type") != "modal":
            raise _ApiError("invalid_arguments", "view must be an object of type modal")
        if trigger in self._used_triggers:
            raise _ApiError("invalid_trigger_id")
        self._used_triggers.add(trigger)
        opened = {**view, "id": self._new_id("V"), "hash": secrets.token_hex(4)}
        self.modals.append(opened)
        return {"view": copy.deepcopy(opened)}

    def view_submission_payload(self, *, user_id: str, view: JsonDict, value: str) -> JsonDict:
        """A ``view_submission`` for an opened modal whose one input now holds ``value``."""
        block = view["blocks"][0]
        values = {
            block["block_id"]: {
                block["element"]["action_id"]: {"type": "plain_text_input", "value": value}
            }
        }
        return {
            "type": "view_submission",
            "team": {"id": self.team_id, "domain": self.team_domain},
            "user": {"id": user_id, "team_id": self.team_id},
            "api_app_id": self.api_app_id,
            "token": self.verification_token,
            "trigger_id": f"{next(self._ids)}.{secrets.token_hex(6)}",
            "view": {**view, "state": {"values": values}, "team_id": self.team_id},
        }

    def _views_publish(self, params: JsonDict) -> JsonDict:
        user_id = str(_require(params, "user_id"))
        view = _require(params, "view")
        if not isinstance(view, dict) or view.get("type") != "home":
            raise _ApiError("invalid_arguments", "view must be an object of type home")
        if user_id not in self._users:
            raise _ApiError("user_not_found")
        current = self.home_views.get(user_id)
        if params.get("hash") and current is not None and params["hash"] != current["hash"]:
            raise _ApiError("hash_conflict")
        published = {
            **view,
            "id": self._new_id("V"),
            "team_id": self.team_id,
            "app_id": self.api_app_id,
            "bot_id": self.bot_id,
            "hash": f"{self._next_ts()}.{secrets.token_hex(4)}",
        }
        self.home_views[user_id] = published
        return {"view": copy.deepcopy(published)}

    def _pins_add(self, params: JsonDict) -> JsonDict:
        channel = self._resolve_channel(_require(params, "channel"))
        if not params.get("timestamp"):
            raise _ApiError("no_item_specified")
        message = self._find(channel, str(params["timestamp"]))
        if message is None:
            raise _ApiError("message_not_found")
        if message["ts"] in channel.pinned:
            raise _ApiError("already_pinned")
        channel.pinned.append(message["ts"])
        message.setdefault("pinned_to", []).append(channel.id)
        return {}

    def _users_info(self, params: JsonDict) -> JsonDict:
        user = self._users.get(str(_require(params, "user")))
        if user is None:
            raise _ApiError("user_not_found")
        return {
            "user": {
                "id": user.id,
                "team_id": self.team_id,
                "name": user.name,
                "real_name": user.real_name,
                "is_bot": user.is_bot,
                "deleted": False,
                "profile": {"real_name": user.real_name, "display_name": user.name},
            }
        }

    def _check_rate_limit(self, channel_id: str) -> None:
        last = self._last_post.get(channel_id)
        if self._post_interval is None or last is None:
            return
        remaining = self._post_interval - (self._clock() - last)
        if remaining > 0:
            raise _RateLimited(max(1, math.ceil(remaining)))

    def _bot_message(self, params: JsonDict) -> JsonDict:
        """Validate the content of a post or update and build the message Slack would store."""
        text = params.get("text")
        blocks = params.get("blocks")
        if not text and not blocks and not params.get("attachments"):
            raise _ApiError("no_text")
        if text is not None and len(str(text)) > 40_000:
            raise _ApiError("msg_too_long")
        if blocks:
            _check_blocks(blocks)
        metadata = params.get("metadata")
        if metadata and not (isinstance(metadata, dict) and metadata.get("event_type")):
            raise _ApiError("invalid_metadata_format")
        message: JsonDict = {
            "type": "message",
            "user": self.bot_user_id,
            "bot_id": self.bot_id,
            "app_id": self.api_app_id,
            "team": self.team_id,
            "text": str(text or ""),
        }
        for key in ("blocks", "attachments", "username", "icon_emoji", "icon_url", "metadata"):
            if params.get(key) not in (None, ""):
                message[key] = params[key]
        if _truthy(params.get("reply_broadcast")):
            message["reply_broadcast"] = True
        return message

    # -- message store --------------------------------------------------------------------

    def _resolve_channel(self, value: object) -> _Channel:
        channel_id = str(value)
        if channel_id in self._channels:
            return self._channels[channel_id]
        # Slack accepts a user id as channel and posts into the bot's DM with that user.
        if channel_id in self._users and channel_id != self.bot_user_id:
            return self._channels[self.dm_channel(channel_id)]
        raise _ApiError("channel_not_found")

    def _find(self, channel: _Channel, ts: str) -> JsonDict | None:
        return next((m for m in channel.messages if m["ts"] == ts), None)

    def _thread_of(self, channel: _Channel, thread_ts: str) -> list[JsonDict]:
        thread = [
            m for m in channel.messages if m["ts"] == thread_ts or m.get("thread_ts") == thread_ts
        ]
        return sorted(thread, key=lambda m: float(m["ts"]))

    def _store(self, channel: _Channel, message: JsonDict) -> None:
        channel.messages.append(message)
        if _is_root(message):
            return
        parent = self._find(channel, message["thread_ts"])
        if parent is not None:
            parent["thread_ts"] = parent["ts"]
            parent["reply_count"] = parent.get("reply_count", 0) + 1
            parent["reply_users"] = sorted({*parent.get("reply_users", []), message["user"]})
            parent["latest_reply"] = message["ts"]

    def _mirror_human_event(self, event: JsonDict) -> None:
        """Reflect a human's message, edit or deletion in the store, as Slack's history would."""
        channel = self._channels.get(str(event.get("channel")))
        if event.get("type") != "message" or channel is None:
            return
        subtype = event.get("subtype")
        if subtype is None and self._find(channel, event["ts"]) is None:
            keys = ("type", "user", "text", "ts", "thread_ts", "blocks", "team")
            self._store(channel, {key: event[key] for key in keys if key in event})
        elif subtype == "message_changed":
            edit = event["message"]
            stored = self._find(channel, edit["ts"])
            if stored is not None:
                stored.update(
                    {key: edit[key] for key in ("text", "blocks", "edited") if key in edit}
                )
        elif subtype == "message_deleted":
            channel.messages = [m for m in channel.messages if m["ts"] != event["deleted_ts"]]

    # -- Socket Mode ----------------------------------------------------------------------

    async def _handle_socket(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("ticket") not in self._tickets:
            return web.json_response({"ok": False, "error": "invalid_auth"}, status=401)
        ws = web.WebSocketResponse(timeout=_CLOSE_TIMEOUT)
        await ws.prepare(request)
        await ws.send_json(
            {
                "type": "hello",
                "num_connections": len(self._open_sockets()) + 1,
                "debug_info": {"host": "fake-slack", "approximate_connection_time": 18060},
                "connection_info": {"app_id": self.api_app_id},
            }
        )
        self._sockets.append(ws)
        self.socket_connection_count += 1
        await self._notify()
        try:
            async for frame in ws:
                if frame.type is WSMsgType.TEXT:
                    self._record_ack(frame.data)
                    await self._notify()
        finally:
            self._sockets.remove(ws)
        await self._notify()
        return ws

    def _record_ack(self, data: str) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            return
        if isinstance(message, dict) and isinstance(message.get("envelope_id"), str):
            envelope_id = message["envelope_id"]
            self.socket_acks[envelope_id] = SocketAck(
                envelope_id=envelope_id, payload=message.get("payload")
            )

    def _open_sockets(self) -> list[web.WebSocketResponse]:
        return [ws for ws in self._sockets if not ws.closed]

    async def push_socket_event(
        self,
        envelope_type: str,
        payload: JsonDict,
        *,
        retry_attempt: int = 0,
        retry_reason: str | None = None,
        accepts_response_payload: bool | None = None,
    ) -> str:
        """Send an envelope over the newest open Socket Mode connection; return its id.

        ``payload`` is what Slack would send over HTTP: ``event_callback(...)`` for
        ``events_api``, ``block_actions_payload(...)`` for ``interactive``,
        ``slash_command_payload(...)`` for ``slash_commands``.
        """
        if envelope_type not in _ENVELOPE_TYPES:
            raise ValueError(f"envelope_type must be one of {sorted(_ENVELOPE_TYPES)}")
        sockets = self._open_sockets()
        if not sockets:
            raise RuntimeError("no Socket Mode connection is open; await wait_for_socket() first")
        if envelope_type == "events_api":
            self._mirror_human_event(payload.get("event", {}))
        envelope_id = str(uuid.uuid4())
        await sockets[-1].send_json(
            {
                "envelope_id": envelope_id,
                "type": envelope_type,
                "payload": payload,
                "accepts_response_payload": (
                    envelope_type == "slash_commands"
                    if accepts_response_payload is None
                    else accepts_response_payload
                ),
                "retry_attempt": retry_attempt,
                "retry_reason": retry_reason or ("timeout" if retry_attempt else ""),
            }
        )
        return envelope_id

    async def disconnect_socket(
        self,
        *,
        reason: str = "refresh_requested",
        grace: float = 5.0,
    ) -> int:
        """Ask every open connection to reconnect, then close it; return how many there were.

        Like Slack, the fake sends ``{"type": "disconnect"}`` and keeps the old socket open while
        the client opens a new one, waiting up to ``grace`` seconds for the client to close it.
        """
        sockets = self._open_sockets()
        for ws in sockets:
            await ws.send_json(
                {"type": "disconnect", "reason": reason, "debug_info": {"host": "fake-slack"}}
            )
        with contextlib.suppress(TimeoutError):
            await self.wait_until(
                lambda: all(ws.closed for ws in sockets), timeout=grace, what="old sockets closed"
            )
        for ws in sockets:
            await ws.close(code=WSCloseCode.GOING_AWAY, message=reason.encode())
        return len(sockets)

    async def drop_socket(self) -> int:
        """Close every open connection without a disconnect message first, as a restart would."""
        sockets = self._open_sockets()
        for ws in sockets:
            await ws.close(code=WSCloseCode.GOING_AWAY)
        return len(sockets)

    # -- response_url ---------------------------------------------------------------------

    def _new_response_url(self, interaction: _Interaction) -> str:
        response_id = secrets.token_hex(8)
        self._interactions[response_id] = interaction
        return f"{self.base_url}/response/{response_id}"

    async def _handle_response_url(self, request: web.Request) -> web.Response:
        response_id = request.match_info["response_id"]
        interaction = self._interactions.get(response_id)
        if interaction is None:
            return web.json_response({"ok": False, "error": "expired_url"}, status=404)
        try:
            body = await request.json()
        except ValueError:
            body = {"text": await request.text()}
        self.response_url_posts.append(ResponseUrlPost(response_id=response_id, body=body))
        try:
            self._apply_response(interaction, body)
        except _ApiError as refusal:
            await self._notify()
            return web.json_response({"ok": False, "error": refusal.error}, status=400)
        await self._notify()
        return web.json_response({"ok": True})

    def _apply_response(self, interaction: _Interaction, body: JsonDict) -> None:
        """Do what Slack does with a response_url message: delete, replace, post or whisper."""
        channel = self._channels.get(interaction.channel)
        if channel is None:
            return
        original = self._find(channel, interaction.message_ts or "")
        if _truthy(body.get("delete_original")) and original is not None:
            channel.messages.remove(original)
        elif _truthy(body.get("replace_original")) and original is not None:
            replacement = self._bot_message(body)
            for key in ("blocks", "attachments"):
                original.pop(key, None)
            original.update(replacement)
            original["edited"] = {"user": self.bot_user_id, "ts": self._next_ts()}
        else:
            message = self._bot_message(body)
            message["ts"] = self._next_ts()
            thread_ts = body.get("thread_ts") or interaction.thread_ts
            if thread_ts:
                message["thread_ts"] = thread_ts
            if body.get("response_type") == "in_channel":
                self._store(channel, message)
            else:
                self._ephemerals.append(
                    {**message, "channel": channel.id, "user": interaction.user_id}
                )

    # -- human side: payload builders -----------------------------------------------------

    def message_event(
        self,
        text: str,
        *,
        channel: str | None = None,
        user_id: str | None = None,
        thread_ts: str | None = None,
    ) -> JsonDict:
        """A human's ``message`` event (in their DM with the bot unless ``channel`` is given)."""
        user = user_id or self.owner_user_id
        channel_id = channel or self.dm_channel(user)
        ts = self._next_ts()
        event: JsonDict = {
            "type": "message",
            "channel": channel_id,
            "user": user,
            "text": text,
            "ts": ts,
            "event_ts": ts,
            "channel_type": self._channel_type(channel_id),
            "team": self.team_id,
        }
        if thread_ts:
            event["thread_ts"] = thread_ts
            parent = self._channels.get(channel_id)
            root = self._find(parent, thread_ts) if parent is not None else None
            if root is not None:
                event["parent_user_id"] = root["user"]
        return event

    def thread_reply(
        self, thread_ts: str, text: str, *, channel: str | None = None, user_id: str | None = None
    ) -> JsonDict:
        """A human's reply inside a thread, by default in their DM (``channel_type: im``)."""
        return self.message_event(text, channel=channel, user_id=user_id, thread_ts=thread_ts)

    def message_changed(self, channel: str, ts: str, text: str) -> JsonDict:
        """A ``message_changed`` event for the human's edit of message ``ts`` to ``text``."""
        previous = self._previous(channel, ts)
        edited_ts = self._next_ts()
        return {
            "type": "message",
            "subtype": "message_changed",
            "hidden": True,
            "channel": channel,
            "channel_type": self._channel_type(channel),
            "ts": edited_ts,
            "event_ts": edited_ts,
            "message": {
                **previous,
                "text": text,
                "edited": {"user": previous["user"], "ts": edited_ts},
            },
            "previous_message": previous,
        }

    def message_deleted(self, channel: str, ts: str) -> JsonDict:
        """A ``message_deleted`` event for the deletion of message ``ts``."""
        event_ts = self._next_ts()
        return {
            "type": "message",
            "subtype": "message_deleted",
            "hidden": True,
            "channel": channel,
            "channel_type": self._channel_type(channel),
            "ts": event_ts,
            "event_ts": event_ts,
            "deleted_ts": ts,
            "previous_message": self._previous(channel, ts),
        }

    def event_callback(
        self, event: JsonDict, *, event_id: str | None = None, team_id: str | None = None
    ) -> JsonDict:
        """The Events API ``event_callback`` envelope around ``event``."""
        team = team_id or self.team_id
        return {
            "token": self.verification_token,
            "team_id": team,
            "api_app_id": self.api_app_id,
            "event": event,
            "type": "event_callback",
            "event_id": event_id or self._new_id("Ev"),
            "event_time": int(time.time()),
            "authorizations": [
                {
                    "enterprise_id": None,
                    "team_id": team,
                    "user_id": self.bot_user_id,
                    "is_bot": True,
                    "is_enterprise_install": False,
                }
            ],
            "is_ext_shared_channel": False,
        }

    def block_actions_payload(
        self,
        *,
        user_id: str,
        channel: str,
        message_ts: str,
        action_id: str,
        value: str,
        thread_ts: str | None = None,
        block_id: str | None = None,
        team_id: str | None = None,
    ) -> JsonDict:
        """A ``block_actions`` payload for a button click on a message the fake stored.

        ``block_id``, the button text and ``thread_ts`` default to the stored message's.
        """
        team = team_id or self.team_id
        stored = self._channels.get(channel)
        message = copy.deepcopy(self._find(stored, message_ts) if stored is not None else None)
        message = message or {"type": "message", "ts": message_ts, "text": ""}
        found_block, element = _find_element(message.get("blocks", []), action_id)
        thread = thread_ts or message.get("thread_ts")
        container: JsonDict = {
            "type": "message",
            "message_ts": message_ts,
            "channel_id": channel,
            "is_ephemeral": False,
        }
        if thread:
            container["thread_ts"] = thread
        action: JsonDict = {
            "type": element.get("type", "button"),
            "action_id": action_id,
            "block_id": block_id or found_block or "fake_block",
            "value": value,
            "action_ts": self._next_ts(),
        }
        if "text" in element:
            action["text"] = element["text"]
        user = self._users.get(user_id)
        return {
            "type": "block_actions",
            "user": {
                "id": user_id,
                "username": user.name if user else user_id,
                "name": user.name if user else user_id,
                "team_id": team,
            },
            "api_app_id": self.api_app_id,
            "token": self.verification_token,
            "container": container,
            "trigger_id": f"{next(self._ids)}.{secrets.token_hex(6)}",
            "team": {"id": team, "domain": self.team_domain},
            "enterprise": None,
            "is_enterprise_install": False,
            "channel": {"id": channel, "name": self._channel_name(channel)},
            "message": message,
            "state": {"values": {}},
            "response_url": self._new_response_url(
                _Interaction(
                    channel=channel, message_ts=message_ts, thread_ts=thread, user_id=user_id
                )
            ),
            "actions": [action],
        }

    def message_shortcut_payload(
        self, *, user_id: str, channel: str, message_ts: str, callback_id: str
    ) -> JsonDict:
        """A ``message_action`` payload: a message shortcut used on a stored message."""
        stored = self._channels.get(channel)
        message = copy.deepcopy(self._find(stored, message_ts) if stored is not None else None)
        message = message or {"type": "message", "ts": message_ts, "text": ""}
        user = self._users.get(user_id)
        return {
            "type": "message_action",
            "token": self.verification_token,
            "action_ts": self._next_ts(),
            "team": {"id": self.team_id, "domain": self.team_domain},
            "user": {"id": user_id, "name": user.name if user else user_id},
            "channel": {"id": channel, "name": self._channel_name(channel)},
            "is_enterprise_install": False,
            "enterprise": None,
            "callback_id": callback_id,
            "trigger_id": f"{next(self._ids)}.{secrets.token_hex(6)}",
            "message_ts": message_ts,
            "message": message,
            "response_url": self._new_response_url(
                _Interaction(
                    channel=channel,
                    message_ts=message_ts,
                    thread_ts=message.get("thread_ts"),
                    user_id=user_id,
                )
            ),
        }

    def slash_command_payload(
        self, command: str, text: str, *, user_id: str, channel_id: str, team_id: str | None = None
    ) -> dict[str, str]:
        """The form fields of a slash command invocation."""
        user = self._users.get(user_id)
        interaction = _Interaction(
            channel=channel_id, message_ts=None, thread_ts=None, user_id=user_id
        )
        return {
            "token": self.verification_token,
            "team_id": team_id or self.team_id,
            "team_domain": self.team_domain,
            "channel_id": channel_id,
            "channel_name": self._channel_name(channel_id),
            "user_id": user_id,
            "user_name": user.name if user else user_id,
            "command": command,
            "text": text,
            "api_app_id": self.api_app_id,
            "is_enterprise_install": "false",
            "response_url": self._new_response_url(interaction),
            "trigger_id": f"{next(self._ids)}.{secrets.token_hex(6)}",
        }

    # -- human side: signed HTTP ----------------------------------------------------------

    def sign(self, body: bytes, timestamp: int) -> str:
        """The ``X-Slack-Signature`` for ``body`` sent at ``timestamp``: v0 HMAC-SHA256."""
        base = b"v0:" + str(timestamp).encode() + b":" + body
        return "v0=" + hmac.new(self.signing_secret.encode(), base, hashlib.sha256).hexdigest()

    async def send_event(
        self,
        url: str,
        event: JsonDict,
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
        retry_reason: str = "http_timeout",
        team_id: str | None = None,
        signature: str | None = None,
        timestamp: int | None = None,
    ) -> HttpReply:
        """POST ``event`` in a signed ``event_callback`` envelope to a bot's Events URL.

        ``retry_num`` marks a redelivery (same ``event_id``); ``signature`` and ``timestamp``
        forge the request. Only genuine (unforged) message events enter the fake's history.
        """
        if signature is None and timestamp is None:
            self._mirror_human_event(event)
        headers = {}
        if retry_num is not None:
            headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": retry_reason}
        envelope = self.event_callback(event, event_id=event_id, team_id=team_id)
        return await self._post_signed(
            url,
            json.dumps(envelope).encode(),
            "application/json",
            signature=signature,
            timestamp=timestamp,
            headers=headers,
        )

    async def send_block_action(
        self,
        url: str,
        *,
        user_id: str,
        channel: str,
        message_ts: str,
        action_id: str,
        value: str,
        thread_ts: str | None = None,
        block_id: str | None = None,
        team_id: str | None = None,
        signature: str | None = None,
        timestamp: int | None = None,
    ) -> HttpReply:
        """POST a signed ``payload=<block_actions json>`` form, as a button click does."""
        payload = self.block_actions_payload(
            user_id=user_id,
            channel=channel,
            message_ts=message_ts,
            action_id=action_id,
            value=value,
            thread_ts=thread_ts,
            block_id=block_id,
            team_id=team_id,
        )
        body = urlencode({"payload": json.dumps(payload)}).encode()
        return await self._post_signed(
            url,
            body,
            "application/x-www-form-urlencoded",
            signature=signature,
            timestamp=timestamp,
        )

    async def send_slash_command(
        self,
        url: str,
        command: str,
        text: str,
        *,
        user_id: str,
        channel_id: str,
        team_id: str | None = None,
        signature: str | None = None,
        timestamp: int | None = None,
    ) -> HttpReply:
        """POST a signed slash-command form to a bot's command URL."""
        fields = self.slash_command_payload(
            command, text, user_id=user_id, channel_id=channel_id, team_id=team_id
        )
        return await self._post_signed(
            url,
            urlencode(fields).encode(),
            "application/x-www-form-urlencoded",
            signature=signature,
            timestamp=timestamp,
        )

    async def _post_signed(
        self,
        url: str,
        body: bytes,
        content_type: str,
        *,
        signature: str | None,
        timestamp: int | None,
        headers: dict[str, str] | None = None,
    ) -> HttpReply:
        if URL(url).host not in _LOOPBACK_HOSTS:
            raise ValueError(f"FakeSlack only posts to loopback addresses, not {url!r}")
        if self._http is None:
            raise RuntimeError("FakeSlack is not started; use it as an async context manager")
        sent_at = int(time.time()) if timestamp is None else timestamp
        request_headers = {
            "Content-Type": content_type,
            "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
            "X-Slack-Request-Timestamp": str(sent_at),
            "X-Slack-Signature": signature or self.sign(body, sent_at),
            **(headers or {}),
        }
        async with self._http.post(url, data=body, headers=request_headers) as response:
            return HttpReply(
                status=response.status, body=await response.text(), headers=dict(response.headers)
            )

    # -- small helpers --------------------------------------------------------------------

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}0FAKE{next(self._ids):05d}"

    def _next_ts(self) -> str:
        # Slack timestamps are "seconds.microseconds" by its clock, unique and ordered: two in
        # one microsecond (or a clock moved back) take the next one.
        micros = max(round(self.wall() * 1_000_000), self._last_ts + 1)
        self._last_ts = micros
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _channel_type(self, channel_id: str) -> str:
        channel = self._channels.get(channel_id)
        if channel is not None and channel.is_im:
            return "im"
        return "mpim" if channel_id.startswith("G") else "channel"

    def _channel_name(self, channel_id: str) -> str:
        channel = self._channels.get(channel_id)
        if channel is None or channel.is_im:
            return "directmessage"
        return channel.name

    def _previous(self, channel: str, ts: str) -> JsonDict:
        stored = self._channels.get(channel)
        message = self._find(stored, ts) if stored is not None else None
        if message is None:
            return {"type": "message", "user": self.owner_user_id, "text": "", "ts": ts}
        return copy.deepcopy(message)


def _require(params: JsonDict, key: str) -> Any:
    if params.get(key) in (None, ""):
        raise _ApiError("invalid_arguments", f"missing required field: {key}")
    return params[key]


def _truthy(value: object) -> bool:
    return value is True or str(value).lower() in ("true", "1")


def _window(params: JsonDict) -> Callable[[str], bool]:
    """Whether a ``ts`` is within a listing's ``oldest``/``latest`` (``inclusive``: the
    bounds themselves too; by default neither)."""
    oldest = float(params.get("oldest") or 0)
    latest = float(params.get("latest") or math.inf)
    inclusive = _truthy(params.get("inclusive"))

    def within(ts: str) -> bool:
        if inclusive:
            return oldest <= float(ts) <= latest
        return oldest < float(ts) < latest

    return within


def _is_root(message: JsonDict) -> bool:
    return bool(message.get("thread_ts", message["ts"]) == message["ts"])


def _paginate(items: list[JsonDict], params: JsonDict, *, include_metadata: object) -> JsonDict:
    """One page of ``items`` by Slack's ``limit``/``cursor`` convention."""
    cursor = str(params.get("cursor") or "offset_0")
    if not cursor.startswith("offset_") or not cursor[7:].isdigit():
        raise _ApiError("invalid_cursor")
    start = int(cursor[7:])
    limit = min(max(int(params.get("limit") or 100), 1), 1000)
    page = copy.deepcopy(items[start : start + limit])
    if not _truthy(include_metadata):
        for message in page:
            message.pop("metadata", None)
    more = start + limit < len(items)
    return {
        "messages": page,
        "has_more": more,
        "response_metadata": {"next_cursor": f"offset_{start + limit}" if more else ""},
    }


def _check_blocks(blocks: object) -> None:
    """Refuse blocks Slack refuses with ``invalid_blocks``, for the limits a card can hit."""
    if not isinstance(blocks, list) or len(blocks) > 50:
        raise _ApiError("invalid_blocks", "blocks must be a list of at most 50 blocks")
    block_ids: set[str] = set()
    for block in blocks:
        if not isinstance(block, dict) or "type" not in block:
            raise _ApiError("invalid_blocks", "every block needs a type")
        block_id = block.get("block_id")
        if block_id is not None:
            if len(block_id) > 255 or block_id in block_ids:
                raise _ApiError("invalid_blocks", f"block_id {block_id!r} is too long or repeated")
            block_ids.add(block_id)
        if block["type"] == "section" and len(block.get("text", {}).get("text", "")) > 3000:
            raise _ApiError("invalid_blocks", "section text is longer than 3000 characters")
        if block["type"] == "actions":
            _check_actions(block.get("elements", []))


def _check_actions(elements: list[JsonDict]) -> None:
    if not 1 <= len(elements) <= 25:
        raise _ApiError("invalid_blocks", "an actions block holds 1 to 25 elements")
    action_ids = [e["action_id"] for e in elements if "action_id" in e]
    if len(set(action_ids)) != len(action_ids):
        raise _ApiError("invalid_blocks", "action_id must be unique within a block")
    for element in elements:
        if len(element.get("action_id", "")) > 255:
            raise _ApiError("invalid_blocks", "action_id is longer than 255 characters")
        if element.get("type") == "button" and (
            len(element.get("value", "")) > 2000
            or len(element.get("text", {}).get("text", "")) > 75
        ):
            raise _ApiError("invalid_blocks", "button value > 2000 or text > 75 characters")


def _find_element(blocks: list[JsonDict], action_id: str) -> tuple[str | None, JsonDict]:
    for block in blocks:
        for element in block.get("elements", []):
            if isinstance(element, dict) and element.get("action_id") == action_id:
                return block.get("block_id"), element
    return None, {}


def _bearer_token(request: web.Request) -> str | None:
    scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return credentials.strip() or None


async def _read_params(request: web.Request) -> JsonDict:
    """Merge query, JSON or form parameters; decode JSON-encoded fields such as ``blocks``."""
    params: JsonDict = dict(request.query)
    if request.body_exists:
        if request.content_type == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                params.update(body)
        else:
            form = await request.post()
            params.update({key: value for key, value in form.items() if isinstance(value, str)})
    for key in _JSON_ENCODED_PARAMS:
        value = params.get(key)
        if isinstance(value, str) and value[:1] in ("[", "{"):
            with contextlib.suppress(ValueError):
                params[key] = json.loads(value)
    return params
