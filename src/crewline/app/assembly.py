"""The core and its features, built and wired: what the composition root (``server.py``, the
CLI, the doctor, tests) runs.

The Hub names no feature; each feature is built with the Hub as its ports and registers
what it handles. The order of this list is the order features register (questions before
escalations: a typed reply naming a question card is the question's, every other typed
reply is matched by the escalations' rule), enter (escalations first: entering reconciles
every member's index, which the concierge's resumed judging then reads) and leave (in
reverse).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AsyncExitStack

from crewline.bot import Hub
from crewline.bot.boundaries import DEFAULT_WAIT, Boundaries
from crewline.bot.concierge import Concierge, ConciergeSettings, ConciergeVerbs
from crewline.bot.escalations import DELIVERY_WAIT, Escalations
from crewline.bot.messages import Messages
from crewline.bot.questions import Questions
from crewline.models import Clock
from crewline.store import Store

__all__ = ["Bot"]


class Bot:
    """``async with Bot(store, …) as bot``: the Hub and every feature, registered and
    started; leaving stops them all. ``bot.hub`` is the core (changes, human events,
    the domain-event bus); the agents' verbs are on the feature that owns them."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        transports: Sequence[str] = (),
        boundary_wait: float = DEFAULT_WAIT,
        refuse_mid_turn: bool = False,
        delivery_wait: float = DELIVERY_WAIT,
        concierge: ConciergeSettings | None = None,
    ) -> None:
        self.hub = hub = Hub(store, clock=clock, transports=transports)
        self.messages = Messages(hub)
        self.questions = Questions(hub)
        self.escalations = Escalations(hub, delivery_wait=delivery_wait)
        self.boundaries = Boundaries(hub, wait=boundary_wait, refuse_mid_turn=refuse_mid_turn)
        self.concierge = Concierge(hub, concierge)
        self.hub_verbs = ConciergeVerbs(hub, self.concierge)
        self._stack = AsyncExitStack()

    @property
    def store(self) -> Store:
        return self.hub.store

    @property
    def clock(self) -> Clock:
        return self.hub.clock

    async def __aenter__(self) -> Bot:
        stack = self._stack
        await stack.__aenter__()
        try:
            await stack.enter_async_context(self.hub)
            await stack.enter_async_context(self.escalations)
            await stack.enter_async_context(self.boundaries)
            await stack.enter_async_context(self.concierge)
        except BaseException:
            await stack.aclose()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._stack.aclose()
