"""Ending a resource's background tasks: each cancelled, then awaited, so none outlives it.

Every long-running piece (the outbox, the webhooks, the actors, the store's writer, the
watches and leases) ends its tasks the same way on leaving; one function says it once.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

__all__ = ["cancel_and_wait"]


async def cancel_and_wait(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel each task (``None`` is skipped), then wait until every one has ended, so none
    still runs when the caller goes on. All are cancelled before the first is awaited, so
    they end together rather than one after another."""
    started = [task for task in tasks if task is not None]
    for task in started:
        task.cancel()
    for task in started:
        with contextlib.suppress(asyncio.CancelledError):
            await task
