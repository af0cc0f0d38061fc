"""Slack → crewline: slack-bolt's AsyncApp wired to the core, and the ``/slack/events`` endpoint.

Every request is verified before anything reads it: over HTTP by the signing secret (checked
here first, so a forged or stale request leaves a SEL record, and again by bolt), in Socket
Mode by the app-level token that opened the socket; then every payload must come from this
app's own workspace. Clicks and slash commands are acknowledged at once (Slack waits 3 s);
the core's answer comes after, privately, to the person who acted. Requests of one channel
are handed to the core one at a time, in the order they arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.adapter.socket_mode.async_internals import send_async_response
from slack_bolt.adapter.socket_mode.internals import build_headers
from slack_bolt.adapter.starlette.async_handler import to_async_bolt_request, to_starlette_response
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.signature import SignatureVerifier
from slack_sdk.socket_mode.aiohttp import SocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.web.async_client import AsyncWebClient
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import Receive, Scope, Send

from crewline.errors import TransportError
from crewline.models import HumanClick, HumanEvent, Receipt
from crewline.transports.slack.payloads import (
    EDIT_CALLBACK,
    FORK_CALLBACK,
    FORK_SHORTCUT,
    REWIND_SHORTCUT,
    edit_modal,
    fork_modal,
    order_key,
    parse_click,
    parse_edit_submission,
    parse_fork_submission,
    parse_message,
    parse_shortcut,
    parse_slash_command,
    payload_teams,
    split_ref,
)
from crewline.transports.slack.web_api import SlackWebApi

__all__ = ["EVENTS_PATH", "MOUNT_PATH", "SlackEndpoint", "SlackInbound", "SlackSocket"]

log = logging.getLogger(__name__)

MOUNT_PATH = "/slack"  # Starlette redirects a POST to a mount's own path: mount the folder
EVENTS_PATH = "/events"  # ... and answer /slack/events inside it
MAX_BODY = 1 << 20  # Slack's payloads are far smaller; refuse a flood before hashing it
TIMESTAMP_WINDOW = 300  # seconds, as Slack documents


class InboundHost(Protocol):
    """What the inbound side needs from the transport that owns it."""

    name: str

    async def deliver(self, event: HumanEvent) -> Receipt | None: ...

    async def team_id(self) -> str | None: ...

    async def audit(self, code: str, *, actor: str | None = None, **details: Any) -> None: ...

    async def home_opened(self, user_id: str) -> None: ...


class SlackInbound:
    """The bolt app: one listener per kind of payload, each ending in one call to the core."""

    def __init__(
        self,
        host: InboundHost,
        client: AsyncWebClient,
        api: SlackWebApi,
        *,
        signing_secret: str | None,
    ) -> None:
        self.host = host
        self.api = api
        self._channel_locks: dict[str, asyncio.Lock] = {}
        self._running: set[asyncio.Task[Any]] = set()
        # process_before_response: a request is done when its listener is, so the channel's
        # turn (see dispatch) covers the core's whole answer. Acks still go out at once.
        # The token is given, not a client: bolt also reads SLACK_BOT_TOKEN, and with a
        # client beside it warns at every start that the token "will be unused". Its own
        # client is then pointed at the configured API and the shared session.
        self.app = AsyncApp(
            token=client.token,
            signing_secret=signing_secret or "",
            name=f"crewline-{host.name}",
            logger=log,
            process_before_response=True,
            before_authorize=_WorkspaceCheck(host),
        )
        self.app.client.base_url = client.base_url
        self.app.client.session = client.session
        self.app.client.timeout = client.timeout
        self.app.event("message")(self._on_message)
        self.app.event("app_home_opened")(self._on_home_opened)
        # Socket Mode acknowledges only envelopes a listener handled: everything else the
        # manifest might subscribe to is taken (and ignored) here, so nothing is redelivered.
        self.app.event(re.compile(".*"))(self._ignore)
        self.app.action(re.compile(".*"))(self._on_action)
        self.app.view(EDIT_CALLBACK)(self._on_edit_submitted)
        self.app.shortcut(REWIND_SHORTCUT)(self._on_shortcut)
        self.app.shortcut(FORK_SHORTCUT)(self._on_fork_shortcut)
        self.app.view(FORK_CALLBACK)(self._on_fork_submitted)
        self.app.command(re.compile(".*"))(self._on_command)

    async def dispatch(self, request: AsyncBoltRequest) -> BoltResponse:
        """Run one request through bolt, in its channel's turn.

        Requests of one channel (a person's DM, where all their member threads are) are
        handled one at a time, in the order they reached this method: asyncio.Lock admits
        waiters first come, first served, so the core sees a click and the reply typed
        after it in that order (SPEC §2 rule 6).
        """
        lock = self._channel_locks.setdefault(order_key(request.body), asyncio.Lock())
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        try:
            async with lock:
                return await self.app.async_dispatch(request)
        finally:
            if task is not None:
                self._running.discard(task)

    async def drain(self, *, timeout: float) -> None:
        """Wait (bounded) for the requests still being handled, e.g. before closing."""
        running = [task for task in self._running if not task.done()]
        if running:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await asyncio.wait(running)

    # listeners ------------------------------------------------------------------------------
    async def _on_message(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        human = parse_message(
            event, transport=self.host.name, event_id=str(body.get("event_id") or event.get("ts"))
        )
        if human is None:
            if event.get("subtype") == "message_deleted":
                log.info(
                    "a message was deleted in %s; the transcript keeps it", event.get("channel")
                )
            return
        receipt = await self.host.deliver(human)
        if receipt is not None and receipt.notice_to_post:
            await self._whisper(human, str(event.get("channel")), receipt.notice_to_post)

    async def _on_action(self, ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        click = parse_click(body, transport=self.host.name)
        if click is None:
            return
        receipt = await self.host.deliver(click)
        edit = receipt if receipt is not None and not receipt.repeat else None  # opened once
        if edit is not None and edit.prefill is not None and edit.reply_to:
            await self._open_edit(body, click, edit.prefill, edit.reply_to)
        if receipt is not None and receipt.notice_to_post:
            await respond(
                text=receipt.notice_to_post, response_type="ephemeral", replace_original=False
            )

    async def _open_edit(
        self, body: dict[str, Any], click: HumanClick, text: str, record: str
    ) -> None:
        """The concierge's Edit: a modal holding the suggestion; its Send is the reply."""
        if not body.get("trigger_id"):
            return
        view = edit_modal(text, thread=click.thread, record=record, channel=order_key(body))
        await self._open_modal(body["trigger_id"], view, "edit")

    async def _on_edit_submitted(self, ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        await self._deliver_submitted(parse_edit_submission(body, transport=self.host.name))

    async def _on_shortcut(
        self, ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond
    ) -> None:
        await ack()
        command = parse_shortcut(body, transport=self.host.name)
        if command is None:
            return
        receipt = await self.host.deliver(command)
        if receipt is not None and receipt.notice_to_post:
            await respond(
                text=receipt.notice_to_post, response_type="ephemeral", replace_original=False
            )

    async def _on_fork_shortcut(self, ack: AsyncAck, body: dict[str, Any]) -> None:
        """ "Fork from here": the new member's slug is asked in a modal."""
        await ack()
        view = fork_modal(body)
        if view is None or not body.get("trigger_id"):
            return
        await self._open_modal(body["trigger_id"], view, "fork")

    async def _on_fork_submitted(self, ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        await self._deliver_submitted(parse_fork_submission(body, transport=self.host.name))

    async def _open_modal(self, trigger_id: str, view: dict[str, Any], name: str) -> None:
        try:
            await self.api.call("views.open", trigger_id=trigger_id, view=view)
        except TransportError as error:
            log.warning("could not open the %s modal: %s", name, error.message)

    async def _deliver_submitted(self, submitted: tuple[HumanEvent, str] | None) -> None:
        """A modal's submission to the core; its notice goes to the sender alone, where the
        modal was opened (``channel``)."""
        if submitted is None:
            return
        event, channel = submitted
        receipt = await self.host.deliver(event)
        if receipt is not None and receipt.notice_to_post and channel:
            await self._whisper(event, channel, receipt.notice_to_post)

    async def _on_command(self, ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        command = parse_slash_command(body, transport=self.host.name)
        if command is None:
            return
        receipt = await self.host.deliver(command)
        if receipt is not None and receipt.notice_to_post:
            await respond(text=receipt.notice_to_post, response_type="ephemeral")

    async def _on_home_opened(self, event: dict[str, Any]) -> None:
        user = event.get("user")
        if event.get("tab", "home") == "home" and isinstance(user, str):
            await self.host.home_opened(user)

    async def _ignore(self) -> None:
        return None

    async def _whisper(self, event: HumanEvent, channel: str, text: str) -> None:
        """Tell the person alone, in the thread where they wrote (an ephemeral message)."""
        params: dict[str, Any] = {"channel": channel, "user": event.user_id, "text": text}
        if event.thread:
            params["thread_ts"] = split_ref(event.thread)[1]
        try:
            await self.api.call("chat.postEphemeral", **params)
        except TransportError as error:
            log.warning("could not show a notice to %s: %s", event.user_id, error.message)


class SlackSocket(AsyncSocketModeHandler):
    """bolt's Socket Mode handler, with every envelope dispatched through ``SlackInbound``."""

    def __init__(self, inbound: SlackInbound, app_token: str) -> None:
        super().__init__(inbound.app, app_token)
        self.inbound = inbound

    async def handle(self, client: SocketModeClient, req: SocketModeRequest) -> None:  # type: ignore[override]
        started = time.time()
        request = AsyncBoltRequest(mode="socket_mode", body=req.payload, headers=build_headers(req))
        await send_async_response(client, req, await self.inbound.dispatch(request), started)


class _WorkspaceCheck(AsyncMiddleware):
    """Refuse any payload from another workspace than the one the bot token belongs to."""

    def __init__(self, host: InboundHost) -> None:
        self.host = host

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],
    ) -> BoltResponse | None:
        body = req.body
        if body.get("type") == "url_verification":
            return await next()
        ours = await self.host.team_id()
        if ours is None:
            # Slack retries what it cannot deliver: better later than unverified.
            return BoltResponse(status=503, body="workspace not known yet")
        teams = payload_teams(body)
        if teams and teams <= {ours}:
            return await next()
        await self.host.audit(
            "unknown_team", actor=_actor(self.host.name, body), teams=sorted(teams), mode=req.mode
        )
        # A Socket Mode envelope must be acknowledged or Slack delivers it again.
        return BoltResponse(status=200 if req.mode == "socket_mode" else 403, body="")


def _actor(transport: str, body: Mapping[str, Any]) -> str | None:
    user = body.get("user")
    event = body.get("event")
    user_id = (
        (user.get("id") if isinstance(user, Mapping) else user)
        or body.get("user_id")
        or (event.get("user") if isinstance(event, Mapping) else None)
    )
    return f"{transport}:{user_id}" if isinstance(user_id, str) else None


class SlackEndpoint:
    """The ASGI app crewline mounts at ``/slack``: ``POST /slack/events`` goes to bolt.

    It looks up the transport's current bolt app on every request, so a restarted transport
    serves the same mount.
    """

    def __init__(
        self,
        host: InboundHost,
        inbound: Callable[[], SlackInbound | None],
        *,
        signing_secret: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.host = host
        self.inbound = inbound
        self.verifier = SignatureVerifier(signing_secret)
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        response = await self._answer(request, _route_path(scope))
        await response(scope, receive, send)

    async def _answer(self, request: Request, path: str) -> Response:
        if path.rstrip("/") != EVENTS_PATH:
            return PlainTextResponse("Not Found", status_code=404)
        if request.method != "POST":
            return PlainTextResponse("Method Not Allowed", status_code=405)
        body = await _read_body(request)
        if body is None:
            return PlainTextResponse("Payload Too Large", status_code=413)
        refusal = self._unverified(
            body,
            request.headers.get("x-slack-request-timestamp"),
            request.headers.get("x-slack-signature"),
        )
        if refusal is not None:
            await self.host.audit(refusal, client=request.client.host if request.client else None)
            return PlainTextResponse("Unauthorized", status_code=401)
        inbound = self.inbound()
        if inbound is None:
            return PlainTextResponse("Service Unavailable", status_code=503)
        bolt_response = await inbound.dispatch(to_async_bolt_request(request, body))
        return to_starlette_response(bolt_response)

    def _unverified(self, body: bytes, timestamp: str | None, signature: str | None) -> str | None:
        """Why a request is not Slack's (``stale_timestamp``, ``bad_signature``), or None."""
        try:
            sent_at = int(timestamp or "")
        except ValueError:
            return "bad_signature"
        if abs(self.clock() - sent_at) > TIMESTAMP_WINDOW:
            return "stale_timestamp"
        if not signature or not self.verifier.is_valid(body, str(sent_at), signature):
            return "bad_signature"
        return None


async def _read_body(request: Request) -> bytes | None:
    """The body, or None once it grows past MAX_BODY (read no further than that)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _route_path(scope: Scope) -> str:
    path = str(scope.get("path", ""))
    root = str(scope.get("root_path", ""))
    return path[len(root) :] if root and path.startswith(root) else path
