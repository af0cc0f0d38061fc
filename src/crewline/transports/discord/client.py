"""The discord.py client crewline runs: intents, the one button template, the commands.

Thin on purpose: it forwards every human action to the transport (:class:`DiscordEvents`) and
decides nothing. What makes buttons survive restarts lives here: one ``DynamicItem`` class
whose template matches any ``custom_id``, registered at start, so a press on any card ever
posted reaches crewline (never Discord's "This interaction failed").
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import Any, Literal, Protocol

from crewline.transports.discord.render import (
    CUSTOM_ID_TEMPLATE,
    EDIT_INPUT_ID,
    FORK_INPUT_ID,
    commands_differ,
    edit_modal_id,
    edit_submission,
    fork_modal_id,
    fork_submission,
)
from crewline.transports.discord.sdk import app_commands, discord

__all__ = [
    "CardButton",
    "CrewClient",
    "DiscordEvents",
    "EditModal",
    "ForkModal",
    "crew_intents",
    "send_edit_modal",
    "send_fork_modal",
]

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


class DiscordEvents(Protocol):
    """What the client hands on; the transport implements it."""

    async def on_message(self, message: discord.Message) -> None: ...

    async def on_raw_edit(self, payload: discord.RawMessageUpdateEvent) -> None: ...

    async def on_click(self, interaction: Interaction, payload: str) -> None: ...

    async def on_command(
        self,
        interaction: Interaction,
        name: str,
        values: Sequence[str],
        *,
        message_ref: str | None = None,
    ) -> None: ...

    async def on_edit_submitted(self, interaction: Interaction, record: str, text: str) -> None: ...


class EditModal(discord.ui.Modal):
    """The concierge's Edit: one text input holding the suggestion; Submit is the reply.

    Nothing of it is kept in this process: its ``custom_id`` names the record, and
    :meth:`CrewClient.on_interaction` routes the submit from what it carries, so a modal
    opened before a restart still answers after it. Send it with :func:`send_edit_modal`.
    """

    def __init__(self, *, record: str, text: str) -> None:
        super().__init__(title="Edit the reply", custom_id=edit_modal_id(record))
        self.reply: discord.ui.TextInput[EditModal] = discord.ui.TextInput(
            label="Your reply",
            custom_id=EDIT_INPUT_ID,
            style=discord.TextStyle.paragraph,
            default=text[:4000],
            max_length=4000,
        )
        self.add_item(self.reply)


async def send_edit_modal(interaction: Interaction, *, record: str, text: str) -> None:
    """Answer a press with the Edit modal, without registering it with discord.py (which
    would keep it in this process's memory and route its submit only here)."""
    modal = EditModal(record=record, text=text)
    modal.stop()  # a stopped modal is not stored: its submit comes to on_interaction
    await interaction.response.send_modal(modal)


class ForkModal(discord.ui.Modal):
    """ "Fork from here": the new member's slug; Submit is ``/fork SLUG`` on the message the
    command was used on.

    Stateless like :class:`EditModal`: its ``custom_id`` names the message, and
    :meth:`CrewClient.on_interaction` routes the submit, so a dialog opened before a restart
    forks after it. Send it with :func:`send_fork_modal`.
    """

    def __init__(self, *, message_ref: str) -> None:
        super().__init__(title="Fork from here", custom_id=fork_modal_id(message_ref))
        self.slug: discord.ui.TextInput[ForkModal] = discord.ui.TextInput(
            label="The new member's slug",
            custom_id=FORK_INPUT_ID,
            placeholder="a-z, 0-9 and dashes",
            max_length=64,
        )
        self.add_item(self.slug)


async def send_fork_modal(interaction: Interaction, *, message_ref: str) -> None:
    """Answer the message command with the slug dialog, not registered with discord.py."""
    modal = ForkModal(message_ref=message_ref)
    modal.stop()  # a stopped modal is not stored: its submit comes to on_interaction
    await interaction.response.send_modal(modal)


def crew_intents() -> discord.Intents:
    """Servers and their threads, messages in them, and their text (privileged)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = True
    return intents


class CardButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=CUSTOM_ID_TEMPLATE
):
    """A card's button: its ``custom_id`` is the core's payload (``e:<id>:<n>``)."""

    def __init__(
        self, payload: str, label: str = "?", *, style: str = "secondary", row: int | None = None
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=payload,
                style=getattr(discord.ButtonStyle, style, discord.ButtonStyle.secondary),
                row=row,
            )
        )
        self.payload = payload

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CardButton:
        return cls(match["payload"], getattr(item, "label", None) or "?")

    async def callback(self, interaction: Interaction) -> None:
        client = interaction.client
        if isinstance(client, CrewClient):
            await client.events.on_click(interaction, self.payload)


class CrewClient(discord.Client):
    """discord.Client with crewline's intents, button template and application commands."""

    def __init__(
        self,
        events: DiscordEvents,
        *,
        guild_id: int,
        guild_ready_timeout: float,
        reidentify_delay: float,
    ) -> None:
        super().__init__(
            intents=crew_intents(),
            guild_ready_timeout=guild_ready_timeout,
            # A longer 429 is handed to the outbox (RateLimited) instead of slept through.
            max_ratelimit_timeout=60.0,
            # Nothing crewline posts pings anyone unless a call allows it (the bell's owner).
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.events = events
        self.gateway_up = False  # between READY/RESUMED and the next disconnect
        self.guild = discord.Object(guild_id)
        self.reidentify_delay = reidentify_delay
        self.tree = app_commands.CommandTree(self)
        for command in crew_commands(events):
            self.tree.add_command(command, guild=self.guild)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CardButton)
        await self.sync_commands()

    async def sync_commands(self) -> bool:
        """Register the commands in the server, only when they changed (Discord limits how
        often commands may be created); returns whether it synced."""
        assert self.application_id is not None
        local = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=self.guild)]
        remote = await self.http.get_guild_commands(self.application_id, self.guild.id)
        if not commands_differ(local, [dict(c) for c in remote]):
            return False
        await self.tree.sync(guild=self.guild)
        log.info("discord: synced %d application commands", len(local))
        return True

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            await asyncio.sleep(self.reidentify_delay)

    async def on_ready(self) -> None:
        self.gateway_up = True
        log.info("discord: connected as %s", self.user)

    async def on_resumed(self) -> None:
        self.gateway_up = True
        log.info("discord: gateway session resumed")

    async def on_disconnect(self) -> None:
        self.gateway_up = False

    async def on_message(self, message: discord.Message) -> None:
        await self.events.on_message(message)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        await self.events.on_raw_edit(payload)

    async def on_interaction(self, interaction: Interaction) -> None:
        """Every modal submit: the Edit and "Fork from here" modals' are routed from the ids
        their custom_id and input carry, whichever process opened them; any other modal is
        not crewline's."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data = dict(interaction.data) if interaction.data else None
        edited = edit_submission(data)
        if edited is not None:
            record, text = edited
            await self.events.on_edit_submitted(interaction, record, text)
            return
        forked = fork_submission(data)
        if forked is not None:
            message_ref, slug = forked
            await self.events.on_command(
                interaction, "fork", (slug.strip(),), message_ref=message_ref
            )


REWIND_TO_HERE = "Rewind to here"  # the message context-menu commands
FORK_FROM_HERE = "Fork from here"


def crew_commands(
    events: DiscordEvents,
) -> list[app_commands.Group | app_commands.Command[Any, Any, None] | app_commands.ContextMenu]:
    """/concierge status|answer|undo|act, /roster, /help, /rewind [n], /regenerate, /reset,
    /fork and the "Rewind to here" and "Fork from here" message commands: each becomes a
    HumanCommand for the core ("Fork from here" after a modal asks for the new slug)."""
    concierge = app_commands.Group(
        name="concierge", description="The concierge: its answer policy, undo, acting"
    )

    @concierge.command(name="status", description="The concierge's policy and its last answer")
    async def status(interaction: Interaction) -> None:
        await events.on_command(interaction, "concierge status", ())

    @concierge.command(name="answer", description="When the concierge may answer by itself")
    @app_commands.describe(
        policy="never: it only suggests; routine: routine questions; always: whatever it can"
    )
    async def answer(
        interaction: Interaction, policy: Literal["never", "routine", "always"]
    ) -> None:
        await events.on_command(interaction, "concierge answer", (policy,))

    @concierge.command(name="undo", description="Withdraw the concierge's last answer")
    async def undo(interaction: Interaction) -> None:
        await events.on_command(interaction, "concierge undo", ())

    @concierge.command(name="act", description="Let the concierge stop, restart and dispatch")
    @app_commands.describe(state="on: it may act when asked; off: it never acts")
    async def act(interaction: Interaction, state: Literal["on", "off"]) -> None:
        await events.on_command(interaction, "concierge act", (state,))

    @app_commands.command(
        name="roster", description="Every member, whether it needs you, its open requests"
    )
    async def roster(interaction: Interaction) -> None:
        await events.on_command(interaction, "roster", ())

    @app_commands.command(name="help", description="What crewline's commands do")
    async def help_(interaction: Interaction) -> None:
        await events.on_command(interaction, "help", ())

    @app_commands.command(
        name="rewind", description="Continue this member's conversation from your last message"
    )
    @app_commands.describe(n="from your n-th last message instead")
    async def rewind(
        interaction: Interaction, n: app_commands.Range[int, 1, 1000] | None = None
    ) -> None:
        await events.on_command(interaction, "rewind", (str(n),) if n else ())

    @app_commands.command(
        name="regenerate", description="The member answers your last message again"
    )
    async def regenerate(interaction: Interaction) -> None:
        await events.on_command(interaction, "regenerate", ())

    @app_commands.command(name="reset", description="This member's conversation starts again")
    async def reset(interaction: Interaction) -> None:
        await events.on_command(interaction, "reset", ())

    @app_commands.command(name="fork", description="A new member with a copy of this conversation")
    @app_commands.describe(slug="the new member's slug", n="up to your n-th last message")
    async def fork(
        interaction: Interaction, slug: str, n: app_commands.Range[int, 1, 1000] | None = None
    ) -> None:
        await events.on_command(interaction, "fork", (slug, str(n)) if n else (slug,))

    async def rewind_here(interaction: Interaction, message: discord.Message) -> None:
        await events.on_command(interaction, "rewind", (), message_ref=str(message.id))

    async def fork_here(interaction: Interaction, message: discord.Message) -> None:
        await send_fork_modal(interaction, message_ref=str(message.id))

    here = app_commands.ContextMenu(name=REWIND_TO_HERE, callback=rewind_here)
    fork_from = app_commands.ContextMenu(name=FORK_FROM_HERE, callback=fork_here)
    return [concierge, roster, help_, rewind, regenerate, reset, fork, here, fork_from]
