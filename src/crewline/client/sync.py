"""The same verbs without async: each call runs the async client on a private event loop.

For scripts and synchronous agents; not for use inside a running event loop (use
``crewline.client.Client`` there).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any, Self

import httpx

from crewline.client.aio import Client
from crewline.client.cursor import CursorSink
from crewline.client.results import (
    Asked,
    Escalated,
    EscalationRecord,
    Event,
    EventPage,
    Posted,
    Sent,
)

__all__ = ["SyncClient"]


class SyncClient:
    """``with SyncClient(key, url=...) as crewline``: the verbs of ``Client``, blocking."""

    def __init__(
        self,
        key: str | None = None,
        *,
        url: str | None = None,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._runner = asyncio.Runner()
        self._client = Client(key, url=url, timeout=timeout, transport=transport)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._runner.run(self._client.aclose())
        self._runner.close()

    @property
    def url(self) -> str:
        return self._client.url

    def escalate(
        self,
        message: str,
        *,
        deadline: str | None = None,
        default_action: str | None = None,
        options: Sequence[str] | None = None,
        goal: str | None = None,
        idempotency_key: str | None = None,
        wait_for_delivery: bool = True,
    ) -> Escalated:
        return self._runner.run(
            self._client.escalate(
                message,
                deadline=deadline,
                default_action=default_action,
                options=options,
                goal=goal,
                idempotency_key=idempotency_key,
                wait_for_delivery=wait_for_delivery,
            )
        )

    def send(self, target: str, message: str, *, idempotency_key: str | None = None) -> Sent:
        return self._runner.run(self._client.send(target, message, idempotency_key=idempotency_key))

    def ask(
        self,
        question: str,
        *,
        options: Sequence[str] | None = None,
        dialog: bool = False,
        idempotency_key: str | None = None,
    ) -> Asked:
        return self._runner.run(
            self._client.ask(
                question, options=options, dialog=dialog, idempotency_key=idempotency_key
            )
        )

    def post(self, text: str, *, idempotency_key: str | None = None) -> Posted:
        return self._runner.run(self._client.post(text, idempotency_key=idempotency_key))

    def escalation(self, escalation_id: str) -> EscalationRecord:
        return self._runner.run(self._client.escalation(escalation_id))

    def retract(self, escalation_id: str) -> EscalationRecord:
        return self._runner.run(self._client.retract(escalation_id))

    def default_applied(self, escalation_id: str) -> EscalationRecord:
        return self._runner.run(self._client.default_applied(escalation_id))

    def poll(self, *, after: int = 0, wait: float = 0.0) -> EventPage:
        return self._runner.run(self._client.poll(after=after, wait=wait))

    def events(
        self,
        *,
        after: int | None = None,
        cursor_file: str | os.PathLike[str] | None = None,
        on_cursor: CursorSink | None = None,
        wait: float = 30.0,
        backoff: tuple[float, float] = (0.5, 30.0),
    ) -> Iterator[Event]:
        """``Client.events`` as a blocking iterator (same cursor and reconnect rules)."""
        stream = self._client.events(
            after=after, cursor_file=cursor_file, on_cursor=on_cursor, wait=wait, backoff=backoff
        )
        try:
            while True:
                try:
                    yield self._runner.run(_next(stream))
                except StopAsyncIteration:
                    return
        finally:
            self._runner.run(stream.aclose())  # type: ignore[attr-defined]


async def _next(stream: Any) -> Event:
    event: Event = await stream.__anext__()
    return event
