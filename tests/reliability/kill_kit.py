"""The kill tests' platforms: one loopback fake per transport and the human's hands on it.

crewline runs as a separate process (``crewline serve``) pointed at a fake in the test
process, so what reached the platform — cards, answers to presses, confirmed updates —
outlives every SIGKILL. Each :class:`Platform` says how to point crewline at its fake, how
to read the cards back, and how the owner presses a card's button or types a reply there;
each act returns an :class:`Act` whose ``received()`` says whether the platform got
crewline's receipt for it (what a person would take as "it was taken"):

- Slack (HTTP mode): the 200 answer to the signed request (bolt answers after the handler,
  ``process_before_response``);
- Telegram (polling and webhook): the update confirmed (the next ``getUpdates`` offset, or
  a 2xx webhook answer);
- Discord: an interaction response that follows the core's receipt (the card settled in
  the response, or a private notice); a typed message has no acknowledgement on Discord;
- the local inbox: the 200 answer to the page's POST.

Telegram polling's and Discord's can come after the act returned, so the receipts are read
(:func:`receipts_first`) before the events they are checked against, never after.

A card is found by the unique words of its escalation's message or its question
(``decide <tag>``), so an answered card (which keeps its text and loses its buttons) still
counts.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx

from tests.fakes.discord import FakeDiscord
from tests.fakes.slack import FakeSlack, HttpReply
from tests.fakes.telegram import FakeTelegram
from tests.harnesses.telegram import WEBHOOK_SECRET, WebhookRelay

__all__ = ["TRANSPORTS", "Act", "Card", "Platform", "platform", "receipts_first"]

TRANSPORTS = ("slack", "telegram-polling", "telegram-webhook", "discord", "local")
TAG = re.compile(r"decide (k\d+x)")
# The notice a typed reply gets when it could answer several records: it names each by its
# words (crewline.bot.cards.ambiguity_notice), so it is not a card of any of them.
LISTS_OPEN_RECORDS = "so your reply answered none of them"
# A card's own answer buttons (an escalation's, a question's); not the concierge's or others.
RECORD_BUTTONS = ("e:", "q:")
_INTERACTION_RESPONSES = {4, 7}  # a message (the notice) or the settled card: after the core


@dataclass(kw_only=True)
class Act:
    """One press or typed reply sent to crewline through the platform.

    ``received`` may turn true after the act returned (Telegram's confirmation comes with
    crewline's next ``getUpdates``; Discord's interaction response once the core answered);
    ``answered`` says whether the platform has had crewline's answer to the act at all, so
    ``received()`` will not change any more (true at once where the act's own response is
    the receipt, or where none will come)."""

    received: Callable[[], bool]
    answered: Callable[[], bool] = lambda: True

    def keep(self) -> None:
        """Fix ``received()`` at what it says now: what it is compared with is read after."""
        got = self.received()
        self.received = lambda: got


@dataclass(frozen=True, kw_only=True, slots=True)
class Card:
    """Where an escalation's card is on the platform (what a press needs)."""

    ref: Any
    thread: Any
    payloads: tuple[str, ...]


@dataclass(kw_only=True)
class Platform:
    """One transport's fake, the environment that points crewline at it, and its hands."""

    name: str
    env: dict[str, str]
    owner: str
    # Every message crewline posted in a member thread, as its text, per message.
    texts: Callable[[], Iterable[tuple[Any, str]]]
    card: Callable[[str], Card | None]  # by tag, while it shows buttons
    press: Callable[[Card, int], Awaitable[Act]]
    reply: Callable[[Card, str], Awaitable[Act]]
    wait: Callable[[Callable[[], bool], float], Awaitable[None]]
    serving: Callable[[str], Awaitable[None]]
    # Telegram cannot be asked whether a send landed: a card in flight at a kill may appear
    # twice (at most one send is in flight per lane).
    reads_back: bool = True
    url: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def cards(self) -> Counter[str]:
        """How many messages show each tag's card (not a notice that lists open records)."""
        counts: Counter[str] = Counter()
        for _, text in self.texts():
            if LISTS_OPEN_RECORDS not in text:
                counts.update(set(TAG.findall(text)))
        return counts

    def settled(self, tag: str) -> bool:
        """Whether ``tag``'s card is up and shows none of its answer buttons (answered, or
        its window closed)."""
        return self.cards()[tag] >= 1 and self.card(tag) is None

    async def card_up(self, tag: str, timeout: float, *, or_settled: bool = False) -> Card | None:
        """``tag``'s card once it shows its buttons; with ``or_settled``, None once it shows
        settled instead (a window that closed before the card was seen open, which a wait
        for buttons alone waited out). Neither within ``timeout``: an AssertionError that
        names the card, never a silent fall-through."""
        shown: list[Card] = []

        def up() -> bool:
            card = self.card(tag)
            shown[:] = [card] if card is not None else []
            return card is not None or (or_settled and self.settled(tag))

        try:
            await self.wait(up, timeout)
        except TimeoutError:
            state = "settled" if self.settled(tag) else f"shown {self.cards()[tag]} times"
            raise AssertionError(
                f"the card of {tag} showed no buttons within {timeout} s ({state})"
            ) from None
        return shown[0] if shown else None

    def shows_all(self, tags: Iterable[str]) -> bool:
        """Whether every tag has a card. A wait calls it on each change the fake records,
        inside the fake's loop, so the messages are read once here, not once per tag (at
        the full size that was 13 s per look, and crewline's calls timed out meanwhile)."""
        shown = self.cards()
        return all(shown[t] >= 1 for t in tags)


async def _nothing(url: str) -> None:
    return None


# --- Slack -----------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def _slack(data_dir: Path) -> AsyncIterator[Platform]:
    # Slack paces posts per channel (one a second); the fake does not, and at that pace the
    # backlog of many rounds would take minutes to drain.
    (data_dir / "crewline.toml").write_text("[slack]\npost_interval = 0.02\n")
    async with FakeSlack() as fake:
        dm = fake.dm_channel(fake.owner_user_id)
        ids = itertools.count()

        # A message's text is its whole text (its fallback; the blocks repeat it): reading
        # that, not the blocks printed, keeps a look at every card cheap.
        def texts() -> Iterable[tuple[Any, str]]:
            for m in fake.messages(dm):  # in member threads: the DM's top level has bells
                if m.get("bot_id") and m.get("thread_ts") not in (None, m["ts"]):
                    yield m["ts"], str(m.get("text", ""))

        def card(tag: str) -> Card | None:
            for m in fake.messages(dm):
                values = [str(e.get("value", "")) for e in _elements(m)]
                if values and f"decide {tag}" in str(m.get("text", "")):
                    return Card(ref=m["ts"], thread=m.get("thread_ts"), payloads=tuple(values))
            return None

        async def sent(reply: Awaitable[HttpReply]) -> Act:
            try:
                ok = (await reply).status == 200
            except (aiohttp.ClientError, TimeoutError):
                ok = False  # killed under the request
            return Act(received=lambda: ok)

        async def press(shown: Card, choice: int) -> Act:
            return await sent(
                fake.send_block_action(
                    platform.url + "/slack/events",
                    user_id=fake.owner_user_id,
                    channel=dm,
                    message_ts=shown.ref,
                    action_id=f"crewline:{choice}",
                    value=shown.payloads[choice],
                    thread_ts=shown.thread,
                )
            )

        async def reply(shown: Card, text: str) -> Act:
            event = fake.thread_reply(shown.thread, text, channel=dm, user_id=fake.owner_user_id)
            return await sent(
                fake.send_event(
                    platform.url + "/slack/events", event, event_id=f"EvKILL{next(ids):06d}"
                )
            )

        platform = Platform(
            name="slack",
            env={
                "CREWLINE_TRANSPORTS": "slack",
                "SLACK_BOT_TOKEN": fake.bot_token,
                "SLACK_SIGNING_SECRET": fake.signing_secret,
                "SLACK_API_URL": fake.api_url,
            },
            owner=f"slack:{fake.owner_user_id}",
            texts=texts,
            card=card,
            press=press,
            reply=reply,
            wait=lambda predicate, timeout: fake.wait_until(predicate, timeout=timeout),
            serving=_nothing,
        )
        yield platform


def _elements(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        element
        for block in message.get("blocks", [])
        if block.get("type") == "actions"
        for element in block.get("elements", [])
        if str(element.get("value", "")).startswith(RECORD_BUTTONS)
    ]


# --- Telegram --------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def _telegram(data_dir: Path, *, webhook: bool) -> AsyncIterator[Platform]:
    (data_dir / "crewline.toml").write_text(
        "[telegram]\nper_chat_interval = 0.0\nglobal_per_second = 0.0\npoll_timeout = 2.0\n"
    )
    async with contextlib.AsyncExitStack() as stack:
        fake = await stack.enter_async_context(FakeTelegram(has_topics_enabled=True))
        owner = fake.owner.id
        env = {
            "CREWLINE_TRANSPORTS": "telegram",
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_URL": fake.base_url,
        }
        serving = _nothing
        if webhook:
            # The fake pushes to one URL across restarts; the relay forwards it to whichever
            # server (on a fresh port) is up.
            relay = await stack.enter_async_context(WebhookRelay())
            env |= {"TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET, "TELEGRAM_WEBHOOK_URL": relay.url}

            async def serving(url: str) -> None:
                relay.upstream = url

        def texts() -> Iterable[tuple[Any, str]]:
            for m in fake.messages(owner):  # in member topics: bells ring outside them
                if m.message_thread_id is not None:
                    yield m.message_id, m.text or ""

        def card(tag: str) -> Card | None:
            for m in fake.messages(owner):
                data = [d for d in m.callback_data if d.startswith(RECORD_BUTTONS)]
                if data and f"decide {tag}" in (m.text or ""):
                    return Card(ref=m.message_id, thread=m.message_thread_id, payloads=tuple(data))
            return None

        def confirmed(update_id: int) -> Act:
            received = functools.partial(fake.is_confirmed, update_id)
            if webhook:  # the push's own answer, in hand when the act returns
                return Act(received=received)
            # Polled, an update is confirmed once handled: its receipt is all it gets.
            return Act(received=received, answered=received)

        async def press(shown: Card, choice: int) -> Act:
            sent = await fake.press_button(owner, shown.ref, shown.payloads[choice])
            return confirmed(sent.update_id)

        async def reply(shown: Card, text: str) -> Act:
            sent = await fake.send_text(owner, text, message_thread_id=shown.thread)
            return confirmed(sent.update_id)

        yield Platform(
            name="telegram-webhook" if webhook else "telegram-polling",
            env=env,
            owner=f"telegram:{owner}",
            texts=texts,
            card=card,
            press=press,
            reply=reply,
            wait=lambda predicate, timeout: fake.wait_for(predicate, timeout=timeout),
            serving=serving,
            reads_back=False,
            extra={"fake": fake},
        )


# --- Discord ---------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def _discord(data_dir: Path) -> AsyncIterator[Platform]:
    async with FakeDiscord() as fake:

        def texts() -> Iterable[tuple[Any, str]]:
            # Member threads only: the crew channel carries the bells, which repeat the words.
            for thread in fake.threads:
                for m in fake.messages(int(thread["id"])):
                    if int(m["author"]["id"]) != fake.owner.id:
                        yield m["id"], str(m.get("content", "")) + str(m.get("embeds", ""))

        def card(tag: str) -> Card | None:
            for thread in fake.threads:
                for m in fake.messages(int(thread["id"])):
                    ids = [
                        str(c["custom_id"])
                        for row in m.get("components") or []
                        for c in row.get("components", [])
                        if str(c.get("custom_id", "")).startswith(RECORD_BUTTONS)
                        and not c.get("disabled")
                    ]
                    if ids and f"decide {tag}" in str(m.get("content", "")) + str(
                        m.get("embeds", "")
                    ):
                        return Card(ref=int(m["id"]), thread=int(thread["id"]), payloads=tuple(ids))
            return None

        def responses(interaction: int, *, accepted: bool = True) -> list[int]:
            """The types of crewline's responses to the interaction (those Discord took)."""
            return [
                c.type
                for c in fake.interaction_callbacks
                if c.interaction_id == interaction and (200 <= c.status < 300 or not accepted)
            ]

        async def press(shown: Card, choice: int) -> Act:
            try:
                sent = await fake.press_button(shown.ref, shown.payloads[choice])
            except (LookupError, ValueError):  # redrawn meanwhile: nothing was sent
                return Act(received=lambda: False)
            # Answered by any response, also a deferral (the core was slow) or one too late
            # for Discord (past its 3 s): neither is a receipt, nor can one follow.
            return Act(
                received=lambda: any(t in _INTERACTION_RESPONSES for t in responses(sent.id)),
                answered=lambda: bool(responses(sent.id, accepted=False)),
            )

        async def reply(shown: Card, text: str) -> Act:
            await fake.send_message(shown.thread, text)
            return Act(received=lambda: False)  # a gateway message has no acknowledgement

        yield Platform(
            name="discord",
            env={
                "CREWLINE_TRANSPORTS": "discord",
                "DISCORD_BOT_TOKEN": fake.token,
                "DISCORD_GUILD_ID": str(fake.guild_id),
                "DISCORD_CHANNEL_ID": str(fake.crew_channel_id),
                "DISCORD_API_URL": fake.api_base,
                "DISCORD_GATEWAY_URL": fake.gateway_url,
            },
            owner=f"discord:{fake.owner.id}",
            texts=texts,
            card=card,
            press=press,
            reply=reply,
            wait=lambda predicate, timeout: fake.wait_until(predicate, timeout=timeout),
            serving=_nothing,
            extra={"fake": fake},
        )


# --- the local inbox -------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def _local(data_dir: Path) -> AsyncIterator[Platform]:
    """The inbox is crewline's own page: what it shows is read back from the page's JSON of
    the server that is up (its journal outlives the kills), and each act is the page's POST."""
    (data_dir / "crewline.toml").write_text("")
    seen: dict[str, list[dict[str, Any]]] = {}
    page: dict[str, Any] = {}
    ids = itertools.count()

    async def serving(url: str) -> None:
        client = httpx.AsyncClient(base_url=url, timeout=30, headers={"Origin": url})
        opened = await client.get("/")
        assert opened.status_code == 200, opened.text
        state = await client.get("/inbox/state")
        assert state.status_code == 200, state.text
        old = page.get("client")
        if old is not None:
            await old.aclose()
        page.update(client=client, csrf=state.json()["csrf"])

    async def refresh() -> None:
        """Read every thread of the page (the Platform's reads are synchronous)."""
        client: httpx.AsyncClient = page["client"]
        state = (await client.get("/inbox/state")).json()
        for member in state["members"]:
            ref = member["slug"]
            shown = await client.get(f"/inbox/threads/{ref}")
            if shown.status_code == 200:
                seen[ref] = shown.json()["messages"]

    def texts() -> Iterable[tuple[Any, str]]:
        for messages in seen.values():
            for m in messages:
                if not m["mine"]:
                    yield m["ref"], str(m["text"])

    def card(tag: str) -> Card | None:
        for ref, messages in seen.items():
            for m in messages:
                payloads = [
                    b["payload"] for b in m["buttons"] if b["payload"].startswith(RECORD_BUTTONS)
                ]
                if payloads and f"decide {tag}" in m["text"]:
                    return Card(ref=m["ref"], thread=ref, payloads=tuple(payloads))
        return None

    async def act(path: str, body: dict[str, Any]) -> Act:
        client: httpx.AsyncClient = page["client"]
        body["event_id"] = f"kill{next(ids):08d}"
        try:
            response = await client.post(path, json=body, headers={"X-Crewline-CSRF": page["csrf"]})
        except httpx.HTTPError:
            return Act(received=lambda: False)
        ok = response.status_code == 200
        return Act(received=lambda: ok)

    async def press(shown: Card, choice: int) -> Act:
        return await act(
            "/inbox/click", {"thread": shown.thread, "payload": shown.payloads[choice]}
        )

    async def reply(shown: Card, text: str) -> Act:
        return await act("/inbox/send", {"thread": shown.thread, "text": text})

    async def wait(predicate: Callable[[], bool], timeout: float) -> None:
        import asyncio

        async with asyncio.timeout(timeout):
            while True:
                with contextlib.suppress(httpx.HTTPError, KeyError):
                    await refresh()
                if predicate():
                    return
                await asyncio.sleep(0.1)  # polling the page, as its script would on a change

    platform = Platform(
        name="local",
        env={"CREWLINE_TRANSPORTS": "local"},
        owner="local:owner",
        texts=texts,
        card=card,
        press=press,
        reply=reply,
        wait=wait,
        serving=serving,
        extra={"refresh": refresh},
    )
    try:
        yield platform
    finally:
        if page.get("client") is not None:
            await page["client"].aclose()


async def receipts_first(
    platform: Platform, acts: Iterable[Act], due: Iterable[Act], timeout: float
) -> None:
    """Fix every act's receipt as it stands once crewline has answered every act in ``due``
    (the acts of a life that is not killed): call it before reading what the receipts are
    checked against (the answer events), never after.

    A receipt read after the events can be one that came while they were being read: a
    press Telegram had queued when the events were read was handled and confirmed a moment
    later, and looked like a receipt with no answer (seed 550384870, docs/reliability.md).
    Read first, a receipt is one the answer was committed before, so the events read next
    hold it. Waiting for ``due`` keeps those acts' receipts in the check rather than
    leaving them to the race."""
    waited = [act for act in due if not act.answered()]
    if waited:
        try:
            await platform.wait(lambda: all(act.answered() for act in waited), timeout)
        except TimeoutError:
            left = sum(1 for act in waited if not act.answered())
            raise AssertionError(
                f"{left} acts unanswered by a live crewline in {timeout} s"
            ) from None
    for act in acts:
        act.keep()


@contextlib.asynccontextmanager
async def platform(name: str, data_dir: Path) -> AsyncIterator[Platform]:
    """The platform ``name`` (one of TRANSPORTS), with crewline's config for it written in
    ``data_dir``."""
    made: contextlib.AbstractAsyncContextManager[Platform]
    if name == "slack":
        made = _slack(data_dir)
    elif name == "discord":
        made = _discord(data_dir)
    elif name == "local":
        made = _local(data_dir)
    else:
        made = _telegram(data_dir, webhook=name == "telegram-webhook")
    async with made as chosen:
        yield chosen
