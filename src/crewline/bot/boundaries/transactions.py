"""The two transactions of a context boundary: the freeze and the commit (SPEC §5).

Both are synchronous functions over a :class:`Change`, like every transaction: the waits of
a boundary (the member's sessions letting go of their context) happen between them, in
:mod:`crewline.bot.boundaries.run`, never inside.

The commit edits the live containers by the delta the boundary owns and never assigns a
copy frozen before the wait over them (§5 rule 1). Its three containers:

- the window of rows: exactly the rows frozen after the kept row leave (by id); rows that
  arrived meanwhile stay and are placed after the boundary's own row (rule 2);
- the member's sessions' undelivered events: the frozen ones that concern a rewound row are
  withdrawn, the ones that arrived meanwhile are moved after the boundary's own event while
  still undelivered, and an event a session already read is never appended again (rule 3);
- the waiting question cards: exactly the cards whose rows the boundary rewinds and that
  still wait are retired in place and announced; answered or newly raised cards are left
  alone (rule 4).

Escalation records then follow the transcript through reconciliation (rule 5), before the
boundary's own turn: when the edited message had answered a record, that record is open
again when the resent text is matched as a reply (an edited answer counts). The target's
identity is checked first, in the same transaction, so a member re-created under the same
slug is never written to (rule 8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from enum import StrEnum
from typing import Any

from crewline.bot import last_turn
from crewline.bot.changes import Change
from crewline.bot.escalations.reconcile import reconcile_member
from crewline.bot.escalations.replies import Answer, take_reply
from crewline.bot.last_turn import is_last_turn
from crewline.errors import Conflict, NotFound
from crewline.models import AnsweredVia, Event, Member, QuestionState, Row, RowRole, Session
from crewline.moments import in_words

__all__ = [
    "BoundaryKind",
    "BoundaryRequest",
    "Frozen",
    "Outcome",
    "abort",
    "close_abandoned",
    "commit",
    "freeze",
    "resolve_kept",
]


class BoundaryKind(StrEnum):
    REWIND = "rewind"
    EDIT = "edit"  # edit-resend
    REGENERATE = "regenerate"
    RESET = "reset"


@dataclass(frozen=True, kw_only=True, slots=True)
class BoundaryRequest:
    """What a human asked for, resolved against the transcript by the freeze.

    - rewind: to ``row`` (kept; the conversation continues from it), or to the ``steps``-th
      last human row (1 when neither is given);
    - edit: ``row`` is the edited human row, ``text`` its new text, resent as a new row;
    - regenerate: to the last human row, which the member is given again; with ``row``
      (the regenerate button's message), only while that row is still the last turn;
    - reset: nothing is kept.
    """

    member: str
    kind: BoundaryKind
    actor: str  # transport:user (or api:<human>)
    row: str | None = None
    steps: int | None = None
    text: str | None = None
    event: tuple[str, str] | None = None  # (transport, platform event id), for dedupe


@dataclass(frozen=True, kw_only=True, slots=True)
class Frozen:
    """The prospective window, as the freeze saw it."""

    id: str
    request: BoundaryRequest
    member: Member
    incarnation: str
    generation: int  # the generation the commit starts
    keep_through: str | None  # the row the conversation continues from
    keep_seq: int  # the kept row's position (0: nothing is kept)
    redeliver: str | None  # regenerate: the human row the member answers again
    suffix: frozenset[str]  # the rows the boundary rewinds, by id
    unread: frozenset[int]  # cursors of events not yet delivered at the freeze
    own_events: frozenset[int]  # the events the freeze sent
    retiring: tuple[str, ...]  # waiting question cards whose rows the boundary rewinds
    asked: tuple[str, ...]  # sessions asked to discard their context
    stateless: tuple[str, ...]  # sessions that hold none: discarded at once
    edited_answer: str | None = None  # edit: the record the edited message had answered


@dataclass(frozen=True, kw_only=True, slots=True)
class Outcome:
    boundary_id: str
    committed: bool
    reason: str | None = None  # why it did not commit (a stable code)
    native_cleared: str | None = None  # "1" | "unknown" | None (nothing was discarded)
    generation: int | None = None
    rewound: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()  # rows that arrived during the boundary and stayed
    resent_row: str | None = None
    answered: str | None = None  # the record the resent text answered (an edited answer)
    retired_questions: tuple[str, ...] = ()
    notice: str = ""


# --- the freeze ------------------------------------------------------------------------------


def freeze(
    ch: Change,
    boundary_id: str,
    request: BoundaryRequest,
    *,
    refuse_mid_turn: bool = False,
    abandon_after: timedelta | None = None,
) -> Frozen:
    """Freeze the prospective window and ask the member's sessions to discard their
    context. Refusals raise before anything is written, so nothing was sent.

    ``refuse_mid_turn``: refuse (409 ``boundary_mid_turn``) while a session of the member
    says it is in the middle of a turn, instead of asking it (it may nack).
    ``abandon_after``: a boundary of the member still asking after this long was cut off
    (its crewline died during it) and is closed here instead of refusing this one.
    """
    slug = request.member
    member = ch.tx.member(slug)
    incarnation = ch.tx.member_incarnation(slug)
    if member is None or incarnation is None:
        raise NotFound(f"no member named {slug!r}", code="unknown_member")
    if request.event is not None and not ch.tx.mark_seen(*request.event, ch.now):
        raise Conflict("this event was already handled", code="duplicate_event")
    in_flight = ch.tx.boundary_in_flight(slug)
    if in_flight is not None and not (
        abandon_after is not None and close_abandoned(ch, in_flight, older_than=abandon_after)
    ):
        raise Conflict(
            f"{member.name} is already being rewound; wait for that to finish",
            code="boundary_in_flight",
        )
    kept, redeliver = resolve_kept(ch, member, request)
    keep_seq = kept.seq if kept is not None else 0
    suffix = ch.tx.rows_after(slug, keep_seq)
    if not suffix:
        raise Conflict("there is nothing after that message to rewind", code="nothing_to_rewind")
    sessions = ch.tx.member_sessions(slug)
    if refuse_mid_turn:
        _refuse_mid_turn(member, sessions)
    unread = ch.tx.unread_events([s.id for s in sessions])
    suffix_ids = frozenset(r.id for r in suffix)
    retiring = tuple(q.id for q in ch.tx.waiting_questions(slug) if q.row_id in suffix_ids)
    generation = ch.tx.generation(slug) + 1
    asked = tuple(s.id for s in sessions if not s.stateless)
    ch.tx.put_boundary(boundary_id, member=slug, kind=request.kind.value, asked=asked, now=ch.now)
    own = []
    for session in sessions:
        body = {
            "boundary_id": boundary_id,
            "kind": request.kind.value,
            "generation": generation,
            "continues_from": kept.id if kept else None,
            "discard": not session.stateless,
        }
        own.append(ch.tx.add_event(session.id, "context_boundary", body, ch.now))
        ch.effects.sessions.add(session.id)
        if request.kind is BoundaryKind.EDIT:
            # What an edit has always told the member, kept for sessions that read it.
            own.append(
                ch.tx.add_event(
                    session.id, "human_edit", {"row_id": request.row, "text": request.text}, ch.now
                )
            )
    return Frozen(
        id=boundary_id,
        request=request,
        member=member,
        incarnation=incarnation,
        generation=generation,
        keep_through=kept.id if kept else None,
        keep_seq=keep_seq,
        redeliver=redeliver,
        suffix=suffix_ids,
        unread=frozenset(e.cursor for e in unread),
        own_events=frozenset(own),
        retiring=retiring,
        asked=asked,
        stateless=tuple(s.id for s in sessions if s.stateless),
        edited_answer=_answered_by(ch, request),
    )


def _answered_by(ch: Change, request: BoundaryRequest) -> str | None:
    """The record an edited message had answered, if it was an answer."""
    if request.kind is not BoundaryKind.EDIT:
        return None
    edited = ch.tx.row(request.row or "")
    record = edited.meta.get("escalation_id") if edited is not None else None
    return str(record) if record else None


def _refuse_mid_turn(member: Member, sessions: Sequence[Session]) -> None:
    busy = sorted(s.turn_since for s in sessions if s.turn_since is not None)
    if busy:
        raise Conflict(
            f"{member.name} is in the middle of a turn (its session said so at"
            f" {in_words(busy[0])}), and this crewline refuses to rewind it mid-turn:"
            " nothing was rewound. Try again when the turn is over.",
            code="boundary_mid_turn",
        )


def resolve_kept(
    ch: Change, member: Member, request: BoundaryRequest
) -> tuple[Row | None, str | None]:
    """(the kept row, the row to deliver again) for the request, or a refusal."""
    slug = member.slug
    kind = request.kind
    if kind is BoundaryKind.RESET:
        return None, None
    if kind is BoundaryKind.EDIT:
        edited = ch.tx.row(request.row or "")
        if edited is None or edited.conversation != slug or edited.role is not RowRole.HUMAN:
            raise NotFound(
                "only your own messages in this thread can be edited", code="unknown_row"
            )
        if not request.text or request.text == edited.text:
            raise Conflict("the text did not change", code="unchanged")
        before = ch.tx.row_before(slug, edited.seq)
        return before, None
    if kind is BoundaryKind.REWIND and request.row is not None:
        row = ch.tx.row(request.row)
        if row is None or row.conversation != slug:
            raise NotFound(
                f"that message is not in {member.name}'s conversation", code="unknown_row"
            )
        return row, None
    if kind is BoundaryKind.REGENERATE and request.row is not None:
        pressed = ch.tx.row(request.row)
        if pressed is None or pressed.conversation != slug or not is_last_turn(ch.tx, pressed):
            raise Conflict(
                f"that is no longer {member.name}'s last turn: nothing was regenerated",
                code="not_last_turn",
            )
    steps = 1 if kind is BoundaryKind.REGENERATE else (request.steps or 1)
    humans = ch.tx.last_rows(slug, role=RowRole.HUMAN, limit=steps)
    if len(humans) < steps:
        raise NotFound(
            f"{member.name}'s conversation has fewer than {steps} messages of yours",
            code="unknown_row",
        )
    last = humans[-1]
    return last, last.id if kind is BoundaryKind.REGENERATE else None


# --- the commit ------------------------------------------------------------------------------


def commit(ch: Change, frozen: Frozen) -> Outcome:
    """Rewrite the transcript as a new generation and adopt the boundary by delta.

    What the member's sessions read, in order: ``context_boundary_committed``; what the
    boundary did to the cards it rewound or whose answers it took back (cancelled,
    retracted, reopened); then the boundary's own turn (the resent text — for an edited
    answer, matched as a reply: ``escalation_answered``, SPEC §5 rule 5 — or the message
    a regenerate gives again); then what arrived meanwhile, still unread.
    """
    slug = frozen.member.slug
    member = ch.tx.member(slug)
    if member is None or ch.tx.member_incarnation(slug) != frozen.incarnation:
        return abort(ch, frozen, reason="target_changed", native_cleared="1", write_notice=False)
    if ch.tx.generation(slug) != frozen.generation - 1:
        return abort(ch, frozen, reason="generation_moved", native_cleared="1")
    request = frozen.request
    last_turn.redraw(ch, member)  # the last turn before the rewrite loses its button
    live_after = ch.tx.rows_after(slug, frozen.keep_seq)
    rewound = [r.id for r in live_after if r.id in frozen.suffix]
    arrived = [r for r in live_after if r.id not in frozen.suffix]
    generation = ch.tx.begin_generation(slug, rewound=rewound)
    notice = _notice(ch, member, frozen, len(rewound))
    ch.show(member, "post", f"row:{notice.id}")

    sessions = [s.id for s in ch.tx.member_sessions(slug)]
    moved, unheard = _withdraw_events(ch, frozen, sessions, set(rewound), generation)
    for session in sessions:
        ch.event(
            session,
            "context_boundary_committed",
            {
                "boundary_id": frozen.id,
                "kind": request.kind.value,
                "generation": generation,
                "continues_from": frozen.keep_through,
                "rewound": sorted(rewound),
            },
        )
    retired = _retire_questions(ch, frozen, member)
    # The records follow the transcript before the resent text is read, so an edited
    # answer's record is open again when its new text is matched (§5 rule 5).
    reconcile_member(ch, member, grace=timedelta(0), unheard=unheard)
    resent, answered = _own_turn(ch, frozen, member, sessions, arrived)
    ch.tx.move_to_end(slug, [r.id for r in arrived])
    for event in moved:
        ch.event(event.session, event.kind, event.body)

    ch.mark_rewound(member, [f"row:{row_id}" for row_id in rewound])
    last_turn.redraw(ch, member)  # a kept message of the member may be the last turn again
    ch.tx.settle_boundary(frozen.id, state="committed", now=ch.now)
    ch.audit(
        f"boundary:{request.kind.value}",
        "ok",
        actor=request.actor,
        member=slug,
        boundary=frozen.id,
        generation=generation,
        rewound=len(rewound),
        native_cleared="1",
    )
    return Outcome(
        boundary_id=frozen.id,
        committed=True,
        native_cleared="1",
        generation=generation,
        rewound=tuple(rewound),
        kept=tuple(r.id for r in arrived),
        resent_row=resent.id if resent else None,
        answered=answered,
        retired_questions=retired,
        notice=notice.text,
    )


def _withdraw_events(
    ch: Change, frozen: Frozen, sessions: Sequence[str], rewound: set[str], generation: int
) -> tuple[list[Event], frozenset[str]]:
    """Withdraw the sessions' undelivered events about rewound rows, and take out the
    arrivals to move after the boundary's own turn. Returns (the arrivals to append again,
    the rewound rows whose events were withdrawn unread: a reopening of their record is
    not news to anyone)."""
    unread = ch.tx.unread_events(sessions)
    stale = [e.cursor for e in unread if e.cursor in frozen.unread and _row_of(e) in rewound]
    own_turn = frozen.request.kind is BoundaryKind.EDIT or frozen.redeliver is not None
    # Arrivals still undelivered go after the boundary's own turn; read ones stay read.
    moved = [
        e
        for e in unread
        if own_turn and e.cursor not in frozen.unread and e.cursor not in frozen.own_events
    ]
    ch.tx.withdraw_events(stale + [e.cursor for e in moved], generation=generation)
    withdrawn = set(stale)
    return moved, frozenset(_row_of(e) for e in unread if e.cursor in withdrawn)


def _own_turn(
    ch: Change, frozen: Frozen, member: Member, sessions: Sequence[str], arrived: Sequence[Row]
) -> tuple[Row | None, str | None]:
    """The boundary's own turn: an edit's resent text, or the message a regenerate gives
    again. Returns (the resent row, the record it answered)."""
    request = frozen.request
    if request.kind is BoundaryKind.EDIT and request.text is not None:
        return _resend(ch, frozen, member, request.text, arrived)
    if frozen.redeliver is not None:
        row = ch.tx.row(frozen.redeliver)
        if row is not None:
            for session in sessions:
                ch.event(
                    session,
                    "human_message",
                    {"row_id": row.id, "text": row.text, "regenerate": True},
                )
    return None, None


def _resend(
    ch: Change, frozen: Frozen, member: Member, text: str, arrived: Sequence[Row]
) -> tuple[Row, str | None]:
    """The edit's new text, as a new row crewline posts. When the edited message had
    answered a record, the text is a reply like any typed one (bot/escalations/replies.py): it
    answers the record it matches among those open at its position (``via: edit``), or
    the thread says which are open and it answers none."""
    request = frozen.request
    own = {"resent_from": request.row, "boundary": frozen.id}

    def write(text: str, meta: Mapping[str, object], record: str | None) -> Row:
        row = ch.tx.append_row(
            conversation=member.slug,
            role=RowRole.HUMAN,
            author=request.actor,
            text=text,
            now=ch.now,
            meta={**meta, **own},
            record=record,
        )
        ch.show(member, "post", f"row:{row.id}")
        return row

    told = {"resent_from": request.row, "boundary_id": frozen.id}
    if frozen.edited_answer is None:
        row = write(text, {}, None)
        ch.tell_member(member.slug, "human_message", {"row_id": row.id, "text": text, **told})
        return row, None
    # A card raised during the boundary is placed after the resent text: not open at it.
    later = {r.id for r in arrived}
    pending = [
        e for e in ch.tx.escalations(member.slug, pending_only=True) if e.row_id not in later
    ]
    taken = take_reply(
        ch, member, text=text, pending=pending, write_row=write, told=told, via=AnsweredVia.EDIT
    )
    answered = taken.decision.escalation.id if isinstance(taken.decision, Answer) else None
    return taken.row, answered


def _row_of(event: Event) -> Any:
    return event.body.get("row_id")


def _retire_questions(ch: Change, frozen: Frozen, member: Member) -> tuple[str, ...]:
    """Retire in place the cards the boundary rewound that still wait; announce only them."""
    retired = []
    for question_id in frozen.retiring:
        current = ch.tx.question(question_id)
        if current is None or current.state is not QuestionState.WAITING:
            continue  # answered meanwhile: the answer stands
        ch.tx.put_question(replace(current, state=QuestionState.CANCELLED, settled_at=ch.now))
        ch.show(member, "update", f"row:{current.row_id}")
        ch.event(
            current.session,
            "question_cancelled",
            {"question_id": current.id, "reason": "rewound", "boundary_id": frozen.id},
        )
        retired.append(current.id)
    if retired:
        ch.roster()
    return tuple(retired)


def _notice(ch: Change, member: Member, frozen: Frozen, count: int) -> Row:
    kind = frozen.request.kind
    what = {
        BoundaryKind.REWIND: "Rewound",
        BoundaryKind.EDIT: "Edited and resent",
        BoundaryKind.REGENERATE: "Regenerating",
        BoundaryKind.RESET: "Reset",
    }[kind]
    messages = "message" if count == 1 else "messages"
    text = f"{what}: {count} {messages} left {member.name}'s conversation."
    if kind is BoundaryKind.REGENERATE:
        text += f" {member.name} answers your last message again."
    return ch.system_row(
        member.slug,
        text,
        meta={"boundary": frozen.id},
    )


# --- an exit that does not commit --------------------------------------------------------------

_WHY = {
    "target_changed": "the member was removed and re-created meanwhile",
    "generation_moved": "the conversation was rewound by something else meanwhile",
    "session_refused": "its session refused to let go of its context",
    "refused_after_discard": "one of its sessions refused after another had let go",
    "ack_timeout": "its session did not answer in time",
    "ack_timeout_after_discard": "one of its sessions did not answer in time",
    "wait_cancelled": "crewline stopped while waiting for its session",
    "freeze_cancelled": "crewline stopped while starting it",
    "freeze_unsettled": "crewline stopped while starting it",
    "commit_failed": "the conversation could not be rewritten",
    "commit_cancelled": "crewline stopped while rewriting the conversation",
    "commit_unsettled": "crewline stopped while rewriting the conversation",
    "interrupted": "crewline stopped before it finished",
}


_CLEARED = {
    "1": " Its session had already let go of its context.",
    "unknown": " Its session may have let go of its context.",
}


def abort(
    ch: Change,
    frozen: Frozen,
    *,
    reason: str,
    native_cleared: str | None,
    write_notice: bool = True,
) -> Outcome:
    """Close a boundary that does not commit: one SEL record unless it is positively known
    that nothing was discarded, the sessions told, and (where the thread is still the
    member's) a notice saying nothing was rewound."""
    request = frozen.request
    ch.tx.settle_boundary(frozen.id, state="failed", now=ch.now)
    if native_cleared is not None:
        ch.audit(
            f"boundary:{request.kind.value}",
            "error",
            actor=request.actor,
            member=frozen.member.slug,
            boundary=frozen.id,
            reason=reason,
            native_cleared=native_cleared,
        )
    member = ch.tx.member(frozen.member.slug)
    alive = member is not None and ch.tx.member_incarnation(member.slug) == frozen.incarnation
    for session in (*frozen.asked, *frozen.stateless):
        if alive and ch.tx.session(session) is not None:
            ch.event(
                session, "context_boundary_aborted", {"boundary_id": frozen.id, "reason": reason}
            )
    text = (
        f"Not rewound: {_WHY.get(reason, reason.replace('_', ' '))}. "
        f"{frozen.member.name}'s conversation is unchanged."
        + _CLEARED.get(native_cleared or "", "")
    )
    if write_notice and alive and member is not None:
        row = ch.system_row(
            member.slug,
            text,
            meta={"boundary": frozen.id, "failed": reason},
        )
        ch.show(member, "post", f"row:{row.id}")
    return Outcome(
        boundary_id=frozen.id,
        committed=False,
        reason=reason,
        native_cleared=native_cleared,
        notice=text,
    )


def close_abandoned(ch: Change, boundary_id: str, *, older_than: timedelta) -> bool:
    """Close a boundary still asking after ``older_than``: the process that ran it died (a
    kill or a crash leaves no exit of its own), so nothing will ever commit or abort it.
    Written as every exit is (SPEC §5.6): the SEL record — ``native_cleared`` ``1`` when a
    session had let go (or none held context), else ``unknown`` — the member's sessions
    told, and a notice that nothing was rewound. False when it is not abandoned."""
    record = ch.tx.boundary(boundary_id)
    if record is None or record.state != "asking" or record.created_at > ch.now - older_than:
        return False
    acks = [s for s, (answer, _) in record.answers.items() if answer == "ack"]
    cleared = "1" if acks or not record.asked else "unknown"
    ch.tx.settle_boundary(record.id, state="failed", now=ch.now)
    ch.audit(
        f"boundary:{record.kind}",
        "error",
        actor="crewline",
        member=record.member,
        boundary=record.id,
        reason="interrupted",
        native_cleared=cleared,
    )
    member = ch.tx.member(record.member)
    if member is None:
        return True
    for session in ch.tx.member_sessions(member.slug):
        ch.event(
            session.id,
            "context_boundary_aborted",
            {"boundary_id": record.id, "reason": "interrupted"},
        )
    row = ch.system_row(
        member.slug,
        f"Not rewound: {_WHY['interrupted']}. {member.name}'s conversation is unchanged."
        + _CLEARED[cleared],
        meta={"boundary": record.id, "failed": "interrupted"},
    )
    ch.show(member, "post", f"row:{row.id}")
    return True
