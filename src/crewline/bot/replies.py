"""Matching a human reply to an escalation record: the one rule (SPEC §2), everywhere.

Pure: the caller loads the record(s) inside the member's actor, so "pending at this row's
position" is exactly the state when this reply arrived, and acts on the returned decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crewline.models import AnsweredVia, Escalation

__all__ = ["Ambiguous", "Answer", "NoMatch", "Refusal", "choice_of", "match_click", "match_text"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Answer:
    escalation: Escalation
    text: str
    choice: int | None
    via: AnsweredVia


@dataclass(frozen=True, kw_only=True, slots=True)
class Ambiguous:
    pending: tuple[Escalation, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class NoMatch:
    reason: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Refusal:
    """Told privately to the person who acted; nothing changes."""

    code: str
    notice: str
    security: bool = False  # worth a SEL record


def match_click(
    *,
    record: Escalation | None,
    member: str,
    choice: int,
    presser_is_owner: bool,
) -> Answer | Refusal:
    """Rule 1: a press answers its record if pending, pressed by the owner, well-formed."""
    if record is None or record.member != member:
        return Refusal(
            code="unknown_escalation",
            notice="This button does not belong to a request of this member.",
            security=True,
        )
    if not presser_is_owner:
        return Refusal(
            code="not_owner",
            notice="Only this member's owner can answer its requests.",
            security=True,
        )
    if not record.is_pending:
        return Refusal(
            code="already_settled",
            notice=f"This request is already settled ({record.state.value}).",
        )
    if not 0 <= choice < len(record.options):
        return Refusal(
            code="invalid_choice",
            notice="This button names a choice the request does not offer.",
            security=True,
        )
    return Answer(
        escalation=record, text=record.options[choice], choice=choice, via=AnsweredVia.CHIP
    )


def match_text(
    *,
    text: str,
    pending: Sequence[Escalation],
    author_is_owner: bool,
    named: Escalation | None = None,
) -> Answer | Ambiguous | NoMatch:
    """Rules 2 and 4: typed text answers only when exactly one record is pending.

    ``named`` is the one record a client explicitly named (rule 5 is enforced where the body
    is parsed: a body can carry at most one id). Replays (rule 3) never reach this: a
    redelivered event is recognised by its id, and reconciliation re-applies the record a
    row names instead of matching it again.
    """
    if not author_is_owner:
        return NoMatch(reason="not_owner")
    if named is not None:
        if not named.is_pending:
            return NoMatch(reason="already_settled")
        return Answer(
            escalation=named, text=text, choice=choice_of(named, text), via=AnsweredVia.TEXT
        )
    if not pending:
        return NoMatch(reason="nothing_pending")
    if len(pending) > 1:
        return Ambiguous(pending=tuple(pending))
    only = pending[0]
    return Answer(escalation=only, text=text, choice=choice_of(only, text), via=AnsweredVia.TEXT)


def choice_of(record: Escalation, text: str) -> int | None:
    """The option a typed answer names (case and surrounding space ignored), if any."""
    wanted = text.strip().casefold()
    for index, option in enumerate(record.options):
        if option.strip().casefold() == wanted:
            return index
    return None
