"""The hub_* verbs of an external concierge (a session of kind ``concierge``).

``hub_suggest`` and ``hub_reply`` go through the same gate and the same ledger as the
built-in concierge: the service judges the question itself and its verdict wins over the
session's text. ``hub_stop``, ``hub_respawn`` and ``hub_dispatch`` act on other sessions,
only with ``act on``, never on the concierge itself; every act is a SEL record and a line in
the thread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from crewline.bot.changes import Change
from crewline.bot.concierge import transactions as ctx
from crewline.bot.concierge.asked import Asked, current_asked
from crewline.bot.concierge.feature import Concierge, answer_allowed
from crewline.bot.ports import Core
from crewline.errors import Forbidden, InvalidInput, NotFound
from crewline.keys import hash_key, new_session_key
from crewline.launchers import Launchers
from crewline.models import AnswerPolicy, CallerKind, Member, Session, new_id
from crewline.policy import Verb, authorize
from crewline.policy.routine import Verdict, judge
from crewline.store import Tx

__all__ = ["ActReceipt", "ConciergeVerbs"]

MAX_TEXT = 4000
_COMMAND_LINE = re.compile(r"^\s*[/!]")  # a /command or a !shell line


@dataclass(frozen=True, kw_only=True, slots=True)
class ActReceipt:
    what: str  # stopped | respawned | dispatched
    session: str  # the session stopped, or the new one
    pid: int | None = None


class ConciergeVerbs:
    def __init__(self, hub: Core, concierge: Concierge) -> None:
        self.hub = hub
        self.concierge = concierge

    async def _gate(self, caller: Session, verb: Verb) -> str:
        decision = authorize(caller, verb)
        if not decision.allowed:
            code = decision.code or "forbidden"
            await self.hub.change(
                lambda ch: ch.audit(
                    f"{verb.value}:{code}", "denied", actor=caller.id, kind=caller.kind.value
                )
            )
            raise Forbidden(decision.reason or f"{verb.value} is not allowed", code=code)
        return f"session:{caller.id}"

    async def _judge(self, record_id: str) -> tuple[Asked, Verdict]:
        asked = await self._pending(record_id)
        facts = await self.concierge.facts(asked.member, asked.text)
        return asked, judge(asked.text, options=asked.options, default=asked.default, facts=facts)

    async def _pending(self, record_id: str) -> Asked:
        store = self.hub.store
        escalation = await store.escalation(record_id)
        question = None if escalation else await store.question(record_id)
        if escalation is not None and escalation.member:
            asked: Asked | None = Asked.of_escalation(escalation)
        elif question is not None:
            asked = Asked.of_question(question)
        else:
            asked = None
        if asked is None:
            raise NotFound(f"no member's question {record_id!r}", code="unknown_record")
        return asked

    # suggestions and answers ----------------------------------------------------------------
    async def suggest(self, caller: Session, record_id: str, text: str, why: str) -> None:
        """hub_suggest: a suggestion on a record that still waits; answers nothing."""
        brain = await self._gate(caller, Verb.HUB_SUGGEST)
        _check(text, "text")
        asked, verdict = await self._judge(record_id)

        def write(ch: Change) -> None:
            member, current = _waiting(ch, asked)
            ctx.suggest(ch, member, current, text=text, why=why or verdict.why, brain=brain)
            ch.tx.add_ledger(
                ctx.ledger_entry(
                    ch,
                    decision="suggested",
                    policy=ctx.policy_in(ch.tx, self.concierge.settings.start),
                    brain=brain,
                    rationale=f"{verdict.why}; suggested by the session: {why}",
                    asked=current,
                    verdict=verdict.kind.value,
                    evidence=verdict.evidence,
                    actor=caller.id,
                )
            )

        await self.hub.on_member(asked.member, lambda: self.hub.change(write))

    async def reply(self, caller: Session, record_id: str, text: str, why: str) -> None:
        """hub_reply: answer on the human's behalf, if the policy and the gate allow.

        Raises Forbidden(policy) under ``never`` or when the gate does not allow this
        question; InvalidInput(bad_request) for a dialog, a record that waits for nothing,
        and text that is a ``/command`` or a ``!shell`` line.
        """
        brain = await self._gate(caller, Verb.HUB_REPLY)
        _check(text, "text")
        if _COMMAND_LINE.match(text):
            raise InvalidInput(
                "an answer may not be a /command or a !shell line", code="bad_request"
            )
        if (await self.concierge.policy()).answer is AnswerPolicy.NEVER:
            await self._refused(caller, record_id)
            raise Forbidden("the owner's policy is never: suggest instead", code="policy")
        asked, verdict = await self._judge(record_id)
        if asked.dialog:
            raise InvalidInput("a dialog is answered by the human only", code="bad_request")

        def write(ch: Change) -> bool:
            member, current = _waiting(ch, asked)
            policy = ctx.policy_in(ch.tx, self.concierge.settings.start)
            allowed = answer_allowed(policy.answer, verdict, dialog=current.dialog, external=True)
            if allowed:
                ctx.give_answer(ch, member, current, text=text, why=why or verdict.why, brain=brain)
            ch.tx.add_ledger(
                ctx.ledger_entry(
                    ch,
                    decision="answered" if allowed else "refused",
                    policy=policy,
                    brain=brain,
                    rationale=verdict.why
                    + ("" if allowed else "; the gate does not allow an answer"),
                    asked=current,
                    verdict=verdict.kind.value,
                    evidence=verdict.evidence,
                    actor=caller.id,
                )
            )
            if not allowed:
                ch.audit("hub_reply:policy", "denied", actor=caller.id, member=member.slug)
            return allowed

        if not await self.hub.on_member(asked.member, lambda: self.hub.change(write)):
            raise Forbidden(
                f"the gate judged this question {verdict.kind.value}: it goes to the human",
                code="policy",
                verdict=verdict.kind.value,
            )

    async def _refused(self, caller: Session, record_id: str) -> None:
        await self.hub.change(
            lambda ch: ch.audit("hub_reply:policy", "denied", actor=caller.id, record=record_id)
        )

    # acts -----------------------------------------------------------------------------------
    async def _may_act(self, caller: Session, verb: Verb, target: str | None) -> str:
        actor = await self._gate(caller, verb)
        if not (await self.concierge.policy()).act:
            await self.hub.change(
                lambda ch: ch.audit(f"{verb.value}:policy", "denied", actor=caller.id)
            )
            raise Forbidden("act is off: the owner has not let the concierge act", code="policy")
        if target == caller.id:
            raise Forbidden("the concierge never acts on itself", code="policy")
        return actor

    async def stop(self, caller: Session, session_id: str, why: str) -> ActReceipt:
        """hub_stop: the session gets a ``stop`` event and is marked stopped (its key ends)."""
        await self._may_act(caller, Verb.HUB_STOP, session_id)
        target = await self._live(session_id)

        def write(ch: Change) -> None:
            ch.event(target.id, "stop", {"why": why, "by": "concierge"})
            ch.tx.end_session(target.id, ch.now)
            self._said(ch, target.member, f"concierge stopped session {target.id}: {why}")
            ch.audit("concierge:act", "allowed", actor=caller.id, what="stop", session=target.id)

        await self.hub.change(write)
        return ActReceipt(what="stopped", session=target.id)

    async def respawn(
        self, caller: Session, session_id: str, launcher: str, why: str
    ) -> ActReceipt:
        """hub_respawn: stop the session (if still live), start ``launcher`` as its successor
        with a fresh key, of the same kind and member."""
        await self._may_act(caller, Verb.HUB_RESPAWN, session_id)
        launchers = self._launchers(launcher)
        old = await self.hub.store.write(lambda tx: tx.session(session_id))
        if old is None or old.kind is CallerKind.CONCIERGE:
            raise NotFound(f"no session {session_id!r} to restart", code="unknown_session")
        return await self._start(caller, launchers, launcher, old, why, what="respawned")

    async def dispatch(
        self, caller: Session, launcher: str, member: str | None, why: str
    ) -> ActReceipt:
        """hub_dispatch: start ``launcher`` as a new worker of ``member`` (or a plain session)."""
        await self._may_act(caller, Verb.HUB_DISPATCH, None)
        launchers = self._launchers(launcher)
        if member is not None:
            await self.hub.member(member)
        kind = CallerKind.WORKER if member else CallerKind.PLAIN
        template = Session(id="", kind=kind, member=member)
        return await self._start(caller, launchers, launcher, template, why, what="dispatched")

    async def _start(
        self,
        caller: Session,
        launchers: Launchers,
        launcher: str,
        like: Session,
        why: str,
        *,
        what: str,
    ) -> ActReceipt:
        key = new_session_key()
        fresh = Session(id=new_id(), kind=like.kind, member=like.member, parent=like.parent)

        def write(ch: Change) -> None:
            if like.id and ch.tx.end_session(like.id, ch.now):
                ch.event(like.id, "stop", {"why": why, "by": "concierge", "respawned": fresh.id})
            ch.tx.add_session(fresh, hash_key(key), ch.now)
            self._said(ch, fresh.member, f"concierge {what} session {fresh.id} ({launcher}): {why}")
            ch.audit(
                "concierge:act",
                "allowed",
                actor=caller.id,
                what=what,
                session=fresh.id,
                launcher=launcher,
                replaces=like.id or None,
            )

        await self.hub.change(write)
        pid = await launchers.launch(launcher, session_key=key)
        return ActReceipt(what=what, session=fresh.id, pid=pid)

    def _launchers(self, name: str) -> Launchers:
        launchers = self.concierge.settings.launchers
        if launchers is None:
            raise InvalidInput(
                "no launchers are declared in crewline.toml", code="unknown_launcher"
            )
        launchers.check(name)
        return launchers

    async def _live(self, session_id: str) -> Session:
        def read(tx: Tx) -> Session | None:
            return None if tx.session_ended(session_id) else tx.session(session_id)

        found = await self.hub.store.write(read)
        if found is None or found.kind is CallerKind.CONCIERGE:
            raise NotFound(f"no live session {session_id!r}", code="unknown_session")
        return found

    @staticmethod
    def _said(ch: Change, slug: str | None, text: str) -> None:
        """The act, said in the member's thread (a session with no member has none)."""
        if slug is None:
            return
        member = ch.tx.member(slug)
        if member is None:
            return
        row = ch.system_row(
            member.slug,
            text,
            meta={"concierge_act": True},
            author="concierge",
        )
        ch.show(member, "post", f"row:{row.id}")


def _waiting(ch: Change, asked: Asked) -> tuple[Member, Asked]:
    current = current_asked(ch.tx, asked.id)
    member = ch.tx.member(asked.member)
    if current is None or member is None:
        raise InvalidInput(f"{asked.kind} {asked.id} waits for nothing now", code="bad_request")
    return member, current


def _check(text: str, field: str) -> None:
    if not text.strip() or len(text) > MAX_TEXT:
        raise InvalidInput(f"{field} must be 1..{MAX_TEXT} characters", code=f"invalid_{field}")
