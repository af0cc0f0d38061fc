"""The in-process kit: crewline's core running on the memory transport, with the owner's
and a stranger's hands on it and the sessions' side of the verbs (what tests/driver.py is
for a full server, without HTTP)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from crewline import crew as crew_admin
from crewline.app.assembly import Bot
from crewline.app.scheduler import WindowScheduler
from crewline.bot.concierge import ConciergeSettings
from crewline.bot.escalations import EscalationRequest
from crewline.bot.render import CoreRenderer
from crewline.models import CallerKind, Escalation, Event, Receipt, Session
from crewline.store import OutboxEntry, Store, Tx
from crewline.store.sqlite import SqliteStore
from crewline.testing import FakeClock
from crewline.transports.base import DeliveryLimits
from crewline.transports.memory import MemoryMessage, MemoryTransport
from crewline.transports.outbox import OutboxDispatcher
from tests.bounds import WAIT

OWNER = "alice"
STRANGER = "mallory"
T = TypeVar("T")


@dataclass(kw_only=True)
class Kit:
    """The running core, the memory platform, and the hands on both."""

    bot: Bot
    memory: MemoryTransport
    outbox: OutboxDispatcher
    windows: WindowScheduler
    clock: FakeClock
    read_to: dict[str, int] = field(default_factory=dict)  # each session's read cursor

    @property
    def store(self) -> Store:
        return self.bot.store

    # the crew ---------------------------------------------------------------------------------
    async def add_member(
        self, slug: str = "radar", name: str = "Radar", *, stateless: bool = False
    ) -> Session:
        created = await crew_admin.add_member(
            self.store,
            slug=slug,
            name=name,
            owners=[f"memory:{OWNER}"],
            transports=["memory"],
            stateless=stateless,
        )
        return created.session

    async def add_session(self, kind: str, member: str | None = None) -> Session:
        created = await crew_admin.add_session(self.store, kind=CallerKind(kind), member=member)
        return created.session

    # the agents' side -------------------------------------------------------------------------
    async def escalate(self, session: Session, message: str, **request: Any) -> Escalation:
        """The verb as an agent calls it; answers at once (the card is queued)."""
        receipt = await self.bot.escalations.escalate(
            session, EscalationRequest(message=message, wait_for_delivery=False, **request)
        )
        return receipt.escalation

    async def read(self, session: Session) -> list[Event]:
        """What the session reads next (and so counts as read)."""
        after = self.read_to.get(session.id, 0)
        events = await self.bot.hub.take_events(session.id, after, limit=1000)
        if events:
            self.read_to[session.id] = events[-1].cursor
        return events

    async def event(self, session: Session, kind: str, *, timeout: float = WAIT) -> Event:
        """The session's next event of ``kind``, long-polled (bounded) as an agent would."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            after = self.read_to.get(session.id, 0)
            events = await self.bot.messages.events(session, after=after, wait=min(left, 5))
            for event in events:
                self.read_to[session.id] = event.cursor
                if event.kind == kind:
                    return event
        raise AssertionError(f"no {kind} event within {timeout}s")

    async def record(self, escalation_id: str) -> Escalation:
        found = await self.store.escalation(escalation_id)
        assert found is not None
        return found

    async def states(self, member: str = "radar") -> list[str]:
        return [e.state.value for e in await self.store.escalations(member)]

    # the platform -----------------------------------------------------------------------------
    async def delivered(self) -> None:
        """Every change's delivery done: the concierge's judgements written, the outbox
        drained."""
        await self.bot.concierge.idle()
        await self.outbox.wait_idle(timeout=WAIT)

    async def card(self, member: str = "radar", count: int = 1) -> MemoryMessage:
        """The ``count``-th card of the member's thread, once shown."""
        await self.memory.wait_until(lambda: len(self.memory.cards(member)) >= count, timeout=WAIT)
        return self.memory.cards(member)[count - 1]

    def shown(self, member: str = "radar") -> list[MemoryMessage]:
        return self.memory.thread_messages(member)

    async def shown_with(self, words: str, member: str = "radar") -> MemoryMessage:
        await self.memory.wait_until(
            lambda: any(words in m.current.text for m in self.shown(member)), timeout=WAIT
        )
        return next(m for m in self.shown(member) if words in m.current.text)

    async def wait_until(self, condition: Callable[[], bool]) -> None:
        await self.memory.wait_until(condition, timeout=WAIT)

    async def press(
        self,
        message: MemoryMessage,
        choice: int | str,
        *,
        user: str = OWNER,
        card_in_response: bool = False,
    ) -> Receipt:
        """Press a button of a message as drawn now, by its index or its label."""
        if isinstance(choice, str):
            choice = labels(message).index(choice)
        return await self.memory.press(user, message.ref, choice, card_in_response=card_in_response)

    async def press_payload(
        self, payload: str, *, member: str = "radar", user: str = OWNER
    ) -> Receipt:
        return await self.memory.press_payload(user, self.memory.threads.get(member), payload)

    async def say(self, text: str, *, member: str = "radar", user: str = OWNER) -> Receipt:
        return await self.memory.say(user, member, text)

    async def command(self, name: str, *args: str, member: str | None = None) -> Receipt:
        return await self.memory.command(OWNER, name, *args, member=member)


class HeldStore(SqliteStore):
    """SQLite holding back what a test picks: every write made on the domain-event task
    while ``writes`` is clear, and the next read of ``lane``'s head, which reads and then
    waits for ``heads`` (``head_read`` is set meanwhile)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.writes = asyncio.Event()
        self.writes.set()
        self.lane: str | None = None
        self.head_read = asyncio.Event()
        self.heads = asyncio.Event()

    async def write(
        self, transaction: Callable[[Tx], T], *, heavy: bool = False, lazy: bool = False
    ) -> T:
        task = asyncio.current_task()
        if task is not None and task.get_name() == "domain-events":
            await self.writes.wait()
        return await super().write(transaction, heavy=heavy, lazy=lazy)

    async def outbox_head(self, transport: str, lane: str) -> OutboxEntry | None:
        entry = await super().outbox_head(transport, lane)
        if lane == self.lane:
            self.lane = None
            self.head_read.set()
            await self.heads.wait()
        return entry


def labels(message: MemoryMessage) -> tuple[str, ...]:
    return tuple(b.label for b in message.current.buttons)


def choices(message: MemoryMessage) -> tuple[str, ...]:
    """The answer buttons, without the concierge's (which carry ``c:`` payloads)."""
    return tuple(b.label for b in message.current.buttons if not b.payload.startswith("c:"))


@asynccontextmanager
async def running(
    directory: Path,
    *,
    clock: FakeClock | None = None,
    memory: MemoryTransport | None = None,
    concierge: ConciergeSettings | None = None,
    store_type: type[SqliteStore] = SqliteStore,
) -> AsyncIterator[Kit]:
    """The core on a SQLite store in ``directory``; the same directory (with the same clock
    and platform) again is a restart. ``store_type``: a SQLite store a test holds back
    (``HeldStore``)."""
    clock = clock or FakeClock()
    memory = memory or MemoryTransport(limits=DeliveryLimits(roster_interval=0))  # no pacing
    async with (
        store_type.in_directory(directory) as store,
        Bot(
            store, clock=clock, transports=["memory"], delivery_wait=0.0, concierge=concierge
        ) as bot,
    ):
        hub = bot.hub
        memory.attach(hub)
        await memory.start(hub.receive)
        try:
            async with (
                OutboxDispatcher(
                    store,
                    memory,
                    CoreRenderer(store, clock, written=hub.written),
                    held=hub.holds,
                ) as outbox,
                WindowScheduler(hub, bot.escalations) as windows,
            ):
                hub.on_outbox(lambda transport, lanes: outbox.wake(lanes))
                yield Kit(bot=bot, memory=memory, outbox=outbox, windows=windows, clock=clock)
        finally:
            await memory.stop()
