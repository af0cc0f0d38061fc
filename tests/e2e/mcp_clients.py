"""The official MCP SDK's client, connected to crewline three ways: in memory (the server
object itself), over streamable HTTP at /mcp, and over stdio through ``crewline mcp``."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from crewline.api.mcp import AgentVerbs, build_server
from crewline.api.mcp_http import InProcessVerbs
from tests.driver import Crew

__all__ = ["SURFACES", "call", "in_memory", "over_http", "over_stdio"]


@asynccontextmanager
async def in_memory(crew: Crew, key: str) -> AsyncIterator[Client]:
    """The SDK's client connected in-process to the server, acting as ``key``'s session."""
    operations = crew.crewline.mcp.operations
    verbs = InProcessVerbs(operations, await operations.authenticate(key))

    async def verbs_of(_: Any) -> AgentVerbs:
        return verbs

    async with Client(build_server(verbs_of)) as client:
        yield client


@asynccontextmanager
async def over_http(crew: Crew, key: str | None) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(f"{crew.url}/mcp", http_client=http)) as client,
    ):
        yield client


@asynccontextmanager
async def over_stdio(crew: Crew, key: str, *, url: str | None = None) -> AsyncIterator[Client]:
    env = {**os.environ, "CREWLINE_SESSION_KEY": key, "CREWLINE_URL": url or crew.url}
    params = StdioServerParameters(command=sys.executable, args=["-m", "crewline", "mcp"], env=env)
    async with Client(params, read_timeout_seconds=30) as client:
        yield client


SURFACES: dict[str, Callable[[Crew, str], AbstractAsyncContextManager[Client]]] = {
    "memory": in_memory,
    "http": over_http,
    "stdio": over_stdio,
}


async def call(client: Client, tool: str, **arguments: Any) -> tuple[bool, dict[str, Any]]:
    """(is_error, the JSON body) of one tool call; the text and structured content agree."""
    result = await client.call_tool(tool, arguments)
    [content] = result.content
    body = json.loads(content.text)  # type: ignore[union-attr]
    assert body == result.structured_content
    return result.is_error, body
