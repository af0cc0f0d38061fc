"""Where a webhook may post: public addresses only, unless the operator allows networks.

A session chooses its webhook's URL, and crewline posts to it from inside the operator's
network, so an unchecked URL would let an agent make crewline reach what only crewline can
reach: the loopback interface, the private network, a cloud's metadata service (SSRF).
Every address a URL's host resolves to is checked when the webhook is registered, and again
before each delivery, which then connects to the very address it checked (the host kept in
the ``Host`` header and, for https, in TLS's server name): a name that resolved to a public
address at registration and to a private one later (DNS rebinding) is caught, and no second
lookup between the check and the connection can change the answer.

Allowed by default: globally routable unicast addresses (``ipaddress``'s ``is_global``).
Refused: loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16
with the metadata address 169.254.169.254, fe80::/10), shared (100.64/10), unspecified,
reserved, documentation and multicast addresses, and an IPv4 address mapped into IPv6 is
judged as the IPv4 one. The operator opens networks with ``[webhooks] allow_networks`` in
crewline.toml (docs/agents/webhooks.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import httpx

from crewline.errors import InvalidInput, Unavailable

__all__ = [
    "Address",
    "Network",
    "Pinned",
    "Targets",
    "address_refused",
    "resolve",
]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str], Awaitable[list[Address]]]

CODE = "webhook_address_not_allowed"
RESOLVE_TIMEOUT = 5.0


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
    except (OSError, TimeoutError):
        return []
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    return list(dict.fromkeys(addresses))


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


def address_refused(address: Address, allow: Sequence[Network] = ()) -> str | None:
    """None when a webhook may post to ``address``; else what kind of address it is."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address.version == net.version and address in net for net in allow):
        return None
    return _kind(address)


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

    async def check(self, url: str, addresses: Sequence[Address] | None = None) -> None:
        """At registration: refuse a URL any of whose addresses is not allowed. A host that
        does not resolve now is accepted; each delivery checks again."""
        host = httpx.URL(url).raw_host.decode("ascii")
        for address in addresses if addresses is not None else await self.resolver(host):
            kind = address_refused(address, self.allow)
            if kind is not None:
                raise refused(url, address, kind)

    async def pin(self, url: str) -> list[Pinned]:
        """Before a delivery: resolve, check every address, and bind a request to each, in
        the resolver's order (the delivery tries the next when one cannot be connected to).
        Raises InvalidInput (``webhook_address_not_allowed``) or Unavailable (unresolvable)."""
        parsed = httpx.URL(url)
        host = parsed.raw_host.decode("ascii")
        addresses = await self.resolver(host)
        if not addresses:
            raise Unavailable(f"{host} does not resolve now", code="webhook_unresolved")
        await self.check(url, addresses)
        extensions = {"sni_hostname": host} if parsed.scheme == "https" else {}
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
        f"url {url[:100]!r} leads to {address}, a {kind} address: crewline posts webhooks to"
        " public addresses only, unless its operator allows the network"
        " ([webhooks] allow_networks)",
        code=CODE,
        field="url",
    )
