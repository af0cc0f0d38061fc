"""MemoryTransport: an in-process transport for tests and embedders.

It keeps threads, messages, bells and the roster in memory, plays the human side
(``say``, ``press``, ``edit``, ``command``), and can be told to fail, so the outbox and
the core are exercised exactly as a platform would exercise them.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from crewline.errors import TransportError

if TYPE_CHECKING:
    from crewline.config import Config
from crewline.models import (
    Bell,
    HumanClick,
    HumanCommand,
    HumanEdit,
    HumanMessage,
    Member,
    OutboundMessage,
    Receipt,
    RosterEntry,
)
from crewline.transports.base import Connection, DeliveryLimits, HumanEventSink, Transport

__all__ = ["MemoryMessage", "MemoryTransport", "build"]


@dataclass(kw_only=True, slots=True)
class MemoryMessage:
    ref: str
    thread: str
    key: str
    versions: list[OutboundMessage] = field(default_factory=list)
    rewound: bool = False

    @property
    def current(self) -> OutboundMessage:
        return self.versions[-1]


class MemoryTransport(Transport):
    def __init__(self, name: str = "memory", *, limits: DeliveryLimits | None = None) -> None:
        self.name = name
        self.limits = limits or DeliveryLimits()
        self.threads: dict[str, str] = {}  # member slug -> thread ref
        self.messages: dict[str, MemoryMessage] = {}  # message ref -> message
        self.bells: dict[str, tuple[str, list[Bell]]] = {}  # group key -> (ref, versions)
        self.rosters: list[list[RosterEntry]] = []
        self.reactions: dict[str, list[str]] = {}  # a person's message ref -> reactions
        self.calls: list[str] = []
        self._by_key: dict[str, str] = {}
        self._ids = itertools.count(1)
        self._failures: list[Exception] = []
        self._sink: HumanEventSink | None = None
        # Each wait_until's condition and the future that ends its wait.
        self._waiters: dict[asyncio.Future[None], Callable[[], bool]] = {}
        # Each wait_for_post's future, by the key of the post it waits for.
        self._post_waiters: dict[str, list[asyncio.Future[MemoryMessage]]] = {}
        self.reachable = Connection(connected=True)  # a test sets it to play an outage

    # the port -------------------------------------------------------------------------------
    async def start(self, sink: HumanEventSink) -> None:
        self._sink = sink

    async def stop(self) -> None:
        self._sink = None

    def connection(self) -> Connection:
        return self.reachable

    async def open_thread(self, member: Member) -> str:
        self.calls.append(f"open_thread:{member.slug}")
        return self.threads.setdefault(member.slug, f"{self.name}-thread-{member.slug}")

    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        self._maybe_fail("post")
        if key in self._by_key:  # idempotent by key, as a platform with idempotency keys is
            return self._by_key[key]
        ref = f"m{next(self._ids)}"
        self.messages[ref] = MemoryMessage(ref=ref, thread=thread, key=key, versions=[message])
        self._by_key[key] = ref
        for waiter in self._post_waiters.pop(key, ()):
            if not waiter.done():
                waiter.set_result(self.messages[ref])
        self._notify()
        return ref

    async def update(self, thread: str, message_ref: str, message: OutboundMessage) -> None:
        self._maybe_fail("update")
        self.messages[message_ref].versions.append(message)
        self._notify()

    async def ring(self, bell: Bell, *, message_ref: str | None) -> str:
        self._maybe_fail("ring")
        ref, versions = self.bells.get(bell.group_key, (f"b{next(self._ids)}", []))
        versions.append(bell)
        self.bells[bell.group_key] = (ref, versions)
        self._notify()
        return ref

    async def show_roster(self, roster: Sequence[RosterEntry]) -> None:
        self._maybe_fail("roster")
        self.rosters.append(list(roster))
        self._notify()

    async def mark_rewound(
        self,
        thread: str,
        message_refs: Sequence[str],
        *,
        drawn: Mapping[str, OutboundMessage] | None = None,
    ) -> None:
        for ref in message_refs:
            if ref in self.messages:
                self.messages[ref].rewound = True
            else:  # a person's own message: a platform can only react to it
                self.reactions.setdefault(ref, []).append("rewound")
        self._notify()

    # what a test sees -----------------------------------------------------------------------
    def thread_messages(self, member: str) -> list[MemoryMessage]:
        thread = self.threads.get(member)
        return [m for m in self.messages.values() if m.thread == thread]

    def cards(self, member: str) -> list[MemoryMessage]:
        return [m for m in self.thread_messages(member) if m.current.kind == "card"]

    def message_for(self, key: str) -> MemoryMessage | None:
        ref = self._by_key.get(key)
        return None if ref is None else self.messages[ref]

    async def wait_until(self, condition: Callable[[], bool], *, timeout: float = 5.0) -> None:
        """Wait (bounded) until ``condition()`` holds after some delivery.

        The condition is checked now and then by each delivery as it lands, which wakes only
        the waiters whose condition holds: with many waiting (a benchmark's humans, one per
        card), waking them all to look again cost more than the deliveries themselves. What
        a condition raises is raised here."""
        if condition():
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters[done] = condition
        try:
            async with asyncio.timeout(timeout):
                await done
        finally:
            del self._waiters[done]

    async def wait_for_post(self, key: str, *, timeout: float = 5.0) -> MemoryMessage:
        """The message posted for ``key`` (an object key: ``row:<id>``), once it is, waiting
        at most ``timeout`` seconds. Its post ends this wait alone: a benchmark's humans,
        one waiting per card, cost a post one look-up, not a look at every waiting
        condition (``wait_until``)."""
        shown = self.message_for(key)
        if shown is not None:
            return shown
        posted: asyncio.Future[MemoryMessage] = asyncio.get_running_loop().create_future()
        waiters = self._post_waiters.setdefault(key, [])
        waiters.append(posted)
        try:
            async with asyncio.timeout(timeout):
                return await posted
        finally:
            if self._post_waiters.get(key) is waiters:  # not posted (its post takes the list)
                waiters.remove(posted)
                if not waiters:
                    del self._post_waiters[key]

    def fail_next(self, error: TransportError, *, times: int = 1) -> None:
        """Make the next ``times`` outbound calls raise ``error``."""
        self._failures.extend([error] * times)

    # the human side -------------------------------------------------------------------------
    async def say(
        self,
        user_id: str,
        member: str,
        text: str,
        *,
        event_id: str | None = None,
        escalation_id: str | None = None,
    ) -> Receipt:
        return await self._send(
            HumanMessage(
                transport=self.name,
                event_id=event_id or self._event_id(),
                user_id=user_id,
                thread=self.threads.get(member),
                text=text,
                message_ref=f"h{next(self._ids)}",
                escalation_id=escalation_id,
            )
        )

    async def press(
        self,
        user_id: str,
        message_ref: str,
        choice: int,
        *,
        event_id: str | None = None,
        card_in_response: bool = False,
    ) -> Receipt:
        """Press the ``choice``-th button of a message as it is drawn now;
        ``card_in_response``: as a platform that settles the card in the click's response."""
        message = self.messages[message_ref]
        return await self.press_payload(
            user_id,
            message.thread,
            message.current.buttons[choice].payload,
            event_id=event_id,
            card_in_response=card_in_response,
        )

    async def press_payload(
        self,
        user_id: str,
        thread: str | None,
        payload: str,
        *,
        event_id: str | None = None,
        card_in_response: bool = False,
    ) -> Receipt:
        """Send a raw button payload, as a forged or stale click would arrive."""
        return await self._send(
            HumanClick(
                transport=self.name,
                event_id=event_id or self._event_id(),
                user_id=user_id,
                thread=thread,
                payload=payload,
                card_in_response=card_in_response,
            )
        )

    async def edit(
        self,
        user_id: str,
        member: str,
        message_ref: str,
        text: str,
        *,
        event_id: str | None = None,
    ) -> Receipt:
        return await self._send(
            HumanEdit(
                transport=self.name,
                event_id=event_id or self._event_id(),
                user_id=user_id,
                thread=self.threads.get(member),
                message_ref=message_ref,
                text=text,
            )
        )

    async def command(
        self,
        user_id: str,
        name: str,
        *args: str,
        member: str | None = None,
        message_ref: str | None = None,
        event_id: str | None = None,
    ) -> Receipt:
        """A command; with ``message_ref``, a message action on that message ("Rewind to
        here")."""
        return await self._send(
            HumanCommand(
                transport=self.name,
                event_id=event_id or self._event_id(),
                user_id=user_id,
                thread=self.threads.get(member) if member else None,
                name=name,
                args=args,
                message_ref=message_ref,
            )
        )

    # internals ------------------------------------------------------------------------------
    async def _send(self, event: HumanMessage | HumanClick | HumanEdit | HumanCommand) -> Receipt:
        if self._sink is None:
            raise RuntimeError(f"transport {self.name!r} is not started")
        return await self._sink(event)

    def _event_id(self) -> str:
        return f"{self.name}-ev-{next(self._ids)}"

    def _maybe_fail(self, call: str) -> None:
        self.calls.append(call)
        if self._failures:
            raise self._failures.pop(0)

    def _notify(self) -> None:
        """A delivery landed: end the waits whose condition now holds."""
        for done, condition in list(self._waiters.items()):
            if done.done():
                continue
            try:
                holds = condition()
            except Exception as error:
                done.set_exception(error)
            else:
                if holds:
                    done.set_result(None)


def build(config: Config) -> MemoryTransport:
    """The memory transport of a served crewline: nobody reads it but the tests and the log."""
    return MemoryTransport("memory")
