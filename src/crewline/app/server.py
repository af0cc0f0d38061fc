"""One running crewline: the store, the Hub, the transports and their outboxes, the veto
window timers and the HTTP server, composed on one AsyncExitStack.

Start-up and shut-down are the one list in ``__aenter__``, read top to bottom (and undone
bottom to top).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import logging
import socket
import time
from collections.abc import Callable, Iterator, Sequence, Set
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

import uvicorn
from starlette.types import ASGIApp

from crewline.api.http import create_app
from crewline.api.mcp_http import McpEndpoint
from crewline.api.origins import OriginPolicy, is_loopback_bind
from crewline.api.sse import EventStreams
from crewline.app.assembly import Bot
from crewline.app.crew_watch import WATCH_INTERVAL, CrewChange, CrewWatch
from crewline.app.http_timeouts import HEADER_TIMEOUT, KEEP_ALIVE, head_deadline_protocol
from crewline.app.revocations import end_revoked_readers
from crewline.app.scheduler import WindowScheduler
from crewline.app.transport_start import START_BACKOFF, Degraded
from crewline.bot import CoreRenderer
from crewline.bot.concierge import ConciergeSettings
from crewline.bot.escalations import DELIVERY_WAIT
from crewline.brains import Brain
from crewline.config import Config
from crewline.errors import CannotListen, ConfigError
from crewline.launchers import Launchers
from crewline.models import AnswerPolicy, Clock, ConciergePolicy
from crewline.ops.health import Readiness
from crewline.ops.metrics import Metrics, MetricsAccess
from crewline.push.targets import Targets
from crewline.push.webhooks import WebhookDispatcher
from crewline.replication.replicas import (
    Coordination,
    LaneClaims,
    default_replica_name,
    holder_tag,
    valid_replica_name,
)
from crewline.replication.transport_lease import TRANSPORT_LEASE_TTL, TransportLease
from crewline.serving_lock import ServingLock
from crewline.store import Store
from crewline.store.open import is_postgres_url, open_store, shared_database_url
from crewline.transports import OutboxDispatcher, Transport
from crewline.transports.local.security import is_loopback_address
from crewline.transports.outbox import wait_recorded
from crewline.transports.registry import EnabledTransport, build_transport, enabled_transports

__all__ = ["Crewline", "HttpServer", "concierge_settings"]

log = logging.getLogger(__name__)


# While serving, a collection of the youngest objects runs once this many more have been
# made than freed (CPython's default is 700): a request makes and frees hundreds, so at the
# default one in five requests paid for a collection that found little (docs/performance.md).
YOUNG_COLLECTION_THRESHOLD = 10_000


@dataclass(slots=True)
class _Collections:
    """How many servers of this process serve, and the collector's thresholds before the
    first of them started."""

    serving: int = 0
    found: tuple[int, int, int] = (0, 0, 0)


_COLLECTIONS = _Collections()


@contextlib.contextmanager
def serving_collections() -> Iterator[None]:
    """The garbage collector as a server wants it, until the last server of the process
    stops: what start-up made (modules, the app's routes and schemas) is frozen out of every
    collection, since it lives as long as the server, and the youngest generation is
    collected less often."""
    if not _COLLECTIONS.serving:
        _COLLECTIONS.found = gc.get_threshold()
    _COLLECTIONS.serving += 1
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *_COLLECTIONS.found[1:])
    try:
        yield
    finally:
        _COLLECTIONS.serving -= 1
        if not _COLLECTIONS.serving:
            gc.set_threshold(*_COLLECTIONS.found)
            gc.unfreeze()


def _build(enabled: EnabledTransport, config: Config) -> Transport:
    """The transport, or its configuration error saying why it was enabled at all (a token
    alone enables a platform, which then needs the rest of its settings)."""
    try:
        return build_transport(enabled.name, config)
    except ConfigError as error:
        raise ConfigError(
            f"{enabled.name} is enabled ({enabled.reason}), but: {error.message}",
            code=error.code,
            **error.details,
        ) from None


def concierge_settings(
    config: Config,
    *,
    launchers: Launchers | None,
    brain: Brain | None = None,
    enabled: bool = True,
) -> ConciergeSettings:
    """The concierge as crewline.toml starts it: the policy while the owner kept none, and
    the LLM brain when ``[concierge.llm]`` names one (the offline brain otherwise)."""
    start = ConciergePolicy(answer=AnswerPolicy(config.concierge_answer), act=config.concierge_act)
    timeout = config.concierge_llm.timeout + 1 if config.concierge_llm else 10.0
    return ConciergeSettings(
        start=start, launchers=launchers, brain=brain, brain_timeout=timeout, enabled=enabled
    )


class HttpServer:
    """uvicorn on a socket bound here, so port 0 works and the real port is known."""

    def __init__(
        self, app: ASGIApp, *, host: str, port: int, header_timeout: float = HEADER_TIMEOUT
    ) -> None:
        """``header_timeout``: seconds a request's head may take (http_timeouts)."""
        self.app = app
        self.host = host
        self.port = port
        self.header_timeout = header_timeout
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> HttpServer:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY on accepted connections only when the
        # listening socket names its protocol; without it every response waits ~40 ms on
        # the client's delayed ACK (uvicorn writes head and body separately).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as error:
            sock.close()
            taken = error.errno == errno.EADDRINUSE
            raise CannotListen(
                f"cannot listen on {self.host}:{self.port}: "
                + (
                    "the port is taken by another process (stop it, or choose another with"
                    " --port or CREWLINE_PORT)"
                    if taken
                    else (error.strerror or str(error))
                ),
                code="port_in_use" if taken else "cannot_listen",
            ) from None
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            lifespan="off",
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=2,
            timeout_keep_alive=KEEP_ALIVE,
            http=head_deadline_protocol(self.header_timeout),
        )
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]), name="http")
        while not self._server.started:
            if self._task.done():
                await self._task  # raises what made it stop
                raise RuntimeError("the HTTP server stopped during start-up")
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


class Crewline:
    """``async with Crewline(config) as crew``: everything up; leaving stops it all."""

    def __init__(
        self,
        config: Config,
        *,
        transports: Sequence[Transport] | None = None,
        clock: Clock | None = None,
        window_horizon: timedelta = timedelta(minutes=10),
        outbox_poll_interval: float = 2.0,
        store: Store | None = None,
        delivery_wait: float = DELIVERY_WAIT,
        concierge: bool = True,
        outbox_stuck_after: timedelta = timedelta(minutes=5),
        lease_ttl: float = TRANSPORT_LEASE_TTL,
        lease_clock: Callable[[], float] = time.monotonic,
        serving_lock: ServingLock | None = None,
        crew_watch_interval: float | None = WATCH_INTERVAL,
        start_backoff: tuple[float, float] = START_BACKOFF,
    ) -> None:
        """``outbox_stuck_after``: how long a platform call may wait before ``/readyz``
        reports its outbox stuck; ``lease_ttl``: seconds a single-connection transport's
        lease outlives a replica that stopped renewing it (docs/replicas.md);
        ``lease_clock``: the monotonic clock its deadline is judged by (a test moves it on,
        as a stalled event loop finds it moved on); ``serving_lock``: the data directory's
        lock, already held by the caller (the demo takes it before it writes its crew);
        ``crew_watch_interval``: seconds between two looks for crew writes made by another
        process (``crewline.app.crew_watch``; on PostgreSQL it is told of them instead), None
        for no crew watch (a test of what else reaches a replica); ``start_backoff``: the
        first and the longest delay between two starts of a transport whose platform could
        not be reached (``crewline.app.transport_start``)."""
        self.config = config
        if transports is None:
            self.enabled = enabled_transports(config)
            self.transports = [_build(e, config) for e in self.enabled]
        else:
            self.transports = list(transports)
            self.enabled = [
                EnabledTransport(name=t.name, reason="given to crewline by its embedder")
                for t in self.transports
            ]
        self.stranded: dict[str, tuple[str, ...]] = {}  # member -> its transports not running
        self.delivery_wait = delivery_wait
        self.clock = clock
        self.window_horizon = window_horizon
        self.outbox_poll_interval = outbox_poll_interval
        self.outboxes: dict[str, OutboxDispatcher] = {}
        self._given_store = store  # entered and closed here, like the one the config names
        self.concierge_enabled = concierge  # False: no concierge at all (a benchmark's baseline)
        self.outbox_stuck_after = outbox_stuck_after
        self.metrics = Metrics()
        self.lease_ttl = lease_ttl
        self.lease_clock = lease_clock
        self.replica: str | None = None  # this replica's name, on a shared PostgreSQL only
        self.coordination: Coordination | None = None
        self.leases: dict[str, TransportLease] = {}  # single-connection transports
        self.serving_lock = serving_lock
        self.crew_watch_interval = crew_watch_interval
        self.start_backoff = start_backoff
        self.degraded: dict[str, Degraded] = {}  # transports whose start failed, retried
        self._stack = AsyncExitStack()

    async def __aenter__(self) -> Crewline:
        stack = self._stack
        await stack.__aenter__()
        try:
            holder = self._replica_holder()
            # One server per SQLite data directory (replicas on PostgreSQL share theirs);
            # held while serving, so `crewline restore` can tell the database is in use.
            if self.serving_lock is None:
                self.serving_lock = stack.enter_context(
                    ServingLock(self.config.data_dir, exclusive=holder is None)
                )
            self.store = await stack.enter_async_context(self._given_store or self._open(holder))
            self.coordination = await self._coordinate(stack, holder)
            self.launchers = Launchers(self.config.launchers, data_dir=self.config.data_dir)
            stack.push_async_callback(self.launchers.aclose)
            # The core and its features, each registered with it (crewline/app/assembly.py).
            self.bot = await stack.enter_async_context(
                Bot(
                    self.store,
                    clock=self.clock,
                    transports=[t.name for t in self.transports],
                    boundary_wait=self.config.boundary_wait,
                    refuse_mid_turn=self.config.boundary_mid_turn == "refuse",
                    delivery_wait=self.delivery_wait,
                    concierge=concierge_settings(
                        self.config,
                        launchers=self.launchers,
                        brain=await self._brain(stack),
                        enabled=self.concierge_enabled,
                    ),
                )
            )
            self.hub = self.bot.hub
            await self._find_stranded_members()
            # A lone process runs every boundary itself: one still asking was cut off by its
            # death. Replicas leave the young ones to whichever replica may still run them;
            # a replica alone on its database (a restart after a kill) is a lone process.
            alone = self.coordination is None or not await self.coordination.others_running()
            await self.bot.boundaries.close_abandoned(older_than=timedelta(0) if alone else None)
            if self.coordination is not None:
                self.coordination.on_events(self._remote_events)
                self.coordination.on_boundary_answers(self.bot.boundaries.wake)
            self._renderer = CoreRenderer(self.store, self.hub.clock, written=self.hub.written)
            self.hub.on_outbox(self._wake_outbox)
            self.bot.escalations.on_posted(self._card_posted)
            for transport in self.transports:
                transport.attach(self.hub)
                if self.coordination is not None:
                    transport.share_pacing(self.coordination.pace)
                if self.coordination is not None and transport.exclusive:
                    # One replica at a time holds the platform's one connection.
                    lease = TransportLease(
                        self.coordination,
                        transport.name,
                        start=partial(self._start_transport, transport),
                        stop=partial(self._stop_transport, transport),
                        ttl=self.lease_ttl,
                        monotonic=self.lease_clock,
                    )
                    transport.fence(lease)  # before it starts: its first poll is fenced too
                    self.leases[transport.name] = await stack.enter_async_context(lease)
                    continue
                stack.push_async_callback(self._stop_transport, transport)
                await self._start_or_degrade(transport)
            self.windows = await stack.enter_async_context(
                WindowScheduler(
                    self.hub,
                    self.bot.escalations,
                    horizon=self.window_horizon,
                    metrics=self.metrics,
                )
            )
            self.webhooks = await stack.enter_async_context(
                WebhookDispatcher(
                    self.hub,
                    targets=Targets(allow=self.config.webhook_networks),
                    claims=self._claims("webhook:"),
                )
            )
            self.streams = EventStreams(self.hub)
            self.mcp = await stack.enter_async_context(
                McpEndpoint(
                    self.bot,
                    origins=OriginPolicy(
                        origins=self.config.mcp_allowed_origins,
                        hosts=self.config.mcp_allowed_hosts,
                        loopback_only=is_loopback_bind(self.config.host),
                    ),
                )
            )
            self.http = await stack.enter_async_context(
                HttpServer(
                    create_app(
                        self.bot,
                        mounts=self._mounts(),
                        routes=[("/mcp", self.mcp)],
                        streams=self.streams,
                        webhooks=self.webhooks,
                        metrics=self.metrics,
                        metrics_access=MetricsAccess(
                            token=self.config.metrics_token,
                            loopback=is_loopback_address(self.config.host),
                        ),
                        body_timeout=self.config.http_body_timeout,
                        readiness=Readiness(
                            self.store,
                            self.hub.clock,
                            transports=self.transports,
                            stuck_after=self.outbox_stuck_after,
                            coordination=self.coordination,
                            leases=self.leases,
                            degraded=self.degraded,
                        ),
                    ),
                    host=self.config.host,
                    port=self.config.port,
                    header_timeout=self.config.http_header_timeout,
                )
            )
            stack.push_async_callback(self.streams.aclose)  # before the server stops
            self.launchers.url = self.http.url
            self.serving_lock.announce(self.http.url)
            await self.hub.change(lambda ch: ch.roster())
            if self.crew_watch_interval is not None:
                await stack.enter_async_context(
                    CrewWatch(
                        self.store,
                        self._follow_crew,
                        interval=self.crew_watch_interval,
                        coordination=self.coordination,
                    )
                )
            stack.enter_context(serving_collections())
        except BaseException:
            await stack.aclose()
            raise
        if self.config.metrics_token is None and not is_loopback_address(self.config.host):
            log.warning(
                "GET /metrics is refused on %s until metrics_token is set"
                " (CREWLINE_METRICS_TOKEN; docs/operations.md)",
                self.config.host,
            )
        log.info(
            "crewline is serving on %s (transports: %s)",
            self.http.url,
            ", ".join(t.name for t in self.transports) or "none",
        )
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._stack.aclose()

    def _replica_holder(self) -> str | None:
        """This run's holder tag on a shared PostgreSQL (None: one process, no leases)."""
        given = self._given_store
        shared = (
            shared_database_url(given) is not None
            if given is not None
            else is_postgres_url(self.config.database_url)
        )
        if not shared:
            if self.config.replica_id is not None:
                raise ConfigError(
                    "a replica id needs a postgresql:// database: replicas share one"
                    " PostgreSQL (docs/replicas.md)",
                    code="replicas_need_postgresql",
                    key="replica_id",
                )
            return None
        self.replica = valid_replica_name(self.config.replica_id or default_replica_name())
        return holder_tag(self.replica)

    def _open(self, holder: str | None) -> Store:
        url = self.config.database_url
        if holder is not None and url is not None:
            from crewline.store.postgres_coordination import with_application_name

            url = with_application_name(url, holder)  # how other replicas tell our events
        return open_store(url, self.config.data_dir)

    async def _coordinate(self, stack: AsyncExitStack, holder: str | None) -> Coordination | None:
        url = shared_database_url(self.store)
        if holder is None or url is None:
            return None
        from crewline.store.postgres_coordination import PostgresCoordination

        return await stack.enter_async_context(PostgresCoordination(url, holder))

    def _claims(self, prefix: str) -> LaneClaims | None:
        if self.coordination is None:
            return None
        return LaneClaims(self.coordination, prefix)

    def _remote_events(self, sessions: Set[str] | None) -> None:
        if sessions is None:
            self.hub.feed.wake_all()
        else:
            self.hub.feed.notify(sessions)

    async def _start_transport(self, transport: Transport) -> None:
        await transport.start(self.hub.receive)
        # Its outbox only once it has started (and stopped before it stops): entries queued
        # while crewline was not serving (`member add`) are sent, not failed.
        outbox = OutboxDispatcher(
            self.store,
            transport,
            self._renderer,
            poll_interval=self.outbox_poll_interval,
            metrics=self.metrics,
            claims=None if transport.exclusive else self._claims(f"outbox:{transport.name}:"),
            held=self.hub.holds,
        )
        try:
            await outbox.__aenter__()
        except BaseException:
            await transport.stop()
            raise
        self.outboxes[transport.name] = outbox

    async def _start_or_degrade(self, transport: Transport) -> None:
        """Start the transport; when its platform cannot be reached, serve without it and
        keep trying (``crewline.app.transport_start``). A ConfigError (the platform refused the
        credentials, or the configuration cannot work) stops crewline."""
        try:
            await self._start_transport(transport)
        except ConfigError:
            raise
        except Exception as error:
            retry = Degraded(
                transport.name,
                partial(self._start_transport, transport),
                error,
                backoff=self.start_backoff,
            )
            self.degraded[transport.name] = await retry.__aenter__()

    async def _stop_transport(self, transport: Transport) -> None:
        retry = self.degraded.pop(transport.name, None)
        if retry is not None:
            await retry.__aexit__(None, None, None)
        outbox = self.outboxes.pop(transport.name, None)
        try:
            if outbox is not None:
                await outbox.__aexit__(None, None, None)
        finally:
            await transport.stop()

    async def _brain(self, stack: AsyncExitStack) -> Brain | None:
        if self.config.concierge_llm is None:
            return None
        from crewline.brains import LlmBrain

        brain: Brain = await stack.enter_async_context(LlmBrain(self.config.concierge_llm))
        return brain

    @property
    def url(self) -> str:
        return self.http.url

    def transport(self, name: str) -> Transport:
        return next(t for t in self.transports if t.name == name)

    def _wake_outbox(self, name: str, lanes: set[str]) -> None:
        outbox = self.outboxes.get(name)
        if outbox is not None:
            outbox.wake(lanes)

    async def _card_posted(
        self,
        transport: str,
        lane: str,
        object_key: str,
        timeout: float,
        *,
        waiting: Callable[[], None],
    ) -> bool:
        outbox = self.outboxes.get(transport)
        if outbox is not None:
            return await outbox.wait_posted(object_key, lane=lane, timeout=timeout, waiting=waiting)
        if transport in self.leases:  # another replica runs it: its post is recorded there
            waiting()
            return await wait_recorded(self.store, transport, object_key, timeout=timeout)
        return False

    async def _follow_crew(self, change: CrewChange) -> None:
        """Another process changed the crew: forget what the transports remember of members
        removed or bound anew, redraw the roster when its members changed, and look at once
        at what the write queued (cards to redraw, events for sessions) instead of at the
        next poll."""
        for slug in sorted(change.gone):
            for transport in self.transports:
                transport.forget_member(slug)
        if change.added or change.gone:
            log.info(
                "the crew changed: added %s; removed or bound anew %s",
                ", ".join(sorted(change.added)) or "none",
                ", ".join(sorted(change.gone)) or "none",
            )
            await self._find_stranded_members()
            # On every running transport: the write queued it only where the member is bound.
            await self.hub.change(lambda ch: ch.roster())
        for outbox in self.outboxes.values():
            outbox.wake()
        await end_revoked_readers(self.hub.feed, self.store)  # before the others read on
        self.hub.feed.wake_all()

    async def _find_stranded_members(self) -> None:
        running = {t.name for t in self.transports}
        known, self.stranded = self.stranded, {}
        for member in await self.store.members():
            missing = tuple(t for t in member.transports if t not in running)
            if missing:
                self.stranded[member.slug] = missing
                if known.get(member.slug) == missing:
                    continue  # said already
                log.warning(
                    "member %s is bound to %s, which is not configured here: its cards wait"
                    " in the outbox until it is (configured: %s)",
                    member.slug,
                    ", ".join(missing),
                    ", ".join(sorted(running)) or "none",
                )

    def _mounts(self) -> list[tuple[str, ASGIApp]]:
        mounts: list[tuple[str, ASGIApp]] = []
        for transport in self.transports:
            mount = transport.http_mount()
            if mount is not None:
                mounts.append(mount)
        # Most specific path first: the local inbox's catch-all "/" must come after the
        # webhooks' "/slack", "/telegram", … whatever the order of the transports.
        return sorted(mounts, key=lambda mount: len(mount[0].rstrip("/")), reverse=True)
