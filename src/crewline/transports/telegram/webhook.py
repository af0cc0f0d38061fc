"""The webhook endpoint crewline's server mounts: Telegram pushes updates here.

Every push must carry the secret registered with ``setWebhook`` in the
``X-Telegram-Bot-Api-Secret-Token`` header; anything else is answered 403, audited, and
never reaches the bot. Refusals are audited at most once a second per kind of crewline's
clock, counting the others, so a flood of forged pushes cannot flood the security log
(:mod:`crewline.transports.refusals`). An accepted update is
handled before the answer, so a 200 means crewline has it (Telegram keeps and retries an
update until it gets a 2xx).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from crewline.transports.refusals import RefusalThrottle

__all__ = ["MOUNT_PATH", "SECRET_HEADER", "WEBHOOK_PATH", "webhook_app"]

MOUNT_PATH = "/telegram"
WEBHOOK_PATH = "/webhook"  # served at MOUNT_PATH + WEBHOOK_PATH
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # updates are a few KB; a bigger body is not Telegram's


def webhook_app(
    *,
    secret: str,
    handle: Callable[[dict[str, Any]], Awaitable[bool]],
    refuse: Callable[[str, str | None, int], Awaitable[None]],
    now: Callable[[], datetime],
) -> Starlette:
    """The endpoint: checks the secret, then ``handle(update_json)`` (False: not ready).

    ``refuse(code, client, unrecorded)`` audits a push refused for its secret, with the
    number of refusals of that kind left unrecorded since the last one; ``now``: crewline's
    clock, which the records' window is kept on.
    """
    expected = secret.encode()
    throttle = RefusalThrottle(now)

    async def refused(code: str, client: str | None) -> Response:
        unrecorded = throttle.admit(code)
        if unrecorded is not None:
            await refuse(code, client, unrecorded)
        return Response(status_code=403)

    async def receive(request: Request) -> Response:
        given = request.headers.get(SECRET_HEADER)
        if given is None or not hmac.compare_digest(given.encode(), expected):
            code = "webhook_secret_missing" if given is None else "webhook_secret_wrong"
            return await refused(code, request.client.host if request.client else None)
        body = await request.body()
        if len(body) > MAX_BODY:
            return Response(status_code=413)
        try:
            update = json.loads(body)
        except ValueError:
            return Response(status_code=400)
        if not isinstance(update, dict) or not isinstance(update.get("update_id"), int):
            return Response(status_code=400)
        if not await handle(update):
            return Response(status_code=503)  # stopping or not started: Telegram retries
        return Response(status_code=200)

    return Starlette(routes=[Route(WEBHOOK_PATH, receive, methods=["POST"])])
