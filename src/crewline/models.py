"""Frozen values shared by every part of crewline.

The core passes these, never platform payloads or database rows. Times are aware UTC
datetimes; the store keeps them as epoch seconds.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

__all__ = [
    "FINAL_KINDS",
    "KEY_REVOKED",
    "SLUG_PATTERN",
    "AnswerPolicy",
    "AnsweredBy",
    "AnsweredVia",
    "Bell",
    "BellLine",
    "Button",
    "CallerKind",
    "Clock",
    "ConciergeAnswer",
    "ConciergePolicy",
    "Escalation",
    "EscalationState",
    "Event",
    "HumanClick",
    "HumanCommand",
    "HumanEdit",
    "HumanEvent",
    "HumanMessage",
    "Identity",
    "LedgerEntry",
    "Member",
    "OutboundMessage",
    "Question",
    "QuestionState",
    "Receipt",
    "RecentAnswer",
    "ReplyOutcome",
    "RosterEntry",
    "Row",
    "RowRole",
    "Session",
    "Suggestion",
    "SystemClock",
    "is_slug",
    "new_id",
]

SLUG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


def new_id() -> str:
    """A short random id, safe in URLs and button payloads (16 hex characters, 64 bits)."""
    return secrets.token_hex(8)


def is_slug(value: str) -> bool:
    """A slug is lowercase letters, digits and dashes, 1..63 long, not starting with a dash."""
    return bool(SLUG_PATTERN.fullmatch(value))


class Clock(Protocol):
    """Where the core reads the time; tests inject one they can move."""

    def now(self) -> datetime: ...

    async def sleep_until(self, when: datetime) -> None:
        """Return once this clock reads ``when`` or later (a timer on this clock's time)."""
        ...


class SystemClock:
    """The wall clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, when: datetime) -> None:
        await asyncio.sleep(max(0.0, (when - self.now()).total_seconds()))


class CallerKind(StrEnum):
    MEMBER = "member"
    WORKER = "worker"
    CHANNEL = "channel"
    CONDUCTOR = "conductor"
    PLAIN = "plain"
    CONCIERGE = "concierge"  # an external concierge: the hub_* verbs


class RowRole(StrEnum):
    MEMBER = "member"  # the member agent (or its worker) speaking in its thread
    HUMAN = "human"  # a person on a transport
    AGENT = "agent"  # another session sending into this thread (session_send)
    ESCALATION = "escalation"  # a card row
    QUESTION = "question"  # a blocking question card row
    SYSTEM = "system"  # crewline's own words in the thread (e.g. the ambiguity notice)


class EscalationState(StrEnum):
    PENDING = "pending"
    ANSWERED = "answered"
    DEFAULTED = "defaulted"
    EXPIRED = "expired"
    RETRACTED = "retracted"


class QuestionState(StrEnum):
    WAITING = "waiting"
    ANSWERED = "answered"
    CANCELLED = "cancelled"


class AnsweredBy(StrEnum):
    USER = "user"
    CONCIERGE = "concierge"


class AnsweredVia(StrEnum):
    CHIP = "chip"
    TEXT = "text"
    SUGGESTION = "suggestion"  # the human sent the concierge's suggestion
    CONCIERGE = "concierge"  # the concierge answered by itself
    EDIT = "edit"  # the human edited the message that had answered it (SPEC §5 rule 5)


@dataclass(frozen=True, kw_only=True, slots=True)
class Identity:
    """A human's account on one platform, written ``platform:user_id``."""

    platform: str
    user_id: str

    @classmethod
    def parse(cls, text: str) -> Identity:
        platform, sep, user_id = text.partition(":")
        if not sep or not platform or not user_id:
            raise ValueError(f"an owner is written PLATFORM:USER_ID, got {text!r}")
        return cls(platform=platform, user_id=user_id)

    def __str__(self) -> str:
        return f"{self.platform}:{self.user_id}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Member:
    slug: str
    name: str
    owner: int  # the human who owns this member
    transports: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Session:
    id: str
    kind: CallerKind
    member: str | None  # the member it speaks for (own member, or the creating member)
    parent: str | None = None
    stateless: bool = False  # re-reads its transcript every turn: holds no context to discard
    turn_since: datetime | None = None  # it said it is in the middle of a turn, since then


@dataclass(frozen=True, kw_only=True, slots=True)
class Row:
    """One transcript entry. Identity is ``id``; order is ``seq`` within a conversation."""

    id: str
    conversation: str
    generation: int
    seq: int
    role: RowRole
    author: str
    text: str
    meta: Mapping[str, Any] = field(default_factory=dict)
    created_at: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class Escalation:
    id: str
    member: str
    row_id: str
    session: str
    message: str
    deadline: datetime | None = None
    default_action: str | None = None
    options: tuple[str, ...] = ()
    goal: str | None = None
    state: EscalationState = EscalationState.PENDING
    answer: str | None = None
    choice: int | None = None
    answered_by: AnsweredBy | None = None
    answered_via: AnsweredVia | None = None
    answer_row_id: str | None = None
    default_applied: bool = False
    # Its answer was taken back (an edit, a rewind, an undo): the window no longer closes
    # by itself, and the record waits for the human (SPEC §5 rule 5).
    window_held: bool = False
    created_at: datetime
    settled_at: datetime | None = None

    @property
    def is_pending(self) -> bool:
        return self.state is EscalationState.PENDING

    @property
    def window_open(self) -> bool:
        """Whether a veto window of this record can still close by itself."""
        return self.is_pending and self.deadline is not None and not self.window_held


@dataclass(frozen=True, kw_only=True, slots=True)
class BellLine:
    """What a bell says of one open escalation, read alone: each ring reads every open one
    of its member again, and the whole record's other fields would be decoded for nothing."""

    message: str
    deadline: datetime | None = None
    default_action: str | None = None
    options: tuple[str, ...] = ()
    window_held: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Question:
    """A blocking question card; a dialog is one only the human may answer."""

    id: str
    member: str | None
    session: str
    row_id: str
    question: str
    options: tuple[str, ...] = ()
    dialog: bool = False
    state: QuestionState = QuestionState.WAITING
    answer: str | None = None
    answered_by: AnsweredBy | None = None
    created_at: datetime
    settled_at: datetime | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    """One entry of a session's ordered event stream."""

    cursor: int
    session: str
    kind: str
    body: Mapping[str, Any]
    created_at: datetime

    @property
    def is_final(self) -> bool:
        """Whether the session's key stops working with this event: nothing after it is
        delivered (a new key was issued, or the concierge stopped the session)."""
        return self.kind in FINAL_KINDS


KEY_REVOKED = "key_revoked"
FINAL_KINDS = frozenset({KEY_REVOKED, "stop"})


# --- what humans send, as transports report it ---------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class HumanEvent:
    """Something a person did on a transport. ``event_id`` is the platform's, for dedupe."""

    transport: str
    event_id: str
    user_id: str
    thread: str | None = None  # the transport's thread ref, when the event happened in one


@dataclass(frozen=True, kw_only=True, slots=True)
class HumanMessage(HumanEvent):
    text: str
    message_ref: str | None = None
    escalation_id: str | None = None  # a client naming the one record it answers


@dataclass(frozen=True, kw_only=True, slots=True)
class HumanClick(HumanEvent):
    payload: str  # the button's payload as the platform returned it: untrusted
    # The platform settles a pressed card in the click's own response (Discord): the receipt
    # then carries the card as the press's change leaves it (``Receipt.redraw``). Elsewhere
    # the outbox's redraw is the only drawing, and the press draws nothing.
    card_in_response: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class HumanEdit(HumanEvent):
    message_ref: str
    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class HumanCommand(HumanEvent):
    name: str
    args: tuple[str, ...] = ()
    message_ref: str | None = None  # the message it acts on (a message action, a reply)


class ReplyOutcome(StrEnum):
    """What a reply did to the escalation index (SPEC §2): one record answered, or none and
    why."""

    ANSWERED = "answered"
    AMBIGUOUS = "ambiguous"  # several records were open and the text named none of them
    ALREADY_SETTLED = "already_settled"  # the record it named was settled before it came
    NO_OPEN_REQUEST = "no_open_request"  # nothing was open: a message to the member


@dataclass(frozen=True, kw_only=True, slots=True)
class Receipt:
    """What the core answers a transport about one human event.

    ``notice`` is shown to the person who acted, and to nobody else (an ephemeral message,
    a callback alert). ``accepted`` is False when nothing changed. ``redraw`` lets a
    platform that must answer a click in one response settle the card in it. For a reply
    (a typed message or a press), ``outcome`` says what it did to the index: the record it
    answered (or the settled one it named) in ``escalation_id``, the open ones when it was
    ambiguous in ``open``. ``prefill`` (the concierge's Edit) asks the platform to open a
    reply box holding that text. ``repeat``: this answers a later delivery of an event
    already taken, with what its first delivery was told (``accepted`` included: what the
    first did); this delivery changed nothing (bot/receipts.py).
    """

    accepted: bool
    code: str | None = None
    notice: str | None = None
    redraw: OutboundMessage | None = None  # the card as it now reads, when a click settled it
    outcome: ReplyOutcome | None = None  # None: not a reply (a command, an edit, a refusal)
    escalation_id: str | None = None
    open: tuple[Escalation, ...] = ()
    prefill: str | None = None  # Edit: open the reply prefilled with this text
    reply_to: str | None = None  # … as a reply naming this record (escalation or question)
    repeat: bool = False

    @property
    def notice_to_post(self) -> str | None:
        """The notice, where a transport posts it as a message of its own (an ephemeral,
        a reply, a toast): none for a repeat, whose first delivery's notice the human was
        already shown — a second "Answered: yes" reads like a second answer."""
        return None if self.repeat else self.notice


# --- what the core asks transports to show -------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class Button:
    label: str
    payload: str  # at most 64 ASCII bytes: fits every platform (Telegram is the tightest)
    # "answer": an answer to the card (an option); "control": the concierge's Send / Edit /
    # Dismiss, drawn apart from the answers, in a secondary style.
    role: str = "answer"
    # The option the concierge's suggestion names: the only answer drawn as recommended.
    recommended: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class OutboundMessage:
    """A row or card as the core wants it shown; each transport draws it natively."""

    author: str  # the member's display name
    text: str  # markdown
    buttons: tuple[Button, ...] = ()
    settled: bool = False
    deadline: datetime | None = None  # transports that can, count down to it live
    kind: str = "row"  # row | card | question | notice
    # The moments the text names in UTC words; see crewline.moments.localize.
    times: tuple[datetime, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Bell:
    """A notification outside the thread; bells with one ``group_key`` stack into one."""

    group_key: str
    member: str
    title: str
    body: str
    count: int


@dataclass(frozen=True, kw_only=True, slots=True)
class RecentAnswer:
    """The concierge's latest answer to a member, shown on the roster for a minute."""

    text: str
    at: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class RosterEntry:
    slug: str
    name: str
    needs_you: bool
    pending_escalations: int
    waiting_questions: int = 0  # question cards (and dialogs) a session is blocked on
    concierge_answer: RecentAnswer | None = None  # answered within the last minute, not undone

    @property
    def open_count(self) -> int:
        """Everything that waits for the human: open requests and waiting questions."""
        return self.pending_escalations + self.waiting_questions

    def concierge_status(self, when: str, escape: Callable[[str], str] = str) -> str | None:
        """The status line of a recent concierge answer (SPEC §4): "concierge · answered
        radar: yes (09:12 UTC) · /concierge undo", ``when`` being its time as the surface
        writes it and ``escape`` the surface's escaping of the answer's words; None when
        there is none."""
        if self.concierge_answer is None:
            return None
        answer = " ".join(self.concierge_answer.text.split())
        if len(answer) > 80:
            answer = answer[:79] + "…"
        return f"concierge · answered {self.slug}: {escape(answer)} ({when}) · /concierge undo"


# --- the concierge ---------------------------------------------------------------------------


class AnswerPolicy(StrEnum):
    """May the concierge answer by itself? ``never`` (it suggests), ``routine``, ``always``."""

    NEVER = "never"
    ROUTINE = "routine"
    ALWAYS = "always"


@dataclass(frozen=True, kw_only=True, slots=True)
class ConciergePolicy:
    """The owner's policy for the concierge: what it may answer, whether it may act."""

    answer: AnswerPolicy = AnswerPolicy.NEVER
    act: bool = False

    def describe(self) -> str:
        return f"answer {self.answer.value} · act {'on' if self.act else 'off'}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Suggestion:
    """The concierge's suggested answer to one pending escalation or waiting question."""

    record_id: str
    member: str
    text: str
    why: str
    brain: str
    at: datetime
    dismissed: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class ConciergeAnswer:
    """An answer the concierge gave on the human's behalf (kept for undo: the last 20)."""

    id: int
    at: datetime
    member: str
    record_id: str
    record_kind: str  # escalation | question
    session: str
    text: str
    why: str
    row_id: str  # the thread line that says it
    event_cursor: int | None = None
    undone_at: datetime | None = None


# The ledger decisions that are the concierge's own judgement of a record (the others record
# what the human, a window or the owner decided).
JUDGEMENTS = ("answered", "suggested", "escalated", "stale")


@dataclass(frozen=True, kw_only=True, slots=True)
class LedgerEntry:
    """One decision about one question: who decided, under which policy, on what grounds."""

    id: int = 0
    at: datetime
    member: str | None
    record_id: str | None
    decision: str  # answered | suggested | escalated | refused | human | defaulted | acted …
    verdict: str | None  # the gate's verdict kind
    policy: str
    brain: str
    rationale: str
    evidence: tuple[str, ...] = ()
    actor: str | None = None
