"""The Brain port: what drafts the *text* of a concierge suggestion or answer.

A brain never decides. The gate (``crewline.policy.judge``) has already placed the question
when a brain is asked, and the brain receives that ``Verdict`` only to read it: the verdict is
a frozen value and ``draft`` returns a ``Draft`` (text and why) and nothing else, so no
brain output can make a careful question routine. For a routine verdict the core may send the
draft as the answer; for a careful one it is a suggestion on the card, for the human to send,
edit or dismiss.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from crewline.policy import Fact, Placement, Verdict

__all__ = ["MAX_DRAFT_CHARS", "Brain", "BrainAsk", "Draft", "as_reply", "plain_text"]

MAX_DRAFT_CHARS = 500  # a reply sent for the human fits on a card; anything longer is refused


@dataclass(frozen=True, kw_only=True, slots=True)
class BrainAsk:
    """The question as a member asked it, and the fleet facts the core retrieved for it."""

    question: str
    member: str
    options: tuple[str, ...] = ()
    default: str | None = None
    facts: tuple[Fact, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Draft:
    """A brain's text for the reply, and why: its rationale (shown with a suggestion)."""

    text: str
    why: str


def as_reply(value: str | None) -> str | None:
    """A value as reply text: a path or anything else that would read as a ``/command`` or a
    ``!shell`` line is sent in a code span ("`/healthz/ready`"), so it is sent as said."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    return plain_text(f"`{value}`" if value[0] in "/!" and "`" not in value else value)


def plain_text(text: str | None) -> str | None:
    """``text`` stripped, or None when it cannot be a reply: empty, over ``MAX_DRAFT_CHARS``,
    or a ``/command`` or ``!shell`` line (a reply is sent as the human's plain text)."""
    if text is None:
        return None
    text = text.strip()
    if not text or len(text) > MAX_DRAFT_CHARS or text[0] in "/!":
        return None
    return text


class Brain(ABC):
    """Drafts reply text for a question the gate has judged.

    ``name`` names the brain in the ledger ("offline", "llm").
    """

    name: str

    @abstractmethod
    async def draft(self, ask: BrainAsk, verdict: Verdict) -> Draft | None:
        """The text of the answer ``verdict`` allows (routine kinds) or of a suggestion for the
        human (careful kinds), with its rationale (``why``); None when the brain has nothing
        to offer.

        Contract: never raises into the caller (a failure is logged and gives None); never
        decides — ``verdict`` is read only, and the core acts on it, not on the draft; a
        returned ``Draft.text`` satisfies ``plain_text``.
        """

    async def place(self, ask: BrainAsk) -> Placement | None:
        """Where a question the offline path could not place belongs (proceed, a stated
        default, a fleet value from one of ``ask.facts``, or the human), or None.

        Only understanding, never authorisation: the core asks only about questions the
        careful judgement let through, and checks what comes back in code
        (``policy.check_placement``): a careful verdict stays final, a fleet answer must hold
        a value of a retrieved row it cites. The default: no placement.
        """
        del ask
        return None
