"""What the agents' verbs answer, as typed values.

Read-only pydantic models that ignore fields they do not know, so a client keeps working
against a newer crewline that answers with more.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = [
    "Acted",
    "Asked",
    "Escalated",
    "EscalationRecord",
    "Event",
    "EventPage",
    "Posted",
    "Replied",
    "Sent",
    "SessionInfo",
    "Suggested",
]


class _Result(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Escalated(_Result):
    """An accepted escalation: its id, where it was routed, what became of its card on each
    transport (``delivered``, ``queued``, ``not_configured``), and the note on what wakes you."""

    escalation_id: str
    routed_to: dict[str, Any]
    delivery: dict[str, str] = {}
    state: str
    deadline: str | None = None
    note: str | None = None


class Sent(_Result):
    row_id: str
    member: str


class Posted(_Result):
    row_id: str
    conversation: str


class Asked(_Result):
    """A question card raised; its answer arrives as a ``question_answered`` event."""

    question_id: str
    state: str
    note: str | None = None


class EscalationRecord(_Result):
    """An escalation as crewline keeps it: its state, and who answered what, when."""

    escalation_id: str
    row_id: str | None = None
    session: str | None = None
    state: str
    message: str
    deadline: str | None = None
    default_action: str | None = None
    options: list[str] = []
    goal: str | None = None
    answer: str | None = None
    choice: int | None = None
    answered_by: str | None = None
    answered_via: str | None = None  # chip, text, suggestion, concierge or edit
    default_applied: bool = False
    window_held: bool = False  # its answer was taken back: it waits for the human
    created_at: str | None = None
    settled_at: str | None = None


class Event(_Result):
    """One entry of the session's event stream; ``cursor`` orders it."""

    cursor: int
    kind: str
    body: dict[str, Any]
    at: str


class EventPage(_Result):
    """Events after a cursor, and the cursor to pass back next."""

    events: list[Event]
    cursor: int


class SessionInfo(_Result):
    """The session a key stands for, and the verbs crewline's gate lets it use."""

    session_id: str
    kind: str
    member: str | None = None
    verbs: list[str] = []


class Suggested(_Result):
    """hub_suggest: a suggestion left on a waiting record; nothing was answered."""

    suggested: bool
    record_id: str


class Replied(_Result):
    """hub_reply: the record was answered on the human's behalf."""

    answered: bool
    record_id: str


class Acted(_Result):
    """hub_stop / hub_respawn / hub_dispatch: what was done, to or as which session, and
    the launched process's id (respawn and dispatch)."""

    done: str
    session_id: str
    pid: int | None = None
