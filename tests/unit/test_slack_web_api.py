"""The Web API as the transport uses it: errors mapped for the outbox, posts paced per channel."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest
from slack_sdk.web.async_client import AsyncWebClient

from crewline.errors import PermanentTransportError, RateLimited, TransientTransportError
from crewline.transports.slack.web_api import SlackWebApi, transport_error
from tests.fakes.slack import FakeSlack


class ManualClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def web_api(
    fake: FakeSlack, *, post_interval: float, api_url: str | None = None
) -> AsyncIterator[SlackWebApi]:
    async with aiohttp.ClientSession() as session:
        # No SDK retries: what reaches SlackWebApi is each call's first outcome.
        client = AsyncWebClient(
            token=fake.bot_token,
            base_url=api_url or fake.api_url,
            session=session,
            retry_handlers=[],
        )
        yield SlackWebApi(client, post_interval=post_interval)


def test_refusals_map_to_the_outbox_error_classes() -> None:
    """429 waits Retry-After; 5xx and a bad token are retried; a bad request is buried."""
    limited = transport_error("chat.postMessage", 429, "ratelimited", {"retry-after": "7"})
    assert isinstance(limited, RateLimited) and limited.retry_after == 7.0
    unnamed = transport_error("chat.update", 429, None, {})
    assert isinstance(unnamed, RateLimited) and unnamed.retry_after == 1.0
    assert isinstance(
        transport_error("chat.update", 503, "internal_error", {}), TransientTransportError
    )
    revoked = transport_error("chat.update", 200, "token_revoked", {})
    assert isinstance(revoked, TransientTransportError) and revoked.code == "slack_token_revoked"
    assert isinstance(
        transport_error("chat.update", 200, "invalid_blocks", {}), PermanentTransportError
    )


async def test_an_unpaced_second_post_is_rate_limited_with_slacks_retry_after() -> None:
    """The fake's 429 reaches the outbox as RateLimited carrying Retry-After."""
    clock = ManualClock()
    async with FakeSlack(post_interval_per_channel=1.5, clock=clock) as fake:
        dm = fake.dm_channel(fake.owner_user_id)
        async with web_api(fake, post_interval=0) as api:
            await api.post_message(dm, text="first")
            with pytest.raises(RateLimited) as limited:
                await api.post_message(dm, text="second")
    assert limited.value.retry_after == 2.0
    assert fake.rate_limited_count == 1


async def test_posts_into_one_channel_take_turns_and_never_draw_a_429() -> None:
    """Concurrent posts into one DM are spaced by the interval from the end of the last one."""
    async with FakeSlack(post_interval_per_channel=0.01) as fake:
        dm = fake.dm_channel(fake.owner_user_id)
        async with web_api(fake, post_interval=0.01) as api:
            await asyncio.gather(*[api.post_message(dm, text=f"m{n}") for n in range(12)])
    assert fake.rate_limited_count == 0
    assert sorted(m["text"] for m in fake.messages(dm)) == sorted(f"m{n}" for n in range(12))


async def test_server_errors_and_an_unreachable_slack_are_transient() -> None:
    """A 5xx and a refused connection are retried later, never lost."""
    async with FakeSlack() as fake:
        fake.fail_next("chat.postMessage", status=502)
        dm = fake.dm_channel(fake.owner_user_id)
        async with web_api(fake, post_interval=0) as api:
            with pytest.raises(TransientTransportError):
                await api.post_message(dm, text="x")
        with socket.socket() as closed:
            closed.bind(("127.0.0.1", 0))
            port = closed.getsockname()[1]
        async with web_api(fake, post_interval=0, api_url=f"http://127.0.0.1:{port}/api/") as api:
            with pytest.raises(TransientTransportError) as unreachable:
                await api.call("auth.test")
    assert unreachable.value.code == "slack_unreachable"


async def test_lookups_are_cached_and_a_missing_permalink_is_only_a_warning() -> None:
    """conversations.open is asked once per user; a permalink Slack refuses is None."""
    async with FakeSlack() as fake, web_api(fake, post_interval=0) as api:
        first = await api.dm_channel(fake.owner_user_id)
        again = await api.dm_channel(fake.owner_user_id)
        missing = await api.permalink(first, "1.000001")
    assert first == again == fake.dm_channel(fake.owner_user_id)
    assert len(fake.calls_to("conversations.open")) == 1
    assert missing is None
