"""Human actions on Discord, as crewline's human events: messages, edits, presses, commands.

Each event is handed to the core after every earlier event of its thread (the gateway's
order), and the receipt is shown to the person who acted: an interaction gets exactly one
response within Discord's 3 seconds (deferred when the core is slow), ephemeral for what
only the presser should see; a refused typed message gets a reply in the member's thread.
Nothing here decides who may do what: the core does.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence

from crewline.models import (
    HumanClick,
    HumanCommand,
    HumanEdit,
    HumanEvent,
    HumanMessage,
    Receipt,
)
from crewline.transports.base import HumanEventSink
from crewline.transports.discord.client import CrewClient, Interaction, send_edit_modal
from crewline.transports.discord.render import (
    command_event,
    edit_event_id,
    late_edit_notice,
    refusal_reply,
    thread_message,
)
from crewline.transports.discord.sdk import discord
from crewline.transports.discord.settings import DiscordSettings

__all__ = ["ANSWERED_MEMORY", "DiscordInbound", "HumanEventObserver"]

log = logging.getLogger(__name__)

ANSWERED_MEMORY = 1_000  # interactions this process responded to (Discord allows one response)
HumanEventObserver = Callable[[HumanEvent, Receipt], None]


class DiscordInbound:
    """The client's events (:class:`~crewline.transports.discord.client.DiscordEvents`).

    ``sink`` is set while the transport runs; events arriving without one are dropped.
    """

    def __init__(
        self,
        *,
        transport: str,
        settings: DiscordSettings,
        respond_within: float,
        on_handled: HumanEventObserver | None = None,
    ) -> None:
        self.transport = transport
        self.settings = settings
        self.respond_within = respond_within
        self.on_handled = on_handled
        self.sink: HumanEventSink | None = None
        self.client: CrewClient | None = None
        self._lanes: dict[int, asyncio.Lock] = {}
        self._answered: OrderedDict[int, None] = OrderedDict()

    # the client's events ---------------------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None or not message.content:
            return
        if message.type not in (discord.MessageType.default, discord.MessageType.reply):
            return
        if not self._is_member_thread(message.channel):
            return
        event = HumanMessage(
            transport=self.transport,
            event_id=str(message.id),
            user_id=str(message.author.id),
            thread=str(message.channel.id),
            text=message.content,
            message_ref=str(message.id),
        )
        receipt = await self._deliver(message.channel.id, event)
        if receipt is None:
            return
        reply = refusal_reply(receipt)
        if reply is not None:
            try:
                await message.reply(reply, mention_author=False)
            except discord.HTTPException as error:
                log.warning(
                    "discord: could not tell %s why their message was refused: %s",
                    message.author.id,
                    error,
                )
        self._handled(event, receipt)

    async def on_raw_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        data = payload.data
        author = data.get("author") or {}
        edited = data.get("edited_timestamp")
        # Discord also sends updates for embeds unfurling; only a real edit has a timestamp.
        if author.get("bot") or not edited or "content" not in data:
            return
        client = self.client
        if client is None or not self._is_member_thread(client.get_channel(payload.channel_id)):
            return
        event = HumanEdit(
            transport=self.transport,
            event_id=edit_event_id(payload.message_id, edited),
            user_id=str(author.get("id")),
            thread=str(payload.channel_id),
            message_ref=str(payload.message_id),
            text=str(data["content"]),
        )
        receipt = await self._deliver(payload.channel_id, event)
        if receipt is not None:
            self._handled(event, receipt)

    async def on_click(self, interaction: Interaction, payload: str) -> None:
        """A button press: the core judges it; the response acknowledges it or refuses."""
        event = HumanClick(
            transport=self.transport,
            event_id=str(interaction.id),
            user_id=str(interaction.user.id),
            thread=str(interaction.channel_id) if interaction.channel_id else None,
            payload=payload,
            card_in_response=True,  # the response settles the card (_answer_click)
        )
        receipt, deferred = await self._deliver_in_time(interaction, event, privately=False)
        if receipt is None:
            return  # stopping
        if self._first_response(interaction, receipt):
            try:
                await self._answer_click(interaction, receipt, deferred=deferred)
            except discord.HTTPException as error:
                log.warning("discord: could not answer press %s: %s", interaction.id, error)
        self._handled(event, receipt)

    async def _answer_click(
        self, interaction: Interaction, receipt: Receipt, *, deferred: bool
    ) -> None:
        if receipt.accepted and receipt.prefill is not None and receipt.reply_to:
            if not deferred:
                # The concierge's Edit: the reply opens as a modal holding the suggestion.
                await send_edit_modal(interaction, record=receipt.reply_to, text=receipt.prefill)
            else:
                # A modal is only ever an interaction's first response, and the deferral
                # was it: say so, rather than a notice about a box that never opened.
                await interaction.followup.send(late_edit_notice(receipt.prefill), ephemeral=True)
            return
        if receipt.accepted:
            # The core has committed the answer. In time, the response itself settles the
            # card (its new words, no buttons); the outbox's redraw of the same state follows
            # and changes nothing. A deferred press leaves the redraw to the outbox.
            if not deferred and receipt.redraw is not None:
                settled = thread_message(receipt.redraw)
                embeds = (
                    [discord.Embed(description=settled.embed.description)] if settled.embed else []
                )
                await interaction.response.edit_message(
                    content=settled.content, embeds=embeds, view=None
                )
            elif not deferred:
                await interaction.response.defer()
            if receipt.notice:
                await interaction.followup.send(receipt.notice, ephemeral=True)
            return
        notice = receipt.notice or "Nothing changed."
        if deferred:
            await interaction.followup.send(notice, ephemeral=True)
        else:
            await interaction.response.send_message(notice, ephemeral=True)

    async def on_edit_submitted(self, interaction: Interaction, record: str, text: str) -> None:
        """The Edit modal's Submit: the owner's reply in the thread, naming its record."""
        event = HumanMessage(
            transport=self.transport,
            event_id=str(interaction.id),
            user_id=str(interaction.user.id),
            thread=str(interaction.channel_id) if interaction.channel_id else None,
            text=text,
            escalation_id=record,
        )
        receipt, deferred = await self._deliver_in_time(interaction, event, privately=True)
        if receipt is None:
            return
        if self._first_response(interaction, receipt):
            notice = receipt.notice or ("Sent." if receipt.accepted else "Nothing changed.")
            try:
                if deferred:
                    await interaction.followup.send(notice, ephemeral=True)
                else:
                    await interaction.response.send_message(notice, ephemeral=True)
            except discord.HTTPException as error:
                log.warning("discord: could not answer an edit %s: %s", interaction.id, error)
        self._handled(event, receipt)

    async def on_command(
        self,
        interaction: Interaction,
        name: str,
        values: Sequence[str],
        *,
        message_ref: str | None = None,
    ) -> None:
        """An application command; its answer is shown only to the person who ran it."""
        command, args = command_event(name, values)
        in_thread = self._is_member_thread(interaction.channel)
        event = HumanCommand(
            transport=self.transport,
            event_id=str(interaction.id),
            user_id=str(interaction.user.id),
            thread=str(interaction.channel_id) if in_thread else None,
            name=command,
            args=args,
            message_ref=message_ref,
        )
        receipt, deferred = await self._deliver_in_time(interaction, event, privately=True)
        if receipt is None:
            return
        if self._first_response(interaction, receipt):
            try:
                await self._answer_command(interaction, receipt, deferred=deferred)
            except discord.HTTPException as error:
                log.warning("discord: could not answer /%s: %s", name, error)
        self._handled(event, receipt)

    async def _answer_command(
        self, interaction: Interaction, receipt: Receipt, *, deferred: bool
    ) -> None:
        notice = receipt.notice or ("Done." if receipt.accepted else "Nothing changed.")
        if deferred:
            await interaction.edit_original_response(content=notice)
        else:
            await interaction.response.send_message(notice, ephemeral=True)

    # helpers --------------------------------------------------------------------------------
    def _is_member_thread(self, channel: object) -> bool:
        return (
            isinstance(channel, discord.Thread)
            and channel.parent_id == self.settings.channel_id
            and channel.guild.id == self.settings.guild_id
        )

    async def _deliver(self, lane: int, event: HumanEvent) -> Receipt | None:
        """Hand ``event`` to the core after every earlier event of its thread.

        Handlers call this before anything else can suspend them, so the lock's queue is
        the gateway's order (a press and then a typed reply are judged in that order).
        """
        lock = self._lanes.setdefault(lane, asyncio.Lock())
        async with lock:
            sink = self.sink
            if sink is None:
                return None
            try:
                return await sink(event)
            except Exception:
                log.exception(
                    "discord: the core failed on %s %s", type(event).__name__, event.event_id
                )
                return Receipt(
                    accepted=False,
                    code="crewline_error",
                    notice="crewline could not take this just now; try again.",
                )

    async def _deliver_in_time(
        self, interaction: Interaction, event: HumanEvent, *, privately: bool
    ) -> tuple[Receipt | None, bool]:
        """Deliver in the interaction's channel's lane, deferring the interaction if the core
        has not answered in time: a press as an update of its message, a command or a
        submitted edit (``privately``) as a reply only its sender sees."""
        deferral: list[asyncio.Task[object]] = []

        def start_deferral() -> None:
            response = interaction.response
            deferring = (
                response.defer(ephemeral=True, thinking=True) if privately else response.defer()
            )
            deferral.append(asyncio.ensure_future(deferring))

        timer = asyncio.get_running_loop().call_later(self.respond_within, start_deferral)
        try:
            receipt = await self._deliver(interaction.channel_id or 0, event)
        finally:
            timer.cancel()
        if not deferral:
            return receipt, False
        try:
            await deferral[0]
        except discord.HTTPException as error:
            log.warning("discord: could not defer interaction %s: %s", interaction.id, error)
            return receipt, False
        return receipt, True

    def _first_response(self, interaction: Interaction, receipt: Receipt) -> bool:
        """Whether this interaction still needs its one response: a redelivered interaction
        (same id) was answered when it first arrived, and a second response is an invalid
        request. Redeliveries come from RESUME replays, so they reach this same process; one
        that reaches a restarted process is known by the core (a ``repeat`` receipt)."""
        if interaction.id in self._answered or receipt.repeat:
            return False
        self._answered[interaction.id] = None
        while len(self._answered) > ANSWERED_MEMORY:
            self._answered.popitem(last=False)
        return True

    def _handled(self, event: HumanEvent, receipt: Receipt) -> None:
        if self.on_handled is not None:
            self.on_handled(event, receipt)
