"""Webhook URLs that lead inside crewline's network (SSRF): refused at registration, and
re-checked before each delivery against the address actually connected to, so a name that
later resolves to a private address (DNS rebinding) is not posted to; the operator opens
networks with ``[webhooks] allow_networks`` (tests/e2e/test_webhooks.py runs with loopback
allowed)."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import AsyncIterator, Callable

import pytest

from crewline.keys import hash_key
from crewline.push.targets import Address, Targets
from crewline.store import Webhook
from tests.driver import Crew
from tests.fakes.receiver import LOOPBACK, Receiver

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

WEBHOOK = "/api/session/webhook"
SECRET = "s3cret-for-the-tests-0123456789"
PUBLIC = ipaddress.ip_address("93.184.216.34")


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    async with Receiver(SECRET) as started:
        yield started


async def _eventually(condition: Callable[[], bool], *, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110 - the dispatcher's counters signal nothing
            await asyncio.sleep(0.01)


async def _send(crew: Crew, key: str, text: str) -> None:
    sent = await crew.call(
        key, "POST", "/api/session-control/send", json={"target": "radar", "message": text}
    )
    assert sent.status_code == 200, sent.text


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}/hook",
        "http://10.1.2.3/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:{port}/hook",
        "http://[::ffff:127.0.0.1]:{port}/hook",
        "http://localhost:{port}/hook",  # a name that resolves to loopback
    ],
)
async def test_by_default_a_url_inside_the_network_is_refused(
    crew: Crew, receiver: Receiver, url: str
) -> None:
    """400 webhook_address_not_allowed, naming the field, nothing registered."""
    assert crew.crewline.config.webhook_networks == ()
    radar = await crew.add_member()
    port = receiver.url.rsplit(":", 1)[1].split("/")[0]
    response = await crew.call(
        radar, "PUT", WEBHOOK, json={"url": url.format(port=port), "secret": SECRET}
    )
    error = response.json()["error"]
    assert (response.status_code, error["code"], error["field"]) == (
        400,
        "webhook_address_not_allowed",
        "url",
    )
    assert (await crew.call(radar, "GET", WEBHOOK)).status_code == 404
    assert await crew.crewline.store.webhooks() == []


async def test_a_stored_webhook_to_loopback_is_not_posted_to(
    crew: Crew, receiver: Receiver
) -> None:
    """A registration kept from before (or from an allowance since withdrawn) is checked at
    delivery: the attempt fails with the code, visibly, and no request leaves."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    session = await crew.crewline.store.session_by_key_hash(hash_key(radar))
    assert session is not None
    now = crew.crewline.hub.clock.now()
    hook = Webhook(
        session=session.id, url=receiver.url, secret=SECRET, delivered_through=0, created_at=now
    )
    await crew.crewline.store.write(lambda tx: tx.put_webhook(hook))
    crew.crewline.webhooks.retry_base = 60  # one attempt, then a long back-off
    await _send(crew, sender, "hello")
    await _eventually(lambda: crew.crewline.webhooks.failed >= 1)
    assert receiver.deliveries == []
    state = (await crew.call(radar, "GET", WEBHOOK)).json()
    assert state["last_error"].startswith("webhook_address_not_allowed")
    assert (state["attempts"], state["delivered_through"]) == (1, 0)


async def test_a_name_rebound_to_loopback_after_registration_is_not_posted_to(
    crew: Crew, receiver: Receiver
) -> None:
    """DNS rebinding: the name is public when registered and loopback when delivered to; the
    delivery checks the address it would connect to and refuses it."""
    answers: list[list[Address]] = [[PUBLIC]]
    port = receiver.url.rsplit(":", 1)[1].split("/")[0]

    async def dns(host: str) -> list[Address]:
        assert host == "rebind.example"
        return answers[-1]

    crew.crewline.webhooks.targets = Targets(resolver=dns)
    crew.crewline.webhooks.retry_base = 60
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    registered = await crew.call(
        radar,
        "PUT",
        WEBHOOK,
        json={"url": f"http://rebind.example:{port}/hook", "secret": SECRET},
    )
    assert registered.status_code == 200, registered.text
    answers.append([ipaddress.ip_address("127.0.0.1")])
    await _send(crew, sender, "hello")
    await _eventually(lambda: crew.crewline.webhooks.failed >= 1)
    assert receiver.deliveries == []
    state = (await crew.call(radar, "GET", WEBHOOK)).json()
    assert "127.0.0.1" in state["last_error"] and "loopback" in state["last_error"]


async def test_an_address_that_refuses_the_connection_falls_to_the_next(
    crew: Crew, receiver: Receiver
) -> None:
    """A name with two allowed addresses, the first with nothing listening: the delivery
    goes to the second at once, as a client trying each address would."""
    port = receiver.url.rsplit(":", 1)[1].split("/")[0]

    async def dns(host: str) -> list[Address]:
        return [ipaddress.ip_address("::1"), ipaddress.ip_address("127.0.0.1")]

    crew.crewline.webhooks.targets = Targets(allow=LOOPBACK, resolver=dns)
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    registered = await crew.call(
        radar, "PUT", WEBHOOK, json={"url": f"http://dual.example:{port}/hook", "secret": SECRET}
    )
    assert registered.status_code == 200, registered.text
    await _send(crew, sender, "hello")
    await receiver.wait_until(lambda: len(receiver.accepted) == 1)
    assert receiver.deliveries[0].headers["Host"] == f"dual.example:{port}"
    assert crew.crewline.webhooks.failed == 0


# Each was accepted (200 registered) or a 500 with a traceback before: the IPv6 forms that
# carry an internal IPv4 address, and URLs no one reads the same way twice.
HIDDEN = {
    "http://[64:ff9b::7f00:1]/h": "webhook_address_not_allowed",  # NAT64 of 127.0.0.1
    "http://[2002:7f00:1::]/h": "webhook_address_not_allowed",  # 6to4 of 127.0.0.1
    "http://[64:ff9b::a9fe:a9fe]/h": "webhook_address_not_allowed",  # the metadata address
    "http://[::7f00:1]/h": "webhook_address_not_allowed",  # IPv4-compatible
    "http://[2001:0:5db8:d822::80ff:fffe]/h": "webhook_address_not_allowed",  # Teredo
    "http://0177.0.0.1/h": "invalid_webhook_url",
    "http://00.0.0.0/h": "invalid_webhook_url",
    "http://1.2.3.04/h": "invalid_webhook_url",
    "http://[::1/h": "invalid_webhook_url",
    "http://a..b/h": "invalid_webhook_url",
    "http://\uff11\uff12\uff17.0.0.1/h": "invalid_webhook_url",  # fullwidth digits
    "http://\u2460.example/h": "invalid_webhook_url",  # a circled digit
    "http://" + "a" * 300 + ".example/h": "invalid_webhook_url",
    "http://[v1.x]/h": "invalid_webhook_url",
    "http://exa\tmple.com/h": "invalid_webhook_url",
}


async def test_hidden_internal_addresses_and_unreadable_urls_are_400s(crew: Crew) -> None:
    """Each of the attack's URLs: 400 with its code and the field, nothing registered."""
    radar = await crew.add_member()
    answers: dict[str, tuple[int, object, object]] = {}
    for url in HIDDEN:
        response = await crew.call(radar, "PUT", WEBHOOK, json={"url": url, "secret": SECRET})
        is_json = response.headers.get("content-type") == "application/json"
        body = response.json().get("error", {}) if is_json else {"code": response.text[:80]}
        answers[url] = (response.status_code, body.get("code"), body.get("field"))
    assert answers == {url: (400, code, "url") for url, code in HIDDEN.items()}
    assert await crew.crewline.store.webhooks() == []
