"""The HTTP edge's guards, before anything parses a body: its size, the time it takes, and
its media type.

An ASGI middleware, so it sees the body as it arrives: a ``Content-Length`` over the cap is
refused at once, unread; a chunked body is counted as it streams and refused as soon as it
passes the cap; a body not whole within ``timeout`` seconds of its head is refused (408), so
a client trickling bytes cannot hold a connection. A body within the limits is handed on
whole, so nothing behind it changes.
"""

from __future__ import annotations

import asyncio
from collections.abc import MutableMapping
from typing import Any

from fastapi.routing import APIRoute
from starlette.responses import JSONResponse
from starlette.routing import Router
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from crewline.errors import PayloadTooLarge

__all__ = ["MAX_BODY_BYTES", "BodyLimit", "JsonBodies", "replay"]

# The largest valid API body is an escalation: 4,000 characters of message and 10 options of
# 80, at most 4 bytes a character in UTF-8, plus JSON: about 20 KiB. Platform webhooks
# (Slack's interaction payloads carry the message's blocks) stay well below 1 MiB.
MAX_BODY_BYTES = 1024 * 1024
BODY_TIMEOUT = 30.0  # seconds from a request's head to the end of its body


class BodyLimit:
    """Answer 413 ``payload_too_large`` to a request whose body exceeds ``max_bytes``, and
    408 ``body_timeout`` to one whose body is not whole within ``timeout`` seconds."""

    def __init__(
        self, app: ASGIApp, *, max_bytes: int = MAX_BODY_BYTES, timeout: float = BODY_TIMEOUT
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
        elif b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body (a GET, a stream's reader)
            return
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.timeout
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                await self._timed_out(scope, receive, send)
                return
            if message["type"] != "http.request":
                await self.app(scope, replay([message], receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, replay([whole], receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = PayloadTooLarge(
            f"the request body is larger than {self.max_bytes} bytes", max_bytes=self.max_bytes
        )
        body = {"error": {"code": error.code, "message": error.message, **error.details}}
        # Connection: close, because the rest of the body is left unread.
        response = JSONResponse(body, status_code=413, headers={"Connection": "close"})
        await response(scope, receive, send)

    async def _timed_out(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = {
            "error": {
                "code": "body_timeout",
                "message": f"the request's body did not arrive within {self.timeout:g} s",
            }
        }
        response = JSONResponse(body, status_code=408, headers={"Connection": "close"})
        await response(scope, receive, send)


def replay(messages: list[Message], receive: Receive) -> Receive:
    """A receive that hands out ``messages`` first, then whatever ``receive`` brings (the
    client's disconnect, which a streaming response waits for)."""
    pending = list(messages)

    async def replayed() -> MutableMapping[str, Any]:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


class JsonBodies:
    """Answer 415 ``unsupported_media_type`` to a request for a route that takes a JSON body
    when it does not say its body is JSON (``Content-Type: application/json``): a form or
    plain text would otherwise meet the body's schema as a string, and be refused with words
    about dictionaries."""

    def __init__(self, app: ASGIApp, *, router: Router) -> None:
        self.app = app
        self.routes = [
            (route.path_regex, route.methods or set())
            for route in router.routes
            if isinstance(route, APIRoute) and route.body_field is not None
        ]
        self.methods = frozenset(method for _, methods in self.routes for method in methods)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # A JSON body is let through before the routes are matched: most calls that take
        # one send one, and the match walks the regex of every such route.
        if (
            scope["type"] != "http"
            or scope["method"] not in self.methods
            or _is_json(scope)
            or not self._takes_json(scope)
        ):
            await self.app(scope, receive, send)
            return
        body = {
            "error": {
                "code": "unsupported_media_type",
                "message": f"{scope['method']} {scope['path'][:200]} takes a JSON object:"
                " send it with Content-Type: application/json",
            }
        }
        await JSONResponse(body, status_code=415)(scope, receive, send)

    def _takes_json(self, scope: Scope) -> bool:
        path, method = scope["path"], scope["method"]
        return any(
            method in methods and regex.match(path) is not None for regex, methods in self.routes
        )


def _is_json(scope: Scope) -> bool:
    headers: dict[bytes, bytes] = dict(scope["headers"])
    media = headers.get(b"content-type", b"").decode("latin-1").partition(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )
