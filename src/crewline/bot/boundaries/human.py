"""Boundaries started by a human on a transport: /rewind, /regenerate (and its button on
the member's last turn), /reset, /fork and edits.

Each gets one visible outcome: done (nothing had to be waited for), queued (the member's
session is asked to let go; the outcome then appears in the thread), or refused with why.
Only the member's owner may start one.
"""

from __future__ import annotations

import asyncio
import re
from typing import Protocol

from crewline.bot.boundaries.fork import fork
from crewline.bot.boundaries.transactions import BoundaryKind, BoundaryRequest, Frozen, Outcome
from crewline.bot.cards import ButtonPress
from crewline.bot.ports import (
    DUPLICATE,
    CommandHandler,
    EditHandler,
    Host,
    Pressed,
    PressHandler,
    Refusal,
    Refused,
)
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

__all__ = [
    "BOUNDARY_COMMANDS",
    "HELP_LINES",
    "REGENERATE_PRESS",
    "BoundaryCommands",
    "EditResend",
    "ForkCommand",
    "RegeneratePress",
    "Runner",
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
REGENERATE_PRESS = "r"  # the payload kind of the Regenerate button (bot/cards.py)
_ROW_ID = re.compile(r"^[0-9a-f]{16}$")
USAGE = "Usage: /rewind, /rewind N (your N-th last message), or Rewind to here on a message."


class Runner(Protocol):
    """How a boundary is run (``Boundaries``): begun, then finished here or in the
    background."""

    async def begin(self, request: BoundaryRequest) -> Frozen: ...

    async def finish(self, frozen: Frozen) -> Outcome: ...

    def spawn(self, frozen: Frozen) -> asyncio.Task[Outcome]: ...


class _Human:
    """What the handlers below share: the Hub's ports and the boundary runner."""

    def __init__(self, host: Host, boundaries: Runner) -> None:
        self.host = host
        self.boundaries = boundaries

    async def _not_owner(self, event: HumanEvent, member: Member) -> Receipt | None:
        if await self.host.is_owner(event, member):
            return None
        return await self.host.refuse(
            event,
            Refusal(
                code="not_owner",
                notice=f"Only {member.name}'s owner can rewind or edit its conversation.",
                security=True,
            ),
            member=member.slug,
        )

    async def _row_of(self, event: HumanCommand) -> str | Receipt | None:
        """The row a message action names (None: the command names none)."""
        if event.message_ref is None:
            return None
        key = await self.host.store.object_for_message(event.transport, event.message_ref)
        if key is None or not key.startswith("row:"):
            return Receipt(
                accepted=False,
                code="unknown_message",
                notice="That message is not in the conversation.",
            )
        return key.removeprefix("row:")

    async def _start(self, request: BoundaryRequest, member: Member) -> Receipt:
        boundaries = self.boundaries
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


class BoundaryCommands(_Human, CommandHandler):
    """/rewind [N], /regenerate and /reset, in a member's thread (or naming the member)."""

    names = tuple(BOUNDARY_COMMANDS)
    help = HELP_LINES
    marks_own_event = True  # the freeze remembers the event in its own transaction

    async def handle(self, event: HumanCommand) -> Receipt:
        kind = BOUNDARY_COMMANDS[event.name]
        args = list(event.args)
        member = await self.host.thread_member(event)
        if member is None and args and is_slug(args[0]):
            member = await self.host.store.member(args.pop(0))  # named at the DM root (Slack)
        if member is None:
            return Receipt(
                accepted=False,
                code="not_in_thread",
                notice=f"Use /{event.name} in a member's thread, or name the member: "
                f"/{event.name} <member>{' [N]' if kind is BoundaryKind.REWIND else ''}.",
            )
        refused = await self._not_owner(event, member)
        if refused is not None:
            return refused
        steps: int | None = None
        row = await self._row_of(event)
        if isinstance(row, Receipt):
            return row
        if row is None and kind is BoundaryKind.REWIND and args:
            if len(args) == 1 and args[0].isdigit() and 1 <= int(args[0]) <= MAX_STEPS:
                steps = int(args[0])
            elif len(args) == 1 and _ROW_ID.fullmatch(args[0]):
                row = args[0]
            else:
                return Receipt(accepted=False, code="invalid_args", notice=USAGE)
        elif row is None and args:
            return Receipt(
                accepted=False, code="invalid_args", notice=f"/{event.name} takes no arguments."
            )
        return await self._start(
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


class ForkCommand(_Human, CommandHandler):
    """/fork NEW-SLUG [N] in a member's thread (or as a reply / message action on a row)."""

    names = ("fork",)
    marks_own_event = True  # the fork's transaction remembers the event

    async def handle(self, event: HumanCommand) -> Receipt:
        usage = "Usage: /fork NEW-SLUG [N], in the thread of the member to fork."
        member = await self.host.thread_member(event)
        if member is None:
            return Receipt(accepted=False, code="not_in_thread", notice=usage)
        refused = await self._not_owner(event, member)
        if refused is not None:
            return refused
        args = list(event.args)
        if not args or len(args) > 2 or (len(args) == 2 and not _steps(args[1])):
            return Receipt(accepted=False, code="invalid_args", notice=usage)
        row = await self._row_of(event)
        if isinstance(row, Receipt):
            return row
        request = BoundaryRequest(
            member=member.slug,
            kind=BoundaryKind.REWIND,
            actor=f"{event.transport}:{event.user_id}",
            row=row,
            steps=int(args[1]) if len(args) == 2 else None,
            event=(event.transport, event.event_id),
        )
        host = self.host
        try:
            forked = await host.on_member(
                member.slug,
                lambda: host.change(lambda ch: fork(ch, request, new_slug=args[0])),
            )
        except CallerError as error:
            if error.code == DUPLICATE.code:
                return DUPLICATE
            return Receipt(accepted=False, code=error.code, notice=error.message)
        return Receipt(accepted=True, notice=forked.notice)


def _steps(word: str) -> bool:
    return word.isdigit() and 1 <= int(word) <= MAX_STEPS


class RegeneratePress(_Human, PressHandler):
    """The Regenerate button on a member's message (``r:<row>:0``): /regenerate, while that
    message is still the member's last turn (the freeze checks it; a stale press is refused,
    nothing done)."""

    kind = REGENERATE_PRESS
    keeps_receipt_after = True  # the freeze marks the event; the receipt is kept after

    async def check(
        self, event: HumanClick, press: ButtonPress, in_thread: Member | None
    ) -> Pressed:
        store = self.host.store
        row = await store.row(press.record_id, include_rewound=True)
        member = await store.member(row.conversation) if row is not None else None
        if (
            row is None
            or member is None
            or row.role is not RowRole.MEMBER
            or (in_thread is not None and in_thread.slug != member.slug)
        ):
            raise Refused(
                Refusal(
                    code="unknown_row",
                    notice="This button does not belong to a message of this member.",
                    security=True,
                ),
                member=in_thread.slug if in_thread else None,
            )
        return Pressed(
            member=member,
            stranger=f"Only {member.name}'s owner can rewind or edit its conversation.",
            in_change=False,
        )

    async def handle(self, event: HumanClick, press: ButtonPress, pressed: Pressed) -> Receipt:
        member = pressed.member
        return await self._start(
            BoundaryRequest(
                member=member.slug,
                kind=BoundaryKind.REGENERATE,
                actor=f"{event.transport}:{event.user_id}",
                row=press.record_id,
                event=(event.transport, event.event_id),
            ),
            member,
        )


class EditResend(_Human, EditHandler):
    """A platform edit of the owner's message: a boundary only when the text changed
    (platforms also report unfurls, attachments and re-emitted edits as edits); the resent
    text is matched as a reply when the edited message had answered a record."""

    async def handle(self, event: HumanEdit, member: Member) -> Receipt:
        store = self.host.store
        key = await store.object_for_message(event.transport, event.message_ref)
        row = await store.row(key.removeprefix("row:")) if key and key.startswith("row:") else None
        if row is None or row.role is not RowRole.HUMAN or row.text == event.text:
            if await self.host.was_taken(event):
                # A redelivery of the edit that drew the boundary: it meets its own result.
                return DUPLICATE
            if row is None or row.role is not RowRole.HUMAN:
                return Receipt(accepted=False, code="unknown_message")
            return Receipt(accepted=False, code="unchanged")
        return await self._start(
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
