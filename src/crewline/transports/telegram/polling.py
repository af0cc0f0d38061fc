"""Long polling that confirms to Telegram only the updates crewline has handled.

Telegram forgets an update once a ``getUpdates`` call asks for the ones after it. PTB's
updater asks again as soon as it has queued a batch, before crewline has handled it, so an
update fetched just before a SIGKILL or a crash was confirmed and never handled: a press or
a typed reply lost, while Telegram would have sent it again. :class:`HandledFirst`, PTB's
request for ``getUpdates`` only, holds each call until every update of the batch before it
was handled — the next offset then confirms exactly those. An update whose handling hangs
holds polling for at most ``within`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram.request import HTTPXRequest, RequestData

__all__ = ["HANDLED_WITHIN", "HandledFirst"]

log = logging.getLogger(__name__)

HANDLED_WITHIN = 30.0  # seconds the next getUpdates waits for the batch before it


class HandledFirst(HTTPXRequest):
    """The ``getUpdates`` request: each call waits until the previous batch is handled."""

    def __init__(
        self, handled: Callable[[int], Awaitable[None]], *, within: float = HANDLED_WITHIN
    ) -> None:
        super().__init__(connection_pool_size=1)  # what PTB gives getUpdates by default
        self._handled = handled
        self._within = within
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
        return code, payload


def _update_ids(payload: bytes) -> list[int]:
    try:
        result = json.loads(payload).get("result")
    except (ValueError, AttributeError):
        return []
    if not isinstance(result, list):
        return []
    return [u["update_id"] for u in result if isinstance(u, dict) and "update_id" in u]
