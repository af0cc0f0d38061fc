"""Where a webhook may post: public addresses only, unless the operator allows networks.

A session chooses its webhook's URL, and crewline posts to it from inside the operator's
network, so an unchecked URL would let an agent make crewline reach what only crewline can
reach: the loopback interface, the private network, a cloud's metadata service (SSRF).
Every address a URL's host resolves to is checked when the webhook is registered, and again
before each delivery, which then connects to the very address it checked (the host kept in
the ``Host`` header and, for https, in TLS's server name): a name that resolved to a public
address at registration and to a private one later (DNS rebinding) is caught, and no second
lookup between the check and the connection can change the answer.

A URL is read once, strictly (:func:`parse_url`): printable ASCII only (an international
name in its ``xn--`` form), a host of well-formed labels, and an IPv4 address only in its
canonical dotted-decimal spelling. Octal, hexadecimal, shortened or zero-padded forms
(``0177.0.0.1``, ``0x7f.1``, ``127.1``, ``1.2.3.04``) are refused rather than guessed at, as
are fullwidth or circled characters that a resolver might fold into digits.

Allowed by default: globally routable unicast addresses (``ipaddress``'s ``is_global``).
Refused: loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16
with the metadata address 169.254.169.254, fe80::/10), shared (100.64/10), unspecified,
reserved, documentation and multicast addresses. An IPv6 address that carries an IPv4 one
is judged by the IPv4 address it reaches (:func:`embedded_ipv4`): IPv4-mapped and
IPv4-compatible addresses, NAT64 (``64:ff9b::/96`` and the local-use ``64:ff9b:1::/48``),
6to4 (``2002::/16``) and Teredo (``2001::/32``). The operator opens networks with
``[webhooks] allow_networks`` in crewline.toml (docs/agents/webhooks.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from crewline.errors import InvalidInput, Unavailable

__all__ = [
    "MAX_URL",
    "Address",
    "Network",
    "Pinned",
    "Target",
    "Targets",
    "address_refused",
    "embedded_ipv4",
    "parse_url",
    "reached",
    "resolve",
]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str], Awaitable[list[Address]]]

CODE = "webhook_address_not_allowed"
INVALID = "invalid_webhook_url"
RESOLVE_TIMEOUT = 5.0
MAX_URL = 2048
MAX_HOST = 253
_LABEL = re.compile(r"[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?")
# What a resolver (or a browser) would read as an IPv4 address: a last label of digits, or
# of hexadecimal after 0x. Only the canonical dotted quad is taken as one.
_NUMERIC = re.compile(r"[0-9]+|0x[0-9a-f]*")
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_CANONICAL_IPV4 = re.compile(rf"{_OCTET}(?:\.{_OCTET}){{3}}")


@dataclass(frozen=True, kw_only=True, slots=True)
class Target:
    """A webhook URL as crewline reads it: the parsed ``url``, its ``host`` (lower-case
    ASCII, an IPv6 address without brackets), the ``port`` it will connect to, and the
    ``address`` when the host is one."""

    url: httpx.URL
    host: str
    port: int
    address: Address | None


def _invalid(url: str, why: str) -> InvalidInput:
    return InvalidInput(f"url {url[:100]!r} {why}", code=INVALID, field="url")


def parse_url(url: str) -> Target:
    """``url`` read strictly, or InvalidInput ``invalid_webhook_url`` saying what is wrong."""
    if len(url) > MAX_URL:
        raise _invalid(url, f"is longer than {MAX_URL} characters")
    if not all(33 <= ord(c) < 127 for c in url):
        raise _invalid(
            url,
            "holds a character that is not printable ASCII (a space, a tab, a non-ASCII"
            " letter or digit): escape it, and write an international name in its xn-- form",
        )
    with contextlib.suppress(ValueError):  # httpx would only say "invalid": say why
        named = urlsplit(url).hostname
        if named and ":" not in named:
            _canonical_ipv4(url, named.removesuffix("."))
    try:
        parsed = httpx.URL(url)
        port = parsed.port
        host = parsed.host
    except (httpx.InvalidURL, ValueError, UnicodeError):
        raise _invalid(url, "is not a URL") from None
    if parsed.scheme not in ("http", "https") or not host:
        raise _invalid(url, f"is not an http(s) URL with a host (at most {MAX_URL} characters)")
    if port is not None and not 1 <= port <= 65535:
        raise _invalid(url, f"has port {port}, outside 1..65535")
    host = host.lower()
    default = 443 if parsed.scheme == "https" else 80
    if ":" in host:  # an IPv6 literal; httpx has checked the brackets held an address
        if "%" in host:
            raise _invalid(url, "names an IPv6 zone, which a webhook cannot use")
        try:
            address: Address = ipaddress.IPv6Address(host)
        except ValueError:
            raise _invalid(url, "has a host that is not an IPv6 address") from None
        return Target(url=parsed, host=host, port=port or default, address=address)
    name = host.removesuffix(".")
    labels = name.split(".")
    if len(name) > MAX_HOST or not all(_LABEL.fullmatch(label) for label in labels):
        raise _invalid(
            url,
            "has a host that is not a name of dot-separated labels (letters, digits, dashes;"
            f" 1..63 characters each, {MAX_HOST} in all) nor an address",
        )
    ipv4 = _canonical_ipv4(url, name)
    return Target(url=parsed, host=name if ipv4 else host, port=port or default, address=ipv4)


def _canonical_ipv4(url: str, name: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address a host names, or None for a name; InvalidInput for a host that a
    resolver would read as an IPv4 address but is not spelled as the canonical dotted quad."""
    if not _NUMERIC.fullmatch(name.rpartition(".")[2]):
        return None
    if not _CANONICAL_IPV4.fullmatch(name):
        raise _invalid(
            url,
            "spells an IPv4 address in a non-canonical form (octal, hexadecimal, shortened or"
            " zero-padded): write four decimal numbers 0..255 without leading zeros, such as"
            " 93.184.216.34",
        )
    return ipaddress.IPv4Address(name)


async def resolve(host: str) -> list[Address]:
    """Every address ``host`` names now: itself if it is an address, else what the system's
    resolver answers (nothing when it cannot answer within a few seconds)."""
    with contextlib.suppress(ValueError):
        return [ipaddress.ip_address(host.strip("[]"))]
    try:
        async with asyncio.timeout(RESOLVE_TIMEOUT):
            found = await asyncio.get_running_loop().getaddrinfo(
                host, None, type=socket.SOCK_STREAM
            )
    except (OSError, TimeoutError, UnicodeError):
        return []
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    return list(dict.fromkeys(addresses))


def _bits(value: int, start: int, end: int) -> int:
    """Bits ``start``..``end`` (from the most significant, end excluded) of a 128-bit value."""
    return (value >> (128 - end)) & ((1 << (end - start)) - 1)


def _rfc6052(value: int, prefix: int) -> ipaddress.IPv4Address:
    """The IPv4 address inside an IPv4-embedded IPv6 address with a ``prefix``-bit NAT64
    prefix (RFC 6052 §2.2: bits 64..71 are skipped)."""
    if prefix == 96:
        return ipaddress.IPv4Address(_bits(value, 96, 128))
    if prefix == 64:
        return ipaddress.IPv4Address(_bits(value, 72, 104))
    before = 64 - prefix  # the bits of the IPv4 address before the skipped octet
    high = _bits(value, prefix, 64)
    low = _bits(value, 72, 72 + 32 - before)
    return ipaddress.IPv4Address((high << (32 - before)) | low)


_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")
_COMPATIBLE = ipaddress.IPv6Network("::/96")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")
_SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")
_TEREDO = ipaddress.IPv6Network("2001::/32")


def embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[str, tuple[ipaddress.IPv4Address, ...]]:
    """The IPv4 addresses an IPv6 address leads to, with the name of the form that carries
    them; ``("", ())`` when it carries none.

    A local-use NAT64 prefix may be 48, 56, 64 or 96 bits long, which the address does not
    say, so each reading is returned; Teredo carries its server and its client."""
    value = int(address)
    if address in _MAPPED:
        return "IPv4-mapped", (ipaddress.IPv4Address(value & 0xFFFFFFFF),)
    if address in _TRANSLATED:
        return "IPv4-translated", (ipaddress.IPv4Address(value & 0xFFFFFFFF),)
    if address in _COMPATIBLE and value > 1:  # :: and ::1 are themselves
        return "IPv4-compatible", (ipaddress.IPv4Address(value),)
    if address in _NAT64:
        return "NAT64", (_rfc6052(value, 96),)
    if address in _NAT64_LOCAL:
        return "local NAT64", tuple(dict.fromkeys(_rfc6052(value, p) for p in (96, 64, 56, 48)))
    if address in _SIX_TO_FOUR:
        return "6to4", (ipaddress.IPv4Address(_bits(value, 16, 48)),)
    if address in _TEREDO:
        server = ipaddress.IPv4Address(_bits(value, 32, 64))
        client = ipaddress.IPv4Address(_bits(value, 96, 128) ^ 0xFFFFFFFF)
        return "Teredo", (server, client)
    return "", ()


def _kind(address: Address) -> str | None:
    """Why crewline does not post to ``address`` by default, or None for a public one."""
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link-local (cloud metadata lives here)"
    if address.is_unspecified:
        return "unspecified"
    if address.is_multicast:
        return "multicast"
    if address.is_global:
        return None
    if address.is_private:
        return "private"
    return "not publicly routable"


def _allowed(address: Address, allow: Sequence[Network]) -> bool:
    return any(address.version == net.version and address in net for net in allow)


def address_refused(address: Address, allow: Sequence[Network] = ()) -> str | None:
    """None when a webhook may post to ``address``; else what kind of address it is, or
    reaches (an IPv6 address carrying an IPv4 one is judged by the IPv4 one)."""
    if _allowed(address, allow):
        return None
    if isinstance(address, ipaddress.IPv6Address):
        form, inside = embedded_ipv4(address)
        for ipv4 in inside:
            kind = None if _allowed(ipv4, allow) else _kind(ipv4)
            if kind is not None:
                return f"{kind}: {ipv4} through {form}"
        if inside:
            return None
    return _kind(address)


def reached(address: Address) -> tuple[Address, ...]:
    """The addresses a connection to ``address`` may reach: itself and what it carries."""
    if isinstance(address, ipaddress.IPv6Address):
        return (address, *embedded_ipv4(address)[1])
    return (address,)


@dataclass(frozen=True, kw_only=True, slots=True)
class Pinned:
    """A delivery's request, bound to an address that was checked: post to ``url``, with
    these ``headers`` and ``extensions`` (the original host for Host and TLS)."""

    url: str
    address: Address
    headers: dict[str, str]
    extensions: dict[str, str]


@dataclass(frozen=True, kw_only=True, slots=True)
class Targets:
    """The operator's allowance (``allow``) and the resolver (the system's, or a test's)."""

    allow: tuple[Network, ...] = ()
    resolver: Resolver = field(default=resolve)

    async def addresses(self, target: Target) -> list[Address]:
        """What the target's host names now (itself, for an address)."""
        if target.address is not None:
            return [target.address]
        return await self.resolver(target.host)

    async def check(self, url: str, addresses: Sequence[Address] | None = None) -> None:
        """At registration: refuse a URL that cannot be read, or any of whose addresses is
        not allowed. A host that does not resolve now is accepted; each delivery checks
        again."""
        target = parse_url(url)
        for address in addresses if addresses is not None else await self.addresses(target):
            kind = address_refused(address, self.allow)
            if kind is not None:
                raise refused(url, address, kind)

    async def pin(self, url: str) -> list[Pinned]:
        """Before a delivery: resolve, check every address, and bind a request to each, in
        the resolver's order (the delivery tries the next when one cannot be connected to).
        Raises InvalidInput (``webhook_address_not_allowed``, ``invalid_webhook_url``) or
        Unavailable (unresolvable)."""
        target = parse_url(url)
        addresses = await self.addresses(target)
        if not addresses:
            raise Unavailable(f"{target.host} does not resolve now", code="webhook_unresolved")
        await self.check(url, addresses)
        parsed = target.url
        extensions = {"sni_hostname": target.host} if parsed.scheme == "https" else {}
        return [
            Pinned(
                url=str(parsed.copy_with(host=str(address))),
                address=address,
                headers={"Host": parsed.netloc.decode("ascii")},
                extensions=extensions,
            )
            for address in addresses
        ]


def refused(url: str, address: Address, kind: str) -> InvalidInput:
    return InvalidInput(
        f"url {url[:100]!r} leads to {address} ({kind}): crewline posts webhooks to"
        " public addresses only, unless its operator allows the network"
        " ([webhooks] allow_networks)",
        code=CODE,
        field="url",
    )
