"""The inbox's web app (Starlette): the page, its JSON endpoints and its live channel.

Routes (all mounted at ``/`` of crewline's server, after the agents' API)::

    GET  /                      the page (or the login form, when a token is required)
    POST /inbox/login           {"token"} → a session cookie
    GET  /inbox/state           roster, bells, each thread's version, the CSRF token
    GET  /inbox/threads/{ref}   one thread's messages
    POST /inbox/send            {"thread", "text", "event_id"}    a reply or a /command
    POST /inbox/click           {"thread", "payload", "event_id"} a button press
    POST /inbox/edit            {"thread", "message", "text", "event_id"}
    POST /inbox/rewind          {"thread", "message", "event_id"}  Rewind to here
    POST /inbox/fork            {"thread", "message", "slug", "event_id"}  Fork from here
    WS   /inbox/live            {"version": n} after every change of the view
    GET  /inbox/static/…        the page's script and style (shipped in the package)

A WebSocket rather than server-sent events: uvicorn closes open WebSockets (code 1012) when
crewline stops, while an open event stream would hold every shutdown for its full grace
period. Anything else falls through to the API's own 404/405 error shape.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from starlette.websockets import WebSocket, WebSocketDisconnect

from crewline.errors import CallerError, CrewlineError, TransportError
from crewline.models import Receipt
from crewline.transports.local.render import state_json, thread_json
from crewline.transports.local.security import (
    CSRF_HEADER,
    Sessions,
    cookie_name,
    is_loopback_name,
    same_origin,
)
from crewline.transports.local.view import InboxView

__all__ = ["STATIC_DIR", "Inbox", "create_inbox_app"]

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
_SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
WS_LOGIN_REQUIRED = 4401  # the page reloads, which opens a new session or shows the login


def _error(code: str, message: str, status: int, **headers: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message}},
        status_code=status,
        headers={**_SECURITY_HEADERS, **headers},
    )


class _Refused(Exception):
    def __init__(self, response: Response) -> None:
        self.response = response


class Inbox(Protocol):
    """What the web app asks of the local transport: its view and sessions, and the human
    side it plays (the transport hands itself to :func:`create_inbox_app`)."""

    user: str
    requires_login: bool
    sessions: Sessions
    view: InboxView

    @property
    def running(self) -> bool: ...

    def check_login(self, token: str) -> bool: ...

    async def send_text(
        self, *, thread: str | None, text: str, event_id: str | None = None
    ) -> tuple[Receipt, str | None]:
        """A slash command, or a reply typed in ``thread`` (and the ref it shows as)."""
        ...

    async def click(
        self, *, thread: str | None, payload: str, event_id: str | None = None
    ) -> Receipt:
        """A button press, its payload as the page sent it."""
        ...

    async def edit(
        self, *, thread: str | None, message_ref: str, text: str, event_id: str | None = None
    ) -> Receipt:
        """An edit of one of the reader's own messages."""
        ...

    async def rewind_to(
        self, *, thread: str | None, message_ref: str, event_id: str | None = None
    ) -> Receipt:
        """Rewind to here."""
        ...

    async def fork_from(
        self, *, thread: str | None, message_ref: str, slug: str, event_id: str | None = None
    ) -> Receipt:
        """Fork from here."""
        ...


class InboxApp:
    """The handlers, over one transport."""

    def __init__(self, transport: Inbox) -> None:
        self.transport = transport
        self.page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
        self.login_page = (STATIC_DIR / "login.html").read_text(encoding="utf-8")

    # who is asking --------------------------------------------------------------------------
    def _cookie(self, connection: HTTPConnection) -> str:
        server = connection.scope.get("server")
        return cookie_name(server[1] if server else None)

    def _csrf(self, connection: HTTPConnection) -> str | None:
        return self.transport.sessions.csrf(connection.cookies.get(self._cookie(connection)))

    def _check_host(self, connection: HTTPConnection) -> None:
        if not self.transport.requires_login and not is_loopback_name(
            connection.headers.get("host", "")
        ):
            raise _Refused(
                _error(
                    "bad_host",
                    "This inbox answers only to a loopback address (127.0.0.1, localhost).",
                    403,
                )
            )

    def _session(self, request: Request) -> str:
        self._check_host(request)
        csrf = self._csrf(request)
        if csrf is None:
            raise _Refused(_error("login_required", "Open the inbox page to start a session.", 401))
        return csrf

    async def _write_body(self, request: Request, fields: dict[str, Any]) -> dict[str, Any]:
        """Guard a state-changing request, then read its JSON body (known fields only)."""
        self._session(request)
        if not same_origin(request.headers):
            raise _Refused(_error("cross_origin", "Requests from other sites are refused.", 403))
        sent = request.headers.get(CSRF_HEADER)
        if not self.transport.sessions.check(request.cookies.get(self._cookie(request)), sent):
            raise _Refused(_error("bad_csrf", "This request lacks the page's CSRF token.", 403))
        return await _json_body(request, fields)

    # the page -------------------------------------------------------------------------------
    async def page_view(self, request: Request) -> Response:
        self._check_host(request)
        if self._csrf(request) is not None:
            return HTMLResponse(self.page, headers=_SECURITY_HEADERS)
        if self.transport.requires_login:
            return HTMLResponse(self.login_page, headers=_SECURITY_HEADERS)
        response = HTMLResponse(self.page, headers=_SECURITY_HEADERS)
        # Another site's page loading this one as an image or a script is no visit: it
        # gets no session (the owner following a link from elsewhere still does).
        if same_origin(request.headers) or request.headers.get("sec-fetch-dest") == "document":
            self._open_session(request, response)
        return response

    def _open_session(self, request: Request, response: Response) -> None:
        session_id, _ = self.transport.sessions.open()
        response.set_cookie(
            self._cookie(request),
            session_id,
            httponly=True,
            samesite="strict",
            path="/",
            secure=request.url.scheme == "https",
        )

    async def login(self, request: Request) -> Response:
        self._check_host(request)
        if not same_origin(request.headers):
            return _error("cross_origin", "Requests from other sites are refused.", 403)
        body = await _json_body(request, {"token": str})
        if self.transport.requires_login and not self.transport.check_login(body["token"]):
            log.warning(
                "local inbox: a login with a wrong token from %s",
                request.client.host if request.client else "?",
            )
            return _error("invalid_token", "That is not the token crewline printed at start.", 401)
        response = JSONResponse({"ok": True}, headers=_SECURITY_HEADERS)
        self._open_session(request, response)
        return response

    # reading --------------------------------------------------------------------------------
    async def state(self, request: Request) -> Response:
        csrf = self._session(request)
        body = state_json(self.transport.view, user=self.transport.user)
        body.update(csrf=csrf, login=self.transport.requires_login, running=self.transport.running)
        return JSONResponse(body, headers=_SECURITY_HEADERS)

    async def thread(self, request: Request) -> Response:
        self._session(request)
        return JSONResponse(
            thread_json(self.transport.view, request.path_params["ref"]), headers=_SECURITY_HEADERS
        )

    # acting ---------------------------------------------------------------------------------
    async def send(self, request: Request) -> Response:
        body = await self._write_body(
            request, {"thread": _Optional(str), "text": str, "event_id": _Optional(str)}
        )
        receipt, ref = await self._act(
            self.transport.send_text(
                thread=body.get("thread"), text=body["text"], event_id=body.get("event_id")
            )
        )
        return _receipt(receipt, ref=ref)

    async def click(self, request: Request) -> Response:
        body = await self._write_body(
            request, {"thread": _Optional(str), "payload": str, "event_id": _Optional(str)}
        )
        receipt = await self._act(
            self.transport.click(
                thread=body.get("thread"), payload=body["payload"], event_id=body.get("event_id")
            )
        )
        return _receipt(receipt)

    async def edit(self, request: Request) -> Response:
        return await self._on_message(request, self.transport.edit, text=str)

    async def rewind(self, request: Request) -> Response:
        return await self._on_message(request, self.transport.rewind_to)

    async def fork(self, request: Request) -> Response:
        return await self._on_message(request, self.transport.fork_from, slug=str)

    async def _on_message(
        self, request: Request, action: Callable[..., Awaitable[Receipt]], **fields: type
    ) -> Response:
        """An action on one of a thread's messages (``message``), with the fields it adds."""
        body = await self._write_body(
            request,
            {"thread": _Optional(str), "message": str, **fields, "event_id": _Optional(str)},
        )
        receipt = await self._act(
            action(
                thread=body.get("thread"),
                message_ref=body["message"],
                event_id=body.get("event_id"),
                **{name: body[name] for name in fields},
            )
        )
        return _receipt(receipt)

    async def _act(self, action: Any) -> Any:
        try:
            return await action
        except TransportError:
            raise _Refused(
                _error("inbox_stopped", "crewline is restarting; try again in a moment.", 503)
            ) from None
        except CallerError as error:
            raise _Refused(_error(error.code, error.message, 400)) from None
        except CrewlineError as error:  # e.g. the index is being rebuilt: retry later
            raise _Refused(_error(error.code, error.message, 503)) from None

    # live -----------------------------------------------------------------------------------
    async def live(self, websocket: WebSocket) -> None:
        host_ok = self.transport.requires_login or is_loopback_name(
            websocket.headers.get("host", "")
        )
        if not host_ok or not same_origin(websocket.headers):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        if self._csrf(websocket) is None:
            await websocket.close(code=WS_LOGIN_REQUIRED)
            return
        pump = asyncio.create_task(self._pump(websocket))
        listen = asyncio.create_task(_until_disconnect(websocket))
        try:
            await asyncio.wait({pump, listen}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (pump, listen):
                task.cancel()
            for task in (pump, listen):
                with contextlib.suppress(
                    asyncio.CancelledError, WebSocketDisconnect, OSError, RuntimeError
                ):
                    await task

    async def _pump(self, websocket: WebSocket) -> None:
        view = self.transport.view
        seen = -1
        while not view.closed:
            if view.version != seen:
                seen = view.version
                await websocket.send_json({"version": seen})
            await view.wait_changed(seen)
        await websocket.close(code=1012)  # the transport stopped: crewline is restarting

    # what is not the inbox's ----------------------------------------------------------------
    async def not_found(self, request: Request, error: Exception) -> Response:
        """Paths the mount catches but does not own answer as the API would have."""
        status = error.status_code if isinstance(error, HTTPException) else 404
        router = request.scope.get("router")
        where = f"{request.method} {request.url.path[:200]}"
        allowed: set[str] = set()
        if status == 404 and router is not None:
            allowed = _partial_methods(router, request.scope)
        if allowed or status == 405:
            listed = ", ".join(sorted(allowed))
            return _error(
                "method_not_allowed",
                f"{where}: the method is not allowed here (allowed: {listed})",
                405,
                **({"allow": listed} if listed else {}),
            )
        return _error("not_found", f"no route {where} (the API is listed at /docs)", 404)


async def _until_disconnect(websocket: WebSocket) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


def _partial_methods(router: Any, scope: Scope) -> set[str]:
    """The methods of the routes outside this mount that match the path only partially."""
    allowed: set[str] = set()
    for route in getattr(router, "routes", ()):
        if isinstance(route, Mount):
            continue
        match, _ = route.matches(scope)
        if match is Match.PARTIAL:
            allowed |= set(getattr(route, "methods", None) or ())
    return allowed


class _Optional:
    def __init__(self, kind: type) -> None:
        self.kind = kind


async def _json_body(request: Request, fields: dict[str, Any]) -> dict[str, Any]:
    """The request's JSON object, refusing other content types, unknown fields, wrong types."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise _Refused(_error("json_required", "Send application/json.", 415))
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _Refused(_error("too_large", f"The body is over {MAX_BODY} bytes.", 413))
    try:
        body = json.loads(raw)
    except ValueError:
        raise _Refused(_error("malformed_json", "The body is not valid JSON.", 400)) from None
    if not isinstance(body, dict):
        raise _Refused(_error("invalid_type", "The body must be a JSON object.", 400))
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise _Refused(_error("unknown_field", f"Unknown field {unknown[0]!r}.", 400))
    for name, kind in fields.items():
        value = body.get(name)
        if isinstance(kind, _Optional):
            if value is not None and not isinstance(value, kind.kind):
                raise _Refused(_error("invalid_type", f"{name} has the wrong type.", 400))
        elif not isinstance(value, kind):
            code = "missing_field" if value is None else "invalid_type"
            raise _Refused(_error(code, f"{name} is required ({kind.__name__}).", 400))
    return body


def _receipt(receipt: Receipt, *, ref: str | None = None) -> JSONResponse:
    return JSONResponse(
        {
            "accepted": receipt.accepted,
            "code": receipt.code,
            "notice": receipt.notice,
            "ref": ref,
            "prefill": receipt.prefill,
            "outcome": None if receipt.outcome is None else receipt.outcome.value,
            "escalation_id": receipt.escalation_id,
            "repeat": receipt.repeat,
        },
        headers=_SECURITY_HEADERS,
    )


async def _refused(request: Request, error: Exception) -> Response:
    assert isinstance(error, _Refused)
    return error.response


def create_inbox_app(transport: Inbox) -> Starlette:
    inbox = InboxApp(transport)
    routes = [
        Route("/", inbox.page_view, methods=["GET"]),
        Route("/inbox/login", inbox.login, methods=["POST"]),
        Route("/inbox/state", inbox.state, methods=["GET"]),
        Route("/inbox/threads/{ref}", inbox.thread, methods=["GET"]),
        Route("/inbox/send", inbox.send, methods=["POST"]),
        Route("/inbox/click", inbox.click, methods=["POST"]),
        Route("/inbox/edit", inbox.edit, methods=["POST"]),
        Route("/inbox/rewind", inbox.rewind, methods=["POST"]),
        Route("/inbox/fork", inbox.fork, methods=["POST"]),
        WebSocketRoute("/inbox/live", inbox.live),
        Mount("/inbox/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    return Starlette(
        routes=routes,
        exception_handlers={_Refused: _refused, 404: inbox.not_found, 405: inbox.not_found},
    )
