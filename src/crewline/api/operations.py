"""The verbs agents and owners call, defined once as plain async functions over the core
and its features (``crewline.app.assembly.Bot``).

HTTP (and later MCP) translate requests into these calls and their results into
responses; authentication and ownership checks live here so every surface shares them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from crewline.api.sse import check_cursor
from crewline.app.assembly import Bot
from crewline.bot import idempotency
from crewline.bot.boundaries import BoundaryKind, BoundaryRequest, Outcome, fork, outcome_error
from crewline.bot.escalations import EscalationReceipt, EscalationRequest
from crewline.bot.hub import API_TRANSPORT
from crewline.bot.idempotency import KeyedWrite
from crewline.bot.render import roster
from crewline.errors import Forbidden, InvalidInput, NotFound, Unauthenticated
from crewline.keys import hash_key
from crewline.models import (
    CallerKind,
    Escalation,
    Event,
    HumanMessage,
    Member,
    Question,
    Session,
    is_slug,
    new_id,
)
from crewline.policy import granted

__all__ = ["Caller", "Operations"]

MAX_WAIT = 60.0
MAX_STEPS = 1000
T = TypeVar("T")


@dataclass(frozen=True, kw_only=True, slots=True)
class Caller:
    """Who is calling: an agent's session, or the human owner (by their token)."""

    session: Session | None = None
    human: int | None = None
    # The member the session speaks for, read with its key: a verb that needs it as of the
    # call (escalate) need not read it again.
    member: Member | None = None


class Operations:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.hub = bot.hub
        self.store = bot.store

    # authentication -------------------------------------------------------------------------
    async def authenticate(self, key: str | None) -> Caller:
        if not key:
            raise Unauthenticated(
                "send your key as 'Authorization: Bearer <key>'", code="missing_key"
            )
        digest = hash_key(key)
        found = await self.store.session_and_member(digest)
        if found is not None:
            return Caller(session=found[0], member=found[1])
        human = await self.store.human_by_token_hash(digest)
        if human is not None:
            return Caller(human=human)
        raise Unauthenticated("this key is unknown or revoked", code="invalid_key")

    @staticmethod
    def session_of(caller: Caller) -> Session:
        if caller.session is None:
            raise Forbidden(
                "this call is made with a session key, not the owner's token",
                code="session_key_required",
            )
        return caller.session

    def whoami(self, caller: Caller) -> dict[str, Any]:
        """The calling session, and every verb the gate lets it use (sorted by name)."""
        session = self.session_of(caller)
        return {
            "session_id": session.id,
            "kind": session.kind.value,
            "member": session.member,
            "verbs": sorted(verb.value for verb in granted(session)),
        }

    # agents' verbs --------------------------------------------------------------------------
    async def escalate(
        self, caller: Caller, request: EscalationRequest, *, idempotency_key: str | None = None
    ) -> dict[str, Any]:
        session = self.session_of(caller)
        body = {
            "message": request.message,
            "deadline": request.deadline,
            "default_action": request.default_action,
            "options": None if request.options is None else list(request.options),
            "goal": request.goal,
        }
        return await self._once(
            session,
            "escalate",
            idempotency_key,
            body,
            _escalation_receipt,
            lambda once: self.bot.escalations.escalate(
                session, request, once=once, member=caller.member
            ),
            restate=True,  # delivery is found after the commit that kept the first outcome
        )

    async def send(
        self, caller: Caller, target: str, message: str, *, idempotency_key: str | None = None
    ) -> dict[str, Any]:
        session = self.session_of(caller)
        _check_slug(target, code="invalid_target")
        return await self._once(
            session,
            "send",
            idempotency_key,
            {"target": target, "message": message},
            lambda row: {"row_id": row.id, "member": target},
            lambda once: self.bot.messages.send(session, target, message, once=once),
        )

    async def _once(
        self,
        session: Session,
        verb: str,
        key: str | None,
        body: dict[str, Any],
        respond: Callable[[T], dict[str, Any]],
        write: Callable[[KeyedWrite | None], Awaitable[T]],
        *,
        restate: bool = False,
    ) -> dict[str, Any]:
        """Run ``write``, or with an Idempotency-Key, return the first outcome of that key.

        The key is looked up first, so a retry is answered even when the request would no
        longer pass (a deadline now past); the write itself checks again, in its
        transaction, for a retry racing the first call. ``restate``: the response says more
        than the transaction knew (an escalation's delivery), so the key keeps the response
        the caller got; a retry in between gets the transaction's own.
        """
        if key is None:
            return respond(await write(None))
        once = KeyedWrite(
            session=session.id,
            key=idempotency.check_key(key),
            fingerprint=idempotency.fingerprint(verb, body),
            respond=respond,
        )
        earlier = idempotency.replay_of(
            await self.store.idempotency_record(session.id, once.key), once, self.hub.clock.now()
        )
        if earlier is not None:
            return dict(earlier.response)
        try:
            response = respond(await write(once))
        except idempotency.Replayed as replayed:
            return dict(replayed.record.response)
        if restate:
            await self._restate(once, response)
        return response

    async def _restate(self, once: KeyedWrite, response: dict[str, Any]) -> None:
        kept = await self.store.idempotency_record(once.session, once.key)
        if kept is None or kept.response == response:
            return
        restated = replace(kept, response=response)
        forget_before = self.hub.clock.now() - idempotency.KEEP_FOR
        await self.store.write(
            lambda tx: tx.remember_idempotency(restated, forget_before=forget_before)
        )

    async def post(
        self, caller: Caller, text: str, *, idempotency_key: str | None = None
    ) -> dict[str, Any]:
        session = self.session_of(caller)
        return await self._once(
            session,
            "post",
            idempotency_key,
            {"text": text},
            lambda row: {"row_id": row.id, "conversation": row.conversation},
            lambda once: self.bot.messages.post(session, text, once=once),
        )

    async def ask(
        self,
        caller: Caller,
        question: str,
        options: Sequence[str] | None,
        dialog: bool,
        *,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        session = self.session_of(caller)
        return await self._once(
            session,
            "ask",
            idempotency_key,
            {
                "question": question,
                "options": None if options is None else list(options),
                "dialog": dialog,
            },
            lambda record: {
                "question_id": record.id,
                "state": record.state.value,
                "note": "Wait for a question_answered event on GET /api/session/events.",
            },
            lambda once: self.bot.questions.ask(
                session, question, options, dialog=dialog, once=once
            ),
        )

    async def escalation(self, caller: Caller, escalation_id: str) -> dict[str, Any]:
        return escalation_view(
            await self.bot.escalations.escalation(self.session_of(caller), escalation_id)
        )

    async def retract(self, caller: Caller, escalation_id: str) -> dict[str, Any]:
        return escalation_view(
            await self.bot.escalations.retract(self.session_of(caller), escalation_id)
        )

    async def confirm_default(self, caller: Caller, escalation_id: str) -> dict[str, Any]:
        record = await self.bot.escalations.confirm_default(self.session_of(caller), escalation_id)
        return escalation_view(record)

    async def events(self, caller: Caller, *, after: int, wait: float) -> dict[str, Any]:
        check_cursor(after)
        if not 0 <= wait <= MAX_WAIT:
            raise InvalidInput(
                f"wait must be 0..{MAX_WAIT:g} seconds", code="invalid_wait", field="wait"
            )
        found = await self.bot.messages.events(self.session_of(caller), after=after, wait=wait)
        return {
            "events": [event_view(e) for e in found],
            "cursor": found[-1].cursor if found else after,
        }

    async def answer_boundary(
        self, caller: Caller, boundary_id: str, *, ack: bool, reason: str | None
    ) -> dict[str, Any]:
        """The session let go of its context (ack) or will not (nack, with a reason)."""
        record = await self.bot.boundaries.answer(
            self.session_of(caller), boundary_id, ack=ack, reason=reason
        )
        return {
            "boundary_id": record.id,
            "answer": "ack" if ack else "nack",
            "waiting_for": [s for s in record.asked if s not in record.answers],
        }

    async def turn(self, caller: Caller, *, started: bool) -> dict[str, Any]:
        """The session says it is in the middle of a turn (or no longer): with
        ``boundary_mid_turn = "refuse"``, boundaries of its member are refused meanwhile."""
        since = await self.bot.boundaries.turn(self.session_of(caller), started=started)
        return {
            "state": "started" if started else "ended",
            "since": since.isoformat() if since is not None else None,
        }

    # the roster and the index ---------------------------------------------------------------
    async def members(self, caller: Caller) -> dict[str, Any]:
        members = {m.slug: m for m in await self.store.members()}
        return {
            "members": [
                {
                    "slug": entry.slug,
                    "name": entry.name,
                    "needs_you": entry.needs_you,
                    "pending_escalations": entry.pending_escalations,
                    "transports": list(members[entry.slug].transports),
                    "concierge_answer": (
                        None
                        if entry.concierge_answer is None
                        else {
                            "text": entry.concierge_answer.text,
                            "at": entry.concierge_answer.at.isoformat(),
                        }
                    ),
                }
                for entry in await roster(self.store, now=self.hub.clock.now())
                if entry.slug in members
                and self._may_read(caller, entry.slug, members[entry.slug].owner)
            ]
        }

    async def conversation(self, caller: Caller, slug: str) -> dict[str, Any]:
        _check_slug(slug, code="invalid_member_slug")
        member = await self.store.member(slug)
        if member is None:
            raise NotFound(f"no member named {slug!r}", code="unknown_member")
        if not self._may_read(caller, slug, member.owner):
            raise Forbidden(f"you may not read {slug}'s conversation", code="not_owner")
        records = await self.store.escalations(slug)
        return {
            "member": slug,
            "escalations": [escalation_view(e) for e in records],
            "needs_you": any(e.is_pending for e in records),
            "pending_escalations": sum(e.is_pending for e in records),
        }

    @staticmethod
    def _may_read(caller: Caller, slug: str, owner: int) -> bool:
        if caller.human is not None:
            return caller.human == owner
        session = caller.session
        return session is not None and session.kind is CallerKind.MEMBER and session.member == slug

    # the owner's side -----------------------------------------------------------------------
    async def audit(
        self,
        caller: Caller,
        *,
        after: str | None,
        limit: int,
        member: str | None,
        since: str | None,
        kind: str | None,
    ) -> dict[str, Any]:
        """A page of the audit log (the SEL and the concierge's ledger), for the owner."""
        from crewline.ops.audit import audit_view, parse_since, read_audit

        self._owner(caller)
        page = await read_audit(
            self.store,
            after=after,
            limit=limit,
            member=member,
            since=parse_since(since, self.hub.clock.now()) if since else None,
            kind=kind,
        )
        return {
            "entries": [audit_view(e) for e in page.entries],
            "cursor": page.cursor,
            "more": page.more,
        }

    async def reply(
        self, caller: Caller, slug: str, text: str, escalation_id: str | None
    ) -> dict[str, Any]:
        """The owner replies in a member's thread through the API (one record at most)."""
        human = self._owner(caller)
        _check_slug(slug, code="invalid_member_slug")
        member = await self.hub.member(slug)
        if member.owner != human:
            raise Forbidden(f"{slug} is not yours", code="not_owner")
        receipt = await self.hub.receive(
            HumanMessage(
                transport=API_TRANSPORT,
                event_id=new_id(),
                user_id=str(human),
                thread=slug,
                text=text,
                escalation_id=escalation_id,
            )
        )
        if not receipt.accepted:
            raise Forbidden(receipt.notice or "refused", code=receipt.code or "refused")
        return {
            "accepted": True,
            "outcome": receipt.outcome.value if receipt.outcome else None,
            "escalation_id": receipt.escalation_id,
            "open": [
                {"escalation_id": e.id, "message": e.message, "options": list(e.options)}
                for e in receipt.open
            ],
            "notice": receipt.notice,
        }

    async def answer_question(
        self, caller: Caller, question_id: str, answer: str
    ) -> dict[str, Any]:
        human = self._owner(caller)
        record = await self.store.question(question_id)
        if record is None or record.member is None:
            raise NotFound(f"no question {question_id!r}", code="unknown_question")
        member = await self.hub.member(record.member)
        if member.owner != human:
            raise Forbidden("this question is not yours to answer", code="not_owner")
        answered = await self.bot.questions.answer(member, question_id, answer)
        return question_view(answered)

    async def boundary(
        self,
        caller: Caller,
        slug: str,
        *,
        kind: str,
        row_id: str | None,
        steps: int | None,
        text: str | None,
    ) -> dict[str, Any]:
        """The owner rewinds, edits, regenerates or resets a member's conversation; waits
        for the boundary's end and says what happened."""
        human = self._owner(caller)
        _check_slug(slug, code="invalid_member_slug")
        member = await self.hub.member(slug)
        if member.owner != human:
            raise Forbidden(f"{slug} is not yours", code="not_owner")
        try:
            chosen = BoundaryKind(kind)
        except ValueError:
            raise InvalidInput(
                f"kind must be one of {', '.join(k.value for k in BoundaryKind)}",
                code="invalid_kind",
                field="kind",
            ) from None
        if steps is not None and not 1 <= steps <= MAX_STEPS:
            raise InvalidInput(f"steps must be 1..{MAX_STEPS}", code="invalid_steps", field="steps")
        if chosen is BoundaryKind.EDIT and (row_id is None or text is None):
            raise InvalidInput("an edit names row_id and text", code="missing_field")
        outcome = await self.bot.boundaries.run(
            BoundaryRequest(
                member=slug,
                kind=chosen,
                actor=f"{API_TRANSPORT}:{human}",
                row=row_id,
                steps=steps,
                text=text,
            )
        )
        error = outcome_error(outcome)
        if error is not None:
            raise error
        return boundary_view(outcome)

    async def fork(
        self,
        caller: Caller,
        slug: str,
        *,
        new_slug: str,
        row_id: str | None,
        steps: int | None,
    ) -> dict[str, Any]:
        """The owner forks a member: a new member whose conversation is a copy of this one
        up to a row (``/fork NEW-SLUG [N]``); the member itself is untouched."""
        human = self._owner(caller)
        _check_slug(slug, code="invalid_member_slug")
        member = await self.hub.member(slug)
        if member.owner != human:
            raise Forbidden(f"{slug} is not yours", code="not_owner")
        if steps is not None and not 1 <= steps <= MAX_STEPS:
            raise InvalidInput(f"steps must be 1..{MAX_STEPS}", code="invalid_steps", field="steps")
        request = BoundaryRequest(
            member=slug,
            kind=BoundaryKind.REWIND,
            actor=f"{API_TRANSPORT}:{human}",
            row=row_id,
            steps=steps,
        )
        forked = await self.hub.on_member(
            slug, lambda: self.hub.change(lambda ch: fork(ch, request, new_slug=new_slug))
        )
        return {
            "member": forked.member.slug,
            "name": forked.member.name,
            "copied": forked.copied,
            "notice": forked.notice,
        }

    @staticmethod
    def _owner(caller: Caller) -> int:
        if caller.human is None:
            raise Forbidden(
                "this call is made with the owner's token (crewline token)",
                code="owner_token_required",
            )
        return caller.human


def _check_slug(value: str, *, code: str) -> None:
    if not is_slug(value):
        raise InvalidInput(f"{value[:80]!r} is not a member slug", code=code)


def _escalation_receipt(receipt: EscalationReceipt) -> dict[str, Any]:
    routing = receipt.routing
    return {
        "escalation_id": receipt.escalation.id,
        "routed_to": (
            {"member": routing.member, "transports": list(receipt.transports)}
            if routing.member
            else {"own_transcript": True}
        ),
        "delivery": {t: status.value for t, status in receipt.delivery.items()},
        "state": receipt.escalation.state.value if routing.member else "unindexed",
        "deadline": _iso(receipt.escalation),
        "note": receipt.note,
    }


def _iso(escalation: Escalation) -> str | None:
    return escalation.deadline.isoformat() if escalation.deadline else None


def escalation_view(e: Escalation) -> dict[str, Any]:
    return {
        "escalation_id": e.id,
        "row_id": e.row_id,
        "session": e.session,
        "message": e.message,
        "deadline": _iso(e),
        "default_action": e.default_action,
        "options": list(e.options),
        "goal": e.goal,
        "state": e.state.value,
        "answer": e.answer,
        "choice": e.choice,
        "answered_by": e.answered_by.value if e.answered_by else None,
        "answered_via": e.answered_via.value if e.answered_via else None,
        "default_applied": e.default_applied,
        "window_held": e.window_held,
        "created_at": e.created_at.isoformat(),
        "settled_at": e.settled_at.isoformat() if e.settled_at else None,
    }


def question_view(q: Question) -> dict[str, Any]:
    return {
        "question_id": q.id,
        "question": q.question,
        "options": list(q.options),
        "dialog": q.dialog,
        "state": q.state.value,
        "answer": q.answer,
        "answered_by": q.answered_by.value if q.answered_by else None,
    }


def boundary_view(o: Outcome) -> dict[str, Any]:
    return {
        "boundary_id": o.boundary_id,
        "committed": o.committed,
        "generation": o.generation,
        "rewound": list(o.rewound),
        "kept": list(o.kept),
        "resent_row": o.resent_row,
        "answered": o.answered,
        "retired_questions": list(o.retired_questions),
        "notice": o.notice,
    }


def event_view(e: Event) -> dict[str, Any]:
    return {
        "cursor": e.cursor,
        "kind": e.kind,
        "body": dict(e.body),
        "at": e.created_at.isoformat(),
    }
