"""A typed reply in a member's thread: the one matching rule (SPEC §2) and what each of its
outcomes writes.

The text the owner types and the resent text of an edited answer (SPEC §5 rule 5) are the
same kind of reply: each answers the one record it matches, or — matching several — the
thread says which are open and how to pick; a reply that answers no record reaches the
member's sessions as a ``human_message``. Only how the reply's row is written differs (a
person's platform message, or a row crewline posts for a boundary), so the caller passes
that in. Runs inside the caller's transaction, on the member's actor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from crewline.bot import cards, concierge_tx, escalations
from crewline.bot.changes import Change
from crewline.bot.replies import Ambiguous, Answer, NoMatch, match_text
from crewline.models import AnsweredBy, AnsweredVia, Escalation, Member, Row, RowRole

__all__ = ["Taken", "WriteRow", "answer", "take_reply"]

# How the caller writes the reply's row: (text, meta, the record it answers or None).
WriteRow = Callable[[str, Mapping[str, object], str | None], Row]


@dataclass(frozen=True, kw_only=True, slots=True)
class Taken:
    decision: Answer | Ambiguous | NoMatch
    row: Row  # the reply's own row


def take_reply(
    ch: Change,
    member: Member,
    *,
    text: str,
    pending: Sequence[Escalation],
    write_row: WriteRow,
    told: Mapping[str, object],
    named: Escalation | None = None,
    via: AnsweredVia = AnsweredVia.TEXT,
) -> Taken:
    """Match the owner's ``text`` against the records ``pending`` at its position and write
    the outcome. ``told``: what a ``human_message`` event says beside the row and the text.
    """
    decision = match_text(text=text, pending=pending, author_is_owner=True, named=named, via=via)
    if isinstance(decision, Answer):
        return Taken(decision=decision, row=answer(ch, member, decision, write_row))
    row = write_row(text, {}, None)
    if isinstance(decision, Ambiguous):
        notice = ch.tx.append_row(
            conversation=member.slug,
            role=RowRole.SYSTEM,
            author="crewline",
            text=cards.ambiguity_notice(decision.pending),
            now=ch.now,
            meta={"ambiguous": [e.id for e in decision.pending]},
        )
        ch.show(member, "post", f"row:{notice.id}")
    ch.tell_member(member.slug, "human_message", {"row_id": row.id, "text": text, **told})
    concierge_tx.drop_on_reply(ch, member)
    return Taken(decision=decision, row=row)


def answer(ch: Change, member: Member, decision: Answer, write_row: WriteRow) -> Row:
    """The answering reply is a transcript row (the truth) naming its one record."""
    record = decision.escalation
    row = write_row(
        decision.text,
        {
            "escalation_id": record.id,
            "choice": decision.choice,
            "via": decision.via.value,
            "by": AnsweredBy.USER.value,
        },
        record.id,
    )
    escalations.answer_escalation(
        ch,
        member,
        record,
        text=decision.text,
        choice=decision.choice,
        by=AnsweredBy.USER,
        via=decision.via,
        answer_row=row,
    )
    return row
