"""Push delivery: a session's events POSTed, signed, in cursor order, at least once, retried
with back-off, one session's slow receiver never holding up another's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

import pytest

from crewline.config import Config
from tests.bounds import WAIT
from tests.driver import Crew
from tests.fakes.receiver import LOOPBACK, Receiver
from tests.fakes.relay import KeepAliveRelay

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

WEBHOOK = "/api/session/webhook"
SECRET = "s3cret-for-the-tests-0123456789"


@pytest.fixture
def config(config: Config) -> Config:
    """The receivers run on loopback: this crewline's operator allows it."""
    return replace(config, webhook_networks=LOOPBACK)


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    async with Receiver(SECRET) as started:
        yield started


async def _eventually(condition: Callable[[], bool], *, timeout: float = 10) -> None:
    """Poll (bounded) for a condition crewline exposes no event for."""
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110 - the dispatcher's counters signal nothing
            await asyncio.sleep(0.01)


async def _register(crew: Crew, key: str, url: str, **extra: Any) -> dict[str, Any]:
    response = await crew.call(key, "PUT", WEBHOOK, json={"url": url, "secret": SECRET, **extra})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def _send(crew: Crew, key: str, text: str, target: str = "radar") -> None:
    response = await crew.call(
        key, "POST", "/api/session-control/send", json={"target": target, "message": text}
    )
    assert response.status_code == 200, response.text


async def test_each_event_is_posted_signed_in_cursor_order(crew: Crew, receiver: Receiver) -> None:
    """Five events: five signed POSTs in cursor order, the body the pull API's event with
    its cursor; the pull stream still has them all."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    registered = await _register(crew, radar, receiver.url)
    assert (registered["url"], registered["delivered_through"]) == (receiver.url, 0)
    assert "secret" not in registered
    for n in range(5):
        await _send(crew, sender, f"m{n}")
    await receiver.wait_until(lambda: len(receiver.accepted) == 5)
    pulled = await crew.events(radar)
    assert receiver.accepted == [e["cursor"] for e in pulled]
    assert all(d.verified for d in receiver.deliveries)
    first = receiver.deliveries[0]
    assert first.body["body"] == pulled[0]["body"]
    assert (first.kind, first.headers["X-Crewline-Cursor"]) == ("message", str(pulled[0]["cursor"]))
    await _eventually(lambda: crew.crewline.webhooks.delivered == 5)  # recorded, too
    state = (await crew.call(radar, "GET", WEBHOOK)).json()
    assert (state["delivered_through"], state["attempts"]) == (pulled[-1]["cursor"], 0)


async def test_a_receiver_answering_5xx_is_retried_until_it_accepts(
    crew: Crew, receiver: Receiver
) -> None:
    """The first event fails twice: it is retried, and nothing after it overtakes it."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    await _register(crew, radar, receiver.url)
    receiver.hold.clear()
    await _send(crew, sender, "first")
    await receiver.wait_until(lambda: receiver.inflight == 1)
    cursor = (await crew.events(radar))[0]["cursor"]
    receiver.failures[cursor] = 2
    await _send(crew, sender, "second")
    receiver.hold.set()
    await receiver.wait_until(lambda: len(receiver.accepted) == 2)
    assert receiver.tries(cursor) == 3
    assert receiver.accepted == [e["cursor"] for e in await crew.events(radar)]
    assert [d.status for d in receiver.deliveries] == [503, 503, 200, 200]


async def test_failures_are_visible_on_the_webhook(crew: Crew, receiver: Receiver) -> None:
    """While a receiver fails, GET says how many attempts and what went wrong."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    await _register(crew, radar, receiver.url)
    crew.crewline.webhooks.retry_base = 60  # keep it failing while the test looks
    receiver.hold.clear()
    await _send(crew, sender, "x")
    await receiver.wait_until(lambda: receiver.inflight == 1)
    receiver.failures[(await crew.events(radar))[0]["cursor"]] = 1
    receiver.hold.set()
    await _eventually(lambda: crew.crewline.webhooks.failed == 1)
    state = (await crew.call(radar, "GET", WEBHOOK)).json()
    assert state["attempts"] == 1
    assert state["last_error"] == "the receiver answered HTTP 503"
    assert state["next_attempt_at"] is not None


async def test_a_slow_receiver_does_not_delay_another_sessions_deliveries(
    crew: Crew, receiver: Receiver
) -> None:
    """Radar's receiver holds its request open; Scout's events are delivered meanwhile."""
    radar = await crew.add_member()
    scout = await crew.add_member("scout", "Scout")
    sender = await crew.add_session("plain")
    async with Receiver(SECRET) as other:
        await _register(crew, radar, receiver.url)
        await _register(crew, scout, other.url)
        receiver.hold.clear()
        await _send(crew, sender, "for radar")
        await receiver.wait_until(lambda: receiver.inflight == 1)
        await _send(crew, sender, "for scout", target="scout")
        await other.wait_until(lambda: len(other.accepted) == 1)
        assert receiver.inflight == 1 and receiver.accepted == []  # radar's is still held
        receiver.hold.set()
        await receiver.wait_until(lambda: len(receiver.accepted) == 1)


async def test_a_receiver_that_times_out_is_retried(crew: Crew, receiver: Receiver) -> None:
    """A request held past the timeout counts as failed, and the event is sent again."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    await _register(crew, radar, receiver.url)
    crew.crewline.webhooks.timeout = 0.2
    crew.crewline.webhooks.retry_base = 0.01
    receiver.hold.clear()
    await _send(crew, sender, "slowly")
    await receiver.wait_until(lambda: receiver.inflight >= 1)
    await _eventually(lambda: crew.crewline.webhooks.failed >= 1)  # it timed out
    assert receiver.accepted == []
    receiver.hold.set()
    await receiver.wait_until(lambda: len(receiver.accepted) == 1)


async def test_deliveries_resume_after_a_restart(crew: Crew, receiver: Receiver) -> None:
    """Events committed while crewline was down are delivered after it comes back."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    await _register(crew, radar, receiver.url)
    await _send(crew, sender, "before")
    await receiver.wait_until(lambda: len(receiver.accepted) == 1)
    receiver.hold.clear()
    await _send(crew, sender, "pending")
    await receiver.wait_until(lambda: receiver.inflight == 1)
    await crew.restart()
    receiver.hold.set()
    await _send(crew, sender, "after")
    await receiver.wait_until(lambda: len(receiver.accepted) == 3)
    assert receiver.accepted == [e["cursor"] for e in await crew.events(radar)]


async def test_registering_again_keeps_the_cursor_unless_told(
    crew: Crew, receiver: Receiver
) -> None:
    """A new URL or secret continues where delivery stopped; ``after`` replays from there."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    await _register(crew, radar, receiver.url)
    await _send(crew, sender, "one")
    await receiver.wait_until(lambda: len(receiver.accepted) == 1)
    await _eventually(lambda: crew.crewline.webhooks.delivered == 1)  # recorded, too
    again = await _register(crew, radar, receiver.url)
    assert again["delivered_through"] == receiver.accepted[0]
    await _register(crew, radar, receiver.url, after=0)
    await receiver.wait_until(lambda: receiver.tries(receiver.accepted[0]) == 2)


async def test_deleting_the_webhook_stops_deliveries(crew: Crew, receiver: Receiver) -> None:
    """DELETE: no webhook any more (GET 404 no_webhook); events stay on the pull stream."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    await _register(crew, radar, receiver.url)
    assert (await crew.call(radar, "DELETE", WEBHOOK)).json() == {"deleted": True}
    missing = await crew.call(radar, "GET", WEBHOOK)
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "no_webhook")
    await _send(crew, sender, "unpushed")
    assert len(await crew.events(radar)) == 1
    assert (await crew.call(radar, "DELETE", WEBHOOK)).status_code == 404
    assert receiver.deliveries == []
    audited = await crew.crewline.store.sel(action_prefix="webhook:")
    assert [(r.action, r.details.get("host")) for r in audited] == [
        ("webhook:set", "127.0.0.1"),
        ("webhook:delete", None),
    ]
    assert SECRET not in str([r.details for r in audited])


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"url": "ftp://example.org/hook"}, "invalid_webhook_url"),
        ({"url": "not a url"}, "invalid_webhook_url"),
        ({"url": "http:///no-host"}, "invalid_webhook_url"),
        ({"url": "http://example.org:99999/"}, "invalid_webhook_url"),
        ({"url": "{crewline}/api/session/events"}, "webhook_url_is_crewline"),
        ({"url": "http://localhost:{port}/x"}, "webhook_url_is_crewline"),
        ({"url": "http://[::1]:{port}/x"}, "webhook_url_is_crewline"),
        ({"secret": "short"}, "invalid_webhook_secret"),
        ({"after": 5}, "invalid_cursor"),
        ({"events": ["all"]}, "unknown_field"),
    ],
)
async def test_a_bad_registration_is_refused_and_nothing_written(
    crew: Crew, receiver: Receiver, body: dict[str, Any], code: str
) -> None:
    """Not http(s), crewline itself, a short secret, a future cursor, an unknown field."""
    radar = await crew.add_member()
    port = crew.url.rsplit(":", 1)[1]
    sent = {"url": receiver.url, "secret": SECRET, **body}
    sent["url"] = sent["url"].format(crewline=crew.url, port=port)
    response = await crew.call(radar, "PUT", WEBHOOK, json=sent)
    assert (response.status_code, response.json()["error"]["code"]) == (400, code)
    assert (await crew.call(radar, "GET", WEBHOOK)).status_code == 404


async def test_a_delivery_cut_off_as_its_connection_is_reused_is_sent_again_at_once(
    crew: Crew, receiver: Receiver
) -> None:
    """A receiver's server closing its idle connection just as the next delivery goes out
    (reset, the POST unread) costs no failed attempt: a delivery is safe to repeat (the
    receiver dedupes by cursor), so it is sent once more at once, on a new connection."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    crew.crewline.webhooks.retry_base = 3600  # a failed attempt would wait an hour
    async with KeepAliveRelay(receiver.url) as relay:
        await _register(crew, radar, f"{relay.url}/hook")
        await _send(crew, sender, "m0")
        await _eventually(lambda: crew.crewline.webhooks.delivered == 1, timeout=WAIT)
        relay.close_next_reuse(reached=False)
        # The next delivery that reuses a connection is cut off: on a loaded machine one
        # may come after the pusher let its idle connection go, and open a new one.
        for n in range(1, 20):
            await _send(crew, sender, f"m{n}")
            await _eventually(lambda n=n: crew.crewline.webhooks.delivered == n + 1, timeout=WAIT)
            if relay.closed_at_reuse:
                break
    assert relay.closed_at_reuse == ["unread"]  # the precondition: a delivery was cut off
    assert receiver.accepted == [e["cursor"] for e in await crew.events(radar)]
    assert crew.crewline.webhooks.failed == 0
