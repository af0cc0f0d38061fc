"""/openapi.json tells the truth: each refusal a route answers is documented for that route
with the error model, FastAPI's 422 (never answered) is gone, and the limits are shown."""

from __future__ import annotations

import re
from typing import Any

import pytest

from crewline.api.openapi import CODES, ErrorResponse
from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

ERROR_REF = "#/components/schemas/ErrorResponse"


def _operation(schema: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The operation whose path template matches the concrete ``path``."""
    for template, operations in schema["paths"].items():
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):
            operation: dict[str, Any] = operations[method.lower()]
            return operation
    raise LookupError(f"{method} {path} is not in /openapi.json")


async def test_no_operation_documents_fastapis_422(crew: Crew) -> None:
    """crewline answers validation errors 400 in its own shape, so 422 is not documented."""
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    operations = [op for ops in schema["paths"].values() for op in ops.values()]
    assert len(operations) >= 10
    assert [op["operationId"] for op in operations if "422" in op["responses"]] == []
    assert "HTTPValidationError" not in schema["components"]["schemas"]


async def test_every_api_operation_documents_its_errors_with_the_error_model(crew: Crew) -> None:
    """Each /api operation lists 401 and its other refusals, each with the error model and
    the codes behind the status."""
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    api = {p: ops for p, ops in schema["paths"].items() if p.startswith("/api/")}
    assert len(api) >= 9
    for path, operations in api.items():
        for method, operation in operations.items():
            errors = {s: r for s, r in operation["responses"].items() if s != "200"}
            assert "401" in errors, f"{method} {path}"
            for status, response in errors.items():
                content = response["content"]["application/json"]["schema"]
                assert content == {"$ref": ERROR_REF}, f"{method} {path} {status}"
                for code in CODES[int(status)][1]:
                    assert f"`{code}`" in response["description"]


async def test_the_limits_are_schema_constraints(crew: Crew) -> None:
    """4,000 characters of message, 1..10 distinct options of at most 80."""
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    escalate = schema["components"]["schemas"]["EscalateBody"]["properties"]
    assert escalate["message"]["maxLength"] == 4000
    options = escalate["options"]
    assert (options["maxItems"], options["items"]["maxLength"]) == (10, 80)
    waits = escalate["wait_for_delivery"]
    assert (waits["type"], waits["default"]) == ("boolean", True) and waits["description"]


async def test_each_refusal_answered_is_documented_and_fits_the_error_model(crew: Crew) -> None:
    """Provoke each status on routes that answer it (429, the backlog of 50, is pinned by
    tests/e2e/test_escalations.py); each answer is documented for its route and validates
    against the error model."""
    member = await crew.add_member()
    owner = await crew.owner_token()
    pending = await crew.escalate(member, message="Ship?", options=["yes", "no"])
    escalate = "/api/session-control/escalate"
    cases: list[tuple[str | None, str, str, dict[str, Any], int]] = [
        (member, "POST", escalate, {"json": {"message": "x", "cc": 1}}, 400),
        (None, "POST", escalate, {"json": {"message": "x"}}, 401),
        ("nope", "GET", "/api/session/events", {}, 401),
        (owner, "POST", escalate, {"json": {"message": "x"}}, 403),
        (member, "POST", "/api/members/radar/reply", {"json": {"text": "hi"}}, 403),
        (owner, "GET", "/api/members/ghost/conversation", {}, 404),
        (
            member,
            "POST",
            "/api/session-control/send",
            {"json": {"target": "ghost", "message": "hi"}},
            404,
        ),
        (
            member,
            "POST",
            f"/api/session-control/escalations/{pending['escalation_id']}/default-applied",
            {},
            409,
        ),
        (member, "POST", escalate, {"content": b"{" + b" " * (1024 * 1024 + 1) + b"}"}, 413),
        (member, "GET", "/api/session/events", {"params": {"after": -1}}, 400),
        (owner, "POST", "/api/questions/nope/answer", {"json": {"answer": "x"}}, 404),
    ]
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    for key, method, path, kwargs, status in cases:
        response = await crew.call(key, method, path, **kwargs)
        assert response.status_code == status, f"{method} {path}: {response.text}"
        documented = _operation(schema, method, path)["responses"]
        assert str(status) in documented, f"{method} {path} answers {status} undocumented"
        body = ErrorResponse.model_validate(response.json())
        assert body.error.code in CODES[status][1], f"{method} {path}: {body.error.code}"
