"""Matching a human reply to an escalation record: the one rule (SPEC §2), everywhere.

Pure: the caller loads the record(s) inside the member's actor, so "pending at this row's
position" is exactly the state when this reply arrived, and acts on the returned decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crewline.models import AnsweredVia, Escalation, Receipt

__all__ = [
    "DUPLICATE",
    "Ambiguous",
    "Answer",
    "NoMatch",
    "Refusal",
    "choice_of",
    "match_click",
    "match_text",
]

# A later delivery of an event that was taken (SPEC §2 rule 3) gets its first delivery's
# receipt (bot/receipts.py); this, when none was kept: the first is still being answered,
# or was cut short by a crash. It says only that the event was taken before.
DUPLICATE = Receipt(accepted=False, code="duplicate_event", repeat=True)


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
    via: AnsweredVia = AnsweredVia.TEXT,
) -> Answer | Ambiguous | NoMatch:
    """Rules 2 and 4: typed text answers the one pending record, or — with several
    pending — the one record it names by an option (case and spacing ignored).

    ``named`` is the one record a client explicitly named (rule 5 is enforced where the body
    is parsed: a body can carry at most one id). Replays (rule 3) never reach this: a
    redelivered event is recognised by its id, and reconciliation re-applies the record a
    row names instead of matching it again. ``via``: how the text came (``edit`` for the
    resent text of an edited answer, SPEC §5 rule 5).
    """
    if not author_is_owner:
        return NoMatch(reason="not_owner")
    if named is not None:
        if not named.is_pending:
            return NoMatch(reason="already_settled")
        return Answer(escalation=named, text=text, choice=choice_of(named, text), via=via)
    if not pending:
        return NoMatch(reason="no_open_request")
    if len(pending) == 1:
        only = pending[0]
        return Answer(escalation=only, text=text, choice=choice_of(only, text), via=via)
    # Several are open: text that is an option of exactly one of them names it as surely
    # as its button would; anything else answers none (the safe side).
    naming = [
        (record, choice) for record in pending if (choice := choice_of(record, text)) is not None
    ]
    if len(naming) == 1:
        record, choice = naming[0]
        return Answer(escalation=record, text=text, choice=choice, via=via)
    return Ambiguous(pending=tuple(pending))


def choice_of(record: Escalation, text: str) -> int | None:
    """The option a typed answer names, if any: case and spacing are ignored."""
    wanted = _folded(text)
    for index, option in enumerate(record.options):
        if _folded(option) == wanted:
            return index
    return None


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()
