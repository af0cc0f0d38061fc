"""After the commit, domain events: what a change means to the rest of the system.

A transaction names the events it caused with :meth:`Change.publish`; once the change has
committed, the Hub hands them to :class:`DomainEvents`, which delivers them, in commit
order, to every subscriber on a task of its own. So a subscriber (the concierge, and later
webhooks or metrics) never runs inside a transaction, never on a member's actor, and can
neither slow nor break a member's path: a subscriber that raises is logged and the next
one still runs. A rolled-back change publishes nothing. What must be written together with
an event (the concierge dropping a suggestion its record no longer needs) is a reaction
registered with the Hub instead (``Hub.react``): it runs inside the publishing change.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from crewline.models import Escalation, Question
from crewline.tasks import cancel_and_wait

__all__ = [
    "DomainEvent",
    "DomainEvents",
    "EscalationRecorded",
    "EscalationSettled",
    "QuestionRaised",
    "QuestionSettled",
    "ReplyReached",
    "Subscriber",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True, slots=True)
class EscalationRecorded:
    """A member's escalation was written and its card queued."""

    escalation: Escalation


@dataclass(frozen=True, kw_only=True, slots=True)
class EscalationSettled:
    """A record left ``pending`` (answered, defaulted, expired, retracted) or came back to it
    (reopened): ``escalation`` is the record as it now is."""

    escalation: Escalation


@dataclass(frozen=True, kw_only=True, slots=True)
class QuestionRaised:
    """A blocking question card (or a dialog) was written for a member."""

    question: Question


@dataclass(frozen=True, kw_only=True, slots=True)
class QuestionSettled:
    """A question stopped waiting (answered or cancelled), or waits again (an answer was
    withdrawn): ``question`` is the record as it now is."""

    question: Question


@dataclass(frozen=True, kw_only=True, slots=True)
class ReplyReached:
    """A message reached a member's sessions — another session's (``session_send``), or the
    owner's typed reply that answered no record: what they waited on may have been answered
    by it, so the concierge's suggestions for it are stale. ``row_id`` is the message's row
    in the member's thread."""

    member: str
    row_id: str


DomainEvent = (
    EscalationRecorded | EscalationSettled | QuestionRaised | QuestionSettled | ReplyReached
)
Subscriber = Callable[[DomainEvent], Awaitable[None]]


class DomainEvents:
    """Delivers committed domain events to subscribers, in commit order, off the actors."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._queue: asyncio.Queue[DomainEvent] | None = None
        self._worker: asyncio.Task[None] | None = None

    def subscribe(self, subscriber: Subscriber) -> None:
        """``await subscriber(event)`` for every event committed from now on."""
        self._subscribers.append(subscriber)

    def publish(self, events: Sequence[DomainEvent]) -> None:
        """Queue the events of one committed change (called by the Hub after the commit)."""
        if not events or not self._subscribers:
            return
        if self._queue is None:
            self._queue = asyncio.Queue()
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._deliver(self._queue), name="domain-events")
        for event in events:
            self._queue.put_nowait(event)

    async def drain(self) -> None:
        """Wait until every event published so far has been handed to every subscriber."""
        if self._queue is not None:
            await self._queue.join()

    async def aclose(self) -> None:
        await cancel_and_wait(self._worker)
        self._worker = None

    async def _deliver(self, queue: asyncio.Queue[DomainEvent]) -> None:
        while True:
            event = await queue.get()
            try:
                for subscriber in self._subscribers:
                    try:
                        await subscriber(event)
                    except Exception:
                        log.exception("a subscriber failed on %s", type(event).__name__)
            finally:
                queue.task_done()
