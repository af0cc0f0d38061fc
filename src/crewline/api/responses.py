"""The bodies the HTTP API answers with, as models: ``/openapi.json`` shows each route's real
success body, and FastAPI checks every body against its model before it leaves.

The operations build plain dicts (the MCP tools return the same dicts); a route names its
model with ``response_model=``. Models forbid extra keys, so a field added to a view and
not here fails the tests instead of drifting silently from the documentation.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from crewline.bot.escalations import Delivery
from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    AnswerPolicy,
    CallerKind,
    EscalationState,
    QuestionState,
    ReplyOutcome,
)

__all__ = [
    "AskResponse",
    "AuditResponse",
    "BoundaryAnswerResponse",
    "BoundaryResponse",
    "ConciergeAnswerView",
    "ConversationResponse",
    "DeletedResponse",
    "EscalateResponse",
    "EscalationView",
    "EventView",
    "EventsResponse",
    "ForkResponse",
    "HealthResponse",
    "LedgerResponse",
    "MembersResponse",
    "PolicyResponse",
    "PostResponse",
    "QuestionView",
    "ReadyResponse",
    "RecordAnsweredResponse",
    "ReplyResponse",
    "SendResponse",
    "SessionResponse",
    "StartedResponse",
    "StoppedResponse",
    "SuggestedResponse",
    "TurnResponse",
    "UndoResponse",
    "WebhookView",
]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- the agents' side -------------------------------------------------------------------


class SessionResponse(Body):
    session_id: str
    kind: CallerKind
    member: str | None
    verbs: list[str] = Field(description="every verb the gate lets this session use")


class RoutedToMember(Body):
    member: str = Field(description="the member whose thread shows the card")
    transports: list[str]


class RoutedToTranscript(Body):
    own_transcript: Literal[True] = Field(
        description="a session of no member: kept in its own transcript, shown to nobody"
    )


class EscalateResponse(Body):
    escalation_id: str
    routed_to: RoutedToMember | RoutedToTranscript
    delivery: dict[str, Delivery] = Field(
        description="per transport: queued (in the outbox), delivered (the platform accepted"
        " it) or not_configured (not running here)"
    )
    state: EscalationState | Literal["unindexed"]
    deadline: str | None = Field(description="ISO 8601, UTC")
    note: str = Field(description="what happened, in words, for the agent")


class SendResponse(Body):
    row_id: str
    member: str


class PostResponse(Body):
    row_id: str
    conversation: str


class AskResponse(Body):
    question_id: str
    state: QuestionState
    note: str


class EscalationView(Body):
    escalation_id: str
    row_id: str
    session: str
    message: str
    deadline: str | None
    default_action: str | None
    options: list[str]
    goal: str | None
    state: EscalationState
    answer: str | None
    choice: int | None
    answered_by: AnsweredBy | None
    answered_via: AnsweredVia | None
    default_applied: bool
    window_held: bool = Field(
        description="its answer was taken back (an edit, a rewind, an undo): the window no"
        " longer closes by itself; it waits for the human"
    )
    created_at: str
    settled_at: str | None


class EventView(Body):
    cursor: int
    kind: str
    body: dict[str, Any]
    at: str


class EventsResponse(Body):
    events: list[EventView]
    cursor: int = Field(description="pass it as after= to read on")


class TurnResponse(Body):
    state: Literal["started", "ended"]
    since: str | None = Field(description="when the turn started (ISO 8601), if it has")


class BoundaryAnswerResponse(Body):
    boundary_id: str
    answer: Literal["ack", "nack"]
    waiting_for: list[str] = Field(description="the sessions that have not answered yet")


class WebhookView(Body):
    url: str
    delivered_through: int
    attempts: int
    last_error: str | None
    next_attempt_at: str | None


class DeletedResponse(Body):
    deleted: Literal[True]


# --- the owner's side -------------------------------------------------------------------


class RecentConciergeAnswer(Body):
    text: str
    at: str  # ISO 8601, UTC


class MemberEntry(Body):
    slug: str
    name: str
    needs_you: bool
    pending_escalations: int
    transports: list[str]
    concierge_answer: RecentConciergeAnswer | None  # answered in the last minute, not undone


class MembersResponse(Body):
    members: list[MemberEntry]


class ConversationResponse(Body):
    member: str
    escalations: list[EscalationView]
    needs_you: bool
    pending_escalations: int


class OpenRecord(Body):
    escalation_id: str
    message: str
    options: list[str]


class ReplyResponse(Body):
    accepted: Literal[True]
    outcome: ReplyOutcome | None = Field(
        description="what the reply did: answered, ambiguous (see open), already_settled,"
        " no_open_request"
    )
    escalation_id: str | None
    open: list[OpenRecord]
    notice: str | None


class ForkResponse(Body):
    member: str = Field(description="the new member's slug")
    name: str
    copied: int = Field(description="how many rows of the conversation were copied")
    notice: str


class QuestionView(Body):
    question_id: str
    question: str
    options: list[str]
    dialog: bool
    state: QuestionState
    answer: str | None
    answered_by: AnsweredBy | None


class BoundaryResponse(Body):
    boundary_id: str
    committed: bool
    generation: int | None
    rewound: list[str]
    kept: list[str]
    resent_row: str | None
    answered: str | None = Field(
        description="the escalation the resent text of an edited answer answered, if any"
    )
    retired_questions: list[str]
    notice: str


class PolicyResponse(Body):
    answer: AnswerPolicy
    act: Literal["on", "off"]


class LedgerEntryView(Body):
    id: int
    at: str
    member: str | None
    record_id: str | None
    decision: str
    verdict: str | None
    policy: str
    brain: str
    rationale: str
    evidence: list[str]
    actor: str | None


class ConciergeAnswerView(Body):
    member: str
    record_id: str
    record_kind: str
    text: str
    why: str
    at: str
    undone: bool


class LedgerResponse(Body):
    entries: list[LedgerEntryView]
    answers: list[ConciergeAnswerView]


class AuditEntryView(Body):
    id: str = Field(description="sel:N (a security event) or ledger:N (a concierge decision)")
    at: str
    kind: str = Field(
        description="the event's action (boundary:rewind, escalate:caller_blocked …), or"
        " ledger:<decision> for the concierge's ledger"
    )
    outcome: str | None = Field(description="ok, denied, error or allowed; null for the ledger")
    member: str | None
    actor: str | None
    details: dict[str, Any]


class AuditResponse(Body):
    entries: list[AuditEntryView] = Field(description="oldest first")
    cursor: str = Field(description="pass as after= to read on from the last entry")
    more: bool = Field(description="whether more entries matched than this page holds")


class UndoResponse(Body):
    undone: ConciergeAnswerView
    outcome: str
    notice: str


class SuggestedResponse(Body):
    suggested: Literal[True]
    record_id: str


class RecordAnsweredResponse(Body):
    answered: Literal[True]
    record_id: str


class StoppedResponse(Body):
    done: Literal["stopped"]
    session_id: str


class StartedResponse(Body):
    done: Literal["respawned", "dispatched"]
    session_id: str = Field(description="the new session")
    pid: int | None


# --- operations ---------------------------------------------------------------------------


class HealthResponse(Body):
    status: Literal["ok"]


class ReadyCheck(Body):
    ok: bool
    detail: str


class ReadyResponse(Body):
    status: Literal["ok", "unavailable"]
    failed: list[str] = Field(description="the parts that are not ready")
    checks: dict[str, ReadyCheck]
