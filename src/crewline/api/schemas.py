"""The agents' request models, shared by the HTTP API, the MCP tools and the Python client.

One declaration per verb: the HTTP routes validate bodies with these, the MCP server hands
their JSON schemas out as tool input schemas and validates arguments with them, and the
client builds its requests from them. Only pydantic is imported here, so the client needs no
web framework. ``refusal`` turns pydantic's errors into crewline's stable codes, so an
unknown field is ``unknown_field`` on every surface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from crewline.errors import InvalidInput
from crewline.limits import MAX_MESSAGE, MAX_OPTION_LENGTH, MAX_OPTIONS

__all__ = [
    "IDEMPOTENCY_KEY",
    "AnswerBody",
    "AskArgs",
    "AskBody",
    "BoundaryBody",
    "CheckEventsArgs",
    "DefaultAppliedArgs",
    "EscalateArgs",
    "EscalateBody",
    "ForkBody",
    "HubAnswerBody",
    "HubDispatchBody",
    "HubRespawnBody",
    "HubStopBody",
    "Keyed",
    "NackBody",
    "PostArgs",
    "PostBody",
    "ReplyBody",
    "SendArgs",
    "SendBody",
    "Strict",
    "TurnBody",
    "WebhookBody",
    "refusal",
]

MAX_TOOL_WAIT = 20.0
IDEMPOTENCY_KEY = (
    "A retry with the same key within 24 hours returns the first response and writes nothing"
    " (1..255 printable ASCII characters)."
)

VALIDATION_CODES = {
    "extra_forbidden": "unknown_field",
    "json_invalid": "malformed_json",
    "missing": "missing_field",
    "model_attributes_type": "invalid_type",
    "model_type": "invalid_type",
    "dict_type": "invalid_type",
    "invalid_text": "invalid_text",
}

# An unknown field is named even when a required one is missing too: it is the mistake the
# caller cannot see from the error of the other.
_PRIORITY = {"json_invalid": 0, "extra_forbidden": 1, "missing": 2}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="after")
    @classmethod
    def _encodable(cls, value: Any) -> Any:
        """Text must be storable: JSON may escape a lone surrogate, which UTF-8 cannot hold."""
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and not _is_utf8(text):
                raise PydanticCustomError("invalid_text", "text is not valid Unicode")
        return value


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class EscalateBody(Strict):
    """The limits in ``json_schema_extra`` are shown in /openapi.json and enforced by the
    core, which refuses with its own codes (``message_too_long``, ``invalid_options`` …)."""

    message: str = Field(json_schema_extra={"minLength": 1, "maxLength": MAX_MESSAGE})
    deadline: str | None = Field(
        default=None, description="ISO 8601 time with zone, or a duration such as PT30M"
    )
    default_action: str | None = Field(
        default=None,
        description="what happens when the deadline passes unanswered; needs a deadline",
        json_schema_extra={"minLength": 1, "maxLength": MAX_MESSAGE},
    )
    options: list[str] | None = Field(
        default=None,
        description="the answers offered as buttons",
        json_schema_extra={
            "minItems": 1,
            "maxItems": MAX_OPTIONS,
            "uniqueItems": True,
            "items": {"type": "string", "minLength": 1, "maxLength": MAX_OPTION_LENGTH},
        },
    )
    goal: str | None = None
    wait_for_delivery: bool = Field(
        default=True,
        description=(
            "wait (at most a quarter of a second) for the platforms to accept the card, so"
            " that delivery can say delivered; false: answer at once, each configured"
            " transport queued (the card is sent all the same)"
        ),
    )


class SendBody(Strict):
    target: str
    message: str


class PostBody(Strict):
    text: str


class AskBody(Strict):
    question: str
    options: list[str] | None = None
    dialog: bool = False


class ReplyBody(Strict):
    text: str
    escalation_id: str | None = Field(default=None, description="at most one record")


class AnswerBody(Strict):
    answer: str


class WebhookBody(Strict):
    url: str = Field(description="http(s); not crewline itself")
    secret: str = Field(description="16..256 characters; signs each delivery (HMAC-SHA256)")
    after: int | None = Field(
        default=None,
        description="deliver the events after this cursor (default: where an earlier"
        " registration stopped, else the next event)",
    )


class NackBody(Strict):
    reason: str


class ForkBody(Strict):
    slug: str = Field(max_length=64, description="the new member's slug (a-z, 0-9, dashes)")
    row_id: str | None = Field(
        default=None, max_length=64, description="copy up to this row (default: your last message)"
    )
    steps: int | None = Field(default=None, description="copy up to your N-th last message")


class TurnBody(Strict):
    state: Literal["started", "ended"] = Field(
        description="started: the session is in the middle of a turn; ended: it is not"
    )


class BoundaryBody(Strict):
    kind: str = Field(description="rewind | edit | regenerate | reset")
    row_id: str | None = Field(
        default=None, description="rewind: the row to continue from; edit: the edited row"
    )
    steps: int | None = Field(default=None, description="rewind: to your N-th last message")
    text: str | None = Field(default=None, description="edit: the new text")


class HubAnswerBody(Strict):
    record_id: str = Field(max_length=64, description="an escalation's or a question's id")
    text: str
    why: str = ""


class HubStopBody(Strict):
    session_id: str = Field(max_length=64)
    why: str


class HubRespawnBody(Strict):
    session_id: str = Field(max_length=64)
    launcher: str = Field(description="a [launchers.NAME] of crewline.toml")
    why: str


class HubDispatchBody(Strict):
    launcher: str = Field(description="a [launchers.NAME] of crewline.toml")
    member: str | None = Field(default=None, description="the member it works for")
    why: str


class Keyed(Strict):
    """An MCP write's arguments: the HTTP body's fields, and the ``Idempotency-Key`` header
    as the argument ``idempotency_key`` (the same rule, the same store)."""

    idempotency_key: str | None = Field(default=None, description=IDEMPOTENCY_KEY)


class EscalateArgs(EscalateBody, Keyed):
    pass


class SendArgs(SendBody, Keyed):
    pass


class AskArgs(AskBody, Keyed):
    pass


class PostArgs(PostBody, Keyed):
    pass


class DefaultAppliedArgs(Strict):
    """The MCP tool's arguments; over HTTP the id is the path parameter of the same name."""

    escalation_id: str = Field(max_length=64)


class CheckEventsArgs(Strict):
    """The MCP tool's arguments; over HTTP these are the query parameters of the same names.

    The wait is shorter than the HTTP API's 60 s so that a tool call never nears an MCP
    client's own time limit."""

    after: int = Field(default=0, description="the cursor returned by the previous call")
    wait: float = Field(
        default=0.0,
        description=f"seconds to wait for the first event, 0..{MAX_TOOL_WAIT:g}",
    )


# A query parameter (or tool argument) that is not even of its type gets the code its range
# check gives, so ``after=abc`` and ``after=-1`` are one mistake to the caller.
_PARAMETER_CODES = {
    "after": ("invalid_cursor", "a cursor (a whole number, 0 or more)"),
    "wait": ("invalid_wait", "a number of seconds"),
    "limit": ("invalid_limit", "a whole number in its range"),
}


def refusal(errors: Sequence[Mapping[str, Any]], *, document: str | None = None) -> InvalidInput:
    """The one InvalidInput, with a stable code, for a list of pydantic validation errors.

    ``document``: the body as received, so a JSON syntax error can say its line and column."""
    first = min(errors, key=lambda e: _PRIORITY.get(e["type"], len(_PRIORITY)))
    code = VALIDATION_CODES.get(first["type"], "invalid_type")
    location = [
        str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")
    ]
    if code == "malformed_json":  # the location is a character offset, not a field
        return InvalidInput(_syntax_error(first, document), code="malformed_json")
    field = ".".join(location) or None
    if code == "missing_field" and field is None:
        return InvalidInput(
            "the body is empty: this call takes a JSON object", code="malformed_json"
        )
    if code == "invalid_type" and field in _PARAMETER_CODES:
        code, what = _PARAMETER_CODES[field]
        shown = str(first.get("input", ""))[:40]
        return InvalidInput(f"{field} must be {what}, got {shown!r}", code=code, field=field)
    if code == "unknown_field":
        message = f"unknown field {field!r}: this verb does not take it"
    elif code == "missing_field":
        message = f"field {field!r} is required"
    else:
        message = f"{field or 'the body'}: {first['msg']}"
    if field is None:  # the body as a whole (not an object): no field to name
        return InvalidInput(message, code=code)
    return InvalidInput(message, code=code, field=field)


def _syntax_error(error: Mapping[str, Any], document: str | None) -> str:
    """What is wrong with a body that is not JSON, and where (line and column, from 1)."""
    why = str((error.get("ctx") or {}).get("error") or "invalid JSON")
    offset = next((p for p in reversed(error.get("loc", ())) if isinstance(p, int)), None)
    if offset is None or document is None:
        return f"the body is not valid JSON: {why}"
    before = document[:offset]
    line = before.count("\n") + 1
    column = offset - (before.rfind("\n") + 1) + 1
    return f"the body is not valid JSON: {why} at line {line}, column {column}"
