"""crewline.client on a kept-alive connection the server closes just as the client reuses
it (a keep-alive timeout firing as the request goes out, driven by a relay on demand): a
request that is safe to repeat — a read, or a write with an idempotency key — is sent again
once on a new connection; any other write raises, since crewline may have done it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from crewline.client import Client
from crewline.errors import Unavailable
from tests.bounds import WAIT
from tests.driver import Crew
from tests.fakes.relay import KeepAliveRelay

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


@pytest.fixture
async def relay(crew: Crew) -> AsyncIterator[KeepAliveRelay]:
    async with KeepAliveRelay(crew.url) as relay:
        yield relay


def _client(key: str, relay: KeepAliveRelay) -> Client:
    """A client through the relay whose connections stay pooled as long as a test may take,
    so its second call reuses its first's connection however loaded the machine is."""
    pooled = httpx.AsyncHTTPTransport(limits=httpx.Limits(keepalive_expiry=WAIT))
    return Client(key, url=relay.url, transport=pooled)


async def test_a_read_on_a_connection_closed_as_it_is_reused_is_sent_again(
    crew: Crew, relay: KeepAliveRelay
) -> None:
    """whoami (a GET) on a connection reset as its request arrives answers, sent again on a
    new connection; it raised Unavailable (ReadError) after an idle pause."""
    key = await crew.add_member()
    async with _client(key, relay) as client:
        first = await client.whoami()
        relay.close_next_reuse(reached=False)
        again = await client.whoami()
    assert relay.closed_at_reuse == ["unread"]  # the precondition: the reuse was cut off
    assert again == first
    assert (relay.connections, relay.requests) == (2, 2)


async def test_a_keyed_write_whose_answer_was_lost_is_sent_again_and_done_once(
    crew: Crew, relay: KeepAliveRelay
) -> None:
    """An escalation with an idempotency key, done by crewline but its connection closed
    before any of the answer, is sent again and answered; crewline keeps one record."""
    key = await crew.add_member()
    async with _client(key, relay) as client:
        await client.whoami()
        relay.close_next_reuse(reached=True)
        escalated = await client.escalate("Ship?", idempotency_key="ship-1")
    assert relay.closed_at_reuse == ["answer_lost"]
    assert relay.requests == 3  # whoami, the escalation crewline did, and the one sent again
    escalations = (await crew.conversation())["escalations"]
    assert [e["escalation_id"] for e in escalations] == [escalated.escalation_id]


@pytest.mark.parametrize(
    ("reached", "cause", "written"),
    [(False, "ReadError", 0), (True, "RemoteProtocolError", 1)],
    ids=["unread", "answer_lost"],
)
async def test_a_write_without_a_key_is_never_sent_again(
    crew: Crew, relay: KeepAliveRelay, reached: bool, cause: str, written: int
) -> None:
    """An escalation without a key on a connection closed as it is reused raises
    Unavailable and is not sent again: crewline may have done it, and the client cannot
    tell (here it did when ``reached``), so a second one could be a second escalation."""
    key = await crew.add_member()
    async with _client(key, relay) as client:
        await client.whoami()
        relay.close_next_reuse(reached=reached)
        with pytest.raises(Unavailable) as failed:
            await client.escalate("Ship?")
    assert relay.closed_at_reuse == ["answer_lost" if reached else "unread"]
    assert (failed.value.code, failed.value.details["cause"]) == ("unreachable", cause)
    assert relay.connections == 1  # nothing was sent again
    assert len((await crew.conversation())["escalations"]) == written
