"""Long polling that confirms to Telegram only the updates crewline has handled.

Telegram forgets an update once a ``getUpdates`` call asks for the ones after it. PTB's
updater asks again as soon as it has queued a batch, before crewline has handled it, so an
update fetched just before a SIGKILL or a crash was confirmed and never handled: a press or
a typed reply lost, while Telegram would have sent it again. :class:`HandledFirst`, PTB's
request for ``getUpdates`` only, holds each call until every update of the batch before it
was handled — the next offset then confirms exactly those. An update whose handling hangs
holds polling for at most ``within`` seconds.

Under a replica's lease (``fence``), a long poll is sent only while the lease has room
for all of it plus the fence's margin, so it ends at Telegram before another replica may
take over and poll (Telegram would answer one of the two with 409 Conflict); with too
little left it waits for the next renewal. The margin also covers the moment between the
check and the request reaching Telegram: a poll that passed its check goes out. Once the
lease is lost nothing more is asked: the last confirmation as polling stops is left out (the
next holder fetches those updates again, and crewline remembers their ids, so nothing is
answered twice).

An update fetched again (as after a lost offset) is handled again before it is confirmed
again: ``fetched`` is told each batch's ids as it arrives, so an earlier delivery's
handling does not count for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram.request import HTTPXRequest, RequestData

from crewline.transports.base import Fence

__all__ = ["HANDLED_WITHIN", "HandledFirst"]

log = logging.getLogger(__name__)

HANDLED_WITHIN = 30.0  # seconds the next getUpdates waits for the batch before it


class HandledFirst(HTTPXRequest):
    """The ``getUpdates`` request: each call waits until the previous batch is handled."""

    def __init__(
        self,
        handled: Callable[[int], Awaitable[None]],
        *,
        fetched: Callable[[list[int]], None] | None = None,
        within: float = HANDLED_WITHIN,
        fence: Fence | None = None,
    ) -> None:
        super().__init__(connection_pool_size=1)  # what PTB gives getUpdates by default
        self._handled = handled
        self._told_fetched = fetched
        self._within = within
        self._fence = fence
        self._fetched: list[int] = []

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        fetched, self._fetched = self._fetched, []
        try:
            async with asyncio.timeout(self._within):
                for update_id in fetched:
                    await self._handled(update_id)
        except TimeoutError:
            log.warning(
                "telegram: updates %s not handled within %.0f s; polling on", fetched, self._within
            )
        if self._fence is not None:
            seconds = _poll_seconds(request_data)
            if not await self._fence.runway(seconds + self._fence.margin):
                log.info("telegram: the lease is lost; no more getUpdates from this replica")
                await asyncio.sleep(seconds)  # an empty poll, without asking: stopping ends it
                return 200, _NO_UPDATES
        code, payload = await super().do_request(
            url,
            method,
            request_data,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
        )
        if code == 200:
            self._fetched = _update_ids(payload)
            if self._told_fetched is not None:
                self._told_fetched(self._fetched)
        return code, payload


_NO_UPDATES = b'{"ok":true,"result":[]}'


def _poll_seconds(request_data: RequestData | None) -> float:
    """How long Telegram may hold this getUpdates open (its ``timeout``; 0: not at all)."""
    timeout = request_data.parameters.get("timeout") if request_data is not None else None
    return float(timeout) if isinstance(timeout, int | float) else 0.0


def _update_ids(payload: bytes) -> list[int]:
    try:
        result = json.loads(payload).get("result")
    except (ValueError, AttributeError):
        return []
    if not isinstance(result, list):
        return []
    return [u["update_id"] for u in result if isinstance(u, dict) and "update_id" in u]
