"""HTTP routes → operations, one error → status table, OpenAPI at /openapi.json,
read at /docs from assets served by crewline itself.

FastAPI, because the request models that refuse unknown fields are also what generates the
OpenAPI schema agents read: one declaration, no drift. Every error, including FastAPI's own
validation errors and unknown routes, leaves in one shape:
``{"error": {"code": ..., "message": ..., ...details}}``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import MutableMapping, Sequence
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from pydantic import Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from crewline import __version__
from crewline.api.concierge_ops import ConciergeOperations
from crewline.api.edge import BODY_TIMEOUT, MAX_BODY_BYTES, BodyLimit, JsonBodies
from crewline.api.lean import lean_routes
from crewline.api.openapi import errors, without_422
from crewline.api.operations import Caller, Operations
from crewline.api.responses import (
    AskResponse,
    AuditResponse,
    BoundaryAnswerResponse,
    BoundaryResponse,
    ConversationResponse,
    DeletedResponse,
    EscalateResponse,
    EscalationView,
    EventsResponse,
    ForkResponse,
    HealthResponse,
    LedgerResponse,
    MembersResponse,
    PolicyResponse,
    PostResponse,
    QuestionView,
    ReadyResponse,
    RecordAnsweredResponse,
    ReplyResponse,
    SendResponse,
    SessionResponse,
    StartedResponse,
    StoppedResponse,
    SuggestedResponse,
    TurnResponse,
    UndoResponse,
    WebhookView,
)
from crewline.api.schemas import (
    IDEMPOTENCY_KEY,
    AnswerBody,
    AskBody,
    BoundaryBody,
    EscalateBody,
    ForkBody,
    HubAnswerBody,
    HubDispatchBody,
    HubRespawnBody,
    HubStopBody,
    NackBody,
    PostBody,
    ReplyBody,
    SendBody,
    Strict,
    TurnBody,
    WebhookBody,
    refusal,
)
from crewline.api.sse import EventStreams, start_cursor
from crewline.app.assembly import Bot
from crewline.bot.escalations import EscalationRequest
from crewline.errors import (
    BacklogFull,
    Conflict,
    CrewlineError,
    Forbidden,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    Unauthenticated,
    Unavailable,
)
from crewline.ops.health import Readiness
from crewline.ops.metrics import CONTENT_TYPE, Metrics, MetricsAccess
from crewline.push.webhooks import WebhookDispatcher, webhook_view

__all__ = ["DOCS_ASSETS", "create_app"]

log = logging.getLogger(__name__)

DOCS_ASSETS = "/docs/assets"

STATUS: Sequence[tuple[type[CrewlineError], int]] = (
    (PayloadTooLarge, 413),
    (InvalidInput, 400),
    (Unauthenticated, 401),
    (Forbidden, 403),
    (NotFound, 404),
    (Conflict, 409),
    (BacklogFull, 429),
    (Unavailable, 503),
)


def status_of(error: CrewlineError) -> int:
    for kind, status in STATUS:
        if isinstance(error, kind):
            return status
    return 500


def error_body(code: str, message: str, **details: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **details}}


def _framework_error(request: Request, error: StarletteHTTPException) -> tuple[str, str]:
    """The code and words for an error the framework raised itself (no route, a method the
    route does not take)."""
    where = f"{request.method} {request.url.path[:200]}"
    if error.status_code == 404:
        return "not_found", f"no route {where} (the API is listed at /docs)"
    if error.status_code == 405:
        allowed = (error.headers or {}).get("Allow", "")
        return "method_not_allowed", f"{where}: the method is not allowed here (allowed: {allowed})"
    return "http_error", str(error.detail)


# --- the owner's concierge request model (the sessions' verbs are in crewline.api.schemas) ----


class PolicyBody(Strict):
    answer: str | None = Field(default=None, description="never | routine | always")
    act: str | None = Field(default=None, description="on | off")


# --- the app ----------------------------------------------------------------------------------

_bearer = HTTPBearer(auto_error=False)


async def _caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Caller:
    operations: Operations = request.app.state.operations
    return await operations.authenticate(credentials.credentials if credentials else None)


Who = Annotated[Caller, Depends(_caller)]


async def _lean_caller(request: Request) -> Caller:
    """A lean route's caller: what ``Who`` resolves to, the key read as ``_bearer`` reads it."""
    operations: Operations = request.app.state.operations
    return await operations.authenticate(bearer_key(request.scope))


def bearer_key(scope: Scope) -> str | None:
    """The credentials of the request's first Authorization header where ``_bearer`` finds
    Bearer credentials there, else None, as it answers them (without its model)."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, key = value.decode("latin-1").partition(" ")
            key = key.strip()
            return key if scheme and key and scheme.lower() == "bearer" else None
    return None


# The agents' hot verbs, served lean (crewline.api.lean): their plain calls skip FastAPI's
# per-request machinery, and anything else is FastAPI's to answer, as before.
LEAN_PATHS = (
    "/api/session-control/escalate",
    "/api/session-control/send",
    "/api/session-control/ask",
    "/api/session/messages",
    "/api/session/events",
)
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description=IDEMPOTENCY_KEY,
    ),
]


def create_app(
    bot: Bot,
    *,
    mounts: Sequence[tuple[str, ASGIApp]] = (),
    routes: Sequence[tuple[str, ASGIApp]] = (),
    streams: EventStreams | None = None,
    webhooks: WebhookDispatcher | None = None,
    metrics: Metrics | None = None,
    readiness: Readiness | None = None,
    metrics_access: MetricsAccess | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    body_timeout: float = BODY_TIMEOUT,
    lean: bool = True,
) -> FastAPI:
    """The agents' API. ``routes`` are ASGI apps served at exactly their path (``/mcp``),
    ``mounts`` whole subtrees (a transport's webhooks, the local inbox). ``streams``: the
    server's open event streams, which it closes before the HTTP server stops (one is made
    when not given). ``webhooks``: what delivers pushed events; without it there are no
    webhook routes. ``readiness`` names the transports ``/readyz`` checks (without it, only
    the store); ``metrics`` is shared with the outboxes and the scheduler so ``/metrics``
    shows theirs too, and ``metrics_access`` says who may read it (without it: anyone);
    ``body_timeout``: seconds a request's body may take to arrive; ``lean``: False sends
    the LEAN_PATHS through FastAPI's handler too (the tests compare the two)."""
    hub = bot.hub
    ops = Operations(bot)
    streams = streams or EventStreams(hub)
    concierge = ConciergeOperations(ops)
    metrics = metrics or Metrics()
    readiness = readiness or Readiness(hub.store, hub.clock)
    # /docs (Swagger UI) loads its script and style from the installed fastapi-offline
    # package at DOCS_ASSETS, never from a CDN: it works offline. No /redoc: ReDoc's page
    # loads its logo from its vendor's CDN whatever the bundle's origin.
    app = FastAPIOffline(
        title="crewline",
        version=__version__,
        description="The agents' API of crewline: escalate to your human, read your events.",
        static_url=DOCS_ASSETS,
        redoc_url=None,
    )
    app.state.operations = ops
    app.openapi = without_422(app)  # type: ignore[method-assign]

    @app.exception_handler(CrewlineError)
    async def crewline_error(_: Request, error: CrewlineError) -> JSONResponse:
        status = status_of(error)
        if status == 500:
            log.error("unexpected error %s: %s", error.code, error.message)
        metrics.errors.labels(code=error.code).inc()
        # RFC 6750: a 401 names the scheme it wants; with a key given, that it was refused.
        challenge = 'Bearer realm="crewline"'
        if error.code == "invalid_key":
            challenge += ', error="invalid_token"'
        return JSONResponse(
            error_body(error.code, error.message, **error.details),
            status_code=status,
            headers={"WWW-Authenticate": challenge} if status == 401 else None,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> JSONResponse:
        document = error.body if isinstance(error.body, str) else None
        refused = refusal(error.errors(), document=document)
        metrics.errors.labels(code=refused.code).inc()
        return JSONResponse(
            error_body(refused.code, refused.message, **refused.details), status_code=400
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 400:  # FastAPI could not parse the body at all
            # Bytes that are not UTF-8, or JSON nested deeper than the parser goes: the
            # same mistake, to the caller, as any other body that is not JSON.
            metrics.errors.labels(code="malformed_json").inc()
            return JSONResponse(
                error_body("malformed_json", "the body is not valid JSON in UTF-8"),
                status_code=400,
            )
        code, message = _framework_error(request, error)
        metrics.errors.labels(code=code).inc()
        return JSONResponse(
            error_body(code, message), status_code=error.status_code, headers=error.headers
        )

    @app.exception_handler(Exception)
    async def internal_error(request: Request, error: Exception) -> JSONResponse:
        # Logged whole by the server; the caller learns only that it was not its mistake.
        metrics.errors.labels(code="internal_error").inc()
        return JSONResponse(
            error_body(
                "internal_error",
                f"crewline failed on {request.method} {request.url.path}; this is not your"
                " request's fault, and the server's log has the details",
            ),
            status_code=500,
        )

    @app.get("/healthz", tags=["ops"], response_model=HealthResponse)
    async def healthz() -> dict[str, str]:
        """Alive: the process answers HTTP. Says nothing of the platforms (see /readyz)."""
        return {"status": "ok"}

    @app.get(
        "/readyz",
        tags=["ops"],
        responses={
            200: {"model": ReadyResponse, "description": "every part is ready"},
            503: {"model": ReadyResponse, "description": "a part is not ready: see failed"},
        },
    )
    async def readyz() -> JSONResponse:
        """Ready: the store takes a write, every transport is connected, and no outbox has
        a call waiting too long. 503 names each part that failed."""
        checks = await readiness.checks()
        failed = [c.name for c in checks if not c.ok]
        body = {
            "status": "unavailable" if failed else "ok",
            "failed": failed,
            "checks": {c.name: {"ok": c.ok, "detail": c.detail} for c in checks},
        }
        return JSONResponse(body, status_code=503 if failed else 200)

    access = metrics_access or MetricsAccess()

    @app.get(
        "/metrics",
        tags=["ops"],
        response_class=Response,
        responses={
            200: {"content": {CONTENT_TYPE.partition(";")[0]: {}}},
            **errors(401, 403),
        },
    )
    async def prometheus(request: Request) -> Response:
        """Prometheus' text format. On a loopback bind anyone may read it; beyond it, only
        with ``Authorization: Bearer <metrics_token>`` (docs/operations.md)."""
        access.check(request.headers.get("authorization"))
        await metrics.refresh(
            hub.store,
            now=hub.clock.now(),
            transports=[t.name for t in readiness.transports],
        )
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    @app.get("/api/session", tags=["agents"], response_model=SessionResponse, responses=errors(401))
    async def whoami(who: Who) -> dict[str, Any]:
        """Your session: its id, kind and member, and the verbs crewline lets it use."""
        return ops.whoami(who)

    @app.post(
        "/api/session-control/escalate",
        tags=["agents"],
        response_model=EscalateResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 429, 503),
    )
    async def escalate(body: EscalateBody, who: Who, key: IdempotencyKey = None) -> dict[str, Any]:
        result = await ops.escalate(
            who, EscalationRequest(**body.model_dump()), idempotency_key=key
        )
        metrics.escalations.inc()
        return result

    @app.post(
        "/api/session-control/send",
        tags=["agents"],
        response_model=SendResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def send(body: SendBody, who: Who, key: IdempotencyKey = None) -> dict[str, Any]:
        return await ops.send(who, body.target, body.message, idempotency_key=key)

    @app.post(
        "/api/session-control/ask",
        tags=["agents"],
        response_model=AskResponse,
        responses=errors(400, 401, 403, 409, 413, 503),
    )
    async def ask(body: AskBody, who: Who, key: IdempotencyKey = None) -> dict[str, Any]:
        return await ops.ask(who, body.question, body.options, body.dialog, idempotency_key=key)

    @app.get(
        "/api/session-control/escalations/{escalation_id}",
        tags=["agents"],
        response_model=EscalationView,
        responses=errors(400, 401, 403, 404, 503),
    )
    async def escalation(
        escalation_id: Annotated[str, Path(max_length=64)], who: Who
    ) -> dict[str, Any]:
        return await ops.escalation(who, escalation_id)

    @app.post(
        "/api/session-control/escalations/{escalation_id}/retract",
        tags=["agents"],
        response_model=EscalationView,
        responses=errors(400, 401, 403, 404, 409, 503),
    )
    async def retract(
        escalation_id: Annotated[str, Path(max_length=64)], who: Who
    ) -> dict[str, Any]:
        return await ops.retract(who, escalation_id)

    @app.post(
        "/api/session-control/escalations/{escalation_id}/default-applied",
        tags=["agents"],
        response_model=EscalationView,
        responses=errors(400, 401, 403, 404, 409, 503),
    )
    async def default_applied(
        escalation_id: Annotated[str, Path(max_length=64)], who: Who
    ) -> dict[str, Any]:
        return await ops.confirm_default(who, escalation_id)

    @app.post(
        "/api/session/messages",
        tags=["agents"],
        response_model=PostResponse,
        responses=errors(400, 401, 403, 409, 413, 503),
    )
    async def post_message(body: PostBody, who: Who, key: IdempotencyKey = None) -> dict[str, Any]:
        return await ops.post(who, body.text, idempotency_key=key)

    @app.get(
        "/api/session/events",
        tags=["agents"],
        response_model=EventsResponse,
        responses=errors(400, 401, 403, 503),
    )
    async def events(
        who: Who, after: Annotated[int, Query()] = 0, wait: Annotated[float, Query()] = 0.0
    ) -> dict[str, Any]:
        return await ops.events(who, after=after, wait=wait)

    @app.get(
        "/api/session/events/stream",
        tags=["agents"],
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}, **errors(400, 401, 403, 503)},
    )
    async def event_stream(
        who: Who,
        after: Annotated[int | None, Query()] = None,
        last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    ) -> StreamingResponse:
        """Your events as server-sent events: ``id`` is the cursor, ``event`` the kind,
        ``data`` the event as ``GET /api/session/events`` returns it."""
        session = ops.session_of(who)
        cursor = start_cursor(after, last_event_id)
        return StreamingResponse(
            streams.stream(session, cursor),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    if webhooks is not None:
        _webhook_routes(app, ops, webhooks)

    @app.post(
        "/api/session/boundaries/{boundary_id}/ack",
        tags=["agents"],
        response_model=BoundaryAnswerResponse,
        responses=errors(400, 401, 403, 404, 409, 503),
    )
    async def ack_boundary(
        boundary_id: Annotated[str, Path(max_length=64)], who: Who
    ) -> dict[str, Any]:
        return await ops.answer_boundary(who, boundary_id, ack=True, reason=None)

    @app.post(
        "/api/session/boundaries/{boundary_id}/nack",
        tags=["agents"],
        response_model=BoundaryAnswerResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def nack_boundary(
        boundary_id: Annotated[str, Path(max_length=64)], body: NackBody, who: Who
    ) -> dict[str, Any]:
        return await ops.answer_boundary(who, boundary_id, ack=False, reason=body.reason)

    @app.post(
        "/api/session/turn",
        tags=["agents"],
        response_model=TurnResponse,
        responses=errors(400, 401, 403, 413, 503),
    )
    async def turn(body: TurnBody, who: Who) -> dict[str, Any]:
        return await ops.turn(who, started=body.state == "started")

    @app.post(
        "/api/members/{slug}/boundaries",
        tags=["owner"],
        response_model=BoundaryResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def boundary(slug: str, body: BoundaryBody, who: Who) -> dict[str, Any]:
        return await ops.boundary(
            who, slug, kind=body.kind, row_id=body.row_id, steps=body.steps, text=body.text
        )

    @app.post(
        "/api/members/{slug}/forks",
        tags=["owner"],
        response_model=ForkResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def fork(slug: str, body: ForkBody, who: Who) -> dict[str, Any]:
        return await ops.fork(who, slug, new_slug=body.slug, row_id=body.row_id, steps=body.steps)

    @app.get(
        "/api/members",
        tags=["owner"],
        response_model=MembersResponse,
        responses=errors(401, 403, 503),
    )
    async def members(who: Who) -> dict[str, Any]:
        return await ops.members(who)

    @app.get(
        "/api/members/{slug}/conversation",
        tags=["owner"],
        response_model=ConversationResponse,
        responses=errors(400, 401, 403, 404, 503),
    )
    async def conversation(slug: str, who: Who) -> dict[str, Any]:
        return await ops.conversation(who, slug)

    @app.post(
        "/api/members/{slug}/reply",
        tags=["owner"],
        response_model=ReplyResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def reply(slug: str, body: ReplyBody, who: Who) -> dict[str, Any]:
        return await ops.reply(who, slug, body.text, body.escalation_id)

    @app.post(
        "/api/questions/{question_id}/answer",
        tags=["owner"],
        response_model=QuestionView,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def answer(
        question_id: Annotated[str, Path(max_length=64)], body: AnswerBody, who: Who
    ) -> dict[str, Any]:
        return await ops.answer_question(who, question_id, body.answer)

    @app.get(
        "/api/audit",
        tags=["owner"],
        response_model=AuditResponse,
        responses=errors(400, 401, 403, 503),
    )
    async def audit(
        who: Who,
        after: Annotated[str | None, Query(max_length=40)] = None,
        limit: Annotated[int, Query()] = 100,
        member: Annotated[str | None, Query(max_length=64)] = None,
        since: Annotated[str | None, Query(max_length=64)] = None,
        kind: Annotated[str | None, Query(max_length=128)] = None,
    ) -> dict[str, Any]:
        """The audit log, oldest first, with the owner's token: security events (refusals,
        boundaries, the concierge's acts …) and the concierge's ledger. ``after``: the
        ``cursor`` of the previous page; ``since``: a time with its zone, a date, or a
        duration back from now (PT2H); ``kind``: a kind and those beneath it (``boundary``,
        ``ledger``, ``ledger:answered``)."""
        return await ops.audit(who, after=after, limit=limit, member=member, since=since, kind=kind)

    @app.get(
        "/api/concierge/policy",
        tags=["owner"],
        response_model=PolicyResponse,
        responses=errors(401, 403, 503),
    )
    async def concierge_policy(who: Who) -> dict[str, Any]:
        return await concierge.policy(who)

    @app.put(
        "/api/concierge/policy",
        tags=["owner"],
        response_model=PolicyResponse,
        responses=errors(400, 401, 403, 413, 503),
    )
    async def set_concierge_policy(body: PolicyBody, who: Who) -> dict[str, Any]:
        return await concierge.set_policy(who, answer=body.answer, act=body.act)

    @app.get(
        "/api/concierge/ledger",
        tags=["owner"],
        response_model=LedgerResponse,
        responses=errors(400, 401, 403, 503),
    )
    async def concierge_ledger(
        who: Who, limit: Annotated[int, Query(ge=1, le=1000)] = 100
    ) -> dict[str, Any]:
        return await concierge.ledger(who, limit=limit)

    @app.post(
        "/api/concierge/undo",
        tags=["owner"],
        response_model=UndoResponse,
        responses=errors(401, 403, 404, 503),
    )
    async def concierge_undo(who: Who) -> dict[str, Any]:
        return await concierge.undo(who)

    @app.post(
        "/api/concierge/suggest",
        tags=["concierge"],
        response_model=SuggestedResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def hub_suggest(body: HubAnswerBody, who: Who) -> dict[str, Any]:
        return await concierge.suggest(who, body.record_id, body.text, body.why)

    @app.post(
        "/api/concierge/reply",
        tags=["concierge"],
        response_model=RecordAnsweredResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def hub_reply(body: HubAnswerBody, who: Who) -> dict[str, Any]:
        return await concierge.reply(who, body.record_id, body.text, body.why)

    @app.post(
        "/api/concierge/stop",
        tags=["concierge"],
        response_model=StoppedResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def hub_stop(body: HubStopBody, who: Who) -> dict[str, Any]:
        return await concierge.stop(who, body.session_id, body.why)

    @app.post(
        "/api/concierge/respawn",
        tags=["concierge"],
        response_model=StartedResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def hub_respawn(body: HubRespawnBody, who: Who) -> dict[str, Any]:
        return await concierge.respawn(who, body.session_id, body.launcher, body.why)

    @app.post(
        "/api/concierge/dispatch",
        tags=["concierge"],
        response_model=StartedResponse,
        responses=errors(400, 401, 403, 404, 409, 413, 503),
    )
    async def hub_dispatch(body: HubDispatchBody, who: Who) -> dict[str, Any]:
        return await concierge.dispatch(who, body.launcher, body.member, body.why)

    if lean:
        lean_routes(app, LEAN_PATHS, authenticate=_lean_caller)
    for path, endpoint in routes:
        app.router.routes.append(Route(path, endpoint=endpoint))
    for path, mounted in mounts:
        app.mount(path, mounted)
    app.add_middleware(JsonBodies, router=app.router)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes, timeout=body_timeout)
    app.add_middleware(_CountRequests, metrics=metrics)
    return app


def _webhook_routes(app: FastAPI, ops: Operations, webhooks: WebhookDispatcher) -> None:
    @app.put(
        "/api/session/webhook",
        tags=["agents"],
        response_model=WebhookView,
        responses=errors(400, 401, 403, 413, 503),
    )
    async def put_webhook(body: WebhookBody, who: Who, request: Request) -> dict[str, Any]:
        """Push every event of your session to ``url``, signed with ``secret``."""
        server = request.scope.get("server")
        hook = await webhooks.register(
            ops.session_of(who),
            url=body.url,
            secret=body.secret,
            after=body.after,
            own_address=(str(server[0]), int(server[1])) if server else None,
            own_host=request.url.hostname,
        )
        return webhook_view(hook)

    @app.get(
        "/api/session/webhook",
        tags=["agents"],
        response_model=WebhookView,
        responses=errors(401, 403, 404),
    )
    async def get_webhook(who: Who) -> dict[str, Any]:
        return webhook_view(await webhooks.webhook(ops.session_of(who)))

    @app.delete(
        "/api/session/webhook",
        tags=["agents"],
        response_model=DeletedResponse,
        responses=errors(401, 403, 404),
    )
    async def delete_webhook(who: Who) -> dict[str, Any]:
        await webhooks.unregister(ops.session_of(who))
        return {"deleted": True}


class _CountRequests:
    """Pure ASGI middleware counting responses by status and timing them per route template
    (no per-request task overhead). Unmatched paths share one label, so a scan of random
    URLs cannot grow the series."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def counting_send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                self.metrics.requests.labels(
                    method=scope["method"], status=str(message["status"])
                ).inc()
            await send(message)

        started = time.perf_counter()
        try:
            await self.app(scope, receive, counting_send)
        finally:
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            self.metrics.request_seconds.labels(method=scope["method"], route=route).observe(
                time.perf_counter() - started
            )
