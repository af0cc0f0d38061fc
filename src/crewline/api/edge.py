"""The HTTP edge's guard against oversized bodies, before anything parses them.

An ASGI middleware, so it sees the body as it arrives: a ``Content-Length`` over the cap is
refused at once, unread; a chunked body is counted as it streams and refused as soon as it
passes the cap. A body within the cap is handed on whole, so nothing behind it changes.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from crewline.errors import PayloadTooLarge

__all__ = ["MAX_BODY_BYTES", "BodyLimit"]

# The largest valid API body is an escalation: 4,000 characters of message and 10 options of
# 80, at most 4 bytes a character in UTF-8, plus JSON: about 20 KiB. Platform webhooks
# (Slack's interaction payloads carry the message's blocks) stay well below 1 MiB.
MAX_BODY_BYTES = 1024 * 1024


class BodyLimit:
    """Answer 413 ``payload_too_large`` to a request whose body exceeds ``max_bytes``."""

    def __init__(self, app: ASGIApp, *, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

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
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
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
        await self.app(scope, _replay([whole], receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = PayloadTooLarge(
            f"the request body is larger than {self.max_bytes} bytes", max_bytes=self.max_bytes
        )
        body = {"error": {"code": error.code, "message": error.message, **error.details}}
        # Connection: close, because the rest of the body is left unread.
        response = JSONResponse(body, status_code=413, headers={"Connection": "close"})
        await response(scope, receive, send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A receive that hands out ``messages`` first, then whatever ``receive`` brings (the
    client's disconnect, which a streaming response waits for)."""
    pending = list(messages)

    async def replayed() -> MutableMapping[str, Any]:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
