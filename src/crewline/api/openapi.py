"""What ``/openapi.json`` says about errors: the one error model, and per route the statuses
it can answer, each with the stable codes behind it.

Routes take ``responses=errors(...)``, so a route added later documents its refusals in one
line. FastAPI's default 422 is removed from the schema: crewline answers every validation
error 400 in its own shape (``api/http.py``), never 422; an operation that takes a body also
documents the 415 of one not sent as JSON (``api/edge.py``). The schema also carries OpenAPI
links (``LINKS``): which later operations take an id an earlier one answered, so a client
(or a stateful fuzzer) can follow an escalation or a question from its creation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CODES", "LINKS", "ErrorResponse", "errors", "without_422"]

CODES: dict[int, tuple[str, tuple[str, ...]]] = {
    400: (
        "The request is malformed or a value is invalid; nothing was written",
        (
            "malformed_json",
            "unknown_field",
            "missing_field",
            "invalid_type",
            "invalid_message",
            "message_too_long",
            "invalid_deadline",
            "deadline_without_zone",
            "deadline_in_past",
            "deadline_too_far",
            "default_without_deadline",
            "invalid_default_action",
            "invalid_options",
            "invalid_option",
            "duplicate_options",
            "invalid_goal",
            "invalid_target",
            "invalid_text",
            "invalid_member_slug",
            "invalid_cursor",
            "invalid_since",
            "invalid_limit",
            "invalid_wait",
            "invalid_question",
            "invalid_idempotency_key",
            "invalid_webhook_url",
            "webhook_url_is_crewline",
            "invalid_webhook_secret",
            "webhook_address_not_allowed",
            "invalid_kind",
            "invalid_steps",
            "invalid_reason",
            "invalid_answer_policy",
            "invalid_act_policy",
            "bad_request",
            "unknown_launcher",
            "launcher_failed",
        ),
    ),
    401: (
        "No key, a key crewline does not know, or one revoked while a long poll waited",
        ("missing_key", "invalid_key", "key_revoked"),
    ),
    403: (
        "This caller may not do this",
        (
            "caller_blocked",
            "not_owner",
            "not_your_record",
            "session_key_required",
            "owner_token_required",
            "metrics_token_required",
            "policy",
        ),
    ),
    404: (
        "The member, record, question, boundary, row or session named does not exist",
        (
            "unknown_member",
            "unknown_escalation",
            "unknown_question",
            "unknown_record",
            "unknown_boundary",
            "unknown_row",
            "unknown_session",
            "no_webhook",
            "not_found",
        ),
    ),
    409: (
        "What is named is no longer in a state that allows this",
        (
            "not_defaulted",
            "already_settled",
            "idempotency_key_reused",
            "boundary_in_flight",
            "boundary_closed",
            "boundary_refused",
            "boundary_target_changed",
            "boundary_generation_moved",
            "nothing_to_rewind",
            "unchanged",
            "member_exists",
            "boundary_mid_turn",
        ),
    ),
    413: ("The body is larger than the cap (max_bytes)", ("payload_too_large",)),
    415: (
        "The body is not sent as JSON (Content-Type: application/json)",
        ("unsupported_media_type",),
    ),
    429: (
        "The member has too many open escalations (open_count, limit)",
        ("escalation_backlog_full",),
    ),
    503: (
        "Not possible now (the index is being rebuilt, a boundary was not acknowledged or"
        " did not commit, crewline is not serving yet or is stopping): retry shortly",
        (
            "escalation_index_unavailable",
            "boundary_unacknowledged",
            "boundary_commit_failed",
            "not_serving",
            "shutting_down",
        ),
    ),
}


class ErrorDetail(BaseModel):
    """The error: a stable code, a message built from the value, and details by code (the
    offending ``field``, ``max_bytes``, ``open_count`` …)."""

    model_config = ConfigDict(extra="allow")
    code: str = Field(description="stable; branch on it, never on the message")
    message: str


class ErrorResponse(BaseModel):
    """Every error crewline answers has this shape."""

    model_config = ConfigDict(extra="forbid")
    error: ErrorDetail


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that can answer ``statuses``."""
    return {
        status: {
            "model": ErrorResponse,
            "description": f"{CODES[status][0]}. Codes: "
            + ", ".join(f"`{c}`" for c in CODES[status][1]),
        }
        for status in statuses
    }


_ESCALATION = "/api/session-control/escalations/{escalation_id}"
_FROM_ESCALATE = {"escalation_id": "$response.body#/escalation_id"}
# (path, method) of an operation -> its 200 answer's links: name -> (path, method, parameters).
LINKS: dict[tuple[str, str], dict[str, tuple[str, str, dict[str, str]]]] = {
    ("/api/session-control/escalate", "post"): {
        "GetEscalation": (_ESCALATION, "get", _FROM_ESCALATE),
        "RetractEscalation": (f"{_ESCALATION}/retract", "post", _FROM_ESCALATE),
        "ConfirmDefaultApplied": (f"{_ESCALATION}/default-applied", "post", _FROM_ESCALATE),
    },
    ("/api/session-control/ask", "post"): {
        "AnswerQuestion": (
            "/api/questions/{question_id}/answer",
            "post",
            {"question_id": "$response.body#/question_id"},
        ),
    },
}


def _add_links(schema: dict[str, Any]) -> None:
    paths = schema.get("paths", {})
    for (path, method), links in LINKS.items():
        answer = paths.get(path, {}).get(method, {}).get("responses", {}).get("200")
        if answer is None:
            continue
        answer["links"] = {
            name: {
                "operationRef": "#/paths/"
                + target.replace("~", "~0").replace("/", "~1")
                + f"/{verb}",
                "parameters": parameters,
            }
            for name, (target, verb, parameters) in links.items()
            if verb in paths.get(target, {})
        }


_NOT_JSON = {
    "description": f"{CODES[415][0]}. Codes: `unsupported_media_type`",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
}


def without_422(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` with FastAPI's 422 and its validation-error schemas removed, and the
    links between operations (``LINKS``) added."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            for path in schema.get("paths", {}).values():
                for operation in path.values():
                    responses = operation.get("responses", {})
                    responses.pop("422", None)
                    if "requestBody" in operation:  # refused by api.edge.JsonBodies
                        responses.setdefault("415", _NOT_JSON)
            components = schema.get("components", {}).get("schemas", {})
            components.pop("HTTPValidationError", None)
            components.pop("ValidationError", None)
            _add_links(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    return openapi
