"""What a card says in each state, transport-neutral (SPEC §1 "The card").

The core decides the words and the buttons here; each transport draws them natively.
Button payloads are short ASCII (``e:<id>:<n>``, ``q:<id>:<n>``, the concierge's
``c:<id>:<action>`` and the regenerate button's ``r:<row id>:0``) so they fit every
platform's limit: Telegram's 64-byte ``callback_data`` is the tightest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from functools import lru_cache

from crewline.bot.words import plain_words, sentence
from crewline.models import (
    AnsweredBy,
    Bell,
    BellLine,
    Button,
    Escalation,
    EscalationState,
    OutboundMessage,
    Question,
    QuestionState,
    Suggestion,
)
from crewline.moments import in_words

__all__ = [
    "CONCIERGE_ACTIONS",
    "MAX_PAYLOAD_BYTES",
    "ButtonPress",
    "ambiguity_notice",
    "concierge_answer_line",
    "escalation_bell",
    "escalation_card",
    "format_time",
    "parse_payload",
    "question_bell",
    "question_card",
    "regenerate_button",
]

MAX_PAYLOAD_BYTES = 64
_PAYLOAD = re.compile(r"^(?P<kind>[eqcr]):(?P<id>[0-9a-f]{16}):(?P<choice>\d{1,2})$")


@dataclass(frozen=True, kw_only=True, slots=True)
class ButtonPress:
    """A parsed button payload: which record, which choice."""

    kind: str  # "e" escalation | "q" question | "c" the concierge's | "r" regenerate
    record_id: str
    choice: int  # the option's index; for "c", an index into CONCIERGE_ACTIONS


def parse_payload(payload: str) -> ButtonPress | None:
    """The press a payload names, or None when it is malformed (forged, truncated, foreign)."""
    match = _PAYLOAD.fullmatch(payload)
    if match is None:
        return None
    return ButtonPress(kind=match["kind"], record_id=match["id"], choice=int(match["choice"]))


# The concierge's buttons, by the number their payload carries.
CONCIERGE_ACTIONS = ("send", "edit", "dismiss", "undo")
_ACTION_LABELS = {"send": "Send suggestion", "edit": "Edit", "dismiss": "Dismiss", "undo": "Undo"}


def _concierge_button(record_id: str, action: str) -> Button:
    return Button(
        label=_ACTION_LABELS[action],
        payload=_payload("c", record_id, CONCIERGE_ACTIONS.index(action)),
        role="control",
    )


def _suggestion_part(
    record_id: str, suggestion: Suggestion | None
) -> tuple[list[str], tuple[Button, ...]]:
    """The suggestion's line and its controls, while there is one and it is not dismissed.

    A suggestion with a pick (its ``text``) says it and why ("concierge suggests: 4321 —
    probe said so at 09:12"), with Send, Edit and Dismiss; one with no pick says only why the
    question needs the human ("needs you: irreversible: it drops the users_v1 table"), with
    Dismiss: there is nothing to send.
    """
    if suggestion is None or suggestion.dismissed:
        return [], ()
    if not suggestion.text:
        return [f"needs you: {suggestion.why}"], (_concierge_button(record_id, "dismiss"),)
    line = f"concierge suggests: {suggestion.text} — {suggestion.why}"
    buttons = tuple(_concierge_button(record_id, a) for a in ("send", "edit", "dismiss"))
    return [line], buttons


def _options(
    kind: str, record_id: str, options: Sequence[str], picked: str | None
) -> tuple[Button, ...]:
    """The answer buttons; the one the suggestion names is the only one drawn recommended."""
    chosen = picked.strip().casefold() if picked else None
    return tuple(
        Button(
            label=option,
            payload=_payload(kind, record_id, index),
            recommended=chosen is not None and option.strip().casefold() == chosen,
        )
        for index, option in enumerate(options)
    )


def _picked(suggestion: Suggestion | None) -> str | None:
    if suggestion is None or suggestion.dismissed or not suggestion.text:
        return None
    return suggestion.text


def concierge_answer_line(
    *, text: str, why: str, record_id: str, undoable: bool, undone: bool
) -> OutboundMessage:
    """The thread line of an answer the concierge gave, with Undo while it can be undone."""
    lines = [f"concierge answered: {text} — {why}"]
    if undone:
        lines.append("Withdrawn: the concierge's answer was undone.")
    buttons = (_concierge_button(record_id, "undo"),) if undoable and not undone else ()
    return OutboundMessage(author="concierge", text="\n\n".join(lines), buttons=buttons)


REGENERATE_LABEL = "Regenerate"


def regenerate_button(row_id: str) -> Button:
    """The button on the member's last turn: it answers the owner's last message again."""
    return Button(label=REGENERATE_LABEL, payload=_payload("r", row_id, 0))


def _payload(kind: str, record_id: str, choice: int) -> str:
    payload = f"{kind}:{record_id}:{choice}"
    assert len(payload.encode()) <= MAX_PAYLOAD_BYTES
    return payload


def format_time(moment: datetime, zone: tzinfo = UTC) -> str:
    """'Sep 6, 09:42 UTC': a clock time with its zone, in words a person reads at a glance."""
    return in_words(moment, zone)


def _who(by: AnsweredBy | None) -> str:
    return "the concierge" if by is AnsweredBy.CONCIERGE else "you"


def _window_line(e: Escalation, member_name: str, zone: tzinfo) -> str | None:
    if e.deadline is None:
        return None
    if e.window_held and e.is_pending:
        return _held_line(e, member_name)
    when = format_time(e.deadline, zone)
    if e.default_action:
        return f"Unless you reply by {when}, {member_name} will: {e.default_action}"
    return f"Reply by {when}; with no reply, nothing happens and the request stays open."


def _held_line(e: Escalation, member_name: str) -> str:
    """A reopened record's window: its answer was taken back, so it waits for the human."""
    if e.default_action:
        return (
            f"Answered, then taken back: {member_name} waits for your reply, and will not"
            f" do this by itself: {e.default_action}"
        )
    return f"Answered, then taken back: {member_name} waits for your reply."


def _state_line(e: Escalation, member_name: str, zone: tzinfo) -> str | None:
    match e.state:
        case EscalationState.PENDING:
            if e.options:
                # The buttons show the options; naming them again beside the buttons only
                # repeats them. What a reader cannot see is that typing works too.
                return "To answer, tap a button or type its label as a reply in this thread."
            return "Reply in this thread to answer."
        case EscalationState.ANSWERED:
            when = format_time(e.settled_at, zone) if e.settled_at else ""
            return f"Answered: {e.answer} — by {_who(e.answered_by)}, {when}"
        case EscalationState.DEFAULTED:
            if e.default_applied:
                return f"Window closed — {member_name} confirmed it did: {e.default_action}"
            return f"Window closed — {member_name} said it would: {e.default_action}"
        case EscalationState.EXPIRED:
            return "Window closed with no reply"
        case EscalationState.RETRACTED:
            return "Withdrawn — this request is no longer open."
    return None


def escalation_card(
    e: Escalation,
    member_name: str,
    *,
    zone: tzinfo = UTC,
    suggestion: Suggestion | None = None,
) -> OutboundMessage:
    """The card of an escalation in its current state. A settled card has no buttons;
    a pending one shows the concierge's suggestion, if any, with its buttons."""
    lines = [e.message]
    window = _window_line(e, member_name, zone)
    if window:
        lines.append(window)
    if not e.is_pending and e.options:
        lines.append("Options: " + " · ".join(e.options))
    state = _state_line(e, member_name, zone)
    if state:
        lines.append(state)
    buttons = _options("e", e.id, e.options, _picked(suggestion)) if e.is_pending else ()
    if e.is_pending:
        suggested, more = _suggestion_part(e.id, suggestion)
        lines += suggested
        buttons += more
    # A held window counts down to nothing: its line names no time.
    shown_deadline = None if e.window_held and e.is_pending else e.deadline
    return OutboundMessage(
        author=member_name,
        text="\n\n".join(lines),
        buttons=buttons,
        settled=not e.is_pending,
        deadline=shown_deadline if e.is_pending else None,
        kind="card",
        times=_times(shown_deadline, e.settled_at if e.state is EscalationState.ANSWERED else None),
    )


def question_card(
    q: Question,
    member_name: str,
    *,
    zone: tzinfo = UTC,
    suggestion: Suggestion | None = None,
) -> OutboundMessage:
    """A blocking question card: the session waits until it is answered."""
    waiting = q.state is QuestionState.WAITING
    lines = [q.question]
    if waiting:
        lines.append("Needs input: tap a button to answer." if q.options else "Needs input.")
    elif q.state is QuestionState.ANSWERED:
        when = format_time(q.settled_at, zone) if q.settled_at else ""
        lines.append(f"Answered: {q.answer} — by {_who(q.answered_by)}, {when}")
    else:
        lines.append("Cancelled — the session no longer waits for an answer.")
    buttons = _options("q", q.id, q.options, _picked(suggestion)) if waiting else ()
    if waiting:
        suggested, more = _suggestion_part(q.id, suggestion)
        lines += suggested
        buttons += more
    return OutboundMessage(
        author=member_name,
        text="\n\n".join(lines),
        buttons=buttons,
        settled=not waiting,
        kind="question",
        times=_times(q.settled_at if q.state is QuestionState.ANSWERED else None),
    )


def _times(*moments: datetime | None) -> tuple[datetime, ...]:
    return tuple(m for m in moments if m is not None)


def ambiguity_notice(pending: Sequence[Escalation]) -> str:
    """Said in the thread when a typed reply could answer several records: it answered none."""
    listed = "\n".join(
        f"{n}. {e.message}" + (f" ({' · '.join(e.options)})" if e.options else "")
        for n, e in enumerate(pending, start=1)
    )
    how = "To answer one, tap a button on its card."
    if any(not e.options for e in pending):
        how += (
            " A request without buttons takes a typed reply once it is the only one open,"
            " or a reply through crewline's API that names it."
        )
    return (
        f"{len(pending)} requests are open, so your reply answered none of them:\n{listed}\n{how}"
    )


def escalation_bell(
    member_name: str,
    member_slug: str,
    goal: str | None,
    pending: Sequence[Escalation] | Sequence[BellLine],
) -> Bell:
    """The stacked notification of one goal's open escalations, in words: no glyphs."""
    group_key = f"escalation:{member_slug}:{goal or ''}"
    about = f" about {goal}" if goal else ""
    if not pending:
        body = f"{member_name} has no open requests{about} any more."
    else:
        parts = []
        for e in pending:
            words = _said(e.message)
            if e.deadline and e.window_held:
                words += f" Answered, then taken back: {member_name} waits for your reply."
            elif e.deadline and e.default_action:
                words += (
                    f" Unless you reply by {format_time(e.deadline)},"
                    f" {member_name} will: {_said(e.default_action)}"
                )
            elif e.deadline:
                words += f" Reply by {format_time(e.deadline)}."
            if e.options:
                words += " Options: " + _in_words(e.options) + "."
            parts.append(words)
        count = "a request" if len(pending) == 1 else f"{len(pending)} requests"
        body = (
            f"{member_name} needs you with {count}{about}. "
            + " ".join(parts)
            + f" Open {member_name}'s thread to answer."
        )
    return Bell(
        group_key=group_key,
        member=member_slug,
        title=f"{member_name} needs you" if pending else f"{member_name}: settled",
        body=body,
        count=len(pending),
    )


def question_bell(member_name: str, member_slug: str, waiting: Sequence[Question]) -> Bell:
    """The notification of a member's waiting question cards: a session is blocked on them."""
    if not waiting:
        body = f"{member_name} has no questions waiting any more."
    else:
        parts = [
            _said(q.question) + (f" Options: {_in_words(q.options)}." if q.options else "")
            for q in waiting
        ]
        count = "a question" if len(waiting) == 1 else f"{len(waiting)} questions"
        body = (
            f"{member_name} waits for your answer to {count}. "
            + " ".join(parts)
            + f" Open {member_name}'s thread to answer."
        )
    return Bell(
        group_key=f"question:{member_slug}",
        member=member_slug,
        title=f"{member_name} needs you" if waiting else f"{member_name}: settled",
        body=body,
        count=len(waiting),
    )


# Each ring words every open request of its member again, and all but the newest were
# worded at the rings before: kept by text (a pure function of it), about a backlog's worth
# for each of twenty members.
@lru_cache(maxsize=1024)
def _said(markdown: str) -> str:
    """``markdown`` as a bell says it: its words without markup, one sentence."""
    return sentence(plain_words(markdown))


def _in_words(options: Sequence[str]) -> str:
    if len(options) == 1:
        return options[0]
    return ", ".join(options[:-1]) + " or " + options[-1]
