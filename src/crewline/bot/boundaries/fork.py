"""Fork (SPEC §5): a new member, under a new slug, whose transcript is a copy of another
member's up to a row.

The source member is not touched, so nothing is discarded and nothing is waited for: the
fork is one transaction. The copies are new rows with new ids that name where they came from
(``forked_from``); cards are copied as the words they asked, never as records, so the new
member's index starts empty and the source's records stay the source's. The new member has no
session yet: its agent gets a key with ``crewline member key SLUG``.
"""

from __future__ import annotations

from dataclasses import dataclass

from crewline.bot.boundaries.transactions import BoundaryKind, BoundaryRequest, resolve_kept
from crewline.bot.changes import Change
from crewline.errors import Conflict, InvalidInput, NotFound
from crewline.models import Member, RowRole, is_slug

__all__ = ["Forked", "fork"]

_CARDS = (RowRole.ESCALATION, RowRole.QUESTION)


@dataclass(frozen=True, kw_only=True, slots=True)
class Forked:
    member: Member
    copied: int
    notice: str


def fork(ch: Change, request: BoundaryRequest, *, new_slug: str) -> Forked:
    """Copy ``request.member``'s live transcript up to the kept row into a new member."""
    if not is_slug(new_slug):
        raise InvalidInput(
            f"{new_slug[:80]!r} is not a slug (a-z, 0-9, dashes)", code="invalid_member_slug"
        )
    source = ch.tx.member(request.member)
    if source is None:
        raise NotFound(f"no member named {request.member!r}", code="unknown_member")
    rewind_like = BoundaryRequest(
        member=request.member,
        kind=BoundaryKind.REWIND,
        actor=request.actor,
        row=request.row,
        steps=request.steps,
    )
    if request.event is not None and not ch.tx.mark_seen(*request.event, ch.now):
        raise Conflict("this event was already handled", code="duplicate_event")
    kept, _ = resolve_kept(ch, source, rewind_like)
    member = Member(
        slug=new_slug,
        name=new_slug.replace("-", " ").title(),
        owner=source.owner,
        transports=source.transports,
    )
    ch.tx.add_member(member, ch.now)  # Conflict(member_exists) when the slug is taken
    copied = 0
    for row in ch.tx.live_rows(source.slug):
        if kept is not None and row.seq > kept.seq:
            break
        ch.tx.append_row(
            conversation=new_slug,
            role=RowRole.MEMBER if row.role in _CARDS else row.role,
            author=row.author,
            text=row.text,
            now=row.created_at,
            meta={"forked_from": row.id},
        )
        copied += 1
    notice_text = (
        f"Forked from {source.name}: {copied} message{'s' if copied != 1 else ''} copied."
        f" Give its agent a key with `crewline member key {new_slug}`."
    )
    notice = ch.system_row(
        new_slug,
        notice_text,
        meta={"forked_from_member": source.slug},
    )
    ch.show(member, "post", f"row:{notice.id}")
    ch.roster()
    ch.audit(
        "boundary:fork",
        "ok",
        actor=request.actor,
        member=source.slug,
        fork=new_slug,
        copied=copied,
    )
    return Forked(member=member, copied=copied, notice=notice_text)
