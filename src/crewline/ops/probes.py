"""Asking each configured platform whether crewline's credentials work, and how fast it
answers: ``crewline doctor``'s look at the real world.

One read-only call per question, at each transport's configured API base URL (so a proxy, a
self-hosted Bot API server or a test's loopback fake is asked exactly like the platform):
Slack ``auth.test``; Telegram ``getMe``; Discord the application (``/applications/@me``) and
the crew channel. Secrets never appear in what is said: an error naming a URL that holds a
token is reported without it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from crewline.config import Config
from crewline.errors import ConfigError

__all__ = ["PROBE_TIMEOUT", "Finding", "probe_transport"]

PROBE_TIMEOUT = 10.0  # seconds per platform call
# Discord application flags: the message content intent, granted or (unverified apps) limited.
_MESSAGE_CONTENT = (1 << 18) | (1 << 19)


@dataclass(frozen=True, kw_only=True, slots=True)
class Finding:
    """One check's result: ``status`` is ok, warn (works, but look) or fail."""

    check: str
    status: str
    detail: str
    facts: Mapping[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.status == "fail"


class _Refused(Exception):
    """The platform answered, and the answer is no (a bad token, an unknown channel)."""


async def probe_transport(name: str, config: Config, client: httpx.AsyncClient) -> list[Finding]:
    """What ``name``'s platform says about crewline's credentials; the local inbox and the
    memory transport have no platform to ask."""
    check = f"transport:{name}"
    probe = _PROBES.get(name)
    if probe is None:
        return [Finding(check=check, status="ok", detail=f"{name}: runs inside crewline")]
    try:
        return await probe(config, client, os.environ)
    except ConfigError as error:
        return [Finding(check=check, status="fail", detail=f"{name}: {error.message}")]


async def _call(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    secret: str,
    headers: Mapping[str, str],
    data: Mapping[str, str] | None = None,
) -> tuple[Any, float, int]:
    """(the JSON body, milliseconds, status); raises _Refused when unreachable or not JSON."""
    started = time.perf_counter()
    try:
        response = await client.request(method, url, headers=headers, data=data)
    except httpx.HTTPError as error:
        what = str(error).replace(secret, "…") or type(error).__name__
        raise _Refused(f"unreachable at {_shown(url, secret)}: {what}") from None
    elapsed = (time.perf_counter() - started) * 1000
    try:
        body = response.json()
    except ValueError:
        raise _Refused(
            f"{_shown(url, secret)} answered HTTP {response.status_code} without JSON"
        ) from None
    return body, elapsed, response.status_code


def _shown(url: str, secret: str) -> str:
    return url.replace(secret, "<token>")


async def _slack(
    config: Config, client: httpx.AsyncClient, env: Mapping[str, str]
) -> list[Finding]:
    from crewline.transports.slack.settings import settings_from

    settings = settings_from(config.section("slack"), env)
    url = f"{settings.api_url}auth.test"
    try:
        body, ms, _ = await _call(
            client,
            "POST",
            url,
            secret=settings.bot_token,
            headers={"Authorization": f"Bearer {settings.bot_token}"},
        )
    except _Refused as refused:
        return [_fail("slack", f"slack {refused}")]
    if not body.get("ok"):
        return [
            _fail(
                "slack",
                f"slack refused the bot token: {body.get('error', 'unknown error')} (auth.test)",
                latency_ms=round(ms),
            )
        ]
    return [
        Finding(
            check="transport:slack",
            status="ok",
            detail=f"slack: bot {body.get('user')} in workspace {body.get('team')}"
            f" (auth.test, {ms:.0f} ms)",
            facts={"latency_ms": round(ms), "team": body.get("team"), "user": body.get("user")},
        )
    ]


async def _telegram(
    config: Config, client: httpx.AsyncClient, env: Mapping[str, str]
) -> list[Finding]:
    from crewline.transports.telegram.settings import settings_from

    settings = settings_from(config.section("telegram"), env)
    url = f"{settings.api_url}{settings.bot_token}/getMe"
    try:
        body, ms, status = await _call(client, "GET", url, secret=settings.bot_token, headers={})
    except _Refused as refused:
        return [_fail("telegram", f"telegram {refused}")]
    if not body.get("ok"):
        reason = body.get("description") or f"HTTP {status}"
        return [
            _fail(
                "telegram",
                f"telegram refused the bot token: {reason} (getMe)",
                latency_ms=round(ms),
            )
        ]
    bot = body.get("result") or {}
    return [
        Finding(
            check="transport:telegram",
            status="ok",
            detail=f"telegram: bot @{bot.get('username')} (getMe, {ms:.0f} ms)",
            facts={"latency_ms": round(ms), "bot": bot.get("username")},
        )
    ]


async def _discord(
    config: Config, client: httpx.AsyncClient, env: Mapping[str, str]
) -> list[Finding]:
    from crewline.transports.discord.settings import DEFAULT_API_URL, settings_from

    settings = settings_from(config.section("discord"), env)
    api = settings.api_url or DEFAULT_API_URL
    headers = {"Authorization": f"Bot {settings.bot_token}"}
    token = settings.bot_token
    try:
        app, ms, status = await _call(
            client, "GET", f"{api}/applications/@me", secret=token, headers=headers
        )
        if status != 200:
            return [
                _fail(
                    "discord",
                    f"discord refused the bot token: {app.get('message', status)}"
                    " (GET /applications/@me)",
                    latency_ms=round(ms),
                )
            ]
        found = [
            Finding(
                check="transport:discord",
                status="ok",
                detail=f"discord: application {app.get('name')} (GET /applications/@me,"
                f" {ms:.0f} ms)",
                facts={"latency_ms": round(ms), "application": app.get("name")},
            )
        ]
        if not int(app.get("flags") or 0) & _MESSAGE_CONTENT:
            found.append(
                Finding(
                    check="transport:discord:intent",
                    status="warn",
                    detail="discord: the message content intent is off, so typed answers"
                    " arrive empty (Developer Portal > Bot > Message Content Intent)",
                )
            )
        channel, ms, status = await _call(
            client, "GET", f"{api}/channels/{settings.channel_id}", secret=token, headers=headers
        )
    except _Refused as refused:
        return [_fail("discord", f"discord {refused}")]
    if status != 200:
        found.append(
            _fail(
                "discord:channel",
                f"discord: the crew channel {settings.channel_id} cannot be read:"
                f" {channel.get('message', status)}",
                latency_ms=round(ms),
            )
        )
    elif str(channel.get("guild_id")) != str(settings.guild_id):
        found.append(
            _fail(
                "discord:channel",
                f"discord: channel {settings.channel_id} is not in server {settings.guild_id}",
            )
        )
    else:
        found.append(
            Finding(
                check="transport:discord:channel",
                status="ok",
                detail=f"discord: crew channel #{channel.get('name')} ({ms:.0f} ms)",
                facts={"latency_ms": round(ms), "channel": channel.get("name")},
            )
        )
    return found


def _fail(name: str, detail: str, **facts: Any) -> Finding:
    return Finding(check=f"transport:{name}", status="fail", detail=detail, facts=facts)


_PROBES: dict[
    str, Callable[[Config, httpx.AsyncClient, Mapping[str, str]], Awaitable[list[Finding]]]
] = {"slack": _slack, "telegram": _telegram, "discord": _discord}
