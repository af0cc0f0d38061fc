"""A transport whose platform cannot be reached at start: crewline runs without it.

One behaviour for every platform. A start that fails because the platform could not be
reached — the network down, a timeout, a 5xx, a gateway that closed — does not stop
crewline: the transport is *degraded* (``/readyz`` answers 503 naming it, with the reason;
``crewline doctor`` reports what the running server says), its cards wait in the outbox, and
the start is tried again with back-off (1 s, doubling, at most a minute apart) until it
succeeds. Only a refusal a person must fix — the platform rejected the credentials, or the
configuration cannot work (``ConfigError``) — stops crewline at start with exit status 2;
met on a later attempt, it ends the retries and stays in ``/readyz``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from crewline.errors import ConfigError, CrewlineError
from crewline.tasks import cancel_and_wait

__all__ = ["START_BACKOFF", "Degraded"]

log = logging.getLogger(__name__)

START_BACKOFF = (1.0, 60.0)  # seconds: the first retry's delay, and the longest


class Degraded:
    """Tries ``start()`` again, with back-off, after it failed with ``error``; ``reason``
    says in words why the transport is not running. Use as ``async with`` (leaving stops the
    attempts); ``started`` is set once a start succeeded."""

    def __init__(
        self,
        name: str,
        start: Callable[[], Awaitable[None]],
        error: BaseException,
        *,
        backoff: tuple[float, float] = START_BACKOFF,
    ) -> None:
        self.name = name
        self.backoff = backoff
        self.attempts = 1
        self.started = asyncio.Event()
        self.given_up = False
        self._start = start
        self._error = _in_words(error)
        self._next_at: datetime | None = None
        self._task: asyncio.Task[None] | None = None
        log.warning(
            "%s: could not start (%s); crewline serves without it and keeps trying",
            name,
            self._error,
        )

    @property
    def reason(self) -> str:
        if self.given_up:
            return f"degraded: {self._error}; fix it and restart crewline"
        when = f", next at {self._next_at:%H:%M:%S} UTC" if self._next_at else ""
        return (
            f"degraded: could not start ({self._error}); trying again with back-off"
            f" (attempt {self.attempts}{when})"
        )

    async def __aenter__(self) -> Degraded:
        self._task = asyncio.create_task(self._run(), name=f"start-{self.name}")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await cancel_and_wait(self._task)

    async def _run(self) -> None:
        first, longest = self.backoff
        while True:
            delay = min(longest, first * 2 ** (self.attempts - 1)) * random.uniform(0.8, 1.2)
            self._next_at = datetime.now(UTC) + timedelta(seconds=delay)
            await asyncio.sleep(delay)
            self.attempts += 1
            try:
                await self._start()
            except ConfigError as error:
                self._error, self.given_up = _in_words(error), True
                log.error(
                    "%s: %s; not trying again (fix it and restart crewline)", self.name, self._error
                )
                return
            except Exception as error:
                self._error = _in_words(error)
                log.warning(
                    "%s: still cannot start (attempt %d): %s", self.name, self.attempts, self._error
                )
                continue
            log.info("%s: started after %d attempts", self.name, self.attempts)
            self.started.set()
            return


def _in_words(error: BaseException) -> str:
    if isinstance(error, CrewlineError):
        return f"{error.message} ({error.code})"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
