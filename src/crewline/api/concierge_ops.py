"""The concierge's operations: the owner's policy, ledger and undo; the hub_* verbs of a
session of kind ``concierge``. HTTP (and MCP) translate to these; they share the core's
gate and ledger with the built-in concierge.
"""

from __future__ import annotations

from typing import Any

from crewline.api.operations import Caller, Operations
from crewline.bot.concierge import undo_notice
from crewline.errors import Forbidden
from crewline.models import ConciergeAnswer, ConciergePolicy, LedgerEntry

__all__ = ["ConciergeOperations", "answer_view", "ledger_view", "policy_view"]


def policy_view(policy: ConciergePolicy) -> dict[str, Any]:
    return {"answer": policy.answer.value, "act": "on" if policy.act else "off"}


def ledger_view(entry: LedgerEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "at": entry.at.isoformat(),
        "member": entry.member,
        "record_id": entry.record_id,
        "decision": entry.decision,
        "verdict": entry.verdict,
        "policy": entry.policy,
        "brain": entry.brain,
        "rationale": entry.rationale,
        "evidence": list(entry.evidence),
        "actor": entry.actor,
    }


def answer_view(answer: ConciergeAnswer) -> dict[str, Any]:
    return {
        "member": answer.member,
        "record_id": answer.record_id,
        "record_kind": answer.record_kind,
        "text": answer.text,
        "why": answer.why,
        "at": answer.at.isoformat(),
        "undone": answer.undone_at is not None,
    }


class ConciergeOperations:
    def __init__(self, ops: Operations) -> None:
        self.ops = ops
        self.hub = ops.hub
        self.concierge = ops.bot.concierge
        self.verbs = ops.bot.hub_verbs

    async def _owner(self, caller: Caller, action: str) -> str:
        """The owner's actor name; a session's attempt is refused (403) and audited."""
        if caller.human is not None:
            return f"owner:{caller.human}"
        session = caller.session
        await self.hub.change(
            lambda ch: ch.audit(
                f"concierge:{action}:not_owner",
                "denied",
                actor=session.id if session else None,
                member=session.member if session else None,
                kind=session.kind.value if session else None,
            )
        )
        raise Forbidden("only the owner's token may do this", code="not_owner")

    async def policy(self, caller: Caller) -> dict[str, Any]:
        await self._owner(caller, "policy")
        return policy_view(await self.concierge.policy())

    async def set_policy(
        self, caller: Caller, *, answer: str | None, act: str | None
    ) -> dict[str, Any]:
        actor = await self._owner(caller, "policy")
        policy = await self.concierge.set_policy(actor=actor, answer=answer, act=act)
        return policy_view(policy)

    async def ledger(self, caller: Caller, *, limit: int) -> dict[str, Any]:
        await self._owner(caller, "ledger")
        return {
            "entries": [ledger_view(e) for e in await self.hub.store.ledger(limit=limit)],
            "answers": [answer_view(a) for a in await self.hub.store.concierge_answers()],
        }

    async def undo(self, caller: Caller) -> dict[str, Any]:
        actor = await self._owner(caller, "undo")
        undone = await self.concierge.undo(actor=actor)
        return {
            "undone": answer_view(undone.answer),
            "outcome": undone.outcome,
            "notice": undo_notice(undone.answer.text, undone.outcome),
        }

    # the hub_* verbs of a session of kind concierge ------------------------------------------
    async def suggest(self, caller: Caller, record_id: str, text: str, why: str) -> dict[str, Any]:
        await self.verbs.suggest(self.ops.session_of(caller), record_id, text, why)
        return {"suggested": True, "record_id": record_id}

    async def reply(self, caller: Caller, record_id: str, text: str, why: str) -> dict[str, Any]:
        await self.verbs.reply(self.ops.session_of(caller), record_id, text, why)
        return {"answered": True, "record_id": record_id}

    async def stop(self, caller: Caller, session_id: str, why: str) -> dict[str, Any]:
        done = await self.verbs.stop(self.ops.session_of(caller), session_id, why)
        return {"done": done.what, "session_id": done.session}

    async def respawn(
        self, caller: Caller, session_id: str, launcher: str, why: str
    ) -> dict[str, Any]:
        done = await self.verbs.respawn(self.ops.session_of(caller), session_id, launcher, why)
        return {"done": done.what, "session_id": done.session, "pid": done.pid}

    async def dispatch(
        self, caller: Caller, launcher: str, member: str | None, why: str
    ) -> dict[str, Any]:
        done = await self.verbs.dispatch(self.ops.session_of(caller), launcher, member, why)
        return {"done": done.what, "session_id": done.session, "pid": done.pid}
