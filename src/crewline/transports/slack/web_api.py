"""The Slack Web API as the transport uses it: paced posts, mapped errors, cached lookups.

``chat.postMessage`` is limited to about one message per second *per channel*, and every
member thread of an owner lives in one channel (their DM with the app). The outbox paces per
lane (a member's thread), so posts are also paced here, per channel, from the end of the
previous post: lanes that share a DM take turns instead of drawing 429s.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from crewline.errors import (
    PermanentTransportError,
    RateLimited,
    TransientTransportError,
    TransportError,
)

__all__ = ["SlackWebApi", "transport_error"]

log = logging.getLogger(__name__)

PAGE = 200  # messages asked for per page of a listing (Slack recommends at most 200)

JsonDict = dict[str, Any]

# Errors that fix themselves (Slack's side) or that a person fixes without losing anything
# (a revoked or mistyped token, a missing scope): retried with back-off, never buried.
_SLACKS_SIDE = frozenset(
    {"internal_error", "fatal_error", "service_unavailable", "request_timeout", "ratelimited"}
)
_NEEDS_A_PERSON = frozenset(
    {
        "invalid_auth",
        "not_authed",
        "account_inactive",
        "token_revoked",
        "token_expired",
        "missing_scope",
        "team_access_not_granted",
    }
)
_TRANSIENT = _SLACKS_SIDE | _NEEDS_A_PERSON


def transport_error(
    method: str, status: int, error: str | None, headers: Mapping[str, str]
) -> TransportError:
    """The crewline error for a refused Web API call (pure: the outbox acts on its class)."""
    what = f"Slack {method} failed: {error or f'HTTP {status}'}"
    if status == 429 or error == "ratelimited":
        return RateLimited(what, retry_after=_retry_after(headers))
    if status >= 500 or error in _TRANSIENT:
        return TransientTransportError(what, code=f"slack_{error or status}")
    return PermanentTransportError(what, code=f"slack_{error or status}")


def _retry_after(headers: Mapping[str, str]) -> float:
    for name, value in headers.items():
        if name.lower() == "retry-after":
            try:
                return max(0.0, float(value))
            except ValueError:
                break
    return 1.0


class SlackWebApi:
    """One ``AsyncWebClient`` (on one shared aiohttp session) and what crewline asks of it."""

    def __init__(
        self,
        client: AsyncWebClient,
        *,
        post_interval: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.post_interval = post_interval
        self.clock = clock
        self._channel_locks: dict[str, asyncio.Lock] = {}
        self._channel_ready_at: dict[str, float] = {}
        self._dms: dict[str, str] = {}
        self._permalinks: dict[tuple[str, str], str] = {}

    async def call(self, method: str, **params: Any) -> JsonDict:
        """Call ``method``; raises RateLimited, Transient- or PermanentTransportError."""
        # The SDK's own method knows how Slack wants each one sent (JSON, form or query).
        sdk_method = getattr(self.client, method.replace(".", "_"))
        try:
            response = await sdk_method(**params)
        except SlackApiError as error:
            answer = error.response
            raise transport_error(
                method, answer.status_code, answer.get("error"), answer.headers
            ) from None
        except (SlackClientError, aiohttp.ClientError, TimeoutError, OSError) as error:
            raise TransientTransportError(
                f"Slack {method} failed: {error!r}", code="slack_unreachable"
            ) from None
        return dict(response.data) if isinstance(response.data, dict) else {}

    async def post_message(self, channel: str, **params: Any) -> JsonDict:
        """``chat.postMessage``, taking its turn in ``channel`` (see the module docstring)."""
        async with self._channel_turn(channel):
            try:
                return await self.call("chat.postMessage", channel=channel, **params)
            except RateLimited as limited:
                self._channel_ready_at[channel] = self.clock() + limited.retry_after
                raise

    @asynccontextmanager
    async def _channel_turn(self, channel: str) -> AsyncIterator[None]:
        lock = self._channel_locks.setdefault(channel, asyncio.Lock())
        async with lock:
            wait = self._channel_ready_at.get(channel, 0.0) - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                yield
            finally:
                # From the end of the call: Slack counts arrivals, and the next request must
                # not arrive early however long this one took on the way.
                self._channel_ready_at[channel] = max(
                    self._channel_ready_at.get(channel, 0.0), self.clock() + self.post_interval
                )

    async def update_message(self, channel: str, ts: str, **params: Any) -> JsonDict:
        return await self.call("chat.update", channel=channel, ts=ts, **params)

    async def dm_channel(self, user_id: str) -> str:
        """The app's DM channel with ``user_id`` (opened once, then cached)."""
        if user_id not in self._dms:
            opened = await self.call("conversations.open", users=user_id)
            self._dms[user_id] = str(opened["channel"]["id"])
        return self._dms[user_id]

    async def permalink(self, channel: str, ts: str) -> str | None:
        """A link to message ``ts``; None when Slack cannot give one (it is only a nicety)."""
        key = (channel, ts)
        if key not in self._permalinks:
            try:
                found = await self.call("chat.getPermalink", channel=channel, message_ts=ts)
            except TransportError as error:
                log.warning("no permalink for %s in %s: %s", ts, channel, error.message)
                return None
            self._permalinks[key] = str(found["permalink"])
        return self._permalinks[key]

    def history(self, channel: str, *, pages: int) -> AsyncIterator[JsonDict]:
        """The channel's top-level messages, newest first, with their metadata."""
        return self._paged("conversations.history", pages=pages, channel=channel)

    def replies(
        self, channel: str, ts: str, *, pages: int, oldest: str | None = None
    ) -> AsyncIterator[JsonDict]:
        """The thread of ``ts`` (its root first), with metadata, oldest first; from
        ``oldest`` on (that timestamp included) when given."""
        if oldest is None:
            return self._paged("conversations.replies", pages=pages, channel=channel, ts=ts)
        return self._paged(
            "conversations.replies",
            pages=pages,
            channel=channel,
            ts=ts,
            oldest=oldest,
            inclusive=True,
        )

    async def _paged(self, method: str, *, pages: int, **params: Any) -> AsyncIterator[JsonDict]:
        """Up to ``pages`` pages of a cursor-paged listing, message by message."""
        cursor: str | None = None
        for _ in range(pages):
            request: JsonDict = {**params, "limit": PAGE, "include_all_metadata": True}
            if cursor:
                request["cursor"] = cursor
            page = await self.call(method, **request)
            for message in page.get("messages", []):
                yield message
            cursor = (page.get("response_metadata") or {}).get("next_cursor")
            if not page.get("has_more") or not cursor:
                return

    def needs_a_person(self, error: TransportError) -> bool:
        """Whether retrying waits on someone fixing the token or the app's scopes."""
        return any(error.code == f"slack_{name}" for name in _NEEDS_A_PERSON)
