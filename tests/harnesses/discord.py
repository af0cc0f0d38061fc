"""The Discord harness: crewline's DiscordTransport (real discord.py) against FakeDiscord.

The human's hands are the fake's: messages, edits, presses and commands arrive as gateway
dispatches over a real websocket, and what the human sees is read back from the fake (the
thread's messages, the ephemeral answers, the bell in the crew channel). ``transport()``
makes a new transport connected to the same fake each time, so a restart is a real one.
"""

# Every wait takes its own bounded `timeout`, so tests never need a fixed sleep.

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from crewline.config import Config
from crewline.models import Bell, HumanEvent, Receipt
from crewline.testing import FakeClock
from crewline.transports.base import Transport
from crewline.transports.discord import DiscordSettings, DiscordTransport
from crewline.transports.discord.render import slug_from_thread_name
from tests.bounds import WAIT
from tests.fakes.discord import (
    FLAG_EPHEMERAL,
    INTERACTION_MESSAGE_COMPONENT,
    Dispatch,
    FakeDiscord,
    FakeUser,
    Json,
    point_discord_py_at,
)
from tests.harness import Harness, Shown

if TYPE_CHECKING:
    from tests.driver import Crew

WAIT_SECONDS = WAIT


class RecordingDiscordTransport(DiscordTransport):
    """The real transport, telling its harness each bell it rang (the bell's group key is
    crewline's, not something a Discord message carries)."""

    def __init__(self, settings: DiscordSettings, harness: DiscordHarness, **options: Any) -> None:
        super().__init__(settings, on_handled=harness.handled, **options)
        self.harness = harness

    async def ring(self, bell: Bell, *, message_ref: str | None) -> str:
        ref = await super().ring(bell, message_ref=message_ref)
        self.harness.rang(bell, ref)
        return ref


class DiscordHarness(Harness):
    name = "discord"

    def __init__(self, **fake_options: Any) -> None:
        self.fake = FakeDiscord(**fake_options)
        self.owner = str(self.fake.owner.id)
        self.stranger = str(self.fake.add_user("mallory").id)
        self.handled_events: list[tuple[HumanEvent, Receipt]] = []  # in the order answered
        self.transports: list[RecordingDiscordTransport] = []
        self._bells: dict[str, list[str]] = {}
        self._changed = asyncio.Event()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[DiscordHarness]:
        async with self.fake:
            with point_discord_py_at(self.fake):
                yield self

    def settings(self) -> DiscordSettings:
        """The settings a user would write for this server, pointed at the fake."""
        return DiscordSettings(
            bot_token=self.fake.token,
            guild_id=self.fake.guild_id,
            channel_id=self.fake.crew_channel_id,
            api_url=self.fake.api_base,
            gateway_url=self.fake.gateway_url,
            ready_timeout=WAIT_SECONDS,
            guild_ready_timeout=0.05,
            reidentify_delay=0.0,
        )

    def transport(self, **options: Any) -> Transport:
        # The fake holds the bot to Discord's 3-s answer only when a test sets its
        # ``interaction_deadline``, so a press is answered in time however loaded the machine
        # is; the deferred path is tested by giving ``respond_within`` (test_discord_limits).
        options.setdefault("respond_within", WAIT_SECONDS)
        made = RecordingDiscordTransport(self.settings(), self, **options)
        self.transports.append(made)
        return made

    # what the transport reports ---------------------------------------------------------------
    def handled(self, event: HumanEvent, receipt: Receipt) -> None:
        self.handled_events.append((event, receipt))
        self._pulse()

    def rang(self, bell: Bell, ref: str) -> None:
        if ref:
            embeds = self.fake.message(int(ref)).get("embeds") or [{}]
            self._bells.setdefault(bell.group_key, []).append(str(embeds[0].get("description")))
        self._pulse()

    def _pulse(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def receipts(self, event_id: str) -> list[Receipt]:
        return [r for e, r in self.handled_events if e.event_id == event_id]

    async def receipt(
        self, event_id: str, *, times: int = 1, timeout: float = WAIT_SECONDS
    ) -> Receipt:
        """The core's receipt for one platform event, once the transport answered it (the
        ``times``-th time, for a redelivered event)."""
        async with asyncio.timeout(timeout):
            while len(self.receipts(event_id)) < times:
                await self._changed.wait()
        return self.receipts(event_id)[times - 1]

    # the human's hands ------------------------------------------------------------------------
    def user(self, user_id: str | None) -> FakeUser:
        return self.fake.users[int(user_id or self.owner)]

    def thread_id(self, member: str) -> int:
        for thread in self.fake.threads:
            if slug_from_thread_name(str(thread["name"])) == member:
                return int(thread["id"])
        raise LookupError(f"{member} has no thread in the crew channel yet")

    async def say(self, member: str, text: str, *, user: str | None = None) -> Receipt | None:
        sent = await self.fake.send_message(self.thread_id(member), text, author=self.user(user))
        return await self.receipt(str(sent.id))

    async def press(
        self, member: str, message: Shown, choice: int, *, user: str | None = None
    ) -> str | None:
        custom_id = message.payloads[choice]
        if not _has_button(self.fake.message(int(message.ref)), custom_id):
            return await self.press_payload(member, custom_id, user=user)
        # The press is sent before anything else awaits, so concurrent human actions keep the
        # order the test started them in.
        press = await self.fake.press_button(int(message.ref), custom_id, user=self.user(user))
        await self.receipt(str(press.id))
        return self.notice(press)

    async def press_payload(
        self, member: str, payload: str, *, user: str | None = None
    ) -> str | None:
        thread = self.thread_id(member)
        shown = [m for m in self.fake.messages(thread) if _has_button(m, payload)]
        if shown:
            press = await self.fake.press_button(shown[-1], payload, user=self.user(user))
        else:
            press = await self._stale_or_forged_press(thread, payload, self.user(user))
        await self.receipt(str(press.id))
        return self.notice(press)

    async def _stale_or_forged_press(self, thread: int, payload: str, user: FakeUser) -> Dispatch:
        """A press carrying a custom_id the message does not show (any more): what a stale
        client or one that bypasses Discord's checks sends. Discord itself would not deliver
        it, so the fake's human side cannot either; this builds the dispatch by hand."""
        base = next(
            m
            for m in reversed(self.fake.messages(thread))
            if int(m["author"]["id"]) == self.fake.bot_user.id
        )
        data = {"custom_id": payload, "component_type": 2}
        interaction = self.fake._new_interaction(
            INTERACTION_MESSAGE_COMPONENT, thread, user, data, message_id=int(base["id"])
        )
        button = {"type": 2, "style": 1, "label": "stale", "custom_id": payload}
        interaction["message"] = {**base, "components": [{"type": 1, "components": [button]}]}
        await self.fake._dispatch("INTERACTION_CREATE", interaction)
        return Dispatch("INTERACTION_CREATE", interaction)

    async def command(self, name: str, *args: str, member: str | None = None) -> str | None:
        words, options = self._command_line(name, args)
        channel = self.thread_id(member) if member else None
        run = await self.fake.run_command(" ".join(words), options, channel_id=channel)
        await self.receipt(str(run.id))
        return self.notice(run)

    def _command_line(self, name: str, args: tuple[str, ...]) -> tuple[list[str], dict[str, Any]]:
        """("concierge", ("answer", "routine")) -> "concierge answer", {"policy": "routine"}."""
        command = next(c for c in self.fake.commands(self.fake.guild_id) if c["name"] == name)
        words, declared, rest = [name], list(command.get("options") or []), list(args)
        while rest:
            sub = next((o for o in declared if o["name"] == rest[0] and o["type"] in (1, 2)), None)
            if sub is None:
                break
            words.append(rest.pop(0))
            declared = list(sub.get("options") or [])
        return words, {option["name"]: value for option, value in zip(declared, rest, strict=False)}

    def notice(self, dispatch: Dispatch) -> str | None:
        """What only the person who acted saw: ephemeral responses, follow-ups and edits."""
        token = str(dispatch.data["token"])
        webhook = f"/webhooks/{self.fake.application_id}/{token}"
        texts = [
            str(c.data["content"])
            for c in self.fake.interaction_callbacks
            if c.interaction_id == dispatch.id
            and c.status == 200
            and c.ephemeral
            and c.data.get("content")
        ]
        for call in self.fake.calls:
            body = call.json if isinstance(call.json, dict) else {}
            if call.status >= 300 or not body.get("content"):
                continue
            followup = (
                call.method == "POST"
                and call.path == webhook
                and int(body.get("flags") or 0) & FLAG_EPHEMERAL
            )
            answered = call.method == "PATCH" and call.path == f"{webhook}/messages/@original"
            if followup or answered:
                texts.append(str(body["content"]))
        return "\n".join(texts) or None

    # what the human sees ----------------------------------------------------------------------
    def messages(self, member: str) -> list[Shown]:
        try:
            thread = self.thread_id(member)
        except LookupError:
            return []
        return [
            _shown(m)
            for m in self.fake.messages(thread)
            if int(m["author"]["id"]) == self.fake.bot_user.id and m["type"] == 0
        ]

    def bells(self) -> dict[str, list[str]]:
        return {key: list(versions) for key, versions in self._bells.items()}

    async def wait_until(
        self, condition: Callable[[], bool], *, timeout: float = WAIT_SECONDS
    ) -> None:
        """Re-check ``condition`` on every change of the fake and every report of the
        transport, for at most ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while not condition():
                await _first(
                    self._changed.wait(),
                    self.fake.wait_until(lambda: condition() or None, timeout=timeout),
                )


async def _first(*waits: Any) -> None:
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _buttons(message: Json) -> list[Json]:
    return [
        c
        for row in message.get("components") or []
        for c in row.get("components") or []
        if c.get("type") == 2
    ]


def _has_button(message: Json, custom_id: str) -> bool:
    return any(b.get("custom_id") == custom_id for b in _buttons(message))


def _shown(message: Json) -> Shown:
    parts = [str(message.get("content") or "")]
    parts += [str(e.get("description") or "") for e in message.get("embeds") or []]
    buttons = _buttons(message)
    return Shown(
        ref=str(message["id"]),
        text="\n\n".join(p for p in parts if p),
        buttons=tuple(str(b.get("label")) for b in buttons),
        payloads=tuple(str(b.get("custom_id")) for b in buttons),
    )


def register(harnesses: dict[str, Callable[[], Harness]]) -> None:
    harnesses["discord"] = DiscordHarness


@asynccontextmanager
async def crew_on_discord(
    config: Config, clock: FakeClock, **fake_options: Any
) -> AsyncIterator[Crew]:
    """crewline serving with one Discord transport against a fresh fake, for Discord's own
    tests (the shared suites get theirs from the ``harness`` fixture)."""
    from tests.driver import Crew  # the driver imports the harness table, which imports this

    harness = DiscordHarness(**fake_options)
    async with harness.running():
        crew = Crew(config, clock, [harness])
        await crew.start()
        try:
            yield crew
        finally:
            await crew.stop()


def discord_of(crew: Crew) -> DiscordHarness:
    """The Discord harness of a crew started by ``crew_on_discord``."""
    harness = crew.harness
    assert isinstance(harness, DiscordHarness)
    return harness


async def only_card(crew: Crew, member: str = "radar") -> Shown:
    """Wait (bounded) until the member's thread shows its one card; return it."""
    harness = discord_of(crew)
    await harness.wait_until(lambda: len(harness.cards(member)) == 1)
    return harness.cards(member)[0]
