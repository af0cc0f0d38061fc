"""Persisted, rate-limited, retried delivery: one dispatcher per transport.

The core writes outbox entries in the same transaction as the change that needs them; a
dispatcher sends them. A commit wakes the lanes it queued into; every lane's head is read
only at start and on each poll (entries queued by another process, or left by a crash,
wake nobody). Each lane (a member's thread, the bell, the roster) is delivered in
entry order; lanes proceed in parallel within the transport's limits. What a message says
is rendered when it is sent, from the current state, so a card posted late is never drawn
with dead buttons, and several pending redraws of one object collapse into one call.

With several replicas on one database (``claims``), a lane is sent by the one replica that
holds its lease (``crewline.replication.replicas.LaneClaims``): the others leave it alone,
and take it over once a holder that went silent lets the lease expire. A lane's head taken
over that way may have been sent and not recorded, so its post looks before posting, as a
retry does.
The transport's global rate (``limits.global_per_second``, per app) is then one budget for
all replicas: each call reserves its turn in the database (``Coordination.pace``).

Failures: ``RateLimited`` waits ``retry_after``; a transient error backs off exponentially
(capped, forever: a platform outage loses nothing); a permanent one moves the entry to the
dead-letter table so it cannot block its lane.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from prometheus_client import Histogram

from crewline.errors import PermanentTransportError, RateLimited, ThreadGone
from crewline.models import Bell, Member, OutboundMessage, RosterEntry, RowRole
from crewline.ops.metrics import Metrics
from crewline.replication.replicas import Claim, LaneClaims
from crewline.store import OutboxEntry, PlatformMessage, PostContext, RedrawContext, Store, Tx
from crewline.tasks import cancel_and_wait
from crewline.transports.base import Transport

__all__ = ["OutboxDispatcher", "Renderer", "recorded", "wait_recorded"]

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BACKOFF = 300.0
RECENT_POSTS = 1024  # posts remembered for wait_posted callers that arrive just after
# At most this many callers wait for posts at once: beyond it the outbox is busy, the posts
# will not land within a short wait anyway, and waiting would only slow every agent down.
MAX_POST_WAITERS = 8
# Once a wait ended without its post, the outbox is behind (or the platform failing): a new
# card queues behind the others and will not land within a short wait either. Then only
# this many callers wait, as probes, until a waited-for post lands again; the rest are
# told ``queued`` at once instead of being held for nothing.
BEHIND_POST_WAITERS = 1
# Seconds between two looks in the store for a post another replica makes (while the lane
# it is in is held there): a reply waits for it a fraction of a second at most.
POST_LOOK_INTERVAL = 0.05
# Ops that show an object's current state: later entries for one object are redundant
# once one call has rendered it.
_COLLAPSIBLE = frozenset({"update", "ring", "roster"})
_REDRAWN = frozenset({"update", "ring"})  # of them, those that redraw an object's message


class Renderer(Protocol):
    """What the core supplies so the outbox can draw objects in their current state.

    A removed member's cards and bells are still drawn (settled, for the redraws its
    removal queued), under a member bound to no transport: nothing is posted for it."""

    async def message(
        self, object_key: str, *, unchanged: bool = False
    ) -> tuple[Member, OutboundMessage] | None:
        """``unchanged``: a first post that saw no redraw of the object queued; the object
        may then be drawn as the change that wrote it handed it over, if no change of this
        process touched it since (``bot/written.py``)."""

    async def bell(self, object_key: str) -> Bell | None: ...

    async def roster(self) -> list[RosterEntry]: ...


async def recorded(store: Store, transport: str, object_key: str) -> bool:
    """Whether a post of ``object_key`` on ``transport`` is recorded (by any replica)."""
    return await store.platform_message(transport, object_key) is not None


async def wait_recorded(store: Store, transport: str, object_key: str, *, timeout: float) -> bool:
    """Whether a post of ``object_key`` is recorded within ``timeout`` seconds: for a
    transport another replica runs (its single connection's lease is held there)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            while True:  # no signal reaches us when another replica records it: look
                if await recorded(store, transport, object_key):
                    return True
                await asyncio.sleep(POST_LOOK_INTERVAL)
    return False


class OutboxDispatcher:
    """Drains one transport's outbox. Use as ``async with``; call ``wake(lanes)`` after a
    commit that queued entries."""

    def __init__(
        self,
        store: Store,
        transport: Transport,
        renderer: Renderer,
        *,
        poll_interval: float = 2.0,
        clock: Callable[[], float] = time.time,
        metrics: Metrics | None = None,
        claims: LaneClaims | None = None,
        held: Callable[[str], bool] | None = None,
    ) -> None:
        """``claims``: the lane leases shared with other replicas (None: this process is
        the only one sending). ``held(object_key)``: whether the core holds a post back for
        now (``Hub.holds``); a lane whose head it is stops there, whatever woke it, until
        the hold's release wakes it again."""
        self.store = store
        self.claims = claims
        self.held = held
        self.metrics = metrics
        self.transport = transport
        self.renderer = renderer
        self.poll_interval = poll_interval
        self.clock = clock
        self.sent = 0
        self.rate_limited = 0
        self.held_back = 0  # times a lane stopped at a post held back (``held``)
        self._scan = asyncio.Event()
        self._queued: set[str] = set()  # lanes with entries newer than their drain's last read
        # wait_idle's callers, told of each delivery: a drain pays for a wake only while
        # somebody waits (no lock to take per delivery)
        self._progress: set[asyncio.Future[None]] = set()
        self._lanes: dict[str, asyncio.Task[None]] = {}
        self._lane_ready_at: dict[str, float] = {}
        self._called_at: dict[str, float] = {}
        self._global_ready_at = 0.0
        self._slots = asyncio.Semaphore(max(1, transport.limits.concurrency))
        self._task: asyncio.Task[None] | None = None
        self._inherited_through = 0
        # lane -> its head when taken over from a silent replica or from an earlier process
        self._uncertain: dict[str, int] = {}
        self._taken_up: set[str] = set()  # lanes this dispatcher has sent from
        self._recent_posts: OrderedDict[str, None] = OrderedDict()
        self._post_waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._waiting = 0
        self._behind = False  # the last wait that ended, ended without its post
        self._elsewhere: set[str] = set()  # lanes last found held by another replica
        # op -> its send-time series: ``labels()`` validates and looks the labels up at
        # every call; a series, once made, lives as long as its metric.
        self._send_seconds: dict[str, Histogram] = {}

    async def __aenter__(self) -> OutboxDispatcher:
        # Entries up to here were queued by an earlier process, which may have made a call
        # and died before recording it (attempts is only counted on failure). It sent each
        # lane one entry at a time, the next only once the one before was recorded: so only
        # the head of each such lane can have been sent, and its first attempt here looks
        # before posting, like any retry; the entries behind it were never sent.
        self._inherited_through = await self.store.outbox_last_id()
        self._task = asyncio.create_task(self._run(), name=f"outbox-{self.transport.name}")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await cancel_and_wait(self._task, *self._lanes.values())
        if self.claims is not None:
            await self.claims.release_all()  # the other replicas need not wait out the leases

    def wake(self, lanes: Iterable[str] = ()) -> None:
        """Entries were queued in ``lanes``; with none named, every lane is looked at."""
        named = list(lanes)
        for lane in named:
            self._start_lane(lane)
        if not named:
            self._scan.set()

    def _start_lane(self, lane: str) -> None:
        self._queued.add(lane)
        if self._idle(lane):
            self._lanes[lane] = asyncio.create_task(self._drain_lane(lane))

    async def wait_idle(self, *, timeout: float = 10.0) -> None:
        """Wait (bounded) until this transport's outbox is empty. Every lane is looked at
        first (entries nobody woke), and again whenever a poll interval passes with no
        delivery; a delivery means the lanes are being drained, so it only counts again."""
        scan = True
        async with asyncio.timeout(timeout):
            while True:
                # Listening before the look: a delivery during it is not missed.
                delivered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
                self._progress.add(delivered)
                try:
                    if await self.store.outbox_size(self.transport.name) == 0:
                        return
                    if scan:
                        self.wake()
                    try:
                        async with asyncio.timeout(self.poll_interval):
                            await delivered
                        scan = False
                    except TimeoutError:
                        scan = True
                finally:
                    self._progress.discard(delivered)

    async def wait_posted(
        self,
        object_key: str,
        *,
        lane: str,
        timeout: float,
        waiting: Callable[[], None] | None = None,
    ) -> bool:
        """Whether the platform accepted the post of ``object_key`` (queued in ``lane``),
        waiting at most ``timeout`` seconds for it; False at once while
        ``MAX_POST_WAITERS`` callers already wait (a busy outbox), or while the outbox is
        behind (its last wait ended without the post) and a probe already waits.
        ``waiting()`` is called when it is to wait, before it does (never when it answers
        at once).

        With replicas, the post counts whichever replica made it: while another replica
        holds ``lane`` (so it sends the post), the store is looked at for the post it
        records."""
        if object_key in self._recent_posts:
            self._behind = False  # posted before anyone asked: keeping up
            return True
        if self._waiting >= (BEHIND_POST_WAITERS if self._behind else MAX_POST_WAITERS):
            return False
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiters = self._post_waiters.setdefault(object_key, [])
        waiters.append(waiter)
        self._waiting += 1
        try:
            if waiting is not None:
                waiting()
            async with asyncio.timeout(timeout):
                if self.claims is None:
                    await waiter
                else:
                    await self._posted_anywhere(waiter, object_key, lane)
        except TimeoutError:
            self._behind = True
            return False
        else:
            self._behind = False
            return True
        finally:
            self._waiting -= 1
            waiters.remove(waiter)
            if not waiters:
                self._post_waiters.pop(object_key, None)

    async def _posted_anywhere(
        self, waiter: asyncio.Future[None], object_key: str, lane: str
    ) -> None:
        """Until this dispatcher posted ``object_key``, or another replica recorded it.
        Once the lane was seen held elsewhere, the store is looked at until the end: its
        holder may post and release it, and this replica take the now empty lane, before
        the next look."""
        seen_elsewhere = False
        while not waiter.done():
            seen_elsewhere = seen_elsewhere or lane in self._elsewhere
            if seen_elsewhere and await recorded(self.store, self.transport.name, object_key):
                return
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POST_LOOK_INTERVAL):
                    await asyncio.shield(waiter)

    def _posted(self, object_key: str) -> None:
        self._recent_posts[object_key] = None
        if len(self._recent_posts) > RECENT_POSTS:
            self._recent_posts.popitem(last=False)
        for waiter in self._post_waiters.get(object_key, ()):
            if not waiter.done():
                waiter.set_result(None)

    # the loop -------------------------------------------------------------------------------
    async def _run(self) -> None:
        while True:
            self._scan.clear()
            try:
                lanes = await self._lanes_to_start()
            except Exception:
                log.exception("reading the %s outbox failed", self.transport.name)
                lanes = []
            for lane in lanes:
                self._start_lane(lane)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_interval):
                    await self._scan.wait()

    async def _lanes_to_start(self) -> list[str]:
        """The lanes a poll starts: each one with a head, but, with replicas, none that
        another replica holds now and this one is not draining. Its holder drains it (and
        looks again once it releases it); asking for each lease would be refused one
        statement at a time, for every lane the other replicas send, at every poll. One
        read of the leases says which they are, by the rule a lease request would apply
        (a lane whose holder is gone or past its lease is started, and taken over)."""
        lanes = [head.lane for head in await self.store.outbox_heads(self.transport.name)]
        idle = {lane for lane in lanes if self._idle(lane)}
        if self.claims is None or not idle:
            return lanes
        held = await self.claims.held_elsewhere()
        elsewhere = {lane for lane in idle & held if self._idle(lane)}  # still, after the read
        self._elsewhere |= elsewhere  # a wake asks for the lease before reading the head
        return [lane for lane in lanes if lane not in elsewhere]

    def _idle(self, lane: str) -> bool:
        """Whether no drain of ``lane`` runs here."""
        running = self._lanes.get(lane)
        return running is None or running.done()

    async def _drain_lane(self, lane: str) -> None:
        while True:
            self._queued.discard(lane)
            claim: Claim | None = None
            if self.claims is not None and lane in self._elsewhere:
                # Last found held by another replica, which most likely holds it still:
                # ask for the lease first, and read the head only once it is ours (the
                # holder drains the lane and looks again once it releases it).
                claim = await self.claims.hold(lane)
                if claim is Claim.ELSEWHERE:
                    return
                self._elsewhere.discard(lane)
            entry = await self.store.outbox_head(self.transport.name, lane)
            if entry is None:
                if lane in self._queued:
                    continue  # woken while reading: what woke it may not have been seen
                if self.claims is None:
                    return
                if not await self.claims.release(lane):
                    # Emptied by the replica holding it: what woke us is posted there.
                    self._elsewhere.add(lane)
                    return
                # A replica that queued into the lane while we held it left it to us: look
                # once more now that it is free.
                if await self.store.outbox_head(self.transport.name, lane) is not None:
                    continue
                return
            if self.claims is not None:
                if claim is None:
                    claim = await self.claims.hold(lane)
                if claim is Claim.ELSEWHERE:
                    self._elsewhere.add(lane)
                    return  # its holder sends it (and releases it when it is empty)
                self._elsewhere.discard(lane)
                if claim is Claim.TAKEN_OVER:
                    self._uncertain[lane] = entry.id
            if entry.op == "post" and self.held is not None and self.held(entry.object_key):
                # Its first draw waits for what holds it (a card's judgement), which wakes
                # the lane once released; the lane stays ours meanwhile (its order too).
                self.held_back += 1
                return
            if lane not in self._taken_up:
                self._taken_up.add(lane)
                if entry.id <= self._inherited_through:
                    self._uncertain[lane] = max(entry.id, self._uncertain.get(lane, 0))
            now = self.clock()
            ready_at = max(entry.not_before, self._lane_ready_at.get(lane, 0.0))
            if ready_at > now:
                await asyncio.sleep(ready_at - now)
                if self.claims is not None:
                    continue  # the lease may have moved meanwhile, and the head been sent
            async with self._slots:
                await self._global_turn()
                try:
                    await self._attempt(entry)
                except BaseException:
                    # Its call may have been made with nothing recorded (the store failed):
                    # the next attempt at this head looks before posting.
                    self._uncertain[lane] = max(entry.id, self._uncertain.get(lane, 0))
                    raise
            if self._progress:
                self._delivered()

    def _delivered(self) -> None:
        for waiter in self._progress:
            if not waiter.done():
                waiter.set_result(None)

    async def _global_turn(self) -> None:
        rate = self.transport.limits.global_per_second
        if rate <= 0:
            return
        if self.claims is not None:  # the app's budget, shared with the other replicas
            wait = await self.claims.coordination.pace(f"outbox:{self.transport.name}", 1.0 / rate)
            if wait > 0:
                await asyncio.sleep(wait)
            return
        now = self.clock()
        turn = max(now, self._global_ready_at)
        self._global_ready_at = turn + 1.0 / rate
        if turn > now:
            await asyncio.sleep(turn - now)

    async def _attempt(self, entry: OutboxEntry) -> None:
        started = self.clock()
        # A redraw shows the state as of now: it covers the entries for the same object it
        # sees committed before it renders (whatever their ids). A post draws the object as
        # of now too, so it also covers the redraws of that object committed before it (a
        # card's suggestion that landed while the card waited in the outbox is on the card
        # as posted).
        # A redraw of an object's message (an update, a ring) reads what it covers and the
        # message showing the object in one look-up.
        redraw = (
            await self.store.redraw_context(entry.transport, entry.lane, entry.op, entry.object_key)
            if entry.op in _REDRAWN
            else None
        )
        if redraw is not None:
            covered = list(redraw.covered)
        elif entry.op in _COLLAPSIBLE:
            covered = await self.store.outbox_object_ids(
                entry.transport, entry.lane, entry.op, entry.object_key
            )
        else:
            covered = [entry.id]
        # A post's own look-ups (its redraws, its message if recorded, its thread) in one.
        post = (
            await self.store.post_context(entry.transport, entry.lane, entry.object_key)
            if entry.op == "post"
            else None
        )
        redraws_before = list(post.redraws) if post is not None else []
        try:
            recorded = await self._deliver(entry, post, redraw=redraw)
        except RateLimited as error:
            self.rate_limited += 1
            self._count_retry("rate_limited")
            retry_at = self.clock() + error.retry_after
            self._lane_ready_at[entry.lane] = retry_at
            await self._retry(entry, at=retry_at, reason=error.message)
        except PermanentTransportError as error:
            log.error(
                "%s: giving up on %s %s: %s",
                self.transport.name,
                entry.op,
                entry.object_key,
                error.message,
            )
            await self._bury(entry, reason=error.message)
            if self.metrics is not None:
                self.metrics.buried.labels(transport=self.transport.name).inc()
        except Exception as error:  # transient, or a transport bug: retry, never lose it
            self._count_retry("failed")
            delay = min(MAX_BACKOFF, 0.5 * 2 ** min(entry.attempts, 16)) * random.uniform(0.8, 1.2)
            log.warning(
                "%s: %s %s failed (attempt %d), retrying in %.1fs: %s",
                self.transport.name,
                entry.op,
                entry.object_key,
                entry.attempts + 1,
                delay,
                error,
            )
            await self._retry(entry, at=self.clock() + delay, reason=str(error))
        else:
            self.sent += 1
            called_at = self._called_at.pop(entry.lane, started)
            self._lane_ready_at[entry.lane] = called_at + self._interval(entry.lane)
            await self._settle(entry, recorded, covered=covered, moot=redraws_before)

    def _count_retry(self, reason: str) -> None:
        if self.metrics is not None:
            self.metrics.retries.labels(transport=self.transport.name, reason=reason).inc()

    def _interval(self, lane: str) -> float:
        limits = self.transport.limits
        # The roster is a status line: redrawn from the current state at most once per
        # roster_interval, however many changes queued it (a burst of closings would
        # otherwise redraw it for each one).
        if lane == "roster":
            return max(limits.per_thread_interval, limits.roster_interval)
        return limits.per_thread_interval

    async def _settle(
        self,
        entry: OutboxEntry,
        recorded: PlatformMessage | None,
        *,
        covered: list[int],
        moot: list[int],
    ) -> None:
        """Record what was sent and settle the entries it covered; ``moot``: the redraws a
        post saw committed before it drew the card."""

        def settle(tx: Tx) -> None:
            if recorded is not None:
                tx.record_platform_message(recorded)
            tx.settle_outbox_entries(covered)
            if moot and recorded is not None and not self._retried(entry):
                # Posted just now, drawn after these redraws committed: they are moot. (A
                # retried post may have found the message an earlier attempt made, drawn
                # before them: then they stay.)
                tx.settle_outbox_entries(moot)

        if entry.op == "post" and recorded is not None:
            # The platform accepted it: a reply waiting to say ``delivered`` is told now,
            # not after the record's commit (an fsync of its own, behind any in flight).
            self._posted(entry.object_key)
        # Lazy while nothing more was queued into the lane: then only this lane's next
        # call (which waits for it here) needs it, so it may wait a moment to share the
        # commit of a change somebody waits for rather than start an fsync that change
        # would then queue behind. A lane with more to send commits it at once.
        await self._write(settle, lazy=entry.lane not in self._queued)

    def _retried(self, entry: OutboxEntry) -> bool:
        """Might an earlier attempt (this process's, or one before a crash) have made it?"""
        return entry.attempts > 0 or entry.id <= self._uncertain.get(entry.lane, 0)

    async def _retry(self, entry: OutboxEntry, *, at: float, reason: str) -> None:
        await self._write(lambda tx: tx.retry_outbox(entry.id, not_before=at, error=reason))

    async def _bury(self, entry: OutboxEntry, *, reason: str) -> None:
        now = datetime.fromtimestamp(self.clock(), UTC)
        await self._write(lambda tx: tx.bury_outbox(entry.id, error=reason, now=now))

    async def _write(self, transaction: Callable[[Tx], None], *, lazy: bool = False) -> None:
        await self.store.write(transaction, lazy=lazy)

    # one call -------------------------------------------------------------------------------
    async def _deliver(
        self,
        entry: OutboxEntry,
        post: PostContext | None = None,
        *,
        redraw: RedrawContext | None = None,
    ) -> PlatformMessage | None:
        """Make ``entry``'s call; ``post``, ``redraw``: a post's or a redraw's look-ups, read
        just before."""
        name = self.transport.name
        if entry.op == "roster":
            await self._call(entry, self.transport.show_roster(await self.renderer.roster()))
            return None
        read = post or redraw
        shown = (
            read.shown
            if read is not None
            else await self.store.platform_message(name, entry.object_key)
        )
        if entry.op == "ring":
            bell = await self.renderer.bell(entry.object_key)
            if bell is None:
                return None
            ref = await self._call(
                entry, self.transport.ring(bell, message_ref=shown.message_ref if shown else None)
            )
            return PlatformMessage(
                transport=name,
                object_key=entry.object_key,
                thread_ref=shown.thread_ref if shown else "",
                message_ref=ref,
            )
        if entry.op == "post":
            if shown is not None:
                return None  # posted before a crash, recorded; never twice
            unchanged = post is not None and not post.redraws
            rendered = await self.renderer.message(entry.object_key, unchanged=unchanged)
            if rendered is None:
                return None
            member, message = rendered
            if not member.transports:
                return None  # its member was removed: there is no thread to post it in
            # The lane is its member's: the thread read with the post's look-ups is its own.
            thread = await self._thread(member, read=post if member.slug == entry.lane else None)
            retry = self._retried(entry)
            since = entry.created_at if retry else None
            try:
                ref = await self._call(
                    entry,
                    self.transport.post(
                        thread, message, key=entry.object_key, retry=retry, since=since
                    ),
                )
            except ThreadGone:
                # The platform lost the thread (a deleted topic): the transport opens the
                # member's thread again where it now can, and the message goes there.
                thread = await self._thread(member, reopen=True)
                ref = await self._call(
                    entry,
                    self.transport.post(
                        thread, message, key=entry.object_key, retry=retry, since=since
                    ),
                )
            return PlatformMessage(
                transport=name, object_key=entry.object_key, thread_ref=thread, message_ref=ref
            )
        if entry.op == "update":
            if shown is None:
                return None  # never shown (its post was buried): nothing to redraw
            rendered = await self.renderer.message(entry.object_key)
            if rendered is not None:
                await self._call(
                    entry, self.transport.update(shown.thread_ref, shown.message_ref, rendered[1])
                )
            return None
        if entry.op == "rewound":
            refs: list[str] = []
            drawn: dict[str, OutboundMessage] = {}
            for key in entry.body.get("keys", []):
                shown_as = await self.store.platform_message(name, key)
                if shown_as is None:
                    continue
                refs.append(shown_as.message_ref)
                if self.transport.marks_need_drawing and not await self._persons_own(key):
                    rendered = await self.renderer.message(key)
                    if rendered is not None:
                        drawn[shown_as.message_ref] = rendered[1]
            if refs:
                thread = await self.store.thread_ref(entry.lane, name) or ""
                await self._call(entry, self.transport.mark_rewound(thread, refs, drawn=drawn))
            return None
        raise PermanentTransportError(f"unknown outbox op {entry.op!r}", code="unknown_op")

    async def _persons_own(self, object_key: str) -> bool:
        """Whether the message showing ``object_key`` here is one a person sent (their own
        row, typed on this platform), not one crewline posted."""
        kind, _, row_id = object_key.partition(":")
        row = await self.store.row(row_id, include_rewound=True) if kind == "row" else None
        return (
            row is not None
            and row.role is RowRole.HUMAN
            and row.meta.get("transport") == self.transport.name
        )

    async def _call(self, entry: OutboxEntry, call: Awaitable[T]) -> T:
        """Make one platform call, noting when it started: the lane's next call is paced
        from here, not from before the reads and rendering that preceded it."""
        self._called_at[entry.lane] = self.clock()
        if self.metrics is None:
            return await call
        series = self._send_seconds.get(entry.op)
        if series is None:
            series = self._send_seconds[entry.op] = self.metrics.send_seconds.labels(
                transport=self.transport.name, op=entry.op
            )
        started = time.perf_counter()
        try:
            return await call
        finally:
            series.observe(time.perf_counter() - started)

    async def _thread(
        self,
        member: Member,
        *,
        reopen: bool = False,
        read: PostContext | None = None,
    ) -> str:
        """The member's thread here, opened (and recorded) if it has none or ``reopen``;
        as ``read`` found it a moment ago, when given."""
        name = self.transport.name
        if read is not None:
            thread = read.thread_ref
        else:
            thread = await self.store.thread_ref(member.slug, name)
        if thread is None or reopen:
            thread = await self.transport.open_thread(member)
            await self.store.write(lambda tx: tx.record_thread(member.slug, name, thread))
        return thread
