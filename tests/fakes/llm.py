"""A loopback fake of an OpenAI-compatible chat-completions endpoint, for the LLM brain.

``POST {base_url}/chat/completions`` answers the way a test tells it to::

    async with FakeLlm() as fake:
        fake.reply_with("yes — probe said so")   # a normal completion
        fake.hold()                               # keep the request open until fake.release()
        fake.answer_garbage()                     # 200 with a body that is not JSON
        fake.fail(500)                            # an HTTP error
        fake.answer_json({"id": "x"})             # any JSON body (e.g. without choices)
        fake.reply_by(lambda body: "…")            # content chosen per request (a script)

Every request's headers and JSON body are recorded; ``wait_for_requests(n)`` waits (bounded)
until ``n`` have arrived, so tests never sleep.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from aiohttp import web

from tests.bounds import WAIT

__all__ = ["FakeLlm", "LlmRequest"]

JsonDict = dict[str, Any]


@dataclass(frozen=True, kw_only=True, slots=True)
class LlmRequest:
    """One request as the fake received it."""

    path: str
    authorization: str | None
    body: JsonDict


def completion(content: str, *, model: str = "fake-model") -> JsonDict:
    """A chat completion as the OpenAI API shapes it, with one choice."""
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }


class FakeLlm:
    """An OpenAI-compatible endpoint on 127.0.0.1 that answers as configured."""

    def __init__(self) -> None:
        self.requests: list[LlmRequest] = []
        self._mode = "reply"
        self._content = "ok"
        self._json: JsonDict = {}
        self._status = 200
        self._script: Callable[[JsonDict], str] | None = None
        self._released: asyncio.Event | None = None
        self._arrived: asyncio.Condition | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def __aenter__(self) -> FakeLlm:
        self._released = asyncio.Event()
        self._arrived = asyncio.Condition()
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._complete)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        """What ``[concierge.llm] base_url`` should be (the /v1 root, as OpenAI's)."""
        return f"http://127.0.0.1:{self.port}/v1"

    # ------------------------------------------------------------------ what it answers

    def reply_with(self, content: str) -> None:
        self._mode, self._content = "reply", content

    def reply_by(self, script: Callable[[JsonDict], str]) -> None:
        """Answer each request with ``script(body)``: what a model would say to it."""
        self._mode, self._script = "script", script

    def answer_json(self, body: JsonDict) -> None:
        self._mode, self._json = "json", body

    def answer_garbage(self) -> None:
        self._mode = "garbage"

    def fail(self, status: int) -> None:
        self._mode, self._status = "fail", status

    def hold(self) -> None:
        """Keep every request open, unanswered, until ``release()``."""
        self._mode = "hold"
        if self._released is not None:
            self._released.clear()

    @property
    def holding(self) -> bool:
        """True while requests are being held open (``hold()`` and no ``release()`` yet)."""
        return self._mode == "hold" and self._released is not None and not self._released.is_set()

    def release(self) -> None:
        if self._released is not None:
            self._released.set()

    async def wait_for_requests(self, count: int, *, timeout: float = WAIT) -> None:
        """Wait until ``count`` requests have arrived (bounded)."""
        assert self._arrived is not None
        async with asyncio.timeout(timeout), self._arrived:
            await self._arrived.wait_for(lambda: len(self.requests) >= count)

    # ------------------------------------------------------------------ the endpoint

    async def _complete(self, request: web.Request) -> web.StreamResponse:
        assert self._arrived is not None and self._released is not None
        try:
            body = await request.json()
        except json.JSONDecodeError:
            return web.json_response({"error": {"message": "invalid JSON"}}, status=400)
        async with self._arrived:
            self.requests.append(
                LlmRequest(
                    path=request.path,
                    authorization=request.headers.get("Authorization"),
                    body=body,
                )
            )
            self._arrived.notify_all()
        if self._mode == "hold":
            await self._released.wait()
            return web.json_response(completion("released too late"))
        if self._mode == "fail":
            return web.json_response(
                {"error": {"message": "internal error", "type": "server_error"}},
                status=self._status,
            )
        if self._mode == "garbage":
            return web.Response(body=b"\x00<html>not json at all", content_type="text/html")
        if self._mode == "json":
            return web.json_response(self._json)
        if self._mode == "script" and self._script is not None:
            content = self._script(body)
            return web.json_response(completion(content, model=str(body.get("model"))))
        return web.json_response(completion(self._content, model=str(body.get("model"))))
