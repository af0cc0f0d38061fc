"""Which addresses a webhook may reach, and a delivery bound to the address it checked."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from crewline.config import load_config
from crewline.errors import ConfigError, InvalidInput, Unavailable
from crewline.push.targets import Address, Targets, address_refused, parse_url

ip = ipaddress.ip_address


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback: 127.0.0.1 through IPv4-mapped"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("fd00::1", "private"),
        ("169.254.169.254", "link-local (cloud metadata lives here)"),
        ("fe80::1", "link-local (cloud metadata lives here)"),
        ("100.64.0.1", "not publicly routable"),
        ("0.0.0.0", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("93.184.216.34", None),
        ("2001:4860:4860::8888", None),
    ],
)
def test_only_public_addresses_are_allowed_by_default(address: str, kind: str | None) -> None:
    assert address_refused(ip(address)) == kind


def test_the_operators_networks_are_allowed() -> None:
    allow = (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("::1/128"))
    assert address_refused(ip("10.9.9.9"), allow) is None
    assert address_refused(ip("::1"), allow) is None
    assert address_refused(ip("127.0.0.1"), allow) == "loopback"
    assert address_refused(ip("192.168.0.1"), allow) == "private"


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("64:ff9b::7f00:1", "loopback: 127.0.0.1 through NAT64"),
        (
            "64:ff9b::a9fe:a9fe",
            "link-local (cloud metadata lives here): 169.254.169.254 through NAT64",
        ),
        ("64:ff9b::a00:1", "private: 10.0.0.1 through NAT64"),
        # a local prefix's length is the operator's: every reading must be public (here the
        # /48 one is 127.0.0.1, the /96 one 0.0.0.0)
        ("64:ff9b:1:7f00:0:100::", "unspecified: 0.0.0.0 through local NAT64"),
        ("64:ff9b:1::7f00:1", "loopback: 127.0.0.1 through local NAT64"),
        ("2002:7f00:1::", "loopback: 127.0.0.1 through 6to4"),
        (
            "2002:a9fe:a9fe::1",
            "link-local (cloud metadata lives here): 169.254.169.254 through 6to4",
        ),
        ("::7f00:1", "loopback: 127.0.0.1 through IPv4-compatible"),
        (
            "::a9fe:a9fe",
            "link-local (cloud metadata lives here): 169.254.169.254 through IPv4-compatible",
        ),
        ("::ffff:0:7f00:1", "loopback: 127.0.0.1 through IPv4-translated"),
        (
            "::ffff:a9fe:a9fe",
            "link-local (cloud metadata lives here): 169.254.169.254 through IPv4-mapped",
        ),
        # Teredo: a public server, the client 127.0.0.1 (stored with its bits inverted)
        ("2001:0:5db8:d822::80ff:fffe", "loopback: 127.0.0.1 through Teredo"),
        ("2001:0:a00:1::a247:27dd", "private: 10.0.0.1 through Teredo"),
        # public IPv4 inside: judged by it, so allowed
        ("64:ff9b::5db8:d822", None),
        ("2002:5db8:d822::1", None),
        ("2001:0:5db8:d822::a247:27dd", None),
    ],
)
def test_an_ipv6_address_carrying_an_ipv4_one_is_judged_by_the_ipv4_one(
    address: str, kind: str | None
) -> None:
    """NAT64, 6to4, Teredo, IPv4-compatible, -translated and -mapped: the address reached."""
    assert address_refused(ip(address)) == kind


def test_the_operators_ipv4_networks_cover_the_ipv6_forms_that_reach_them() -> None:
    allow = (ipaddress.ip_network("10.0.0.0/8"),)
    assert address_refused(ip("64:ff9b::a00:1"), allow) is None
    assert address_refused(ip("2002:a00:1::"), allow) is None
    assert address_refused(ip("64:ff9b::7f00:1"), allow) == "loopback: 127.0.0.1 through NAT64"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://0177.0.0.1/h", "non-canonical"),
        ("http://00.0.0.0/h", "non-canonical"),
        ("http://1.2.3.04/h", "non-canonical"),
        ("http://127.1/h", "non-canonical"),
        ("http://0x7f.0.0.1/h", "non-canonical"),
        ("http://0X7F000001/h", "non-canonical"),
        ("http://2130706433/h", "non-canonical"),
        ("http://a.b.c.123/h", "non-canonical"),
        ("http://[::1/h", "is not a URL"),
        ("http://[v1.x]/h", "is not a URL"),
        ("http://[fe80::1%25eth0]/h", "zone"),
        ("http://a..b/h", "labels"),
        ("http://" + "a" * 300 + ".example/h", "labels"),
        ("http://" + "a.b" * 90 + ".example/h", "labels"),
        ("http://-a.example/h", "labels"),
        ("http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/h", "printable ASCII"),
        ("http://\u2460\u2461\u2466.0.0.1/h", "printable ASCII"),
        ("http://\u24d4\u24e7\u24d0\u24dc\u24df\u24db\u24d4.com/h", "printable ASCII"),
        ("http://exa\tmple.com/h", "printable ASCII"),
        ("http://example.com/a b", "printable ASCII"),
        ("http://example.com:0/h", "outside 1..65535"),
        ("http://example.com:99999/h", "outside 1..65535"),
        ("http:///h", "with a host"),
        ("ftp://example.com/h", "with a host"),
        ("http://example.com/" + "a" * 2048, "longer than"),
    ],
)
def test_a_url_crewline_cannot_read_exactly_is_refused_as_invalid(url: str, why: str) -> None:
    """One strict reading: each of these was a 500 or a guess; now invalid_webhook_url."""
    with pytest.raises(InvalidInput) as refused:
        parse_url(url)
    assert (refused.value.code, refused.value.details["field"]) == ("invalid_webhook_url", "url")
    assert why in refused.value.message


def test_a_canonical_address_or_a_name_is_read_as_written() -> None:
    """The precondition of the refusals above: ordinary URLs are read, with their port."""
    assert parse_url("http://93.184.216.34:8080/x").address == ip("93.184.216.34")
    assert parse_url("https://hooks.example/in").port == 443
    assert parse_url("http://[64:ff9b::7f00:1]/h").address == ip("64:ff9b::7f00:1")
    named = parse_url("http://Hooks.Example./in")
    assert (named.host, named.port, named.address) == ("hooks.example.", 80, None)


def _dns(*answers: list[str]) -> tuple[Targets, list[str]]:
    """A resolver answering each lookup with the next list (the last one repeats)."""
    asked: list[str] = []
    queue = [[ip(a) for a in answer] for answer in answers]

    async def resolve(host: str) -> list[Address]:
        asked.append(host)
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return Targets(resolver=resolve), asked


async def test_a_delivery_connects_to_the_address_it_checked() -> None:
    """The URL is bound to the checked address; Host and TLS keep the name."""
    targets, asked = _dns(["93.184.216.34", "2001:db8::1"], ["93.184.216.34"])
    with pytest.raises(InvalidInput):  # 2001:db8::/32 is for documentation, not routable
        await targets.pin("https://hooks.example:8443/in?x=1")
    [pinned] = await targets.pin("https://hooks.example:8443/in?x=1")
    assert pinned.url == "https://93.184.216.34:8443/in?x=1"
    assert pinned.headers == {"Host": "hooks.example:8443"}
    assert pinned.extensions == {"sni_hostname": "hooks.example"}
    assert asked == ["hooks.example", "hooks.example"]
    [plain] = await targets.pin("http://hooks.example/in")
    assert (plain.headers, plain.extensions) == ({"Host": "hooks.example"}, {})


async def test_each_public_address_of_a_name_is_a_candidate_in_order() -> None:
    targets, _ = _dns(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
    candidates = await targets.pin("http://hooks.example/in")
    assert [c.url for c in candidates] == [
        "http://93.184.216.34/in",
        "http://[2606:2800:220:1:248:1893:25c8:1946]/in",
    ]


async def test_a_name_rebound_to_a_private_address_is_refused_at_delivery() -> None:
    targets, _ = _dns(["93.184.216.34"], ["10.0.0.5"])
    await targets.check("http://rebind.example/")  # registration: public
    with pytest.raises(InvalidInput) as refused:
        await targets.pin("http://rebind.example/")  # delivery: private now
    assert refused.value.code == "webhook_address_not_allowed"
    assert "10.0.0.5" in refused.value.message


async def test_one_private_address_among_public_ones_refuses_the_name() -> None:
    targets, _ = _dns(["93.184.216.34", "127.0.0.1"])
    with pytest.raises(InvalidInput):
        await targets.pin("http://mixed.example/")


async def test_a_name_that_does_not_resolve_is_a_retryable_failure() -> None:
    targets, _ = _dns([])
    await targets.check("http://nowhere.example/")  # accepted: checked again at delivery
    with pytest.raises(Unavailable) as failed:
        await targets.pin("http://nowhere.example/")
    assert failed.value.code == "webhook_unresolved"


def test_allow_networks_from_the_file_and_the_environment(tmp_path: Path) -> None:
    data = tmp_path
    (data / "crewline.toml").write_text('[webhooks]\nallow_networks = ["10.0.0.0/8", "::1"]\n')
    assert load_config(data, env={}).webhook_networks == (
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("::1/128"),
    )
    env = {"CREWLINE_WEBHOOK_ALLOW_NETWORKS": "127.0.0.0/8"}
    assert load_config(data, env=env).webhook_networks == (ipaddress.ip_network("127.0.0.0/8"),)
    (data / "crewline.toml").write_text('[webhooks]\nallow_networks = ["10.0.0.0/33"]\n')
    with pytest.raises(ConfigError) as bad:
        load_config(data, env={})
    assert bad.value.details["key"] == "webhooks.allow_networks"
    (data / "crewline.toml").write_text("[webhooks]\nallow_private = true\n")
    with pytest.raises(ConfigError):
        load_config(data, env={})
