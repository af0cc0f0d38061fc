"""``crewline mcp``: the MCP tools over stdio, each call made to crewline's HTTP API.

For agents that launch their MCP servers as subprocesses (Claude Code, most desktop
clients): the session key and crewline's URL come from the command line or the
environment, and every tool call is one request of ``crewline.client``.
"""

from __future__ import annotations

from typing import Any

from mcp.server import ServerRequestContext
from mcp.server.stdio import stdio_server

from crewline.api.mcp import AgentVerbs, build_server
from crewline.api.schemas import (
    AskBody,
    CheckEventsArgs,
    DefaultAppliedArgs,
    EscalateBody,
    HubAnswerBody,
    HubDispatchBody,
    HubRespawnBody,
    HubStopBody,
    PostBody,
    SendBody,
)
from crewline.client import Client

__all__ = ["ClientVerbs", "serve_stdio"]


class ClientVerbs:
    """The verbs over HTTP with the Python client (its typed results as plain JSON)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self._granted: frozenset[str] | None = None

    async def escalate(self, body: EscalateBody, key: str | None) -> dict[str, Any]:
        escalated = await self.client.escalate(**body.model_dump(), idempotency_key=key)
        return escalated.model_dump()

    async def send(self, body: SendBody, key: str | None) -> dict[str, Any]:
        sent = await self.client.send(body.target, body.message, idempotency_key=key)
        return sent.model_dump()

    async def ask(self, body: AskBody, key: str | None) -> dict[str, Any]:
        asked = await self.client.ask(
            body.question, options=body.options, dialog=body.dialog, idempotency_key=key
        )
        return asked.model_dump()

    async def post(self, body: PostBody, key: str | None) -> dict[str, Any]:
        return (await self.client.post(body.text, idempotency_key=key)).model_dump()

    async def default_applied(self, args: DefaultAppliedArgs) -> dict[str, Any]:
        return (await self.client.default_applied(args.escalation_id)).model_dump()

    async def check_events(self, args: CheckEventsArgs) -> dict[str, Any]:
        return (await self.client.poll(after=args.after, wait=args.wait)).model_dump()

    async def granted(self) -> frozenset[str]:
        """Asked of crewline once (a key's kind never changes); a failure is raised, and
        asked again at the next listing."""
        if self._granted is None:
            self._granted = frozenset((await self.client.whoami()).verbs)
        return self._granted

    async def hub_suggest(self, body: HubAnswerBody) -> dict[str, Any]:
        return (await self.client.hub_suggest(body.record_id, body.text, why=body.why)).model_dump(
            exclude_unset=True
        )

    async def hub_reply(self, body: HubAnswerBody) -> dict[str, Any]:
        return (await self.client.hub_reply(body.record_id, body.text, why=body.why)).model_dump(
            exclude_unset=True
        )

    async def hub_stop(self, body: HubStopBody) -> dict[str, Any]:
        return (await self.client.hub_stop(body.session_id, why=body.why)).model_dump(
            exclude_unset=True
        )

    async def hub_respawn(self, body: HubRespawnBody) -> dict[str, Any]:
        return (
            await self.client.hub_respawn(body.session_id, body.launcher, why=body.why)
        ).model_dump(exclude_unset=True)

    async def hub_dispatch(self, body: HubDispatchBody) -> dict[str, Any]:
        return (
            await self.client.hub_dispatch(body.launcher, why=body.why, member=body.member)
        ).model_dump(exclude_unset=True)


async def serve_stdio(client: Client) -> None:
    """Serve the tools on this process's stdin/stdout until the client hangs up."""
    verbs = ClientVerbs(client)

    async def verbs_of(_: ServerRequestContext[Any, Any]) -> AgentVerbs:
        return verbs

    server = build_server(verbs_of)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
