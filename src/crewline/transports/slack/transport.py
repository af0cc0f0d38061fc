"""SlackTransport: crewline's members as threads in their owner's DM with the Slack app.

For each member a root message in the owner's DM (its name, whether it needs you, the
concierge's answer of the last minute), and every row and card of the member a reply in that
root's thread, shown with the member's name and icon. The bell is one top-level DM message
per goal group, redrawn in place; the roster is the App Home. Inbound (``inbound.py``) runs
over HTTP at ``/slack/events`` or over Socket Mode when an app-level token is configured.

Slack has no idempotency key, so every message carries metadata naming the crewline object
it shows; after a crash the transport finds an earlier post by that metadata instead of
posting twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import aiohttp
from slack_sdk.web.async_client import AsyncWebClient

from crewline.errors import (
    ConfigError,
    PermanentTransportError,
    TransientTransportError,
    TransportError,
)
from crewline.models import Bell, HumanEvent, Member, OutboundMessage, Receipt, RosterEntry
from crewline.transports.base import Connection, DeliveryLimits, HumanEventSink, Transport
from crewline.transports.refusals import RefusalThrottle
from crewline.transports.slack import blocks
from crewline.transports.slack.inbound import (
    MOUNT_PATH,
    TIMESTAMP_WINDOW,
    SlackEndpoint,
    SlackInbound,
    SlackSocket,
)
from crewline.transports.slack.payloads import message_ref as ref_of
from crewline.transports.slack.payloads import split_ref, thread_ref
from crewline.transports.slack.settings import SlackSettings
from crewline.transports.slack.web_api import SlackWebApi

__all__ = ["ReceiptObserver", "SlackTransport"]

log = logging.getLogger(__name__)

ReceiptObserver = Callable[[HumanEvent, Receipt], None]

HISTORY_PAGES = 5  # how far back the DM is searched for thread roots and bells (200 a page)
THREAD_PAGES = 10  # how far a thread is searched for a post that may have landed
# How much earlier than crewline's clock says Slack may have stamped an earlier attempt: the
# window Slack allows between its clock and a receiver's (a host further off refuses Slack's
# signed requests anyway).
CLOCK_SKEW = timedelta(seconds=TIMESTAMP_WINDOW)
DRAIN_TIMEOUT = 5.0


class SlackTransport(Transport):
    """One Slack workspace, through one bot token; HTTP or Socket Mode inbound."""

    def __init__(
        self,
        settings: SlackSettings,
        *,
        name: str = "slack",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.settings = settings
        interval = settings.post_interval
        # Every member thread of an owner is in one channel (their DM), and Slack limits
        # posts per channel, not per thread: a per-lane interval alone would let twenty
        # threads post twenty times a second into one DM. So the whole transport runs at the
        # channel's pace (which also keeps chat.update inside its ~50/min tier), and posts
        # are paced per channel once more in SlackWebApi.
        self.limits = DeliveryLimits(
            per_thread_interval=interval,
            global_per_second=1.0 / interval if interval > 0 else 0.0,
            concurrency=4,
        )
        self.clock = clock
        self.team: str | None = None
        self.bot_user_id: str | None = None
        self._sink: HumanEventSink | None = None
        self._session: aiohttp.ClientSession | None = None
        self._api: SlackWebApi | None = None
        self._inbound: SlackInbound | None = None
        self._socket: SlackSocket | None = None
        self._endpoint: SlackEndpoint | None = None
        self._observers: list[ReceiptObserver] = []
        self._threads: dict[str, str] = {}  # member slug -> thread ref
        self._roots: dict[str, dict[str, tuple[str, str]]] = {}  # DM -> slug -> (ts, status)
        self._scan_locks: dict[str, asyncio.Lock] = {}
        self._open_locks: dict[str, asyncio.Lock] = {}
        self._roster: dict[str, RosterEntry] = {}
        self._homes: dict[str, dict[str, Any]] = {}  # user -> the view last published
        self._refusals = RefusalThrottle(self.now)  # on crewline's clock, not the pacing's

    # lifecycle ------------------------------------------------------------------------------
    async def start(self, sink: HumanEventSink) -> None:
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20))
        client = AsyncWebClient(
            token=self.settings.bot_token,
            base_url=self.settings.api_url,
            session=self._session,
            timeout=15,
            # The SDK would resend a call whose connection dropped, even a post that landed;
            # the outbox retries instead, and looks for the message first.
            retry_handlers=[],
        )
        self._api = SlackWebApi(client, post_interval=self.settings.post_interval, clock=self.clock)
        try:
            await self._identify()
            self._inbound = SlackInbound(
                self, client, self._api, signing_secret=self.settings.signing_secret
            )
            self._sink = sink
            if self.settings.app_token is not None:
                self._socket = SlackSocket(self._inbound, self.settings.app_token)
                await self._socket.connect_async()  # type: ignore[no-untyped-call]
        except BaseException:
            await self.stop()  # crewline only stops what started: close what we opened
            raise
        log.info(
            "slack: connected to workspace %s (%s mode)",
            self.team,
            "Socket" if self._socket else "HTTP",
        )

    async def stop(self) -> None:
        self._sink = None
        if self._socket is not None:
            await self._socket.close_async()  # type: ignore[no-untyped-call]
            self._socket = None
        if self._inbound is not None:
            await self._inbound.drain(timeout=DRAIN_TIMEOUT)
            self._inbound = None
        if self._session is not None:
            await self._session.close()
            self._session = None

    def connection(self) -> Connection:
        if self._session is None:
            return Connection(connected=False, reason="not started")
        if self.team is None:
            return Connection(connected=False, reason="auth.test has not succeeded yet")
        if self._socket is not None:
            client = self._socket.client
            session = client.current_session
            if client.closed or client.stale or session is None or session.closed:
                return Connection(
                    connected=False, reason="the Socket Mode connection is down (reconnecting)"
                )
        return Connection(connected=True)

    def http_mount(self) -> tuple[str, Any] | None:
        if self.settings.socket_mode:
            return None
        if self._endpoint is None:
            assert self.settings.signing_secret is not None  # settings_from guarantees it
            self._endpoint = SlackEndpoint(
                self, lambda: self._inbound, signing_secret=self.settings.signing_secret
            )
        return MOUNT_PATH, self._endpoint

    def observe(self, observer: ReceiptObserver) -> None:
        """Call ``observer(event, receipt)`` after the core answered each human event."""
        self._observers.append(observer)

    async def _identify(self) -> None:
        try:
            me = await self.api.call("auth.test")
        except TransportError as error:
            if self.api.needs_a_person(error):
                raise ConfigError(
                    f"Slack refused the bot token ({error.code})", key="slack.bot_token"
                ) from None
            raise TransientTransportError(
                f"Slack could not be reached at {self.settings.api_url} to check the bot"
                f" token (auth.test: {error.message})",
                code="slack_unreachable",
            ) from None
        self.team = str(me.get("team_id") or "") or None
        self.bot_user_id = me.get("user_id")

    @property
    def api(self) -> SlackWebApi:
        if self._api is None:
            raise RuntimeError(f"transport {self.name!r} is not started")
        return self._api

    # inbound host ---------------------------------------------------------------------------
    async def deliver(self, event: HumanEvent) -> Receipt | None:
        sink = self._sink
        if sink is None:
            return None  # stopped: events still arriving are dropped
        receipt = await sink(event)
        for observer in self._observers:
            observer(event, receipt)
        return receipt

    async def team_id(self) -> str | None:
        """The bot's workspace; None while it is not known (Slack is then answered 503 and
        sends the request again)."""
        if self.team is None and self._api is not None:
            with contextlib.suppress(TransientTransportError):
                await self._identify()
        return self.team

    async def audit(self, code: str, *, actor: str | None = None, **details: Any) -> None:
        """A SEL record for a refused request; at most one per code a second, so a flood of
        forged requests is counted in the next record rather than flooding the log."""
        also = self._refusals.admit(code)
        if also is None:
            return
        log.warning("slack: refused a request (%s) from %s", code, actor or "unknown")
        if self.context is not None:
            await self.context.audit_refusal(
                self.name, code, actor=actor, also_refused=also, **details
            )

    async def home_opened(self, user_id: str) -> None:
        if self._roster and user_id in await self._owners():
            await self._publish_home(user_id, force=True)

    def forget_member(self, slug: str) -> None:
        # Its thread may now belong in another owner's DM; the DM's roots are read again.
        self._threads.pop(slug, None)
        self._roster.pop(slug, None)

    # threads --------------------------------------------------------------------------------
    async def open_thread(self, member: Member) -> str:
        """The member's root in its owner's DM: found in the DM's history, else posted.

        What is found or posted is recorded at once, the first recorded kept
        (``TransportContext.settle_thread``): two replicas may open the member's thread at
        once (its bell's lane and its thread's lane held by different replicas), each
        reading the DM's history before the other's root landed. The one that records
        second deletes the root it posted and uses the first, so cards never split between
        two roots. A recorded root in another DM (the owner changed) is replaced.
        """
        lock = self._open_locks.setdefault(member.slug, asyncio.Lock())
        async with lock:
            if member.slug in self._threads:
                return self._threads[member.slug]
            channel = await self._dm_of(member.slug)
            read_before = channel in self._roots
            roots = await self._roots_in(channel)
            if member.slug not in roots and read_before:
                # The DM was read before this call: another replica (its bell's lane, or its
                # thread's lane before it died) may have posted the root since.
                roots = await self._roots_in(channel, again=True)
            if member.slug not in roots:
                entry = self._roster.get(member.slug)
                status, concierge = blocks.root_status(entry), blocks.concierge_line(entry)
                try:
                    posted = await self.api.post_message(
                        channel,
                        text=blocks.root_text(member.name, status, concierge),
                        blocks=blocks.root_blocks(member.name, status, concierge),
                        username=member.name,
                        icon_emoji=blocks.icon_for(member.name),
                        unfurl_links=False,
                        metadata=_root_metadata(member.slug, status, concierge),
                    )
                except TransportError:
                    # The root may have landed with its answer lost (a reset, a timeout):
                    # the retry reads the DM's history again rather than posting a second
                    # root that the member's cards would then split across.
                    self._roots.pop(channel, None)
                    raise
                roots[member.slug] = (str(posted["ts"]), blocks.root_drawn(status, concierge))
                made = str(posted["ts"])
            else:
                made = None
            ts, drawn = roots[member.slug]
            recorded = await self._settle(member.slug, thread_ref(channel, ts))
            if recorded != thread_ref(channel, ts):
                roots[member.slug] = (split_ref(recorded)[1], drawn)
                if made is not None:
                    await self._delete_root(channel, made)
            self._threads[member.slug] = recorded
            return recorded

    async def _settle(self, slug: str, found: str) -> str:
        """The member's thread once ``found`` was found or posted: the one recorded first,
        unless that one is in another DM (then ``found`` replaces it)."""
        if self.context is None:
            return found
        recorded = await self.context.settle_thread(self.name, slug, found)
        if split_ref(recorded)[0] != split_ref(found)[0]:
            recorded = await self.context.settle_thread(self.name, slug, found, replacing=recorded)
        return recorded

    async def _delete_root(self, channel: str, ts: str) -> None:
        """Delete a root posted for a member that already had one (best effort)."""
        try:
            await self.api.call("chat.delete", channel=channel, ts=ts)
        except TransportError as error:
            log.warning("slack: a second root %s in %s is left: %s", ts, channel, error.message)

    async def _dm_of(self, member: str) -> str:
        owners = await self._owners(member)
        if not owners:
            raise PermanentTransportError(
                f"the owner of {member!r} has no Slack identity (add --owner slack:USER_ID)",
                code="slack_no_owner",
            )
        return await self.api.dm_channel(owners[0])

    async def _owners(self, member: str | None = None) -> list[str]:
        if self.context is None:
            return []
        return await self.context.owner_ids(self.name, member=member)

    async def _roots_in(self, channel: str, *, again: bool = False) -> dict[str, tuple[str, str]]:
        """The member roots in a DM (slug -> (ts, what it shows)), found once by its history
        (``again``: read it once more)."""
        lock = self._scan_locks.setdefault(channel, asyncio.Lock())
        async with lock:
            if again or channel not in self._roots:
                found: dict[str, tuple[str, str]] = {}
                async for message in self.api.history(channel, pages=HISTORY_PAGES):
                    payload = _payload(message, blocks.THREAD_EVENT) or {}
                    slug = payload.get("member")
                    if isinstance(slug, str) and slug not in found:
                        concierge = payload.get("concierge")
                        drawn = blocks.root_drawn(
                            str(payload.get("status", "")),
                            concierge if isinstance(concierge, str) else None,
                        )
                        found[slug] = (str(message["ts"]), drawn)
                self._roots[channel] = found
            return self._roots[channel]

    # rows and cards -------------------------------------------------------------------------
    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        channel, root = _split(thread)
        if retry:
            found = await self._posted_before(channel, root, key, since=since)
            if found is not None:
                return found
        posted = await self.api.post_message(
            channel,
            thread_ts=root,
            text=blocks.message_text(message),
            blocks=blocks.message_blocks(message),
            username=message.author,
            icon_emoji=blocks.icon_for(message.author),
            unfurl_links=False,
            unfurl_media=False,
            metadata=blocks.metadata(blocks.MESSAGE_EVENT, key=key),
        )
        return ref_of(channel, str(posted["ts"]))

    async def _posted_before(
        self, channel: str, root: str, key: str, *, since: datetime | None
    ) -> str | None:
        """The reply an earlier attempt to post ``key`` made, if it landed.

        With ``since`` only the replies from then on are read (Slack's ``oldest``): one page
        of ``conversations.replies`` (Tier 3) in the common case however long the thread,
        and a card that landed late in a long thread is found, not posted twice. Without
        it the thread is read from its start. Either way at most ``THREAD_PAGES`` pages."""
        oldest = None if since is None else f"{(since - CLOCK_SKEW).timestamp():.6f}"
        async for earlier in self.api.replies(channel, root, pages=THREAD_PAGES, oldest=oldest):
            payload = _payload(earlier, blocks.MESSAGE_EVENT)
            if payload and payload.get("key") == key:
                return ref_of(channel, str(earlier["ts"]))
        return None

    async def update(self, thread: str, message_ref: str, message: OutboundMessage) -> None:
        channel, ts = _split(message_ref)
        await self.api.update_message(
            channel, ts, text=blocks.message_text(message), blocks=blocks.message_blocks(message)
        )

    async def mark_rewound(
        self,
        thread: str,
        message_refs: Sequence[str],
        *,
        drawn: Mapping[str, OutboundMessage] | None = None,
    ) -> None:
        if not message_refs:
            return
        channel, root = _split(thread)
        wanted = {_split(ref)[1] for ref in message_refs}
        # From the oldest of them on (its ts is in its ref): the rewound end of a long thread
        # is past the pages a read from the thread's start would reach.
        oldest = min(wanted, key=_ts_order)
        async for shown in self.api.replies(channel, root, pages=THREAD_PAGES, oldest=oldest):
            # A person's own message cannot be edited by the app: the thread's note from
            # crewline ("Rewound: …") says what left the conversation.
            if shown.get("ts") in wanted and shown.get("bot_id"):
                text = str(shown.get("text") or "")
                await self.api.update_message(
                    channel,
                    str(shown["ts"]),
                    text=blocks.rewound_text(text),
                    blocks=blocks.rewound_blocks(text),
                )

    # the bell -------------------------------------------------------------------------------
    async def ring(self, bell: Bell, *, message_ref: str | None) -> str:
        channel = await self._dm_of(bell.member)
        thread = await self.bell_thread(bell.member, known=self._threads.get(bell.member))
        link = await self.api.permalink(*_split(thread)) if thread else None
        drawn: dict[str, Any] = {
            "text": blocks.bell_text(bell),
            "blocks": blocks.bell_blocks(bell, thread_link=link),
        }
        shown = message_ref or await self._find_bell(channel, bell.group_key)
        if shown is not None:
            try:
                await self.api.update_message(*_split(shown), **drawn)
                return shown
            except PermanentTransportError as error:
                log.info("slack: bell %s is gone (%s); posting it again", shown, error.code)
        posted = await self.api.post_message(
            channel,
            unfurl_links=False,
            metadata=blocks.metadata(blocks.BELL_EVENT, key=bell.group_key),
            **drawn,
        )
        return ref_of(channel, str(posted["ts"]))

    async def _find_bell(self, channel: str, group_key: str) -> str | None:
        # Only a post that landed without being recorded (a crash in between) is looked for,
        # so the newest page is enough.
        async for message in self.api.history(channel, pages=1):
            payload = _payload(message, blocks.BELL_EVENT)
            if payload and payload.get("key") == group_key:
                return ref_of(channel, str(message["ts"]))
        return None

    # the roster -----------------------------------------------------------------------------
    async def show_roster(self, roster: Sequence[RosterEntry]) -> None:
        self._roster = {entry.slug: entry for entry in roster}
        for user_id in await self._owners():
            await self._publish_home(user_id, force=False)
        for entry in roster:
            await self._redraw_root(entry)

    async def _publish_home(self, user_id: str, *, force: bool) -> None:
        links = {}
        # Snapshots: a thread opened (or a DM re-read) during an await below changes these.
        for channel, roots in list(self._roots.items()):
            for slug, (ts, _) in list(roots.items()):
                link = await self.api.permalink(channel, ts)
                if link:
                    links[slug] = link
        view = blocks.home_view(list(self._roster.values()), links=links)
        if force or self._homes.get(user_id) != view:
            await self.api.call("views.publish", user_id=user_id, view=view)
            self._homes[user_id] = view

    async def _redraw_root(self, entry: RosterEntry) -> None:
        """Say on the member's thread root whether it needs you, and the concierge's answer
        of the last minute, when that changed."""
        owners = await self._owners(entry.slug)
        if not owners:
            return
        channel = await self.api.dm_channel(owners[0])
        roots = await self._roots_in(channel)
        status, concierge = blocks.root_status(entry), blocks.concierge_line(entry)
        drawn = blocks.root_drawn(status, concierge)
        if entry.slug not in roots or roots[entry.slug][1] == drawn:
            return
        ts = roots[entry.slug][0]
        await self.api.update_message(
            channel,
            ts,
            text=blocks.root_text(entry.name, status, concierge),
            blocks=blocks.root_blocks(entry.name, status, concierge),
            metadata=_root_metadata(entry.slug, status, concierge),
        )
        roots[entry.slug] = (ts, drawn)


def _root_metadata(slug: str, status: str, concierge: str | None) -> dict[str, Any]:
    """A root's metadata: its member and what it shows, read back after a restart."""
    shown: dict[str, str] = {"status": status}
    if concierge is not None:
        shown["concierge"] = concierge
    return blocks.metadata(blocks.THREAD_EVENT, member=slug, **shown)


def _split(ref: str) -> tuple[str, str]:
    try:
        return split_ref(ref)
    except ValueError as error:
        raise PermanentTransportError(str(error), code="slack_bad_ref") from None


def _ts_order(ts: str) -> tuple[int, int]:
    """A Slack ``ts`` ("seconds.micros") as a sortable value."""
    seconds, _, micros = ts.partition(".")
    try:
        return int(seconds), int(micros or 0)
    except ValueError:
        raise PermanentTransportError(f"not a Slack ts: {ts!r}", code="slack_bad_ref") from None


def _payload(message: dict[str, Any], event_type: str) -> dict[str, Any] | None:
    """The crewline metadata payload of a message when it is of ``event_type``."""
    found = message.get("metadata")
    if not isinstance(found, dict) or found.get("event_type") != event_type:
        return None
    payload = found.get("event_payload")
    return payload if isinstance(payload, dict) else None
