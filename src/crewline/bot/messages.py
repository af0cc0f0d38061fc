"""The agents' verbs that belong to no feature: ``session_send`` (a message into a member's
thread), ``session_post`` (into the caller's own), and reading one's event stream.

Each write is one change on the conversation's actor, like every change; a message that
reaches a member's sessions is published as :class:`ReplyReached` (what waited on it may
have been answered by it).
"""

from __future__ import annotations

import asyncio

from crewline.bot import last_turn
from crewline.bot.changes import Change
from crewline.bot.domain import ReplyReached
from crewline.bot.feed import EventFeed, until_final
from crewline.bot.idempotency import KeyedWrite, guarded
from crewline.bot.ports import Core
from crewline.errors import InvalidInput, Unauthenticated, Unavailable
from crewline.models import Event, Row, RowRole, Session
from crewline.policy import Verb

__all__ = ["MAX_TEXT", "Messages", "check_text"]

MAX_TEXT = 4000


def check_text(text: str, field: str) -> None:
    """1..MAX_TEXT characters, not only spaces; InvalidInput(invalid_<field>) otherwise."""
    if not text.strip() or len(text) > MAX_TEXT:
        raise InvalidInput(
            f"{field} must be 1..{MAX_TEXT} characters", code=f"invalid_{field}", field=field
        )


class Messages:
    """session_send, session_post and the event long-poll, over the Hub's ports."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def send(
        self, caller: Session, target: str, message: str, *, once: KeyedWrite | None = None
    ) -> Row:
        """session_send: a row in the target member's thread and an event for its session."""
        core = self.core
        await core.gate(caller, Verb.SESSION_SEND, action="send")
        check_text(message, "message")
        member = await core.member(target)

        def write(ch: Change) -> Row:
            row = ch.tx.append_row(
                conversation=member.slug,
                role=RowRole.AGENT,
                author=caller.member or caller.id,
                text=message,
                now=ch.now,
                meta={"from_session": caller.id},
            )
            ch.show(member, "post", f"row:{row.id}")
            ch.tell_member(
                member.slug,
                "message",
                {"row_id": row.id, "text": message, "from_session": caller.id},
            )
            ch.publish(ReplyReached(member=member.slug, row_id=row.id))
            return row

        return await core.on_member(
            member.slug, lambda: core.change(guarded(once, write)), linger=True
        )

    async def post(self, caller: Session, text: str, *, once: KeyedWrite | None = None) -> Row:
        """A session writes into its own member's thread (or its own transcript)."""
        core = self.core
        await core.gate(caller, Verb.SESSION_POST, action="post")
        check_text(text, "text")
        member = await core.member(caller.member) if caller.member else None
        conversation = member.slug if member else f"~{caller.id}"

        def write(ch: Change) -> Row:
            if member is not None:
                last_turn.redraw(ch, member)  # the previous last turn loses its button
            row = ch.tx.append_row(
                conversation=conversation,
                role=RowRole.MEMBER,
                author=member.name if member else caller.id,
                text=text,
                now=ch.now,
                meta={"session": caller.id},
            )
            if member is not None:
                ch.show(member, "post", f"row:{row.id}")
            return row

        return await core.on_member(
            conversation, lambda: core.change(guarded(once, write)), linger=True
        )

    async def events(self, caller: Session, *, after: int, wait: float) -> list[Event]:
        """The session's events after ``after``; waits up to ``wait`` s when there are none,
        and answers before then only with events (or the refusals below).

        Nothing after an event that ends the session's key (``key_revoked``, ``stop``) is
        returned. A wait ends at once when crewline stops (Unavailable ``shutting_down``)
        or the key stops working with nothing left to read (Unauthenticated
        ``key_revoked``)."""
        core = self.core
        feed = core.feed
        with feed.reading(caller.id):
            _not_closing(feed)
            signal = feed.register(caller.id)
            # Parked before the first read: a change here that adds this session's events
            # from now on takes them for us (what the read below finds, it takes itself).
            taker = feed.park(caller.id, after) if wait > 0 else None
            try:
                if await core.store.has_events_after(caller.id, after):
                    return until_final(await core.take_events(caller.id, after))
                if taker is None:
                    return []
                deadline = asyncio.get_running_loop().time() + wait
                while True:
                    try:
                        async with asyncio.timeout_at(deadline):
                            await signal.wait()
                    except TimeoutError:
                        # Taken for us as the wait ended: they are ours (remembered as read).
                        return until_final(taker.events or [])
                    _not_closing(feed)
                    # Registered before reading: an event committed after the read wakes it.
                    signal = feed.register(caller.id)
                    handed, taker.events = taker.events, None
                    found = until_final(handed or await core.take_events(caller.id, after))
                    if found:
                        return found
                    if feed.ended(caller.id):
                        raise _revoked()
                    # Woken with nothing new (a look after another process's write): wait on.
            finally:
                if taker is not None:
                    feed.unpark(caller.id, taker)


def _revoked() -> Unauthenticated:
    return Unauthenticated(
        "this key was revoked or replaced while you waited: ask your operator for the new one",
        code="key_revoked",
    )


def _not_closing(feed: EventFeed) -> None:
    """Refuse a read once crewline is stopping: its answer would be cut off."""
    if feed.closed:
        raise Unavailable(
            "crewline is shutting down: retry in a moment, from the same cursor",
            code="shutting_down",
        )
