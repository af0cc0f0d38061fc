"""The built-in brain: drafts straight from the gate's verdict, with no model and no network."""

from __future__ import annotations

from crewline.brains.base import Brain, BrainAsk, Draft, as_reply
from crewline.policy import Verdict

__all__ = ["OfflineBrain"]


class OfflineBrain(Brain):
    """A routine verdict's answer is the draft ("4321", because "probe said so at 09:12").
    A careful question gets a pick only from evidence — the default the question states
    (its ``pick``), as a suggestion for the human to send — and otherwise no pick at all: a
    draft with empty text whose ``why`` says why the question needs the human ("irreversible:
    it drops the users_v1 table", "a choice with no stated default")."""

    name = "offline"

    async def draft(self, ask: BrainAsk, verdict: Verdict) -> Draft | None:
        if verdict.kind.routine:
            text = as_reply(verdict.answer)
            return Draft(text=text, why=verdict.why) if text else None
        pick = as_reply(verdict.pick or ask.default)
        if pick is not None:
            return Draft(
                text=pick,
                why=f"the default the question states; yours to decide, since {verdict.why}",
            )
        return Draft(text="", why=verdict.why)
