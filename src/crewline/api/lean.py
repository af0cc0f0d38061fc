"""The agents' hot verbs answered without FastAPI's per-request machinery, with its answers.

An escalation spent about as much of the event loop's CPU in FastAPI's request handling
(its exit stacks, dependency solving, the handler's bookkeeping) as in crewline's own work
(docs/performance.md). A lean route serves the plain case of a verb itself, with the route's
own parts: its body, query and header fields validate what FastAPI would validate, its
endpoint runs, its response field checks and encodes the answer. Whatever is not that plain
case (a body that is not a JSON object, a body, parameter or header its fields refuse) is
handed to the route's FastAPI handler with the body as it came, so every refusal is the one
FastAPI gives: the same codes, words and shapes, from the same code. The caller's key is
checked by the route's own dependency, and what it or the verb raises propagates to the same
exception handlers as from FastAPI's handler. The route stays declared as it was, so the
OpenAPI document does not change.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import ResponseValidationError
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from crewline.api.edge import replay

__all__ = ["lean_routes"]

# The route's caller from its request, raising what the route's dependency raises.
Authenticate = Callable[[Request], Awaitable[Any]]
# A query parameter's or a header's value as the request gives it, None when it does not.
Given = Callable[[Request], str | None]


def lean_routes(app: FastAPI, paths: Sequence[str], *, authenticate: Authenticate) -> None:
    """Serve the routes at ``paths`` lean. Each takes the caller (found by ``authenticate``,
    the route's one dependency), and a JSON body, query parameters or optional headers."""
    wanted = set(paths)
    for route in app.router.routes:
        if isinstance(route, APIRoute) and route.path in wanted:
            route.app = LeanRoute(route, route.app, authenticate=authenticate)
            wanted.discard(route.path)
    if wanted:
        raise ValueError(f"no route to serve lean at {sorted(wanted)}")


class LeanRoute:
    """One route's lean path, falling back to ``fallback`` (its FastAPI handler)."""

    def __init__(self, route: APIRoute, fallback: ASGIApp, *, authenticate: Authenticate) -> None:
        dependant = route.dependant
        if (
            route.response_field is None
            or len(dependant.body_params) > 1
            or len(dependant.dependencies) != 1
            or dependant.dependencies[0].name is None
            or dependant.path_params
            or dependant.cookie_params
            or any(field.field_info.is_required() for field in dependant.header_params)
        ):
            raise ValueError(f"{route.path} does not have the shape a lean route serves")
        self.fallback = fallback
        self.authenticate = authenticate
        self.endpoint = route.endpoint
        self.body_field = route.body_field
        self.response_field = route.response_field
        self.caller_name = dependant.dependencies[0].name
        self.params: list[tuple[str, str, str, Any, Given]] = [
            (f.name, "query", f.alias, f, _query(f.alias)) for f in dependant.query_params
        ] + [(f.name, "header", f.alias, f, _header(f.alias)) for f in dependant.header_params]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        messages: list[Message] = []
        arguments: dict[str, Any] | None = None
        if self.body_field is not None:
            messages, body = await _body(receive)
            arguments = _plain_body(body)
            if arguments is None:
                await self.fallback(scope, replay(messages, receive), send)
                return
        request = Request(scope, receive)
        caller = await self.authenticate(request)  # refused: its error, as FastAPI raises it
        values: dict[str, Any] = {self.caller_name: caller}
        errors: list[Any] = []
        if self.body_field is not None:
            values[self.body_field.name], errors = self.body_field.validate(
                arguments, {}, loc=("body",)
            )
        for name, where, alias, field, given_in in self.params:
            if errors:
                break
            given = given_in(request)
            if given is None:  # FastAPI's default, as it takes it (required: its refusal)
                if field.field_info.is_required():
                    errors = ["missing"]
                default = field.default  # a copy, as FastAPI takes it (None is its own)
                values[name] = None if default is None else copy.deepcopy(default)
                if field.field_info.validate_default:
                    errors = ["validated default"]  # none here: FastAPI's path has them
                continue
            values[name], errors = field.validate(given, {}, loc=(where, alias))
        if errors:
            await self.fallback(scope, replay(messages, receive), send)
            return
        result = await self.endpoint(**values)
        answer, errors = self.response_field.validate(result, {}, loc=("response",))
        if errors:  # crewline's bug, not the caller's: a 500, as from FastAPI's handler
            raise ResponseValidationError(errors=errors, body=result)
        content = self.response_field.serialize_json(answer)
        # The two messages Starlette's Response(content, media_type="application/json")
        # sends, without building one for each answer.
        length = str(len(content)).encode("latin-1")
        head = [(b"content-length", length), (b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": head})
        await send({"type": "http.response.body", "body": content})


def _query(alias: str) -> Given:
    def given(request: Request) -> str | None:
        return request.query_params.get(alias)

    return given


def _header(alias: str) -> Given:
    """The first value of the header ``alias`` names, as Starlette's ``Headers.get`` reads
    it, from the request's raw headers (without building a ``Headers`` for each call)."""
    key = alias.lower().encode("latin-1")

    def given(request: Request) -> str | None:
        headers: list[tuple[bytes, bytes]] = request.scope["headers"]
        for name, value in headers:
            if name == key:
                return value.decode("latin-1")
        return None

    return given


async def _body(receive: Receive) -> tuple[list[Message], bytes | None]:
    """The request's body messages and the bytes they carry; None for the bytes when
    something else came (a disconnect), which the fallback then meets as FastAPI would."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return messages, b"".join(chunks)


def _plain_body(body: bytes | None) -> dict[str, Any] | None:
    """The body as a JSON object, or None when it is anything else (FastAPI's to refuse)."""
    if not body:
        return None
    try:
        parsed = json.loads(body)
    except Exception:  # not JSON, not UTF-8, nested too deep
        return None
    return parsed if isinstance(parsed, dict) else None
