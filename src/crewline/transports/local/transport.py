"""LocalTransport: the web inbox as a transport like any platform.

Outbound, the outbox's calls change the inbox's view (kept in memory, journalled beside the
database so a restart shows the same history). Inbound, what the page sends — a typed
reply, a slash command, a button press, an edit — becomes a human event for the core, and
the receipt comes back to the page, which shows its notice to the human alone.

The human here is one person: on loopback whoever can reach the port, elsewhere whoever
holds the login token. Their identity is ``local:<user>`` (``local:owner`` by default).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewline.config_schema import section_values
from crewline.errors import PermanentTransportError, TransientTransportError
from crewline.models import (
    Bell,
    Clock,
    HumanClick,
    HumanCommand,
    HumanEdit,
    HumanEvent,
    HumanMessage,
    Member,
    OutboundMessage,
    Receipt,
    RosterEntry,
    SystemClock,
    new_id,
)
from crewline.transports.base import DeliveryLimits, HumanEventSink, Transport
from crewline.transports.local.journal import Journal
from crewline.transports.local.render import ComposerCommand, parse_composer
from crewline.transports.local.security import (
    LoginToken,
    Sessions,
    is_loopback_address,
    new_login_token,
)
from crewline.transports.local.view import (
    InboxView,
    Record,
    bell_record,
    message_record,
    roster_records,
)

if TYPE_CHECKING:
    from crewline.config import Config

__all__ = ["DEFAULT_USER", "JOURNAL_NAME", "LocalTransport", "build"]

DEFAULT_USER = "owner"
JOURNAL_NAME = "local-inbox.jsonl"
MAX_TEXT = 4000
_CLIENT_EVENT_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class LocalTransport(Transport):
    """The local web inbox. ``host`` is the address crewline binds: it decides whether the
    page asks for a login token."""

    # A push into this process's own view, not a platform call: nothing to pace, and the
    # roster in the page must change together with the bell and the card.
    limits = DeliveryLimits(concurrency=16, roster_interval=0.0)

    def __init__(
        self,
        name: str = "local",
        *,
        user: str = DEFAULT_USER,
        host: str = "127.0.0.1",
        view_path: Path | None = None,
        login_token: str | None = None,
        clock: Clock | None = None,
        announce: Callable[[str], None] = _to_stderr,
    ) -> None:
        self.name = name
        self.user = user
        self.host = host
        self.requires_login = not is_loopback_address(host)
        self.sessions = Sessions()
        self.view = InboxView()
        self.clock: Clock = clock or SystemClock()
        self._login = LoginToken(login_token) if login_token else None
        self._announce = announce
        self._journal = Journal(view_path) if view_path is not None else None
        self._sink: HumanEventSink | None = None
        self._app: Any = None

    # the port: lifecycle ----------------------------------------------------------------------
    async def start(self, sink: HumanEventSink) -> None:
        if self._journal is not None:
            self.view = await asyncio.to_thread(self._journal.open)
        if self.requires_login and self._login is None:
            token = new_login_token()
            self._login = LoginToken(token)
            self._announce(
                f"crewline local inbox: listening on {self.host}, so the page asks for a login"
                f" token. Use this one (shown once, valid until crewline stops): {token}"
            )
        self._sink = sink

    async def stop(self) -> None:
        self._sink = None
        self.view.close()
        if self._journal is not None:
            self._journal.close()

    @property
    def running(self) -> bool:
        return self._sink is not None

    def http_mount(self) -> tuple[str, Any]:
        """The inbox at ``/``: FastAPI matches the agents' API routes (``/api``, ``/healthz``,
        ``/metrics``, ``/openapi.json``) before this mount, and the inbox answers what they
        do not with the API's own 404/405 error shape."""
        if self._app is None:
            from crewline.transports.local.app import create_inbox_app

            self._app = create_inbox_app(self)
        return "/", self._app

    def check_login(self, token: str) -> bool:
        return self._login is not None and self._login.matches(token)

    # the port: outbound -----------------------------------------------------------------------
    async def open_thread(self, member: Member) -> str:
        self._outbound()
        shown = self.view.threads.get(member.slug)
        if shown is None or shown.name != member.name:
            self._record({"op": "thread", "ref": member.slug, "name": member.name})
        return member.slug

    async def post(
        self,
        thread: str,
        message: OutboundMessage,
        *,
        key: str,
        retry: bool,
        since: datetime | None = None,
    ) -> str:
        self._outbound()
        existing = self.view.message_for_key(key)
        if existing is not None:  # every post looks first: the view is local and cheap
            return existing.ref
        ref = self.view.new_ref("m")
        self._record(
            {
                "op": "post",
                "ref": ref,
                "thread": thread,
                "key": key,
                "message": message_record(message),
                "at": self._now(),
            }
        )
        return ref

    async def update(self, thread: str, message_ref: str, message: OutboundMessage) -> None:
        self._outbound()
        shown = self.view.messages.get(message_ref)
        if shown is None:
            raise PermanentTransportError(
                f"the inbox has no message {message_ref!r}", code="message_not_found"
            )
        if shown.current != message:  # "not modified" is success
            self._record({"op": "update", "ref": message_ref, "message": message_record(message)})

    async def ring(self, bell: Bell, *, message_ref: str | None) -> str:
        self._outbound()
        shown = self.view.bells.get(bell.group_key)
        if shown is not None and shown.current == bell:
            return shown.ref
        ref = shown.ref if shown is not None else self.view.new_ref("b")
        self._record({"op": "ring", "ref": ref, "bell": bell_record(bell), "at": self._now()})
        return ref

    async def show_roster(self, roster: Sequence[RosterEntry]) -> None:
        """The inbox is its human's: it lists the members they own, as ``GET /api/members``
        does for their token (a member owned by someone else is theirs to answer)."""
        self._outbound()
        if self.context is not None:
            mine = await self.context.members_of(self.name, self.user)
            roster = [entry for entry in roster if entry.slug in mine]
        if list(roster) != self.view.roster:
            self._record({"op": "roster", "entries": roster_records(roster)})

    async def mark_rewound(
        self,
        thread: str,
        message_refs: Sequence[str],
        *,
        drawn: Mapping[str, OutboundMessage] | None = None,
    ) -> None:
        self._outbound()
        refs = [r for r in message_refs if r in self.view.messages]
        if refs:
            self._record({"op": "rewound", "refs": refs})

    # inbound: what the page sends (the web app and the test harness both call these) ----------
    async def send_text(
        self, *, thread: str | None, text: str, event_id: str | None = None, user: str | None = None
    ) -> tuple[Receipt, str | None]:
        """The composer: a slash command, or a reply typed in ``thread``.

        Returns the receipt and, for a reply, the ref of the row it shows as.
        """
        self._inbound()
        user = user or self.user
        parsed = parse_composer(text)
        if isinstance(parsed, ComposerCommand):
            receipt = await self._command(
                parsed.name, thread=thread, event_id=event_id, user=user, args=parsed.args
            )
            return receipt, None
        if thread is None:
            return Receipt(
                accepted=False,
                code="no_thread",
                notice="Open a member's thread to talk to it; commands such as "
                "/roster and /help work anywhere.",
            ), None
        if not parsed.text.strip() or len(parsed.text) > MAX_TEXT:
            return Receipt(
                accepted=False,
                code="invalid_text",
                notice=f"A message is 1 to {MAX_TEXT} characters.",
            ), None
        full_id = self._event_id(event_id)
        shown = self.view.message_for_event(full_id)
        if shown is None:  # shown at once, as a platform shows what you send
            ref = self.view.new_ref("h")
            self._record(
                {
                    "op": "typed",
                    "ref": ref,
                    "thread": thread,
                    "user": user,
                    "text": parsed.text,
                    "event_id": full_id,
                    "at": self._now(),
                }
            )
        else:
            ref = shown.ref
        receipt = await self._deliver(
            HumanMessage(
                transport=self.name,
                event_id=full_id,
                user_id=user,
                thread=thread,
                text=parsed.text,
                message_ref=ref,
            )
        )
        self._note(ref, receipt)
        return receipt, ref

    async def click(
        self,
        *,
        thread: str | None,
        payload: str,
        event_id: str | None = None,
        user: str | None = None,
    ) -> Receipt:
        """A button press: the payload goes to the core as the page sent it (untrusted)."""
        self._inbound()
        return await self._deliver(
            HumanClick(
                transport=self.name,
                event_id=self._event_id(event_id),
                user_id=user or self.user,
                thread=thread,
                payload=payload,
            )
        )

    async def edit(
        self,
        *,
        thread: str | None,
        message_ref: str,
        text: str,
        event_id: str | None = None,
        user: str | None = None,
    ) -> Receipt:
        """Edit one of your own earlier messages; the core hears it as an edit event."""
        self._inbound()
        user = user or self.user
        shown = self.view.messages.get(message_ref)
        if shown is None or shown.typed_by != user:
            return Receipt(
                accepted=False,
                code="not_your_message",
                notice="You can edit only messages you typed.",
            )
        if not text.strip() or len(text) > MAX_TEXT:
            return Receipt(
                accepted=False,
                code="invalid_text",
                notice=f"A message is 1 to {MAX_TEXT} characters.",
            )
        full_id = self._event_id(event_id)
        resent = full_id == shown.edit_event_id  # the page sent this edit again: the core knows
        if text == shown.current.text and not resent:
            return Receipt(accepted=True, code="not_modified")
        if not resent:
            record = {"op": "edit", "ref": message_ref, "text": text, "event_id": full_id}
            self._record({**record, "at": self._now()})
        receipt = await self._deliver(
            HumanEdit(
                transport=self.name,
                event_id=full_id,
                user_id=user,
                thread=thread or shown.thread,
                message_ref=message_ref,
                text=text,
            )
        )
        self._note(message_ref, receipt)
        return receipt

    async def rewind_to(
        self,
        *,
        thread: str | None,
        message_ref: str,
        event_id: str | None = None,
        user: str | None = None,
    ) -> Receipt:
        """The "Rewind to here" button: the conversation continues from that message."""
        return await self._command(
            "rewind", thread=thread, event_id=event_id, user=user, message_ref=message_ref
        )

    async def fork_from(
        self,
        *,
        thread: str | None,
        message_ref: str,
        slug: str,
        event_id: str | None = None,
        user: str | None = None,
    ) -> Receipt:
        """The "Fork from here" button: a new member ``slug`` whose conversation is a copy of
        this one up to that message (``/fork slug`` on it)."""
        return await self._command(
            "fork",
            thread=thread,
            event_id=event_id,
            user=user,
            args=(slug,),
            message_ref=message_ref,
        )

    # internals ----------------------------------------------------------------------------------
    async def _command(
        self,
        name: str,
        *,
        thread: str | None,
        event_id: str | None,
        user: str | None,
        args: tuple[str, ...] = (),
        message_ref: str | None = None,
    ) -> Receipt:
        """A command from the page (the composer's, or a message's button) to the core."""
        return await self._deliver(
            HumanCommand(
                transport=self.name,
                event_id=self._event_id(event_id),
                user_id=user or self.user,
                thread=thread,
                name=name,
                args=args,
                message_ref=message_ref,
            )
        )

    async def _deliver(self, event: HumanEvent) -> Receipt:
        if self._sink is None:
            raise TransientTransportError("the local inbox is not running", code="inbox_stopped")
        return await self._sink(event)

    def _note(self, ref: str, receipt: Receipt) -> None:
        shown = self.view.messages.get(ref)
        notice = receipt.notice_to_post  # a repeat's was noted for the first delivery
        if shown is not None and notice and notice != shown.notice:
            self._record({"op": "noted", "ref": ref, "notice": notice})

    def _event_id(self, client_id: str | None) -> str:
        """The page names each action, so a resent request is one event, not two."""
        if client_id is None or not _CLIENT_EVENT_ID.fullmatch(client_id):
            client_id = new_id()
        return f"{self.name}:{client_id}"

    def _inbound(self) -> None:
        if self._sink is None:
            raise TransientTransportError("the local inbox is not running", code="inbox_stopped")

    def _outbound(self) -> None:
        if self._sink is None:
            raise TransientTransportError("the local inbox is not running", code="inbox_stopped")

    def _record(self, record: Record) -> None:
        self.view.apply(record)
        if self._journal is not None:
            self._journal.append(record)

    def _now(self) -> str:
        return self.clock.now().isoformat()


def build(config: Config) -> LocalTransport:
    """The inbox of a served crewline: ``[local] user`` names the human (default ``owner``,
    so members are owned by ``local:owner``); a login token may be preset in
    ``CREWLINE_LOCAL_TOKEN`` (otherwise one is printed at start when it is needed)."""
    values = section_values("local", config.section("local"), os.environ)
    user = values["user"] or DEFAULT_USER
    return LocalTransport(
        "local",
        user=user,
        host=config.host,
        view_path=config.data_dir / JOURNAL_NAME,
        login_token=values["login_token"],
    )
