"""The agents' verbs as MCP tools, on the official SDK's low-level server.

One server definition, two ways in: over stdio (``crewline mcp``) the tools call crewline's
HTTP API with ``crewline.client``; over streamable HTTP at ``/mcp`` on crewline's own server
they call the operations in-process, as the session whose bearer key the request carries.

The low-level server, not the decorator API: the tools' input schemas are the JSON schemas
of the very models the HTTP API validates (``crewline.api.schemas``), and arguments are
validated with them, so an unknown argument gets ``unknown_field`` exactly as an unknown
body field does over HTTP. No tool waits on a human and none asks the client for anything
(no elicitation, no sampling): a client that declares no capability gets every tool.

Each tool is one verb of crewline's gate (``crewline.policy``): a session is listed only the
tools whose verb the gate grants its kind (the ``hub_*`` tools only to a session of kind
``concierge``), and a call of any tool is still decided by the service, which refuses and
audits exactly as over HTTP. A listing that cannot learn what the gate grants fails rather
than guess.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import find_invalid_x_mcp_header, x_mcp_header_map
from pydantic import BaseModel, ValidationError

from crewline import __version__
from crewline.api.schemas import (
    MAX_TOOL_WAIT,
    AskArgs,
    AskBody,
    CheckEventsArgs,
    DefaultAppliedArgs,
    EscalateArgs,
    EscalateBody,
    HubAnswerBody,
    HubDispatchBody,
    HubRespawnBody,
    HubStopBody,
    Keyed,
    PostArgs,
    PostBody,
    SendArgs,
    SendBody,
    refusal,
)
from crewline.errors import CrewlineError, InvalidInput, NotFound
from crewline.policy import Verb

__all__ = ["TOOLS", "AgentVerbs", "Tool", "build_server"]

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "crewline lets you reach your human through their chat. No tool here waits for a human: "
    "session_escalate and ask_question return an id at once, and the answer arrives later as "
    "an event. Nothing wakes you when an answer or a deadline comes: call check_events "
    "(pass back the cursor it returns) whenever you want to know."
)


class AgentVerbs(Protocol):
    """What the tools call: crewline's verbs for one session, in-process or over HTTP.

    Each returns the HTTP API's JSON answer for the verb and raises ``CrewlineError``; a
    write's ``key`` is the HTTP API's ``Idempotency-Key``."""

    async def escalate(self, body: EscalateBody, key: str | None) -> dict[str, Any]: ...

    async def send(self, body: SendBody, key: str | None) -> dict[str, Any]: ...

    async def ask(self, body: AskBody, key: str | None) -> dict[str, Any]: ...

    async def post(self, body: PostBody, key: str | None) -> dict[str, Any]: ...

    async def default_applied(self, args: DefaultAppliedArgs) -> dict[str, Any]: ...

    async def check_events(self, args: CheckEventsArgs) -> dict[str, Any]: ...

    async def granted(self) -> frozenset[str]:
        """The names of the verbs crewline's gate lets this session use."""
        ...

    async def hub_suggest(self, body: HubAnswerBody) -> dict[str, Any]: ...

    async def hub_reply(self, body: HubAnswerBody) -> dict[str, Any]: ...

    async def hub_stop(self, body: HubStopBody) -> dict[str, Any]: ...

    async def hub_respawn(self, body: HubRespawnBody) -> dict[str, Any]: ...

    async def hub_dispatch(self, body: HubDispatchBody) -> dict[str, Any]: ...


@functools.cache
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()


@functools.cache
def _header_schema(model: type[BaseModel]) -> dict[str, Any] | None:
    """The schema the SDK checks a call's ``Mcp-Param-*`` headers against, or None when it
    declares no such header (no valid ``x-mcp-header``), where the check would find nothing.

    The SDK asks for it on every call and walks it whole each time (about a tenth of the
    loop's CPU per call); with None it skips the walk, and the outcome is the same."""
    schema = _schema(model)
    if find_invalid_x_mcp_header(schema) is not None or not x_mcp_header_map(schema):
        return None
    return schema


B = TypeVar("B", bound=BaseModel)


def _body(model: type[B], args: Keyed) -> B:
    """The HTTP body inside a write's arguments (already validated: nothing is checked again)."""
    return model.model_construct(**args.model_dump(exclude={"idempotency_key"}))


_RETRY = (
    " Pass idempotency_key (one per intended write, e.g. a UUID) to make a retry safe: the "
    "same key within 24 hours returns the first result and writes nothing new."
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Tool:
    name: str
    verb: Verb
    arguments: type[BaseModel]
    description: str
    call: Callable[[AgentVerbs, Any], Awaitable[dict[str, Any]]]
    read_only: bool = False
    destructive: bool = False

    @property
    def input_schema(self) -> dict[str, Any]:
        return _schema(self.arguments)

    def listed(self) -> types.Tool:
        return types.Tool(
            name=self.name,
            description=self.description,
            input_schema=self.input_schema,
            annotations=types.ToolAnnotations(
                read_only_hint=self.read_only,
                destructive_hint=self.destructive,
                open_world_hint=False,
            ),
        )


def _check_wait(verbs: AgentVerbs, args: CheckEventsArgs) -> Awaitable[dict[str, Any]]:
    if not 0 <= args.wait <= MAX_TOOL_WAIT:
        raise InvalidInput(
            f"wait must be 0..{MAX_TOOL_WAIT:g} seconds", code="invalid_wait", field="wait"
        )
    return verbs.check_events(args)


TOOLS: tuple[Tool, ...] = (
    Tool(
        name="session_escalate",
        verb=Verb.SESSION_ESCALATE,
        arguments=EscalateArgs,
        description=(
            "Raise a decision to your human without waiting: returns an escalation_id at once "
            "while a card with your message (and options as buttons) goes to their chat. "
            "The answer arrives later as an escalation_answered event; read it with "
            "check_events. With a deadline (ISO 8601 time with a zone, or a duration such as "
            "PT30M) the window closes at that time and a window_closed event says so, but "
            "nothing wakes you then: call check_events after the deadline. default_action "
            "(only with a deadline) is what you will do if nobody answers; once you did it, "
            "call default_applied. The reply's delivery says per transport whether the card "
            "was shown (delivered), is still in the outbox (queued) or cannot be sent here "
            "(not_configured); it waits up to a quarter of a second to say delivered, and "
            "wait_for_delivery=false answers at once with queued." + _RETRY
        ),
        call=lambda verbs, args: verbs.escalate(_body(EscalateBody, args), args.idempotency_key),
    ),
    Tool(
        name="session_send",
        verb=Verb.SESSION_SEND,
        arguments=SendArgs,
        description=(
            "Post a message into another member's thread (target: its slug); returns at "
            "once and waits for no reply." + _RETRY
        ),
        call=lambda verbs, args: verbs.send(_body(SendBody, args), args.idempotency_key),
    ),
    Tool(
        name="ask_question",
        verb=Verb.ASK_QUESTION,
        arguments=AskArgs,
        description=(
            "Put a question card in your thread; returns a question_id at once and does "
            "not wait for the answer. The answer arrives as a question_answered event: call "
            "check_events to read it. dialog=true makes it a dialog only your human (never "
            "the concierge) may answer." + _RETRY
        ),
        call=lambda verbs, args: verbs.ask(_body(AskBody, args), args.idempotency_key),
    ),
    Tool(
        name="session_post",
        verb=Verb.SESSION_POST,
        arguments=PostArgs,
        description=(
            "Post a line into your own thread (your member's, or your own transcript): "
            "progress, or that you are done. Returns at once; it asks nobody anything, so no "
            "answer comes back (use ask_question or session_escalate for that)." + _RETRY
        ),
        call=lambda verbs, args: verbs.post(_body(PostBody, args), args.idempotency_key),
    ),
    Tool(
        name="check_events",
        verb=Verb.READ_EVENTS,
        arguments=CheckEventsArgs,
        description=(
            "Read your events (answers, window closings, messages) after the cursor 'after' "
            "(0 the first time; then pass back the cursor this returns). Waits at most "
            f"'wait' seconds (0..{MAX_TOOL_WAIT:g}) for the first event and then returns, "
            "possibly with none. This is the only way answers and deadlines reach you."
        ),
        call=_check_wait,
        read_only=True,
    ),
    Tool(
        name="default_applied",
        verb=Verb.CONFIRM_DEFAULT,
        arguments=DefaultAppliedArgs,
        description=(
            "After a window_closed event with state 'defaulted', confirm you ran the default "
            "action, so the card says it ran. Returns at once."
        ),
        call=lambda verbs, args: verbs.default_applied(args),
    ),
    # The concierge's verbs: listed only for a session of kind concierge.
    Tool(
        name="hub_suggest",
        verb=Verb.HUB_SUGGEST,
        arguments=HubAnswerBody,
        description=(
            "Concierge only. Leave a suggested answer on a member's waiting escalation or "
            "question (record_id); the human sees it with Send / Edit / Dismiss. Answers "
            "nothing and returns at once; what the human does with it arrives in the ledger."
        ),
        call=lambda verbs, args: verbs.hub_suggest(args),
    ),
    Tool(
        name="hub_reply",
        verb=Verb.HUB_REPLY,
        arguments=HubAnswerBody,
        description=(
            "Concierge only. Answer a member's waiting escalation or question on the human's "
            "behalf; returns at once. crewline judges the question itself: refused with "
            "'policy' under the owner's policy 'never' or when its gate does not allow an "
            "answer, and with 'bad_request' for a dialog (only the human answers those), a "
            "record that waits for nothing, or a /command or !shell line."
        ),
        call=lambda verbs, args: verbs.hub_reply(args),
    ),
    Tool(
        name="hub_stop",
        verb=Verb.HUB_STOP,
        arguments=HubStopBody,
        description=(
            "Concierge only, and only with the owner's 'act on'. Stop another session: it "
            "gets a stop event and its key stops working. Returns at once; never on yourself."
        ),
        call=lambda verbs, args: verbs.hub_stop(args),
        destructive=True,
    ),
    Tool(
        name="hub_respawn",
        verb=Verb.HUB_RESPAWN,
        arguments=HubRespawnBody,
        description=(
            "Concierge only, and only with 'act on'. Stop a session and start the named "
            "launcher as its successor with a fresh key. Returns at once with the new "
            "session's id and process id; it does not wait for the process."
        ),
        call=lambda verbs, args: verbs.hub_respawn(args),
        destructive=True,
    ),
    Tool(
        name="hub_dispatch",
        verb=Verb.HUB_DISPATCH,
        arguments=HubDispatchBody,
        description=(
            "Concierge only, and only with 'act on'. Start the named launcher as a new worker "
            "of a member (or a plain session). Returns at once with the new session's id and "
            "process id; it does not wait for the process."
        ),
        call=lambda verbs, args: verbs.hub_dispatch(args),
    ),
)

_BY_NAME = {tool.name: tool for tool in TOOLS}

VerbsOf = Callable[[ServerRequestContext[Any, Any]], Awaitable[AgentVerbs]]
"""How a server finds the session a tool call acts for (fixed over stdio; per request
over HTTP)."""


def build_server(verbs_of: VerbsOf) -> Server[Any]:
    """The MCP server: list the tools, validate each call's arguments, run the verb."""

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        try:
            allowed = await (await verbs_of(ctx)).granted()
        except CrewlineError as error:  # without the gate's answer, nothing is listed
            raise MCPError(
                types.INTERNAL_ERROR,
                f"crewline could not say which tools this session may use: {error.message}",
                {"code": error.code},
            ) from None
        return types.ListToolsResult(
            tools=[tool.listed() for tool in TOOLS if tool.verb.value in allowed]
        )

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            tool = _BY_NAME.get(params.name)
            if tool is None:
                raise NotFound(f"no tool named {params.name[:80]!r}", code="unknown_tool")
            try:
                arguments = tool.arguments.model_validate(params.arguments or {})
            except ValidationError as error:
                raise refusal(error.errors()) from None
            result = await tool.call(await verbs_of(ctx), arguments)
        except CrewlineError as error:
            details = dict(error.details)
            if details.get("field") == "Idempotency-Key":  # here it is an argument
                details["field"] = "idempotency_key"
            return _answer(
                {"error": {"code": error.code, "message": error.message, **details}}, error=True
            )
        except Exception:  # a fault of crewline's: logged whole, never shown to the agent
            log.exception("the MCP tool %s failed", params.name[:80])
            message = (
                f"crewline failed on the tool {params.name[:80]!r}; this is not your call's"
                " fault, and the server's log has the details"
            )
            return _answer({"error": {"code": "internal_error", "message": message}}, error=True)
        return _answer(result)

    return Server(
        "crewline",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=lambda name: (
            _header_schema(_BY_NAME[name].arguments) if name in _BY_NAME else None
        ),
    )


def _answer(body: Mapping[str, Any], *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(body, ensure_ascii=False))],
        structured_content=dict(body),
        is_error=error,
    )
