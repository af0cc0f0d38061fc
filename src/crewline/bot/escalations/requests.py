"""session_escalate's request (SPEC §1): validated and routed before anything is written,
recorded in one transaction, and the note the caller reads.

Validation and routing are pure; :func:`record_escalation` takes a :class:`Change` and runs
inside one transaction on the member's actor.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from crewline.bot.changes import Change
from crewline.bot.domain import EscalationRecorded
from crewline.errors import BacklogFull, InvalidInput
from crewline.limits import (
    MAX_DEADLINE_AHEAD,
    MAX_MESSAGE,
    MAX_OPTION_LENGTH,
    MAX_OPTIONS,
    MAX_PENDING,
)
from crewline.models import (
    CallerKind,
    Escalation,
    Member,
    Row,
    RowRole,
    Session,
    is_slug,
    new_id,
)

__all__ = [
    "Delivery",
    "EscalationRequest",
    "Routing",
    "ValidEscalation",
    "agent_note",
    "parse_deadline",
    "record_escalation",
    "route",
    "validate",
]


_DURATION = re.compile(
    r"^P(?:(?P<weeks>[0-9]+)W)?(?:(?P<days>[0-9]+)D)?"
    r"(?:T(?:(?P<hours>[0-9]+)H)?(?:(?P<minutes>[0-9]+)M)?(?:(?P<seconds>[0-9]+(?:\.[0-9]+)?)S)?)?$"
)
# What people write for a duration ("30m", "2 hours"): the error names its ISO 8601 form.
_CASUAL = re.compile(
    r"^(?P<n>[0-9]+)\s*(?:(?P<s>s|secs?|seconds?)|(?P<m>m|mins?|minutes?)"
    r"|(?P<h>h|hrs?|hours?)|(?P<d>d|days?)|(?P<w>w|weeks?))$",
    re.IGNORECASE,
)
LARGEST = "P30D"  # MAX_DEADLINE_AHEAD as an agent writes it
_SHOWN = 80  # characters of a refused deadline quoted back


@dataclass(frozen=True, kw_only=True, slots=True)
class EscalationRequest:
    """The verb's arguments as the caller sent them (shape already checked at the edge)."""

    message: str
    deadline: str | None = None
    default_action: str | None = None
    options: Sequence[str] | None = None
    goal: str | None = None
    # Whether the reply waits (briefly) for the platforms to accept the card, so that it can
    # say ``delivered``; False answers at once, each configured transport ``queued``.
    wait_for_delivery: bool = True


@dataclass(frozen=True, kw_only=True, slots=True)
class ValidEscalation:
    message: str
    deadline: datetime | None
    default_action: str | None
    options: tuple[str, ...]
    goal: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class Routing:
    """Where an escalation lands: a member's thread (with index and card) or the caller's
    own transcript (neither)."""

    conversation: str
    member: str | None


def _quoted(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


def _iso_form(text: str) -> str | None:
    """The ISO 8601 duration a casual one (``30m``, ``2 hours``) means, or None."""
    match = _CASUAL.fullmatch(text)
    if match is None:
        return None
    n = match["n"].lstrip("0") or "0"
    unit = next(u for u in "smhdw" if match[u])
    return f"PT{n}{unit.upper()}" if unit in "smh" else f"P{n}{unit.upper()}"


def _invalid_deadline(text: str, why: str) -> InvalidInput:
    return InvalidInput(
        f"deadline {_quoted(text)} {why}",
        code="invalid_deadline",
        field="deadline",
        largest=LARGEST,
    )


def parse_deadline(text: str, now: datetime) -> datetime:
    """An absolute ISO 8601 time with a zone, or an ISO 8601 duration from ``now``.

    Anything else, or a value no clock can hold, is ``invalid_deadline`` naming the largest
    allowed; a casual duration such as ``30m`` is told its ISO form."""
    text = text.strip()
    if text.startswith("P"):
        match = _DURATION.fullmatch(text)
        if match is None or text in ("P", "PT") or text.endswith("T"):
            raise _invalid_deadline(text, "is not an ISO 8601 duration such as PT30M")
        try:
            parts = {k: float(v) for k, v in match.groupdict().items() if v}
            return now + timedelta(**parts)
        except (OverflowError, ValueError):  # more days than a datetime can count
            raise _invalid_deadline(
                text, f"is out of range: a deadline is at most {LARGEST} (30 days) ahead"
            ) from None
    casual = _iso_form(text)
    if casual is not None:
        raise _invalid_deadline(
            text, f"is not ISO 8601: did you mean {casual}? (a duration such as PT30M)"
        )
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise _invalid_deadline(
            text,
            "is neither an ISO 8601 time with a zone (such as 2026-09-06T09:42:00Z) nor a"
            " duration (such as PT30M)",
        ) from None
    if moment.tzinfo is None:
        raise InvalidInput(
            f"deadline {_quoted(text)} has no time zone; add one, e.g. Z or +02:00",
            code="deadline_without_zone",
            field="deadline",
        )
    return moment


def validate(request: EscalationRequest, now: datetime) -> ValidEscalation:
    """SPEC §1.5, before anything is written. Raises InvalidInput with one code per rule."""
    message = request.message
    if not message.strip():
        raise InvalidInput("message is empty", code="invalid_message", field="message")
    if len(message) > MAX_MESSAGE:
        raise InvalidInput(
            f"message has {len(message)} characters; at most {MAX_MESSAGE}",
            code="message_too_long",
            field="message",
        )
    deadline = None
    if request.deadline is not None:
        deadline = parse_deadline(request.deadline, now)
        if deadline <= now:
            raise InvalidInput(
                f"deadline {_quoted(request.deadline)} is not in the future",
                code="deadline_in_past",
                field="deadline",
            )
        if deadline - now > MAX_DEADLINE_AHEAD:
            raise InvalidInput(
                f"deadline {_quoted(request.deadline)} is more than {LARGEST} (30 days) ahead",
                code="deadline_too_far",
                field="deadline",
                largest=LARGEST,
            )
    if request.default_action is not None:
        if deadline is None:
            raise InvalidInput(
                "default_action needs a deadline: it is what happens when the window closes",
                code="default_without_deadline",
                field="default_action",
            )
        if not request.default_action.strip() or len(request.default_action) > MAX_MESSAGE:
            raise InvalidInput(
                "default_action must be 1..4000 characters",
                code="invalid_default_action",
                field="default_action",
            )
    options: tuple[str, ...] = ()
    if request.options is not None:
        options = tuple(request.options)
        if not 1 <= len(options) <= MAX_OPTIONS:
            raise InvalidInput(
                f"options has {len(options)} entries; give 1..{MAX_OPTIONS}",
                code="invalid_options",
                field="options",
            )
        for option in options:
            if not option.strip() or len(option) > MAX_OPTION_LENGTH:
                raise InvalidInput(
                    f"option {option[:90]!r} must be 1..80 characters",
                    code="invalid_option",
                    field="options",
                )
        folded = [o.strip().casefold() for o in options]
        if len(set(folded)) != len(folded):
            raise InvalidInput(
                "options must be distinct", code="duplicate_options", field="options"
            )
    if request.goal is not None and not is_slug(request.goal):
        raise InvalidInput(
            f"goal {request.goal!r} is not a slug (a-z, 0-9, dashes)",
            code="invalid_goal",
            field="goal",
        )
    return ValidEscalation(
        message=message,
        deadline=deadline,
        default_action=request.default_action,
        options=options,
        goal=request.goal,
    )


def route(caller: Session) -> Routing:
    """SPEC §1.2: delivery is decided by who calls, never by a target."""
    if caller.kind in (CallerKind.MEMBER, CallerKind.WORKER) and caller.member:
        return Routing(conversation=caller.member, member=caller.member)
    return Routing(conversation=f"~{caller.id}", member=None)


def record_escalation(
    ch: Change, *, caller: Session, member: Member | None, routing: Routing, valid: ValidEscalation
) -> tuple[Escalation, Row]:
    """Write the row and (for a member) the index record, the card and the bell, at once.

    The record is written under a pre-minted row id in the same transaction as the row, so
    no crash can leave a card without its record (SPEC §1.6).
    """
    escalation_id, row_id = new_id(), new_id()
    if member is not None:
        open_count = ch.tx.count_pending(member.slug)
        if open_count >= MAX_PENDING:
            raise BacklogFull(
                f"{member.slug} already has {open_count} open escalations (the ceiling is"
                f" {MAX_PENDING}); wait for answers before raising more",
                open_count=open_count,
                limit=MAX_PENDING,
            )
    row = ch.tx.append_row(
        conversation=routing.conversation,
        role=RowRole.ESCALATION,
        author=member.name if member else caller.id,
        text=valid.message,
        now=ch.now,
        row_id=row_id,
        record=escalation_id,
        meta=_card_meta(escalation_id, caller, valid),
    )
    escalation = Escalation(
        id=escalation_id,
        member=member.slug if member else "",
        row_id=row_id,
        session=caller.id,
        message=valid.message,
        deadline=valid.deadline,
        default_action=valid.default_action,
        options=valid.options,
        goal=valid.goal,
        created_at=ch.now,
    )
    if member is not None:
        ch.tx.put_escalation(escalation)
        ch.announce(member, "post", escalation)
        ch.arm(escalation)
        ch.publish(EscalationRecorded(escalation=escalation))
    return escalation, row


def _card_meta(escalation_id: str, caller: Session, valid: ValidEscalation) -> dict[str, object]:
    # The card row carries the whole request: the index can always be rebuilt from it.
    return {
        "escalation_id": escalation_id,
        "session": caller.id,
        "deadline": valid.deadline.timestamp() if valid.deadline else None,
        "default_action": valid.default_action,
        "options": list(valid.options),
        "goal": valid.goal,
    }


class Delivery(StrEnum):
    """What became of an escalation's card on one transport when the reply was written."""

    QUEUED = "queued"  # in the outbox: the platform has not accepted it yet
    DELIVERED = "delivered"  # the platform accepted it
    NOT_CONFIGURED = "not_configured"  # the member is bound to a transport not running here


def agent_note(
    escalation: Escalation,
    routing: Routing,
    delivery: Mapping[str, Delivery],
    *,
    waited: bool = True,
) -> str:
    """The sentences the caller reads: where the card really is, and plainly, will anything
    wake it at the deadline? Never "delivered" before a platform accepted the card.
    ``waited``: False when the caller asked not to wait for the platforms (so a ``queued``
    card was not looked at again)."""
    if routing.member is None:
        return (
            "No human sees this: your session is not a member's, so the escalation was"
            " written to your own transcript only, with no card and no index entry."
        )
    card = _card_words(routing.member, delivery, waited=waited)
    return f"{card} {_deadline_words(escalation)}"


def _card_words(member: str, delivery: Mapping[str, Delivery], *, waited: bool) -> str:
    if not delivery:
        return (
            f"Recorded, but no human sees it yet: {member} is bound to no transport"
            " (crewline member add … --transport)."
        )
    said = []
    for transport, status in delivery.items():
        if status is Delivery.DELIVERED:
            said.append(f"shown on {transport}")
        elif status is Delivery.QUEUED and not waited:
            said.append(f"queued for {transport} (in its outbox; not waited for, as you asked)")
        elif status is Delivery.QUEUED:
            said.append(f"queued for {transport} (not shown yet; the outbox keeps trying)")
        else:
            said.append(
                f"not shown on {transport}: it is not configured on this crewline, so the"
                " card waits in its outbox until it is"
            )
    return f"Recorded; the card in {member}'s thread is " + "; ".join(said) + "."


def _deadline_words(escalation: Escalation) -> str:
    if escalation.deadline is None:
        return (
            "Nothing wakes you: when the human answers, an escalation_answered event is"
            " added to your event stream (GET /api/session/events)."
        )
    when = escalation.deadline.isoformat()
    if escalation.default_action:
        return (
            f"Nothing wakes you at the deadline: if no one answers by {when}, the record"
            " becomes defaulted and a window_closed event is added to your event stream"
            " (GET /api/session/events); read it, then do the default yourself and confirm"
            " with POST /api/session-control/escalations/{id}/default-applied."
        )
    return (
        f"Nothing wakes you at the deadline: if no one answers by {when}, the record"
        " expires and a window_closed event is added to your event stream"
        " (GET /api/session/events)."
    )
