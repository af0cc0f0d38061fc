"""The built-in brain: drafts straight from the gate's verdict, with no model and no network."""

from __future__ import annotations

from crewline.brains.base import Brain, BrainAsk, Draft, plain_text
from crewline.policy import Verdict

__all__ = ["DEFER", "OfflineBrain"]

# The suggestion on a careful question that offers nothing to pick: sent, it tells the
# member to wait for the human, which is what a careful question needs.
DEFER = "Not yet: I'll decide this one myself."


class OfflineBrain(Brain):
    """A routine verdict's answer is the draft ("4321", because "probe said so at 09:12"). A
    careful question gets a suggestion only: the asker's stated default, else its first
    option, else ``DEFER``, so every card carries a one-tap reply and nothing is done until
    the human sends one."""

    name = "offline"

    async def draft(self, ask: BrainAsk, verdict: Verdict) -> Draft | None:
        if verdict.kind.routine:
            text = plain_text(verdict.answer)
            return Draft(text=text, why=verdict.why) if text else None
        default = plain_text(ask.default)
        if default is not None:
            return Draft(
                text=default,
                why=f"the asker's stated default; yours to decide ({verdict.why})",
            )
        first = next((text for text in map(plain_text, ask.options) if text), None)
        if first is not None:
            return Draft(
                text=first, why=f"the first option offered; yours to decide ({verdict.why})"
            )
        return Draft(text=DEFER, why=f"not for the concierge: {verdict.why}")
