"""Each transport's inbound events, sent once and then delivered again as its platform does.

A :class:`Wire` wraps a harness (tests/harnesses) and keeps what it sent, so the very same
delivery can be made again: Slack's retry (same ``event_id``, ``X-Slack-Retry-Num``; the
same Socket Mode envelope with ``retry_attempt``; an interaction or slash-command form sent
again with its ``trigger_id``), Telegram's update with the same ``update_id`` (pushed to the
webhook again, or queued again for ``getUpdates`` as after a lost offset), Discord's
identical dispatch (a duplicate ``INTERACTION_CREATE`` or ``MESSAGE_CREATE``, as a RESUME
replay or at-least-once delivery brings), the local inbox's request posted again with its
``event_id`` (a double submit), and the memory transport's event with its id.

``again`` returns the core's receipt for the redelivery (the first's again, marked a
repeat). ``seen`` counts what the human was shown in answer to one delivery (a private
notice, a command's reply, an interaction response, a button's answer), so a test can
check that a redelivery showed nothing more.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from crewline.models import Receipt, ReplyOutcome
from crewline.transports.slack.payloads import split_ref
from crewline.transports.telegram.refs import TopicThread, parse_message_ref
from tests.fakes.discord import Dispatch
from tests.fakes.telegram import UpdateSent
from tests.harness import Harness, MemoryHarness, Shown
from tests.harnesses.discord import DiscordHarness
from tests.harnesses.local import LocalHarness
from tests.harnesses.slack import SlackHarness
from tests.harnesses.telegram import WAIT_SECONDS, TelegramHarness

_ids = itertools.count(1)


def _event_id() -> str:
    return f"redelivered-{next(_ids)}"


@dataclass(kw_only=True)
class Sent:
    """One delivery as the platform made it: enough to make it again."""

    kind: str  # "press" | "say" | "edit" | "command"
    handle: Any  # the transport's own: a payload, an update, a dispatch, a request body
    receipts: list[Receipt | None] = field(default_factory=list)  # each delivery's, in order

    @property
    def first(self) -> Receipt | None:
        return self.receipts[0]


class Wire(ABC):
    """The human's hands on one transport, able to deliver each act again."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness

    @abstractmethod
    async def press(self, member: str, card: Shown, choice: int) -> Sent: ...

    @abstractmethod
    async def say(self, member: str, text: str) -> Sent: ...

    @abstractmethod
    async def edit(self, member: str, message_ref: str, text: str) -> Sent:
        """Edit the owner's message ``message_ref`` (crewline's recorded platform ref)."""

    @abstractmethod
    async def command(self, member: str, name: str, *args: str) -> Sent: ...

    @abstractmethod
    async def again(self, sent: Sent) -> Receipt | None: ...

    @abstractmethod
    def seen(self, sent: Sent) -> int:
        """How many answers the human was shown for this delivery, all deliveries counted."""


def _notices(sent: Sent) -> int:
    """What the human was shown: each delivery's notice, but a repeat's (shown for the
    first delivery already; the inbox page drops it)."""
    return sum(1 for r in sent.receipts if r is not None and r.notice_to_post)


class MemoryWire(Wire):
    harness: MemoryHarness

    async def press(self, member: str, card: Shown, choice: int) -> Sent:
        memory, eid = self.harness.memory, _event_id()
        handle = (memory.threads.get(member), card.payloads[choice], eid)
        receipt = await memory.press_payload(self.harness.owner, *handle[:2], event_id=eid)
        return Sent(kind="press", handle=handle, receipts=[receipt])

    async def say(self, member: str, text: str) -> Sent:
        eid = _event_id()
        receipt = await self.harness.memory.say(self.harness.owner, member, text, event_id=eid)
        return Sent(kind="say", handle=(member, text, eid), receipts=[receipt])

    async def edit(self, member: str, message_ref: str, text: str) -> Sent:
        handle = (member, message_ref, text, _event_id())
        memory = self.harness.memory
        receipt = await memory.edit(self.harness.owner, *handle[:3], event_id=handle[3])
        return Sent(kind="edit", handle=handle, receipts=[receipt])

    async def command(self, member: str, name: str, *args: str) -> Sent:
        handle = (name, args, member, _event_id())
        memory = self.harness.memory
        receipt = await memory.command(
            self.harness.owner, name, *args, member=member, event_id=handle[3]
        )
        return Sent(kind="command", handle=handle, receipts=[receipt])

    async def again(self, sent: Sent) -> Receipt | None:
        memory, owner = self.harness.memory, self.harness.owner
        match sent.kind:
            case "press":
                thread, payload, eid = sent.handle
                receipt = await memory.press_payload(owner, thread, payload, event_id=eid)
            case "say":
                member, text, eid = sent.handle
                receipt = await memory.say(owner, member, text, event_id=eid)
            case "edit":
                member, ref, text, eid = sent.handle
                receipt = await memory.edit(owner, member, ref, text, event_id=eid)
            case _:
                name, args, member, eid = sent.handle
                receipt = await memory.command(owner, name, *args, member=member, event_id=eid)
        sent.receipts.append(receipt)
        return receipt

    def seen(self, sent: Sent) -> int:
        return _notices(sent)


_LOCAL_PATHS = {"press": "/inbox/click", "say": "/inbox/send", "command": "/inbox/send"}


class LocalWire(Wire):
    """The page's requests; a double submit posts the same body (its ``event_id``) again."""

    harness: LocalHarness

    async def _post(self, sent: Sent) -> Receipt:
        path = _LOCAL_PATHS.get(sent.kind, "/inbox/edit")
        answer = await self.harness.post(path, sent.handle)
        receipt = Receipt(
            accepted=answer["accepted"],
            code=answer["code"],
            notice=answer["notice"],
            outcome=None if answer["outcome"] is None else ReplyOutcome(answer["outcome"]),
            escalation_id=answer["escalation_id"],
            repeat=answer["repeat"],
        )
        sent.receipts.append(receipt)
        return receipt

    async def press(self, member: str, card: Shown, choice: int) -> Sent:
        body = {"thread": member, "payload": card.payloads[choice], "event_id": _event_id()}
        sent = Sent(kind="press", handle=body)
        await self._post(sent)
        return sent

    async def say(self, member: str, text: str) -> Sent:
        sent = Sent(kind="say", handle={"thread": member, "text": text, "event_id": _event_id()})
        await self._post(sent)
        return sent

    async def edit(self, member: str, message_ref: str, text: str) -> Sent:
        body = {"thread": member, "message": message_ref, "text": text, "event_id": _event_id()}
        sent = Sent(kind="edit", handle=body)
        await self._post(sent)
        return sent

    async def command(self, member: str, name: str, *args: str) -> Sent:
        body = {"thread": member, "text": " ".join((f"/{name}", *args)), "event_id": _event_id()}
        sent = Sent(kind="command", handle=body)
        await self._post(sent)
        return sent

    async def again(self, sent: Sent) -> Receipt | None:
        return await self._post(sent)

    def seen(self, sent: Sent) -> int:
        return _notices(sent)


class SlackWire(Wire):
    """Events are retried with ``X-Slack-Retry-Num`` (over HTTP) or ``retry_attempt``
    (Socket Mode); an interaction or command form is delivered again with its trigger id."""

    harness: SlackHarness

    async def _event(self, kind: str, event: dict[str, Any]) -> Sent:
        eid = await self.harness.send_event(event, event_id=f"Ev{_event_id()}")
        return Sent(kind=kind, handle=(event, eid), receipts=[await self.harness.receipt(eid)])

    async def press(self, member: str, card: Shown, choice: int) -> Sent:
        h = self.harness
        payload = h.fake.block_actions_payload(
            user_id=h.owner,
            channel=h.dm,
            message_ts=card.ref,
            action_id=f"crewline:{choice}",
            value=card.payloads[choice],
            thread_ts=h.root(member),
        )
        return await self._form(Sent(kind="press", handle=payload))

    async def say(self, member: str, text: str) -> Sent:
        root = self.harness.root(member)
        assert root is not None, f"{member} has no thread yet"
        return await self._event("say", self.harness.fake.thread_reply(root, text))

    async def edit(self, member: str, message_ref: str, text: str) -> Sent:
        _, ts = split_ref(message_ref)
        return await self._event(
            "edit", self.harness.fake.message_changed(self.harness.dm, ts, text)
        )

    async def command(self, member: str, name: str, *args: str) -> Sent:
        h = self.harness  # Slack runs slash commands outside threads: at the DM's root
        text = " ".join(args)
        form = h.fake.slash_command_payload(f"/{name}", text, user_id=h.owner, channel_id=h.dm)
        return await self._form(Sent(kind="command", handle=form))

    def _form_id(self, sent: Sent) -> str:
        form = sent.handle
        return ("click:" if sent.kind == "press" else "command:") + form["trigger_id"]

    async def _form(self, sent: Sent) -> Sent:
        h, form = self.harness, sent.handle
        h.receipts.pop(self._form_id(sent), None)
        if sent.kind == "press":
            assert await h.send_interaction(form) == 200
        elif h.socket_mode:
            await h.fake.wait_for_ack(await h.fake.push_socket_event("slash_commands", form))
        else:
            assert await h.post_signed(form) == 200
        sent.receipts.append(await h.receipt(self._form_id(sent)))
        return sent

    async def again(self, sent: Sent) -> Receipt | None:
        h = self.harness
        if sent.kind in ("press", "command"):
            await self._form(sent)
            return sent.receipts[-1]
        event, eid = sent.handle
        h.receipts.pop(eid, None)
        if h.socket_mode:
            envelope = h.fake.event_callback(event, event_id=eid)
            acked = await h.fake.push_socket_event("events_api", envelope, retry_attempt=1)
            await h.fake.wait_for_ack(acked)
        else:
            reply = await h.fake.send_event(h._url(), event, event_id=eid, retry_num=1)
            assert reply.status == 200, reply.body
        receipt = await h.receipt(eid)
        sent.receipts.append(receipt)
        return receipt

    def seen(self, sent: Sent) -> int:
        if sent.kind not in ("press", "command"):  # told in an ephemeral message in the DM
            return len(self.harness.fake.ephemeral_messages(self.harness.dm))
        response_id = sent.handle["response_url"].rsplit("/", 1)[-1]
        return sum(1 for p in self.harness.fake.response_url_posts if p.response_id == response_id)


class TelegramWire(Wire):
    """An update delivered again with its ``update_id``: pushed again to the webhook, or
    queued again for ``getUpdates`` (as when the bot's offset was lost)."""

    harness: TelegramHarness

    def _topic(self, member: str) -> TopicThread:
        where = self.harness.thread(member)
        assert isinstance(where, TopicThread), where
        return where

    async def _sent(self, kind: str, update: UpdateSent) -> Sent:
        return Sent(kind=kind, handle=update, receipts=[await self.harness.handled(update)])

    async def press(self, member: str, card: Shown, choice: int) -> Sent:
        chat, message = parse_message_ref(card.ref)
        fake = self.harness.fake
        return await self._sent(
            "press", await fake.press_button(chat, message, card.payloads[choice])
        )

    async def say(self, member: str, text: str) -> Sent:
        topic = self._topic(member)
        fake = self.harness.fake
        update = await fake.send_text(topic.chat_id, text, message_thread_id=topic.topic_id)
        return await self._sent("say", update)

    async def edit(self, member: str, message_ref: str, text: str) -> Sent:
        chat, message = parse_message_ref(message_ref)
        return await self._sent("edit", await self.harness.fake.edit_text(chat, message, text))

    async def command(self, member: str, name: str, *args: str) -> Sent:
        topic = self._topic(member)
        line = " ".join((f"/{name}", *args))
        fake = self.harness.fake
        update = await fake.send_command(topic.chat_id, line, message_thread_id=topic.topic_id)
        return await self._sent("command", update)

    async def again(self, sent: Sent) -> Receipt | None:
        update: UpdateSent = sent.handle
        fake = self.harness.fake
        self.harness.receipts.pop(update.update_id, None)
        if not self.harness.webhook:
            # Queued again into a long poll already past its offset (one asked before
            # would confirm the update, as Telegram does, and never return it).
            await fake.wait_for(lambda: fake.long_poll_open, timeout=WAIT_SECONDS)
        await fake.redeliver(update.update_id)
        receipt = await self.harness.handled(update)
        sent.receipts.append(receipt)
        return receipt

    @staticmethod
    def query(sent: Sent) -> str:
        """A press's callback query id."""
        update: UpdateSent = sent.handle
        return str(update.update["callback_query"]["id"])

    def seen(self, sent: Sent) -> int:
        update: UpdateSent = sent.handle
        fake = self.harness.fake
        if sent.kind == "press":
            # A press's answer is shown once, by the answer Telegram took (a query is
            # answered once: a later answer is refused, shown to nobody); an answer without
            # text only stops the button's spinner.
            return 1 if fake.callback_query(self.query(sent)).answer_text else 0
        # A message's notice or a command's answer is the bot's reply to that message.
        message = update.update.get("message") or update.update["edited_message"]
        chat, message_id = message["chat"]["id"], message["message_id"]
        return sum(1 for m in fake.messages(chat) if m.reply_to_message_id == message_id)


class DiscordWire(Wire):
    """The same dispatch again (a duplicate ``INTERACTION_CREATE``, ``MESSAGE_CREATE`` or
    ``MESSAGE_UPDATE``), as a RESUME replay or at-least-once delivery brings it."""

    harness: DiscordHarness

    def _key(self, sent: Sent) -> str:
        dispatch: Dispatch = sent.handle
        if sent.kind == "edit":
            return f"{dispatch.id}@{dispatch.data['edited_timestamp']}"
        return str(dispatch.id)

    async def _sent(self, kind: str, dispatch: Dispatch) -> Sent:
        sent = Sent(kind=kind, handle=dispatch)
        sent.receipts.append(await self.harness.receipt(self._key(sent)))
        return sent

    async def press(self, member: str, card: Shown, choice: int) -> Sent:
        press = await self.harness.fake.press_button(int(card.ref), card.payloads[choice])
        return await self._sent("press", press)

    async def say(self, member: str, text: str) -> Sent:
        h = self.harness
        return await self._sent("say", await h.fake.send_message(h.thread_id(member), text))

    async def edit(self, member: str, message_ref: str, text: str) -> Sent:
        h = self.harness
        edited = await h.fake.edit_message(h.thread_id(member), int(message_ref), text)
        return await self._sent("edit", edited)

    async def command(self, member: str, name: str, *args: str) -> Sent:
        h = self.harness
        words, options = h._command_line(name, args)
        run = await h.fake.run_command(" ".join(words), options, channel_id=h.thread_id(member))
        return await self._sent("command", run)

    async def again(self, sent: Sent) -> Receipt | None:
        await self.harness.fake.redeliver(sent.handle)
        times = len(sent.receipts) + 1
        receipt = await self.harness.receipt(self._key(sent), times=times)
        sent.receipts.append(receipt)
        return receipt

    def seen(self, sent: Sent) -> int:
        if sent.kind in ("say", "edit"):  # told as a reply to the message in its thread
            said = str(sent.handle.id)
            return sum(
                1
                for m in self.harness.fake.messages(int(sent.handle.data["channel_id"]))
                if (m.get("message_reference") or {}).get("message_id") == said
            )
        interaction = sent.handle.id
        return sum(
            1 for c in self.harness.fake.interaction_callbacks if c.interaction_id == interaction
        )


def wire_for(harness: Harness) -> Wire:
    for kind, made in (
        (MemoryHarness, MemoryWire),
        (LocalHarness, LocalWire),
        (SlackHarness, SlackWire),
        (TelegramHarness, TelegramWire),
        (DiscordHarness, DiscordWire),
    ):
        if isinstance(harness, kind):
            return made(harness)
    raise TypeError(f"no wire for {harness!r}")
