"""DiscordTransport: crewline in a Discord server, one private thread per member.

Outbound (called only by the outbox): threads, cards and rows go through discord.py's REST
client, which waits out Discord's rate limits itself; every failure becomes one of crewline's
transport errors, and a 401 stops all further calls (Discord bans clients that keep sending
invalid requests). Under a replica's lease (``fence``) a call is made only while the lease
has its margin left: after a stall past the deadline another replica runs the outbox, and
may be ringing the same bell. Inbound, the gateway's human actions are turned into human events by
:class:`~crewline.transports.discord.inbound.DiscordInbound`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar

import aiohttp
import yarl

from crewline.errors import (
    ConfigError,
    PermanentTransportError,
    RateLimited,
    TransientTransportError,
)
from crewline.models import Bell, Member, OutboundMessage, RosterEntry
from crewline.transports.base import (
    Connection,
    DeliveryLimits,
    Fence,
    HumanEventSink,
    Transport,
)
from crewline.transports.discord.client import CardButton, CrewClient
from crewline.transports.discord.inbound import DiscordInbound, HumanEventObserver
from crewline.transports.discord.render import (
    RenderedMessage,
    bell_message,
    is_status_message,
    nonce_for,
    slug_from_thread_name,
    status_content,
    thread_message,
    thread_name,
)
from crewline.transports.discord.sdk import discord
from crewline.transports.discord.settings import DiscordSettings, settings_from

if TYPE_CHECKING:
    from crewline.config import Config

__all__ = ["DiscordTransport", "build"]

log = logging.getLogger(__name__)
T = TypeVar("T")

PRIVATE_THREAD: Final[Literal[12]] = 12
THREAD_ARCHIVE_MINUTES: Final[Literal[10080]] = 10080  # a week: the longest Discord allows
POSTED_MEMORY = 10_000  # keys whose message this process posted, for retries


class DiscordTransport(Transport):
    """Members' threads under one crew channel; the bell and the pinned status in it."""

    name = "discord"
    # discord.py paces each route bucket from Discord's headers; the outbox keeps per-thread
    # order and stays under the global 50 requests a second.
    limits = DeliveryLimits(per_thread_interval=0.0, global_per_second=40.0, concurrency=8)

    def __init__(
        self,
        settings: DiscordSettings,
        *,
        respond_within: float = 2.0,
        on_handled: HumanEventObserver | None = None,
    ) -> None:
        """``respond_within``: after this long without the core's answer an interaction is
        deferred (Discord allows 3 s). ``on_handled`` is told about every human event once
        it was answered (metrics, tests)."""
        self.settings = settings
        self.inbound = DiscordInbound(
            transport=self.name,
            settings=settings,
            respond_within=respond_within,
            on_handled=on_handled,
        )
        self._client: CrewClient | None = None
        self._connection: asyncio.Task[None] | None = None
        self._threads: dict[str, int] = {}  # member slug -> thread id
        self._open_locks: dict[str, asyncio.Lock] = {}
        self._owners: dict[str, str] = {}  # member slug -> owner's user id
        self._posted: OrderedDict[str, str] = OrderedDict()  # object key -> message id
        self._status_ref: int | None = None
        self._unauthorized = False
        self._saved_sdk: tuple[str, yarl.URL] | None = None
        self._fence: Fence | None = None  # the replica's lease on the gateway, if under one

    # lifecycle ------------------------------------------------------------------------------
    async def start(self, sink: HumanEventSink) -> None:
        """Log in, check the crew channel, register commands, and connect the gateway.

        Raises ConfigError for a refused token, an unusable channel, or intents the gateway
        refuses; TransientTransportError when Discord cannot be reached (crewline then runs
        without it and tries again: crewline.app.transport_start).
        """
        if self._client is not None:
            raise RuntimeError("the Discord transport is already started")
        self._point_sdk()
        client = CrewClient(
            self.inbound,
            guild_id=self.settings.guild_id,
            guild_ready_timeout=self.settings.guild_ready_timeout,
            reidentify_delay=self.settings.reidentify_delay,
        )
        try:
            await self._log_in(client)
            await self._check_channel(client)
        except BaseException:
            await client.close()
            self._restore_sdk()
            raise
        self._client = self.inbound.client = client
        self.inbound.sink = sink
        self._connection = asyncio.create_task(
            client.connect(reconnect=True), name="discord-gateway"
        )
        try:
            await self._wait_ready(client, self._connection)
        except BaseException:
            await self.stop()
            raise
        self._connection.add_done_callback(_log_gateway_end)

    @property
    def exclusive(self) -> bool:
        return True  # the gateway session, and the DMs it receives, belong to one connection

    def fence(self, fence: Fence) -> None:
        self._fence = fence

    def connection(self) -> Connection:
        client = self._client
        if client is None or client.is_closed():
            return Connection(connected=False, reason="not started")
        if self._unauthorized:
            return Connection(connected=False, reason="Discord refused the bot token")
        if not client.gateway_up:
            return Connection(connected=False, reason="the gateway is disconnected (reconnecting)")
        return Connection(connected=True)

    async def stop(self) -> None:
        self.inbound.sink = self.inbound.client = None
        client, self._client = self._client, None
        connection, self._connection = self._connection, None
        if client is not None:
            await client.close()
        if connection is not None and not connection.done():
            done, _ = await asyncio.wait({connection}, timeout=10)
            if not done:
                connection.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await connection
        self._restore_sdk()

    async def _log_in(self, client: CrewClient) -> None:
        try:
            await client.login(self.settings.bot_token)
        except discord.LoginFailure:
            raise ConfigError(
                "Discord refused the bot token: copy it again from the Developer "
                "Portal (Bot > Reset Token) into DISCORD_BOT_TOKEN",
                key="discord.bot_token",
            ) from None
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            raise TransientTransportError(
                f"Discord could not be reached to log in: {error}", code="discord_unreachable"
            ) from None

    async def _check_channel(self, client: CrewClient) -> None:
        channel_id = self.settings.channel_id
        try:
            data = await client.http.get_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            raise ConfigError(
                f"DISCORD_CHANNEL_ID {channel_id} is not a channel the bot can "
                "see: invite the bot and give it View Channel there",
                key="discord.channel_id",
            ) from None
        guild = int(str(data.get("guild_id") or 0))
        if guild != self.settings.guild_id or int(data["type"]) != 0:
            raise ConfigError(
                f"DISCORD_CHANNEL_ID {channel_id} must be a text channel of the "
                f"server DISCORD_GUILD_ID {self.settings.guild_id}",
                key="discord.channel_id",
            )

    async def _wait_ready(self, client: CrewClient, connection: asyncio.Task[None]) -> None:
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            done, _ = await asyncio.wait(
                {connection, ready},
                timeout=self.settings.ready_timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
        if connection in done:
            error = connection.exception()
            if isinstance(error, discord.PrivilegedIntentsRequired):
                # A setting of the bot only a person can change, like its token: not retried.
                raise ConfigError(
                    "Discord refused the Message Content intent: turn it on in the Developer "
                    "Portal (Bot > Privileged Gateway Intents)",
                    code="discord_intents",
                    key="discord.intents",
                )
            raise TransientTransportError(
                f"the Discord gateway closed during start: {error}", code="discord_gateway"
            )
        if ready not in done:
            log.warning(
                "discord: the gateway is not ready after %.0fs; continuing, events "
                "will flow once it is",
                self.settings.ready_timeout,
            )

    def _point_sdk(self) -> None:
        """discord.py reads its REST base and gateway from class attributes (one per
        process): point them at the configured proxy, if any, for this transport's life."""
        import discord.gateway
        import discord.http

        route, websocket = discord.http.Route, discord.gateway.DiscordWebSocket
        if self.settings.api_url is None and self.settings.gateway_url is None:
            return
        self._saved_sdk = (route.BASE, websocket.DEFAULT_GATEWAY)
        if self.settings.api_url is not None:
            route.BASE = self.settings.api_url
        if self.settings.gateway_url is not None:
            websocket.DEFAULT_GATEWAY = yarl.URL(self.settings.gateway_url)

    def _restore_sdk(self) -> None:
        import discord.gateway
        import discord.http

        if self._saved_sdk is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = (
                self._saved_sdk
            )
            self._saved_sdk = None

    def forget_member(self, slug: str) -> None:
        self._threads.pop(slug, None)
        self._owners.pop(slug, None)

    # outbound: the port ---------------------------------------------------------------------
    async def open_thread(self, member: Member) -> str:
        """A private thread named after the member in the crew channel, its owner added.

        Found again (not created twice) by its name while it is in discord.py's cache. One
        member's thread is opened by one call at a time: a bell rung before the member's
        first card opens it too (``ring``). What is opened is recorded at once, the first
        recorded kept (``TransportContext.settle_thread``): the cache is this process's
        alone (a replica that took the gateway over, or this one restarted, is not given an
        archived thread), so the record is what another process finds the thread by, and a
        thread opened beside a recorded one is archived before its owner is added, never
        shown.
        """
        client = self._require_client()
        async with self._open_locks.setdefault(member.slug, asyncio.Lock()):
            thread_id = self._threads.get(member.slug)
            if thread_id is None:
                found = self._cached_thread(member.slug)
                opened = found or await self._start_thread(client, member)
                thread_id = await self._settle(member.slug, opened)
                if found is None and thread_id != opened:
                    await self._archive(client, opened)
            owner = await self._owner(member.slug)
            if owner is None:
                log.warning(
                    "discord: member %s has no discord owner; only server moderators see "
                    "its private thread",
                    member.slug,
                )
            else:
                added = thread_id
                await self._call(lambda: client.http.add_user_to_thread(added, int(owner)))
            self._threads[member.slug] = thread_id
            return str(thread_id)

    async def _start_thread(self, client: CrewClient, member: Member) -> int:
        data = await self._call(
            lambda: client.http.start_thread_without_message(
                self.settings.channel_id,
                name=thread_name(member.name, member.slug),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=PRIVATE_THREAD,
                invitable=False,
                reason="crewline: a member's thread",
            )
        )
        return int(data["id"])

    async def _settle(self, slug: str, opened: int) -> int:
        """The member's thread once ``opened`` was found or made: the one recorded first."""
        if self.context is None:
            return opened
        return int(await self.context.settle_thread(self.name, slug, str(opened)))

    async def _archive(self, client: CrewClient, opened: int) -> None:
        """Archive a thread opened for a member that already had one (best effort): it
        holds nothing, and nobody was added to it."""
        try:
            await self._call(
                lambda: client.http.edit_channel(
                    opened, archived=True, reason="crewline: the member has a thread already"
                )
            )
        except (PermanentTransportError, TransientTransportError) as error:
            log.warning("discord: a second thread %s is left open: %s", opened, error)

    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        """Post with the key's nonce, so Discord itself returns the first message when a retry
        repeats a post that landed (for a few minutes); this process remembers longer."""
        if key in self._posted:
            return self._posted[key]
        rendered = thread_message(message)
        channel = self._messageable(int(thread), discord.ChannelType.private_thread)
        sent = await self._call(lambda: channel.send(nonce=nonce_for(key), **_parts(rendered)))
        return self._remember(key, str(sent.id))

    async def update(self, thread: str, message_ref: str, message: OutboundMessage) -> None:
        """Edit in place; an edit to the same state is harmless (a click's own response may
        already have settled the card)."""
        rendered = thread_message(message)
        target = self._messageable(
            int(thread), discord.ChannelType.private_thread
        ).get_partial_message(int(message_ref))
        embed = _embed(rendered)
        await self._call(
            lambda: target.edit(
                content=rendered.content, embeds=[embed] if embed else [], view=_view(rendered)
            )
        )

    async def mark_rewound(
        self,
        thread: str,
        message_refs: Sequence[str],
        *,
        drawn: Mapping[str, OutboundMessage] | None = None,
    ) -> None:
        """crewline's own messages are struck through and lose their buttons; a person's
        message cannot be edited by the bot (the thread's note says what left)."""
        client = self._require_client()
        bot = client.user.id if client.user is not None else None
        channel = self._messageable(int(thread), discord.ChannelType.private_thread)
        for ref in message_refs:
            await self._strike(client, channel, int(thread), int(ref), bot)

    async def _strike(
        self,
        client: CrewClient,
        channel: discord.PartialMessageable,
        thread: int,
        message_id: int,
        bot: int | None,
    ) -> None:
        shown = await self._call(lambda: client.http.get_message(thread, message_id))
        if int(shown.get("author", {}).get("id", 0)) != bot:
            return
        content = rewound_content(str(shown.get("content") or ""))
        target = channel.get_partial_message(message_id)
        await self._call(lambda: target.edit(content=content, view=None))

    async def ring(self, bell: Bell, *, message_ref: str | None) -> str:
        """The bell in the crew channel: edited while its goal has open requests, removed
        when none are left, so the next request of that goal notifies the owner again."""
        client = self._require_client()
        crew = self._messageable(self.settings.channel_id, discord.ChannelType.text)
        if bell.count == 0:
            if message_ref:
                ref = int(message_ref)
                with contextlib.suppress(PermanentTransportError):  # already deleted by hand
                    await self._call(
                        lambda: client.http.delete_message(
                            self.settings.channel_id, ref, reason="crewline: nothing open any more"
                        )
                    )
            return ""  # no message shows this group now: the next request posts (and pings)
        known = self._threads.get(bell.member)  # else the record, else open_thread's
        linked = await self.bell_thread(bell.member, known=str(known) if known else None)
        thread = int(linked) if linked and linked.isdigit() else None
        owner = await self._owner(bell.member)
        rendered = bell_message(
            bell, guild_id=self.settings.guild_id, thread_id=thread, owner_id=owner
        )
        embed = _embed(rendered)
        if message_ref:
            target = crew.get_partial_message(int(message_ref))
            try:
                await self._call(
                    lambda: target.edit(
                        content=rendered.content,
                        embeds=[embed] if embed else [],
                        **_mentioning(owner),
                    )
                )
                return message_ref
            except PermanentTransportError as error:
                if error.details.get("status") != 404:
                    raise
        sent = await self._call(lambda: crew.send(**_parts(rendered), **_mentioning(owner)))
        return str(sent.id)

    async def show_roster(self, roster: Sequence[RosterEntry]) -> None:
        """One pinned status message in the crew channel, edited in place."""
        client = self._require_client()
        content = status_content(roster)
        crew = self._messageable(self.settings.channel_id, discord.ChannelType.text)
        ref = self._status_ref or await self._find_status(client)
        if ref is not None:
            target = crew.get_partial_message(ref)
            try:
                await self._call(lambda: target.edit(content=content))
                self._status_ref = ref
                return
            except PermanentTransportError as error:
                if error.details.get("status") != 404:
                    raise
        sent = await self._call(lambda: crew.send(content=content))
        await self._call(
            lambda: client.http.pin_message(
                self.settings.channel_id, sent.id, reason="crewline status"
            )
        )
        self._status_ref = sent.id

    # outbound: helpers ----------------------------------------------------------------------
    def _require_client(self) -> CrewClient:
        if self._client is None or self._client.is_closed():
            raise TransientTransportError(
                "the Discord transport is not connected", code="discord_not_connected"
            )
        return self._client

    def _messageable(
        self, channel_id: int, kind: discord.ChannelType
    ) -> discord.PartialMessageable:
        return self._require_client().get_partial_messageable(
            channel_id, guild_id=self.settings.guild_id, type=kind
        )

    async def _call(self, request: Callable[[], Awaitable[T]]) -> T:
        """One REST call, its failure translated for the outbox; never retried here."""
        if self._unauthorized:
            raise PermanentTransportError(
                "Discord refused the bot token earlier; not calling again until crewline restarts",
                code="discord_401",
            )
        if self._fence is not None and self._fence.remaining() < self._fence.margin:
            # The outbox keeps the entry for the replica that takes the gateway over: a
            # card's repeat would be answered by its nonce, but a bell, a thread or the
            # status message would be made twice.
            raise TransientTransportError(
                "this replica's lease on the Discord gateway is running out", code="lease_ending"
            )
        try:
            return await request()
        except discord.RateLimited as error:
            raise RateLimited(
                f"Discord rate limit: retry in {error.retry_after:.1f}s",
                retry_after=error.retry_after,
            ) from None
        except discord.HTTPException as error:
            raise self._http_error(error) from None
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            raise TransientTransportError(
                f"Discord could not be reached: {error!r}", code="discord_unreachable"
            ) from None

    def _http_error(self, error: discord.HTTPException) -> Exception:
        status, text = error.status, f"{error.status} {error.code}: {error.text}"
        if status == 401:
            self._unauthorized = True
            log.error("discord: the bot token was refused (401); all calls stop")
            return PermanentTransportError(
                f"Discord refused the token: {text}", code="discord_401", status=status
            )
        if status == 429:
            return RateLimited(f"Discord rate limit: {text}", retry_after=5.0)
        if status >= 500:
            return TransientTransportError(
                f"Discord failed: {text}", code="discord_5xx", status=status
            )
        return PermanentTransportError(
            f"Discord refused the call: {text}", code=f"discord_{status}", status=status
        )

    def _remember(self, key: str, ref: str) -> str:
        self._posted[key] = ref
        while len(self._posted) > POSTED_MEMORY:
            self._posted.popitem(last=False)
        return ref

    async def _owner(self, slug: str) -> str | None:
        if slug not in self._owners and self.context is not None:
            ids = await self.context.owner_ids(self.name, member=slug)
            if ids:
                self._owners[slug] = ids[0]
        return self._owners.get(slug)

    def _cached_thread(self, slug: str) -> int | None:
        """The member's thread by its name in discord.py's cache: the active threads of the
        crew channel this process was given or saw made."""
        client = self._client
        guild = client.get_guild(self.settings.guild_id) if client is not None else None
        if guild is None:
            return None
        for thread in guild.threads:
            if (
                thread.parent_id == self.settings.channel_id
                and slug_from_thread_name(thread.name) == slug
            ):
                return thread.id
        return None

    async def _find_status(self, client: CrewClient) -> int | None:
        """The status message pinned before a restart, if it is still pinned."""
        data = await self._call(lambda: client.http.pins_from(self.settings.channel_id))
        bot = client.user.id if client.user is not None else None
        for item in data.get("items", []):
            message = item.get("message", {})
            author = int(message.get("author", {}).get("id", 0))
            if author == bot and is_status_message(str(message.get("content") or "")):
                return int(message["id"])
        return None


def rewound_content(content: str) -> str:
    """A message whose row a rewind removed: each line struck through, and labelled."""
    struck = "\n".join(f"~~{line}~~" if line.strip() else line for line in content.splitlines())
    return f"{struck}\n-# Rewound: no longer part of the conversation."[:2000]


def _embed(rendered: RenderedMessage) -> discord.Embed | None:
    spec = rendered.embed
    if spec is None:
        return None
    return discord.Embed(title=spec.title, url=spec.url, description=spec.description)


def _parts(rendered: RenderedMessage) -> dict[str, Any]:
    """``send`` arguments for a rendered message; absent parts are left out."""
    parts: dict[str, Any] = {"content": rendered.content}
    embed, view = _embed(rendered), _view(rendered)
    if embed is not None:
        parts["embed"] = embed
    if view is not None:
        parts["view"] = view
    return parts


def _mentioning(owner: str | None) -> dict[str, Any]:
    """Let exactly the owner be notified (the client's default notifies nobody)."""
    if owner is None or not owner.isdigit():
        return {}
    return {
        "allowed_mentions": discord.AllowedMentions(
            users=[discord.Object(int(owner))], everyone=False, roles=False
        )
    }


def _view(rendered: RenderedMessage) -> discord.ui.View | None:
    """Buttons as a persistent view (no timeout) of the one dynamic item; None removes them."""
    if not rendered.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in rendered.buttons:
        view.add_item(
            CardButton(button.custom_id, button.label, style=button.style, row=button.row)
        )
    return view


def _log_gateway_end(task: asyncio.Task[None]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("discord: the gateway connection ended: %r", error)


def build(config: Config) -> DiscordTransport:
    """The transport from ``[discord]`` in crewline.toml and the DISCORD_* variables."""
    return DiscordTransport(settings_from(config.section("discord"), os.environ))
