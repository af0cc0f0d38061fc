"""The schema crewline gives the SDK for its ``Mcp-Param-*`` header check: a tool whose
arguments declare no such header gets None, so the SDK skips a walk that could refuse
nothing, and one that declares a header gets its schema, so the check still runs."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.shared.inbound import validate_mcp_param_headers
from pydantic import BaseModel, Field

from crewline.api.mcp import TOOLS, _header_schema

# Headers a client might send with any call: a declared-looking one, a duplicate, junk.
HEADERS = [
    {},
    {"mcp-param-message": "Ship?"},
    {"mcp-param-goal": "=?base64?not-base64?="},
    {"mcp-param-x": "1", "Mcp-Param-X": "2"},
]


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_a_tool_declaring_no_header_skips_a_check_that_refuses_nothing(tool: Any) -> None:
    assert _header_schema(tool.arguments) is None
    arguments = {"message": "Ship?", "goal": "g", "x": 1}
    for headers in HEADERS:  # the SDK's own check, on the whole schema: never a refusal
        assert validate_mcp_param_headers(tool.input_schema, arguments, headers) is None


class _Routed(BaseModel):
    region: str = Field(json_schema_extra={"x-mcp-header": "Region"})


class _Misdeclared(BaseModel):
    region: list[str] = Field(json_schema_extra={"x-mcp-header": "Region"})


def test_a_declared_header_keeps_its_check() -> None:
    schema = _header_schema(_Routed)
    assert schema is not None
    refused = validate_mcp_param_headers(schema, {"region": "eu"}, {"mcp-param-region": "us"})
    assert refused is not None
    assert validate_mcp_param_headers(schema, {"region": "eu"}, {"mcp-param-region": "eu"}) is None
    # A header on a list is invalid, and the SDK then checks nothing: None says the same.
    assert _header_schema(_Misdeclared) is None
