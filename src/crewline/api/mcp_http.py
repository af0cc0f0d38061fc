"""``/mcp`` on crewline's own server: the MCP tools over streamable HTTP, in-process.

Each request must carry a session key as ``Authorization: Bearer``, and come from no web page
and to a host crewline answers to (``api.origins``); both are checked before the SDK sees
the request (401 or 403 in crewline's error shape otherwise), and the tools then call
the operations as that session, exactly as the HTTP routes do. Stateless with JSON
responses: every tool call is one POST answered by one JSON body, so there is no MCP session
to lose across crewline's restarts.
"""

from __future__ import annotations

import asyncio
import importlib
import json
from typing import TYPE_CHECKING, Any

from starlette.types import Receive, Scope, Send

from crewline.api.concierge_ops import ConciergeOperations
from crewline.api.http import status_of
from crewline.api.operations import Caller, Operations
from crewline.api.origins import OriginPolicy
from crewline.api.schemas import (
    AskBody,
    CheckEventsArgs,
    DefaultAppliedArgs,
    EscalateBody,
    HubAnswerBody,
    HubDispatchBody,
    HubRespawnBody,
    HubStopBody,
    PostBody,
    SendBody,
)
from crewline.app.assembly import Bot
from crewline.bot.escalations import EscalationRequest
from crewline.errors import CrewlineError, Unauthenticated
from crewline.policy import granted

if TYPE_CHECKING:
    from mcp.server import ServerRequestContext
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from crewline.api.mcp import AgentVerbs

__all__ = ["InProcessVerbs", "McpEndpoint"]

_CALLER = "crewline.caller"
# The headers the origin policy reads (the rest are the SDK's to read).
_POLICED = ((b"origin", "origin"), (b"host", "host"))


class InProcessVerbs:
    """The verbs as one caller, straight through the operations (no HTTP hop)."""

    def __init__(self, operations: Operations, caller: Caller) -> None:
        self.operations = operations
        self.caller = caller
        self.concierge = ConciergeOperations(operations)

    async def escalate(self, body: EscalateBody, key: str | None) -> dict[str, Any]:
        return await self.operations.escalate(
            self.caller, EscalationRequest(**body.model_dump()), idempotency_key=key
        )

    async def send(self, body: SendBody, key: str | None) -> dict[str, Any]:
        return await self.operations.send(
            self.caller, body.target, body.message, idempotency_key=key
        )

    async def ask(self, body: AskBody, key: str | None) -> dict[str, Any]:
        return await self.operations.ask(
            self.caller, body.question, body.options, body.dialog, idempotency_key=key
        )

    async def post(self, body: PostBody, key: str | None) -> dict[str, Any]:
        return await self.operations.post(self.caller, body.text, idempotency_key=key)

    async def default_applied(self, args: DefaultAppliedArgs) -> dict[str, Any]:
        return await self.operations.confirm_default(self.caller, args.escalation_id)

    async def check_events(self, args: CheckEventsArgs) -> dict[str, Any]:
        return await self.operations.events(self.caller, after=args.after, wait=args.wait)

    async def granted(self) -> frozenset[str]:
        return frozenset(verb.value for verb in granted(self.operations.session_of(self.caller)))

    async def hub_suggest(self, body: HubAnswerBody) -> dict[str, Any]:
        return await self.concierge.suggest(self.caller, body.record_id, body.text, body.why)

    async def hub_reply(self, body: HubAnswerBody) -> dict[str, Any]:
        return await self.concierge.reply(self.caller, body.record_id, body.text, body.why)

    async def hub_stop(self, body: HubStopBody) -> dict[str, Any]:
        return await self.concierge.stop(self.caller, body.session_id, body.why)

    async def hub_respawn(self, body: HubRespawnBody) -> dict[str, Any]:
        return await self.concierge.respawn(self.caller, body.session_id, body.launcher, body.why)

    async def hub_dispatch(self, body: HubDispatchBody) -> dict[str, Any]:
        return await self.concierge.dispatch(self.caller, body.launcher, body.member, body.why)


class McpEndpoint:
    """The ASGI app behind ``/mcp``; ``async with`` stops the SDK's request manager.

    The SDK is imported, off the event loop, and its manager started on the first request
    that carries a session key: crewline starts as fast without it, and a server no agent
    reaches over MCP never loads it."""

    def __init__(self, bot: Bot, *, origins: OriginPolicy | None = None) -> None:
        """``origins``: which browser origins and Host names are answered (by default: no
        web page, loopback names only)."""
        self.operations = Operations(bot)
        self.origins = origins or OriginPolicy()
        self._manager: StreamableHTTPSessionManager | None = None
        self._starting = asyncio.Lock()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> McpEndpoint:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task
            self._task = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", ()))
        scheme, _, key = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
        refused = self.origins.refusal(
            {name: headers[raw].decode("latin-1") for raw, name in _POLICED if raw in headers}
        )
        if refused is not None:
            await _refuse(send, refused)
            return
        try:
            caller = await self.operations.authenticate(
                key.strip() if scheme.lower() == "bearer" else None
            )
            self.operations.session_of(caller)
        except CrewlineError as error:
            await _refuse(send, error)
            return
        scope[_CALLER] = caller
        manager = self._manager or await self._start()
        await manager.handle_request(scope, receive, send)

    async def _start(self) -> StreamableHTTPSessionManager:
        async with self._starting:
            if self._manager is not None:
                return self._manager
            sdk = await asyncio.to_thread(
                importlib.import_module, "mcp.server.streamable_http_manager"
            )
            security = await asyncio.to_thread(
                importlib.import_module, "mcp.server.transport_security"
            )
            tools = await asyncio.to_thread(importlib.import_module, "crewline.api.mcp")
            manager: StreamableHTTPSessionManager = sdk.StreamableHTTPSessionManager(
                app=tools.build_server(self._verbs_of),
                stateless=True,
                json_response=True,
                # Origin and Host are checked before the SDK, by crewline's own policy
                # (api.origins), so the refusal is in crewline's error shape.
                security_settings=security.TransportSecuritySettings(
                    enable_dns_rebinding_protection=False
                ),
            )
            # The manager's task group must be left by the task that entered it, and
            # crewline may be stopped from another task than the one serving this request.
            started = asyncio.Event()
            self._task = asyncio.create_task(self._run(manager, started), name="mcp")
            ready = asyncio.create_task(started.wait())
            await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
            if not started.is_set():
                ready.cancel()
                await self._task  # raises what stopped it
            self._manager = manager
            return manager

    async def _run(self, manager: StreamableHTTPSessionManager, started: asyncio.Event) -> None:
        async with manager.run():
            started.set()
            await self._stop.wait()

    async def _verbs_of(self, ctx: ServerRequestContext[Any, Any]) -> AgentVerbs:
        if ctx.request is None:
            raise Unauthenticated("this call came without its HTTP request", code="missing_key")
        return InProcessVerbs(self.operations, ctx.request.scope[_CALLER])


async def _refuse(send: Send, error: CrewlineError) -> None:
    status = status_of(error)
    body = json.dumps(
        {"error": {"code": error.code, "message": error.message, **error.details}}
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="crewline"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
