"""The same verbs without async: each call runs the async client on a private event loop.

For scripts and synchronous agents; not for use inside a running event loop (use
``crewline.client.Client`` there). Every verb is the async client's own, made blocking by
:func:`_blocking`, so the two cannot drift apart: a verb added to ``Client`` is one line here.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

import httpx

from crewline.client.aio import Client
from crewline.client.cursor import CursorSink
from crewline.client.results import Event

__all__ = ["SyncClient"]

P = ParamSpec("P")
R = TypeVar("R")


def _blocking(
    verb: Callable[Concatenate[Client, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[SyncClient, P], R]:
    """``verb`` of the async client, run to completion on the SyncClient's own loop."""

    @functools.wraps(verb)
    def call(self: SyncClient, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._runner.run(verb(self._client, *args, **kwargs))

    return call


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

    escalate = _blocking(Client.escalate)
    send = _blocking(Client.send)
    ask = _blocking(Client.ask)
    post = _blocking(Client.post)
    escalation = _blocking(Client.escalation)
    retract = _blocking(Client.retract)
    default_applied = _blocking(Client.default_applied)
    whoami = _blocking(Client.whoami)
    poll = _blocking(Client.poll)
    wait_settled = _blocking(Client.wait_settled)
    hub_suggest = _blocking(Client.hub_suggest)
    hub_reply = _blocking(Client.hub_reply)
    hub_stop = _blocking(Client.hub_stop)
    hub_respawn = _blocking(Client.hub_respawn)
    hub_dispatch = _blocking(Client.hub_dispatch)

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


async def _next(stream: AsyncIterator[Event]) -> Event:
    return await anext(stream)
