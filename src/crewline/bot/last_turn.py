"""The member's last turn, which the regenerate button acts on (SPEC §5: regenerate).

The member's latest message carries a "Regenerate" button while it is the member's last
turn: the latest live row the member wrote, with a message of the owner before it (the one
the member is given again) and none after it. Whatever ends that — the member writing
again, the owner writing, a boundary — redraws the message without the button
(:func:`redraw`); a press that still arrives (a stale screen, a redraw not yet delivered) is
refused by the boundary's freeze, which checks the rule in its own transaction.
"""

from __future__ import annotations

from crewline.bot.changes import Change
from crewline.models import Member, Row, RowRole
from crewline.store import Tx

__all__ = ["is_last_turn", "last_turn", "redraw"]


def last_turn(tx: Tx, conversation: str) -> Row | None:
    """The member's message that is its last turn now, if any."""
    latest = tx.last_rows(conversation, role=RowRole.MEMBER, limit=1)
    if not latest:
        return None
    owner_last = tx.last_rows(conversation, role=RowRole.HUMAN, limit=1)
    if not owner_last or owner_last[0].seq > latest[0].seq:
        return None
    return latest[0]


def is_last_turn(tx: Tx, row: Row) -> bool:
    """Whether ``row`` is its conversation's last turn now (a rewound row never is)."""
    current = last_turn(tx, row.conversation)
    return current is not None and current.id == row.id


def redraw(ch: Change, member: Member) -> None:
    """Redraw the member's last turn as it is when the redraw is delivered.

    Called before a row that ends the last turn is appended (the member's or the owner's
    next message: the button goes), and after a boundary (an earlier message may be the
    last turn again: the button comes back).
    """
    current = last_turn(ch.tx, member.slug)
    if current is not None:
        ch.show(member, "update", f"row:{current.id}")
