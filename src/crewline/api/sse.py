"""Server-sent events: a session's event stream held open over one HTTP response.

Each event leaves as ``id: <cursor>``, ``event: <kind>``, ``data: <the JSON the pull API
returns for it>``; a reconnecting client sends ``Last-Event-ID`` (or ``?after=``) and
resumes after it, so nothing is lost and nothing repeated. A comment line keeps idle
connections (and the proxies between) alive. Closing crewline ends every stream cleanly,
with a complete response, before the HTTP server stops; a stream whose key is revoked ends
at once with a final frame saying so (the ``key_revoked`` or ``stop`` event, or, when the
log holds none, one without an id).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import AsyncIterator

from crewline.bot import Hub
from crewline.errors import InvalidInput
from crewline.models import KEY_REVOKED, Event, Session

__all__ = ["KEEPALIVE", "EventStreams", "start_cursor"]

KEEPALIVE = 15.0  # seconds of silence before a keep-alive comment
RETRY_MS = 2000  # the reconnection delay the client is told


# A cursor is a SQLite INTEGER: a larger number is no cursor crewline ever gave (and would
# overflow the query, a 500, as the schema fuzzing found).
MAX_CURSOR = 2**63 - 1


def check_cursor(after: int, *, field: str = "after") -> int:
    """``after`` as a cursor, or ``invalid_cursor``."""
    if not 0 <= after <= MAX_CURSOR:
        raise InvalidInput(
            f"{field} must be a cursor 0..{MAX_CURSOR}", code="invalid_cursor", field=field
        )
    return after


def start_cursor(after: int | None, last_event_id: str | None) -> int:
    """Where a stream starts: after ``Last-Event-ID`` when the client sent one (it is
    reconnecting), else after ``?after=``, else from the beginning."""
    if last_event_id is not None:
        text = last_event_id.strip()
        if not text.isascii() or not text.isdigit():
            raise InvalidInput(
                f"Last-Event-ID {last_event_id[:40]!r} is not a cursor (a number ≥ 0)",
                code="invalid_cursor",
                field="Last-Event-ID",
            )
        return check_cursor(int(text), field="Last-Event-ID")
    return check_cursor(after or 0)


# The last frame of a stream whose key was revoked (or whose member was removed) with no
# event of its own in the log to say so; it carries no id, being no cursor.
REVOKED_FRAME = (
    f"event: {KEY_REVOKED}\ndata: "
    + json.dumps(
        {
            "kind": KEY_REVOKED,
            "body": {"reason": "this key was revoked: the stream ends; ask for the new key"},
        }
    )
    + "\n\n"
)


def frame(event: Event) -> str:
    """One event as an SSE frame; ``data`` is the pull API's view of it, on one line."""
    data = {
        "cursor": event.cursor,
        "kind": event.kind,
        "body": dict(event.body),
        "at": event.created_at.isoformat(),
    }
    return f"id: {event.cursor}\nevent: {event.kind}\ndata: {json.dumps(data)}\n\n"


class EventStreams:
    """The open streams of one server. ``aclose`` ends them all and waits (bounded) for
    their responses to finish."""

    def __init__(self, hub: Hub, *, keepalive: float = KEEPALIVE) -> None:
        self.hub = hub
        self.keepalive = keepalive
        self._closing = asyncio.Event()
        self._open: Counter[str] = Counter()  # session id -> open streams
        self._idle = asyncio.Condition()

    @property
    def open(self) -> int:
        return sum(self._open.values())

    async def stream(self, session: Session, after: int) -> AsyncIterator[str]:
        """The session's events after ``after``, then each new one as it commits, until
        crewline stops or the session's key stops working (its last frame says so)."""
        feed = self.hub.feed
        self._open[session.id] += 1
        try:
            with feed.reading(session.id):
                yield f"retry: {RETRY_MS}\n\n"
                cursor = after
                while not self._closing.is_set() and not feed.closed:
                    # Registered before the read: an event committed in between still wakes us.
                    signal = feed.register(session.id)
                    # Remembered as delivered as they are read: a context boundary's commit then
                    # never moves (and so never repeats) an event this stream has sent.
                    found = (
                        await self.hub.take_events(session.id, cursor)
                        if await self.hub.store.has_events_after(session.id, cursor)
                        else []
                    )
                    for event in found:
                        yield frame(event)
                        cursor = event.cursor
                        if event.is_final:
                            return  # the key no longer works: nothing after this is sent
                    if found:
                        continue
                    if feed.ended(session.id):
                        yield REVOKED_FRAME
                        return
                    try:
                        async with asyncio.timeout(self.keepalive):
                            await signal.wait()
                    except TimeoutError:
                        yield ": keep-alive\n\n"
        finally:
            self._open[session.id] -= 1
            if self._open[session.id] <= 0:
                del self._open[session.id]
            async with self._idle:
                self._idle.notify_all()

    async def aclose(self, *, timeout: float = 2.0) -> None:
        """End every stream and long poll (their waits are woken through the feed: long
        polls answer 503 ``shutting_down``) and wait for the streams."""
        self._closing.set()
        self.hub.feed.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout), self._idle:
                await self._idle.wait_for(lambda: not self._open)
