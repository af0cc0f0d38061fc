"""Push delivery: each event of a session POSTed, signed, to the webhook it registered.

The events are already persisted (in the transaction of the change that made them); what a
webhook adds is a per-session delivery cursor in the store, advanced only when the receiver
answers 2xx. So delivery is in cursor order and at least once, and a restart resumes where
the receiver stopped acknowledging; the receiver dedupes by the cursor in the body.

Each session's deliveries run in a lane of their own (one event at a time, in order), so a
receiver that answers 5xx or never answers delays only its own session. A failed attempt is
retried with exponential back-off (capped, forever), its time persisted with the webhook.
Lanes are woken by the Hub's after-commit notification of session events
(``EventFeed.on_notify``), and a poll finds anything else (a restart's backlog).

Where a webhook may post is decided by ``crewline.push.targets``: public addresses only
unless the operator allows networks, checked at registration and again, against the address
actually connected to, before each delivery.

Signature: ``X-Crewline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">``
keyed with the secret the session registered (docs/agents/webhooks.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import time
from collections.abc import Callable, Set
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx

from crewline import __version__
from crewline.bot import Hub
from crewline.errors import CrewlineError, InvalidInput, NotFound
from crewline.kept_alive import KEEP_ALIVE_EXPIRY, send_with_one_resend
from crewline.models import Event, Session
from crewline.push.targets import Address, Targets, parse_url, reached
from crewline.replication.replicas import Claim, LaneClaims
from crewline.store import Tx, Webhook
from crewline.tasks import cancel_and_wait

__all__ = ["SIGNATURE_HEADER", "WebhookDispatcher", "sign", "webhook_view"]

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Crewline-Signature"
SECRET_LENGTHS = (16, 256)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def payload(event: Event) -> bytes:
    """What a receiver gets: the event as the pull API shows it, with its session."""
    return json.dumps(
        {
            "session": event.session,
            "cursor": event.cursor,
            "kind": event.kind,
            "body": dict(event.body),
            "at": event.created_at.isoformat(),
        },
        separators=(",", ":"),
    ).encode()


def webhook_view(hook: Webhook) -> dict[str, Any]:
    """A webhook as its session reads it back: never the secret."""
    return {
        "url": hook.url,
        "delivered_through": hook.delivered_through,
        "attempts": hook.attempts,
        "last_error": hook.last_error,
        "next_attempt_at": (
            datetime.fromtimestamp(hook.not_before, UTC).isoformat() if hook.attempts else None
        ),
    }


class WebhookDispatcher:
    """Registers sessions' webhooks and delivers their events. Use as ``async with``."""

    def __init__(
        self,
        hub: Hub,
        *,
        poll_interval: float = 2.0,
        timeout: float = 10.0,
        retry_base: float = 0.5,
        max_backoff: float = 300.0,
        clock: Callable[[], float] = time.time,
        targets: Targets | None = None,
        claims: LaneClaims | None = None,
    ) -> None:
        """``claims``: the webhook lanes' leases shared with other replicas (None: this
        process is the only one delivering)."""
        self.hub = hub
        self.claims = claims
        self.targets = targets or Targets()
        self.store = hub.store
        self.poll_interval = poll_interval
        self.timeout = timeout
        self.retry_base = retry_base
        self.max_backoff = max_backoff
        self.clock = clock
        self.delivered = 0
        self.failed = 0
        self._registered: set[str] = set()
        self._queued: set[str] = set()
        self._lanes: dict[str, asyncio.Task[None]] = {}
        self._client: httpx.AsyncClient | None = None
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> WebhookDispatcher:
        self._registered = {w.session for w in await self.store.webhooks()}
        self.hub.feed.on_notify(self._notified)
        self._task = asyncio.create_task(self._poll(), name="webhooks")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await cancel_and_wait(self._task, *self._lanes.values())
        if self._client is not None:
            await self._client.aclose()
        if self.claims is not None:
            await self.claims.release_all()

    # registration ---------------------------------------------------------------------------
    async def register(
        self,
        session: Session,
        *,
        url: str,
        secret: str,
        after: int | None,
        own_address: tuple[str, int] | None,
        own_host: str | None,
    ) -> Webhook:
        """Register (or replace) the session's webhook. ``own_address`` is the socket the
        request came in on and ``own_host`` the name it was sent to: a URL that leads back
        to crewline itself is refused. Without ``after``, delivery goes on from where an
        earlier registration left it, or starts with the next event."""
        await _check_url(url, self.targets, own_address=own_address, own_host=own_host)
        if not SECRET_LENGTHS[0] <= len(secret) <= SECRET_LENGTHS[1] or not secret.isprintable():
            raise InvalidInput(
                f"secret must be {SECRET_LENGTHS[0]}..{SECRET_LENGTHS[1]} printable characters",
                code="invalid_webhook_secret",
                field="secret",
            )
        now = self.hub.clock.now()

        def put(tx: Tx) -> Webhook:
            last = tx.last_cursor(session.id)
            if after is not None and not 0 <= after <= last:
                raise InvalidInput(
                    f"after must be a cursor between 0 and your newest, {last}",
                    code="invalid_cursor",
                    field="after",
                )
            earlier = tx.webhook(session.id)
            start = (
                after
                if after is not None
                else (earlier.delivered_through if earlier is not None else last)
            )
            hook = Webhook(
                session=session.id, url=url, secret=secret, delivered_through=start, created_at=now
            )
            tx.put_webhook(hook)
            tx.audit(
                "webhook:set",
                "ok",
                now,
                actor=session.id,
                member=session.member,
                details={"host": urlsplit(url).hostname, "from_cursor": start},
            )
            return hook

        hook: Webhook = await self.store.write(put)
        self._registered.add(session.id)
        self._restart(session.id)
        return hook

    async def webhook(self, session: Session) -> Webhook:
        hook = await self.store.webhook(session.id)
        if hook is None:
            raise NotFound("this session has no webhook", code="no_webhook")
        return hook

    async def unregister(self, session: Session) -> None:
        now = self.hub.clock.now()

        def delete(tx: Tx) -> bool:
            deleted = tx.delete_webhook(session.id)
            if deleted:
                tx.audit("webhook:delete", "ok", now, actor=session.id, member=session.member)
            return deleted

        if not await self.store.write(delete):
            raise NotFound("this session has no webhook", code="no_webhook")
        self._registered.discard(session.id)
        lane = self._lanes.pop(session.id, None)
        if lane is not None:
            lane.cancel()

    # lanes ----------------------------------------------------------------------------------
    def _notified(self, sessions: Set[str]) -> None:
        for session in sessions & self._registered:
            self._start(session)

    def _start(self, session: str) -> None:
        self._queued.add(session)
        running = self._lanes.get(session)
        if running is None or running.done():
            self._lanes[session] = asyncio.create_task(
                self._drain(session), name=f"webhook-{session}"
            )

    def _restart(self, session: str) -> None:
        """A new registration: a lane waiting out the old URL's back-off starts over."""
        running = self._lanes.pop(session, None)
        if running is not None:
            running.cancel()
        self._start(session)

    async def _poll(self) -> None:
        while True:
            try:
                for hook in await self.store.webhooks(behind_only=True):
                    self._registered.add(hook.session)
                    self._start(hook.session)
            except Exception:
                log.exception("reading the webhooks failed")
            await asyncio.sleep(self.poll_interval)

    async def _drain(self, session: str) -> None:
        try:
            await self._deliver_all(session)
        except Exception:  # the store failing under us: the poll starts the lane again
            log.exception("the webhook lane of session %s stopped", session)

    async def _deliver_all(self, session: str) -> None:
        """Deliver the session's events one at a time, in cursor order, until none is left."""
        while True:
            self._queued.discard(session)
            hook = await self.store.webhook(session)
            if hook is None:
                self._registered.discard(session)
                return
            if self.claims is not None and await self.claims.hold(session) is Claim.ELSEWHERE:
                return  # another replica delivers this session's events
            events = await self.hub.take_events(session, hook.delivered_through, limit=1)
            if not events:
                if session in self._queued:
                    continue  # woken while reading: what woke it may not have been seen
                # Events committed elsewhere while we held the lane are left to us.
                if (
                    self.claims is not None
                    and await self.claims.release(session)
                    and await self.store.has_events_after(session, hook.delivered_through)
                ):
                    continue
                return
            wait = hook.not_before - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
                continue  # the registration may have changed meanwhile
            await self._attempt(hook, events[0])

    def _http(self) -> httpx.AsyncClient:
        """The client of every delivery, made at the first: making one loads the CA bundle
        (some 25 ms of CPU), which a server without webhooks never needs."""
        if self._client is None:
            # No pool ceiling: a pool full of slow receivers would hold up every other
            # session. An idle connection goes before a receiver's server may close it
            # (crewline.kept_alive).
            self._client = httpx.AsyncClient(
                limits=httpx.Limits(
                    max_connections=None,
                    max_keepalive_connections=32,
                    keepalive_expiry=KEEP_ALIVE_EXPIRY,
                ),
                headers={"User-Agent": f"crewline/{__version__}"},
            )
        return self._client

    async def _post(self, hook: Webhook, event: Event) -> str | None:
        """One delivery attempt, to addresses checked just now (the next one when an address
        cannot be connected to); None when it was accepted, else what went wrong."""
        body = payload(event)
        try:
            candidates = await self.targets.pin(hook.url)
        except CrewlineError as error:  # refused, or unresolvable now: retried, visibly
            return f"{error.code}: {error.message}"[:300]
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(hook.secret, int(self.clock()), body),
            "X-Crewline-Cursor": str(event.cursor),
            "X-Crewline-Event": event.kind,
        }
        failure = "no address"
        for pinned in candidates:
            try:
                client = self._http()
                request = client.build_request(
                    "POST",
                    pinned.url,
                    content=body,
                    headers={**pinned.headers, **headers},
                    extensions=pinned.extensions,
                    timeout=self.timeout,
                )
                # A delivery is safe to repeat: receivers dedupe by cursor (at least once).
                response = await send_with_one_resend(client, request, repeatable=True)
            except httpx.ConnectError as error:  # nothing reached: the next address may be
                failure = f"ConnectError to {pinned.address}: {error}"[:300]
                continue
            except Exception as error:  # the network, or a URL httpx cannot use: retried
                return f"{type(error).__name__}: {error}"[:300] or type(error).__name__
            if 200 <= response.status_code < 300:
                return None
            return f"the receiver answered HTTP {response.status_code}"
        return failure

    async def _attempt(self, hook: Webhook, event: Event) -> None:
        failure = await self._post(hook, event)
        if failure is None:
            await self.store.write(lambda tx: tx.webhook_delivered(hook.session, event.cursor))
            self.delivered += 1
            return
        delay = min(self.max_backoff, self.retry_base * 2 ** min(hook.attempts, 16))
        delay *= random.uniform(0.8, 1.2)
        log.warning(
            "webhook of session %s (%s): event %d not delivered (attempt %d), retrying in"
            " %.1fs: %s",
            hook.session,
            urlsplit(hook.url).hostname,
            event.cursor,
            hook.attempts + 1,
            delay,
            failure,
        )
        not_before = self.clock() + delay
        await self.store.write(
            lambda tx: tx.webhook_failed(hook.session, not_before=not_before, error=failure)
        )
        self.failed += 1


async def _check_url(
    url: str, targets: Targets, *, own_address: tuple[str, int] | None, own_host: str | None
) -> None:
    """An http(s) URL read strictly (``parse_url``), that does not lead back to this
    crewline, and whose addresses the operator lets webhooks reach."""
    target = parse_url(url)
    addresses = await targets.addresses(target)  # none now: each delivery resolves again
    if own_address is not None and target.port == own_address[1]:
        if own_host is not None and target.host == own_host.lower().strip("[]"):
            raise _points_at_crewline(url)
        if any(_is_crewline(address, own_address[0]) for address in addresses):
            raise _points_at_crewline(url)
    await targets.check(url, addresses)


def _is_crewline(address: Address, own_ip: str) -> bool:
    return any(a.is_loopback or a.is_unspecified or str(a) == own_ip for a in reached(address))


def _points_at_crewline(url: str) -> InvalidInput:
    return InvalidInput(
        f"url {url[:100]!r} points at this crewline itself: its events would be posted back to it",
        code="webhook_url_is_crewline",
        field="url",
    )
