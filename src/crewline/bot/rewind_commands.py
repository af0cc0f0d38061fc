"""Boundaries started by a human on a transport: /rewind, /regenerate (and its button on
the member's last turn), /reset, /fork and edits.

Each gets one visible outcome: done (nothing had to be waited for), queued (the member's
session is asked to let go; the outcome then appears in the thread), or refused with why.
Only the member's owner may start one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from crewline.bot.boundaries import BoundaryKind, BoundaryRequest
from crewline.bot.fork import fork
from crewline.bot.replies import DUPLICATE, Refusal
from crewline.errors import CallerError
from crewline.models import (
    HumanClick,
    HumanCommand,
    HumanEdit,
    HumanEvent,
    Member,
    Receipt,
    RowRole,
    is_slug,
)

if TYPE_CHECKING:
    from crewline.bot.inbound import HumanEvents

__all__ = [
    "BOUNDARY_COMMANDS",
    "HELP_LINES",
    "boundary_command",
    "edit_resend",
    "fork_command",
    "regenerate_press",
]

BOUNDARY_COMMANDS = {
    "rewind": BoundaryKind.REWIND,
    "regenerate": BoundaryKind.REGENERATE,
    "reset": BoundaryKind.RESET,
}
HELP_LINES = (
    "/rewind [N]: in a member's thread, continue from your last (or N-th last) message;"
    " everything after it leaves the conversation\n"
    "/regenerate (or the Regenerate button on the member's last message): the member answers"
    " your last message again\n"
    "/reset: the member's conversation starts again from nothing\n"
    "/fork NEW-SLUG [N]: a new member whose conversation is a copy of this one up to your"
    " last (or N-th last) message\n"
    "Editing one of your messages resends it: what followed it leaves the conversation."
)
MAX_STEPS = 1000
_ROW_ID = re.compile(r"^[0-9a-f]{16}$")
USAGE = "Usage: /rewind, /rewind N (your N-th last message), or Rewind to here on a message."


async def boundary_command(events: HumanEvents, event: HumanCommand) -> Receipt:
    kind = BOUNDARY_COMMANDS[event.name]
    args = list(event.args)
    member = await events._thread_member(event)
    if member is None and args and is_slug(args[0]):
        member = await events.store.member(args.pop(0))  # named at the DM root (Slack)
    if member is None:
        return Receipt(
            accepted=False,
            code="not_in_thread",
            notice=f"Use /{event.name} in a member's thread, or name the member: "
            f"/{event.name} <member>{' [N]' if kind is BoundaryKind.REWIND else ''}.",
        )
    refused = await _not_owner(events, event, member)
    if refused is not None:
        return refused
    row: str | None = None
    steps: int | None = None
    if event.message_ref is not None:
        key = await events.store.object_for_message(event.transport, event.message_ref)
        if key is None or not key.startswith("row:"):
            return Receipt(
                accepted=False,
                code="unknown_message",
                notice="That message is not in the conversation.",
            )
        row = key.removeprefix("row:")
    elif kind is BoundaryKind.REWIND and args:
        if len(args) == 1 and args[0].isdigit() and 1 <= int(args[0]) <= MAX_STEPS:
            steps = int(args[0])
        elif len(args) == 1 and _ROW_ID.fullmatch(args[0]):
            row = args[0]
        else:
            return Receipt(accepted=False, code="invalid_args", notice=USAGE)
    elif args:
        return Receipt(
            accepted=False, code="invalid_args", notice=f"/{event.name} takes no arguments."
        )
    return await start(
        events,
        BoundaryRequest(
            member=member.slug,
            kind=kind,
            actor=f"{event.transport}:{event.user_id}",
            row=row,
            steps=steps,
            event=(event.transport, event.event_id),
        ),
        member,
    )


async def fork_command(events: HumanEvents, event: HumanCommand) -> Receipt:
    """/fork NEW-SLUG [N] in a member's thread (or as a reply / message action on a row)."""
    usage = "Usage: /fork NEW-SLUG [N], in the thread of the member to fork."
    member = await events._thread_member(event)
    if member is None:
        return Receipt(accepted=False, code="not_in_thread", notice=usage)
    refused = await _not_owner(events, event, member)
    if refused is not None:
        return refused
    args = list(event.args)
    if not args or len(args) > 2 or (len(args) == 2 and not _steps(args[1])):
        return Receipt(accepted=False, code="invalid_args", notice=usage)
    row = None
    if event.message_ref is not None:
        key = await events.store.object_for_message(event.transport, event.message_ref)
        if key is None or not key.startswith("row:"):
            return Receipt(
                accepted=False,
                code="unknown_message",
                notice="That message is not in the conversation.",
            )
        row = key.removeprefix("row:")
    request = BoundaryRequest(
        member=member.slug,
        kind=BoundaryKind.REWIND,
        actor=f"{event.transport}:{event.user_id}",
        row=row,
        steps=int(args[1]) if len(args) == 2 else None,
        event=(event.transport, event.event_id),
    )
    try:
        forked = await events.hub.on_member(
            member.slug,
            lambda: events.hub.change(lambda ch: fork(ch, request, new_slug=args[0])),
        )
    except CallerError as error:
        if error.code == DUPLICATE.code:
            return DUPLICATE
        return Receipt(accepted=False, code=error.code, notice=error.message)
    return Receipt(accepted=True, notice=forked.notice)


def _steps(word: str) -> bool:
    return word.isdigit() and 1 <= int(word) <= MAX_STEPS


async def regenerate_press(events: HumanEvents, event: HumanClick, row_id: str) -> Receipt:
    """The Regenerate button on a member's message: /regenerate, while that message is still
    the member's last turn (the freeze checks it; a stale press is refused, nothing done)."""
    row = await events.store.row(row_id, include_rewound=True)
    member = await events.store.member(row.conversation) if row is not None else None
    in_thread = await events._thread_member(event)
    if (
        row is None
        or member is None
        or row.role is not RowRole.MEMBER
        or (in_thread is not None and in_thread.slug != member.slug)
    ):
        return await events._refuse(
            event,
            Refusal(
                code="unknown_row",
                notice="This button does not belong to a message of this member.",
                security=True,
            ),
            member=in_thread.slug if in_thread else None,
        )
    refused = await _not_owner(events, event, member)
    if refused is not None:
        return refused
    return await start(
        events,
        BoundaryRequest(
            member=member.slug,
            kind=BoundaryKind.REGENERATE,
            actor=f"{event.transport}:{event.user_id}",
            row=row.id,
            event=(event.transport, event.event_id),
        ),
        member,
    )


async def edit_resend(events: HumanEvents, event: HumanEdit, member: Member) -> Receipt:
    """A platform edit of the owner's message: a boundary only when the text changed
    (platforms also report unfurls, attachments and re-emitted edits as edits)."""
    key = await events.store.object_for_message(event.transport, event.message_ref)
    row = (
        await events.store.row(key.removeprefix("row:")) if key and key.startswith("row:") else None
    )
    if row is None or row.role is not RowRole.HUMAN or row.text == event.text:
        if await events.was_taken(event):
            # A redelivery of the edit that drew the boundary: it meets its own result.
            return DUPLICATE
        if row is None or row.role is not RowRole.HUMAN:
            return Receipt(accepted=False, code="unknown_message")
        return Receipt(accepted=False, code="unchanged")
    return await start(
        events,
        BoundaryRequest(
            member=member.slug,
            kind=BoundaryKind.EDIT,
            actor=f"{event.transport}:{event.user_id}",
            row=row.id,
            text=event.text,
            event=(event.transport, event.event_id),
        ),
        member,
    )


async def start(events: HumanEvents, request: BoundaryRequest, member: Member) -> Receipt:
    boundaries = events.hub.boundaries
    try:
        frozen = await boundaries.begin(request)
    except CallerError as error:
        if error.code == DUPLICATE.code:
            return DUPLICATE  # a redelivery: said nothing the first time's answer did not
        return Receipt(accepted=False, code=error.code, notice=error.message)
    if not frozen.asked:
        outcome = await boundaries.finish(frozen)
        return Receipt(accepted=outcome.committed, code=outcome.reason, notice=outcome.notice)
    boundaries.spawn(frozen)
    return Receipt(
        accepted=True,
        notice=f"Queued: {member.name}'s session is asked to let go of its context; "
        "the outcome will appear in the thread.",
    )


async def _not_owner(events: HumanEvents, event: HumanEvent, member: Member) -> Receipt | None:
    if await events._is_owner(event, member):
        return None
    return await events._refuse(
        event,
        Refusal(
            code="not_owner",
            notice=f"Only {member.name}'s owner can rewind or edit its conversation.",
            security=True,
        ),
        member=member.slug,
    )
