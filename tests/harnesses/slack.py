"""The Slack harness: the human acts on a loopback Slack (tests/fakes/slack.py).

crewline's real ``SlackTransport`` talks to the fake's Web API with the real slack-sdk; the
human's side is what Slack itself would send: signed ``event_callback`` JSON, ``payload=``
forms for button clicks and slash-command forms, POSTed over a real socket to crewline's
``/slack/events`` (HTTP mode), or pushed as envelopes over the fake's Socket Mode websocket.
What the thread shows is read back from the fake's message store, what the bell said from
the calls the fake recorded.

Each crewline restart gets a new ``SlackTransport`` connected to the same fake, so buttons
posted before a restart are pressed on the new one.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode

import httpx

from crewline.models import HumanEvent, Receipt
from crewline.transports.slack import SlackSettings, SlackTransport
from crewline.transports.slack.blocks import (
    ACTION_PREFIX,
    BELL_BODY_BLOCK,
    BELL_EVENT,
    THREAD_EVENT,
)
from crewline.transports.slack.payloads import text_command
from tests.bounds import HTTP_TIMEOUT, WAIT
from tests.fakes.slack import FakeSlack
from tests.harness import Harness, Shown

JsonDict = dict[str, Any]


def unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


class SlackHarness(Harness):
    """Slack over HTTP (``socket_mode=False``, the default) or over Socket Mode."""

    name = "slack"

    def __init__(
        self,
        *,
        socket_mode: bool = False,
        post_interval: float = 0.0,
        fake: Callable[[], FakeSlack] = FakeSlack,
    ) -> None:
        self.socket_mode = socket_mode
        self.post_interval = post_interval
        self._make_fake = fake
        self._fake: FakeSlack | None = None
        self._http: httpx.AsyncClient | None = None
        self.events_url: str | None = None
        self.current: SlackTransport | None = None
        self.receipts: dict[str, Receipt] = {}
        self._heard = asyncio.Event()
        self._ids = itertools.count(1)
        self._roots: dict[str, str] = {}
        # One person acts one thing at a time: over HTTP each request is sent only after the
        # previous one was answered (crewline answers once the core has handled it), so
        # "press, then type" reaches crewline in that order. Socket Mode needs no help: its
        # envelopes travel in order on one websocket.
        self._sending = asyncio.Lock()

    # running --------------------------------------------------------------------------------
    @asynccontextmanager
    async def running(self) -> AsyncIterator[Harness]:
        async with self._make_fake() as fake, httpx.AsyncClient(timeout=HTTP_TIMEOUT) as http:
            self._fake, self._http = fake, http
            self.owner = fake.owner_user_id
            self.stranger = fake.add_user("mallory", real_name="Mallory Outsider")
            yield self

    @property
    def fake(self) -> FakeSlack:
        assert self._fake is not None, "the harness is not running"
        return self._fake

    def settings(self) -> SlackSettings:
        fake = self.fake
        return SlackSettings(
            bot_token=fake.bot_token,
            signing_secret=fake.signing_secret,
            app_token=fake.app_token if self.socket_mode else None,
            api_url=fake.api_url,
            post_interval=self.post_interval,
        )

    def transport(self) -> SlackTransport:
        self.current = SlackTransport(self.settings(), name=self.name)
        self.current.observe(self._observe)
        return self.current

    def serving(self, url: str) -> None:
        self.events_url = f"{url}/slack/events"

    def _observe(self, event: HumanEvent, receipt: Receipt) -> None:
        self.receipts[event.event_id] = receipt
        self._heard.set()

    async def receipt(self, event_id: str) -> Receipt:
        """The core's receipt for an event the harness sent (bounded wait)."""
        async with asyncio.timeout(WAIT):
            while event_id not in self.receipts:
                self._heard.clear()
                await self._heard.wait()
        return self.receipts[event_id]

    # where things are -----------------------------------------------------------------------
    @property
    def dm(self) -> str:
        return self.fake.dm_channel(self.owner)

    def root(self, member: str) -> str | None:
        """The ts of the member's thread root in the owner's DM (found once: roots stay)."""
        if member not in self._roots:
            for message in self.fake.messages(self.dm):
                meta = message.get("metadata") or {}
                if meta.get("event_type") == THREAD_EVENT:
                    self._roots.setdefault(meta["event_payload"]["member"], str(message["ts"]))
        return self._roots.get(member)

    def thread_messages(self, member: str) -> list[JsonDict]:
        """The bot's replies in the member's thread, as the fake stores them."""
        root = self.root(member)
        if root is None:
            return []
        return [m for m in self.fake.thread(self.dm, root) if m["ts"] != root and m.get("bot_id")]

    # the human's hands ----------------------------------------------------------------------
    async def say(self, member: str, text: str, *, user: str | None = None) -> Receipt | None:
        root = self.root(member)
        assert root is not None, f"{member} has no thread yet"
        event = self.fake.thread_reply(root, text, channel=self.dm, user_id=user or self.owner)
        return await self.receipt(await self.send_event(event))

    async def send_event(self, event: JsonDict, *, event_id: str | None = None) -> str:
        """Deliver ``event`` as Slack would; returns its event id."""
        event_id = event_id or f"EvHARNESS{next(self._ids):05d}"
        if self.socket_mode:
            envelope = self.fake.event_callback(event, event_id=event_id)
            await self.fake.push_socket_event("events_api", envelope)
        else:
            async with self._sending:
                reply = await self.fake.send_event(self._url(), event, event_id=event_id)
            assert reply.status == 200, reply.body
        return event_id

    async def press(
        self, member: str, message: Shown, choice: int, *, user: str | None = None
    ) -> str | None:
        # The button as the person saw it: the card may have been redrawn since.
        return await self._click(
            member, message.ref, f"{ACTION_PREFIX}{choice}", message.payloads[choice], user=user
        )

    async def press_payload(
        self, member: str, payload: str, *, user: str | None = None
    ) -> str | None:
        shown = self.thread_messages(member)
        target = shown[-1]["ts"] if shown else self.root(member)
        assert target is not None, f"{member} has no thread yet"
        return await self._click(member, target, "crewline:0", payload, user=user)

    async def _click(
        self, member: str, message_ts: str, action_id: str, value: str, *, user: str | None
    ) -> str | None:
        payload = self.fake.block_actions_payload(
            user_id=user or self.owner,
            channel=self.dm,
            message_ts=message_ts,
            action_id=action_id,
            value=value,
            thread_ts=self.root(member),
        )
        await self.send_interaction(payload)
        receipt = await self.receipt(f"click:{payload['trigger_id']}")
        return await self._response_text(payload["response_url"]) if receipt.notice else None

    async def send_interaction(self, payload: JsonDict) -> int:
        """Deliver a ``block_actions`` payload; returns the HTTP status (200 over a socket)."""
        if self.socket_mode:
            envelope_id = await self.fake.push_socket_event("interactive", payload)
            await self.fake.wait_for_ack(envelope_id, timeout=WAIT)
            return 200
        return await self.post_signed({"payload": json.dumps(payload)})

    async def command(self, name: str, *args: str, member: str | None = None) -> str | None:
        if member is not None:
            return await self._typed_command(member, name, *args)
        slash = f"/{name}" if name in ("roster", "concierge") else "/crew"
        words = args if slash != "/crew" else (name, *args)
        form = self.fake.slash_command_payload(
            slash, " ".join(words), user_id=self.owner, channel_id=self.dm
        )
        if self.socket_mode:
            envelope_id = await self.fake.push_socket_event("slash_commands", form)
            await self.fake.wait_for_ack(envelope_id, timeout=WAIT)
        else:
            assert await self.post_signed(form) == 200
        receipt = await self.receipt(f"command:{form['trigger_id']}")
        return await self._response_text(form["response_url"]) if receipt.notice else None

    async def _typed_command(self, member: str, name: str, *args: str) -> str | None:
        """Slack refuses slash commands in threads: the same words are typed as a reply."""
        text = " ".join((name, *args))
        if text_command(text) is None:
            text = "/" + text
        before = len(self.fake.ephemeral_messages(self.dm))
        receipt = await self.say(member, text)
        if receipt is None or not receipt.notice:
            return None
        await self.fake.wait_until(
            lambda: len(self.fake.ephemeral_messages(self.dm)) > before, timeout=WAIT
        )
        return unescape(str(self.fake.ephemeral_messages(self.dm)[before]["text"]))

    async def post_signed(self, form: dict[str, str], *, timestamp: int | None = None) -> int:
        """POST a signed form to crewline's endpoint, as Slack posts interactions and commands."""
        assert self._http is not None
        body = urlencode(form).encode()
        sent_at = int(time.time()) if timestamp is None else timestamp
        async with self._sending:
            response = await self._http.post(
                self._url(),
                content=body,
                headers={
                    "Content-Type": "application/x-www-form-urlencoded",
                    "X-Slack-Request-Timestamp": str(sent_at),
                    "X-Slack-Signature": self.fake.sign(body, sent_at),
                },
            )
        return response.status_code

    async def _response_text(self, response_url: str) -> str:
        """What the bot said through an interaction's response_url (the private notice)."""
        response_id = response_url.rsplit("/", 1)[-1]

        def said() -> bool:
            return any(p.response_id == response_id for p in self.fake.response_url_posts)

        await self.fake.wait_until(said, timeout=WAIT, what="the private notice")
        post = next(p for p in self.fake.response_url_posts if p.response_id == response_id)
        return unescape(str(post.body.get("text", "")))

    def _url(self) -> str:
        assert self.events_url is not None, "crewline's URL is unknown (serving() not called)"
        return self.events_url

    # what the human sees --------------------------------------------------------------------
    def messages(self, member: str) -> list[Shown]:
        return [
            Shown(
                ref=str(m["ts"]),
                text=unescape(str(m.get("text", ""))),
                buttons=tuple(b["text"]["text"] for b in _buttons(m)),
                payloads=tuple(b["value"] for b in _buttons(m)),
            )
            for m in self.thread_messages(member)
        ]

    def bells(self) -> dict[str, list[str]]:
        keys = {
            m["ts"]: m["metadata"]["event_payload"]["key"]
            for m in self.fake.messages(self.dm)
            if (m.get("metadata") or {}).get("event_type") == BELL_EVENT
        }
        shown: dict[str, list[str]] = {}
        for call in self.fake.calls:
            if not call.ok or call.method not in ("chat.postMessage", "chat.update"):
                continue
            body = [
                b["text"]["text"]
                for b in call.params.get("blocks") or []
                if str(b.get("block_id", "")).startswith(BELL_BODY_BLOCK)
            ]
            if not body:
                continue
            meta = call.params.get("metadata") or {}
            key = meta.get("event_payload", {}).get("key") or keys.get(call.params.get("ts"))
            if key is not None:
                shown.setdefault(key, []).append(unescape("".join(body)))
        return shown

    async def wait_until(self, condition: Callable[[], bool], *, timeout: float = WAIT) -> None:
        await self.fake.wait_until(condition, timeout=timeout)


def _buttons(message: JsonDict) -> list[JsonDict]:
    return [
        element
        for block in message.get("blocks") or []
        if block.get("type") == "actions"
        for element in block.get("elements", [])
        if element.get("type") == "button"
    ]


def register(harnesses: dict[str, Callable[[], Harness]]) -> None:
    """Slack over HTTP; ``CREWLINE_TEST_SLACK_MODE=socket`` runs the suites over Socket Mode."""
    socket_mode = os.environ.get("CREWLINE_TEST_SLACK_MODE", "http") == "socket"
    harnesses["slack"] = functools.partial(SlackHarness, socket_mode=socket_mode)
