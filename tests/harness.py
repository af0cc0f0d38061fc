"""Playing the human on a transport, the same way for every transport.

A harness owns one transport (and, for a platform, the loopback fake it talks to). The
escalation end-to-end suite and the Transport contract suite drive crewline only through a
harness, so each suite runs unchanged over memory, local, Slack, Telegram and Discord.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from crewline.models import Receipt
from crewline.transports.base import DeliveryLimits, Transport
from crewline.transports.memory import MemoryTransport
from tests.bounds import WAIT

__all__ = ["CARD_MARKS", "HARNESSES", "Harness", "MemoryHarness", "Shown"]

# Words only an escalation card says (SPEC §1 "The card"), one per state.
CARD_MARKS = (
    "To answer, tap a button",
    "Reply in this thread to answer",
    "Answered: ",
    "Window closed",
    "Withdrawn — ",
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Shown:
    """A message as the human sees it on the platform."""

    ref: str
    text: str
    buttons: tuple[str, ...]  # labels, in order
    payloads: tuple[str, ...]  # what each button carries

    @property
    def settled(self) -> bool:
        return not self.buttons

    @property
    def choices(self) -> tuple[str, ...]:
        """The answer buttons, without the concierge's (Send suggestion, Edit, Dismiss, Undo),
        which follow them once it has judged the card."""
        return tuple(
            label
            for label, payload in zip(self.buttons, self.payloads, strict=True)
            if not payload.startswith("c:")
        )


class Harness(ABC):
    """One transport under test, and the human's hands on it."""

    name: str  # the transport's name, and the platform part of identities
    owner: str = "alice"  # the owner's user id on this platform
    stranger: str = "mallory"  # someone else on the same platform

    @abstractmethod
    def transport(self) -> Transport:
        """The transport to run inside crewline (a new one after each ``restart``)."""

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Harness]:
        """Start whatever the platform needs (its fake); default: nothing."""
        yield self

    def serving(self, url: str) -> None:  # noqa: B027 - optional hook, empty by default
        """Told crewline's base URL after each start, for platforms that post to webhooks."""

    @abstractmethod
    async def say(self, member: str, text: str, *, user: str | None = None) -> Receipt | None:
        """Type ``text`` in the member's thread."""

    @abstractmethod
    async def press(
        self, member: str, message: Shown, choice: int, *, user: str | None = None
    ) -> str | None:
        """Press a button; returns the private notice the presser saw, if any."""

    @abstractmethod
    async def press_payload(
        self, member: str, payload: str, *, user: str | None = None
    ) -> str | None:
        """Send a click with a raw (possibly forged) payload."""

    @abstractmethod
    async def command(self, name: str, *args: str, member: str | None = None) -> str | None:
        """Run a command; returns what crewline answered."""

    @abstractmethod
    def messages(self, member: str) -> list[Shown]:
        """What the member's thread shows now, in order."""

    @abstractmethod
    def bells(self) -> dict[str, list[str]]:
        """Each bell group's bodies, oldest version first."""

    @abstractmethod
    async def wait_until(self, condition: Callable[[], bool], *, timeout: float = WAIT) -> None:
        """Wait (bounded) until ``condition()`` holds."""

    def cards(self, member: str) -> list[Shown]:
        """The escalation cards of the thread, in any state."""
        return [m for m in self.messages(member) if any(mark in m.text for mark in CARD_MARKS)]


# The memory platform is a local push, as the local inbox is: its roster is redrawn at once
# (``roster_interval=0``, the local transport's own setting) rather than at most once a
# second, so a test waiting for delivery does not wait out the pacing after each change.
# The pacing itself is the outbox's rule: tests/core/test_outbox_pacing.py.
UNPACED = DeliveryLimits(roster_interval=0)


class MemoryHarness(Harness):
    def __init__(self, name: str = "memory", *, limits: DeliveryLimits = UNPACED) -> None:
        self.name = name
        self._transport = MemoryTransport(name, limits=limits)

    def transport(self) -> Transport:
        return self._transport

    @property
    def memory(self) -> MemoryTransport:
        """The transport itself, for tests that need the platform's raw controls."""
        return self._transport

    async def say(self, member: str, text: str, *, user: str | None = None) -> Receipt | None:
        return await self._transport.say(user or self.owner, member, text)

    async def press(
        self, member: str, message: Shown, choice: int, *, user: str | None = None
    ) -> str | None:
        receipt = await self._transport.press(user or self.owner, message.ref, choice)
        return receipt.notice

    async def press_payload(
        self, member: str, payload: str, *, user: str | None = None
    ) -> str | None:
        receipt = await self._transport.press_payload(
            user or self.owner, self._transport.threads.get(member), payload
        )
        return receipt.notice

    async def command(self, name: str, *args: str, member: str | None = None) -> str | None:
        receipt = await self._transport.command(self.owner, name, *args, member=member)
        return receipt.notice

    def messages(self, member: str) -> list[Shown]:
        return [
            Shown(
                ref=m.ref,
                text=m.current.text,
                buttons=tuple(b.label for b in m.current.buttons),
                payloads=tuple(b.payload for b in m.current.buttons),
            )
            for m in self._transport.thread_messages(member)
        ]

    def bells(self) -> dict[str, list[str]]:
        return {
            key: [b.body for b in versions] for key, (_, versions) in self._transport.bells.items()
        }

    async def wait_until(self, condition: Callable[[], bool], *, timeout: float = WAIT) -> None:
        await self._transport.wait_until(condition, timeout=timeout)


# Every transport's harness, by name: the suites are parametrised over this table.
HARNESSES: dict[str, Callable[[], Harness]] = {
    "memory": MemoryHarness,
}


def _register_platform_harnesses() -> None:
    """Each platform's harness lives in tests/harnesses/<name>.py and registers itself."""
    import importlib
    import pkgutil

    import tests.harnesses as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"tests.harnesses.{info.name}")
        module.register(HARNESSES)


_register_platform_harnesses()
