"""What the local inbox shows: threads, messages with their versions, bells and the roster.

The view is a small state machine over *records* (plain JSON-able dicts): every change —
a post from the outbox, a redraw, a bell, the roster, a row the human typed, an edit — is
one record applied by :meth:`InboxView.apply`. Live changes and a replay of the journal
(after a restart) therefore go through the same code, and the journal is just the records
in order (:mod:`crewline.transports.local.journal`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from crewline.models import Bell, Button, OutboundMessage, RecentAnswer, RosterEntry

__all__ = [
    "MAX_VERSIONS",
    "InboxView",
    "Record",
    "ShownBell",
    "ShownMessage",
    "ShownThread",
]

Record = dict[str, Any]

# Versions kept per message and per bell: enough to read a card's history, bounded so a
# long-lived inbox does not grow without end.
MAX_VERSIONS = 50
_REF_NUMBER = re.compile(r"^[mhb](\d+)$")


@dataclass(kw_only=True, slots=True)
class ShownThread:
    ref: str  # the thread ref crewline stores (the member's slug)
    name: str
    changed: int = 0  # the view version of its last change


@dataclass(kw_only=True, slots=True)
class ShownMessage:
    """One message in a thread. ``typed_by`` is set on the rows the human typed."""

    ref: str
    thread: str
    key: str | None  # the crewline object it shows; None for the human's own rows
    versions: list[OutboundMessage]
    at: datetime
    typed_by: str | None = None
    event_id: str | None = None
    edited_at: datetime | None = None
    edit_event_id: str | None = None  # the page's id for its latest edit (a resend is known)
    notice: str | None = None  # what crewline told the human about this row, privately
    rewound: bool = False
    changed: int = 0

    @property
    def current(self) -> OutboundMessage:
        return self.versions[-1]


@dataclass(kw_only=True, slots=True)
class ShownBell:
    ref: str
    group_key: str
    versions: list[Bell]
    at: datetime
    changed: int = 0

    @property
    def current(self) -> Bell:
        return self.versions[-1]


@dataclass(kw_only=True, slots=True)
class InboxView:
    """The inbox's state, changed only by :meth:`apply`; ``version`` counts the changes."""

    threads: dict[str, ShownThread] = field(default_factory=dict)
    messages: dict[str, ShownMessage] = field(default_factory=dict)  # in the order shown
    bells: dict[str, ShownBell] = field(default_factory=dict)  # by group key
    roster: list[RosterEntry] = field(default_factory=list)
    roster_changed: int = 0
    version: int = 0
    closed: bool = False
    _by_key: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _by_event: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _by_thread: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)
    _next_ref: int = field(default=1, init=False, repr=False)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)

    # reading --------------------------------------------------------------------------------
    def thread_messages(self, thread: str) -> list[ShownMessage]:
        return [self.messages[ref] for ref in self._by_thread.get(thread, [])]

    def message_for_key(self, key: str) -> ShownMessage | None:
        ref = self._by_key.get(key)
        return None if ref is None else self.messages[ref]

    def message_for_event(self, event_id: str) -> ShownMessage | None:
        ref = self._by_event.get(event_id)
        return None if ref is None else self.messages[ref]

    def new_ref(self, prefix: str) -> str:
        """A message ref never used before in this view (it survives restarts)."""
        ref = f"{prefix}{self._next_ref}"
        self._next_ref += 1
        return ref

    async def wait_changed(self, seen: int) -> None:
        """Return once the view has changed past version ``seen`` (or has been closed)."""
        while self.version <= seen and not self.closed:
            changed = self._changed
            await changed.wait()

    def close(self) -> None:
        """Wake every waiter for good: the transport stopped."""
        self.closed = True
        self._changed.set()

    # changing -------------------------------------------------------------------------------
    def apply(self, record: Mapping[str, Any]) -> None:
        """Apply one record. Raises KeyError/ValueError on a record that does not fit."""
        op = record["op"]
        self.version += 1
        if op == "thread":
            thread = self._thread(record["ref"], record.get("name"))
            thread.changed = self.version
        elif op == "post":
            self._post(record)
        elif op == "update":
            shown = self.messages[record["ref"]]
            _push(shown.versions, message_from_record(record["message"]))
            self._touch(shown)
        elif op == "typed":
            self._post(record)
        elif op == "edit":
            shown = self.messages[record["ref"]]
            previous = shown.current
            _push(
                shown.versions,
                OutboundMessage(author=previous.author, text=record["text"], kind=previous.kind),
            )
            shown.edited_at = _time(record["at"])
            shown.edit_event_id = record.get("event_id")
            self._touch(shown)
        elif op == "noted":
            shown = self.messages[record["ref"]]
            shown.notice = record.get("notice")
            self._touch(shown)
        elif op == "rewound":
            for ref in record["refs"]:
                if ref in self.messages:
                    self.messages[ref].rewound = True
                    self._touch(self.messages[ref])
        elif op == "ring":
            self._ring(record)
        elif op == "roster":
            self.roster = [roster_from_record(e) for e in record["entries"]]
            self.roster_changed = self.version
        else:
            raise ValueError(f"unknown inbox record {op!r}")
        self._note_ref(record.get("ref"))
        self._changed.set()
        self._changed = asyncio.Event()

    def _thread(self, ref: str, name: str | None) -> ShownThread:
        thread = self.threads.get(ref)
        if thread is None:
            thread = self.threads[ref] = ShownThread(ref=ref, name=name or ref)
            self._by_thread.setdefault(ref, [])
        elif name:
            thread.name = name
        return thread

    def _post(self, record: Mapping[str, Any]) -> None:
        ref, thread = record["ref"], record["thread"]
        self._thread(thread, None)
        typed = record["op"] == "typed"
        message = (
            OutboundMessage(author=record["user"], text=record["text"])
            if typed
            else message_from_record(record["message"])
        )
        shown = ShownMessage(
            ref=ref,
            thread=thread,
            key=record.get("key"),
            versions=[message],
            at=_time(record["at"]),
            typed_by=record.get("user") if typed else None,
            event_id=record.get("event_id"),
        )
        self.messages[ref] = shown
        self._by_thread[thread].append(ref)
        if shown.key is not None:
            self._by_key[shown.key] = ref
        if shown.event_id is not None:
            self._by_event[shown.event_id] = ref
        self._touch(shown)

    def _ring(self, record: Mapping[str, Any]) -> None:
        bell = bell_from_record(record["bell"])
        shown = self.bells.get(bell.group_key)
        if shown is None:
            shown = self.bells[bell.group_key] = ShownBell(
                ref=record["ref"], group_key=bell.group_key, versions=[bell], at=_time(record["at"])
            )
        else:
            _push(shown.versions, bell)
            shown.at = _time(record["at"])
        shown.changed = self.version

    def _touch(self, shown: ShownMessage) -> None:
        shown.changed = self.version
        self.threads[shown.thread].changed = self.version

    def _note_ref(self, ref: object) -> None:
        if isinstance(ref, str) and (match := _REF_NUMBER.fullmatch(ref)):
            self._next_ref = max(self._next_ref, int(match[1]) + 1)

    # the journal's compaction ---------------------------------------------------------------
    def snapshot(self) -> Iterator[Record]:
        """Records that rebuild this view from nothing (the journal rewritten at start)."""
        for thread in self.threads.values():
            yield {"op": "thread", "ref": thread.ref, "name": thread.name}
        for shown in self.messages.values():
            at = shown.at.isoformat()
            if shown.typed_by is not None:
                first: Record = {
                    "op": "typed",
                    "ref": shown.ref,
                    "thread": shown.thread,
                    "user": shown.typed_by,
                    "text": shown.versions[0].text,
                    "event_id": shown.event_id,
                    "at": at,
                }
                yield first
                for n, later in enumerate(shown.versions[1:], start=2):
                    yield {
                        "op": "edit",
                        "ref": shown.ref,
                        "text": later.text,
                        "at": (shown.edited_at or shown.at).isoformat(),
                        "event_id": shown.edit_event_id if n == len(shown.versions) else None,
                    }
            else:
                yield {
                    "op": "post",
                    "ref": shown.ref,
                    "thread": shown.thread,
                    "key": shown.key,
                    "message": message_record(shown.versions[0]),
                    "at": at,
                }
                for later in shown.versions[1:]:
                    yield {"op": "update", "ref": shown.ref, "message": message_record(later)}
            if shown.notice:
                yield {"op": "noted", "ref": shown.ref, "notice": shown.notice}
            if shown.rewound:
                yield {"op": "rewound", "refs": [shown.ref]}
        for bell in self.bells.values():
            for version in bell.versions:
                yield {
                    "op": "ring",
                    "ref": bell.ref,
                    "bell": bell_record(version),
                    "at": bell.at.isoformat(),
                }
        if self.roster:
            yield {"op": "roster", "entries": [roster_record(e) for e in self.roster]}


def _push(versions: list[Any], value: Any) -> None:
    versions.append(value)
    del versions[:-MAX_VERSIONS]


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


# --- values <-> records --------------------------------------------------------------------


def message_record(message: OutboundMessage) -> Record:
    return {
        "author": message.author,
        "text": message.text,
        "buttons": [[b.label, b.payload, b.role, b.recommended] for b in message.buttons],
        "settled": message.settled,
        "deadline": message.deadline.isoformat() if message.deadline else None,
        "kind": message.kind,
        "times": [t.isoformat() for t in message.times],
    }


def message_from_record(record: Mapping[str, Any]) -> OutboundMessage:
    deadline = record.get("deadline")
    return OutboundMessage(
        author=str(record["author"]),
        text=str(record["text"]),
        buttons=tuple(_button(list(kept)) for kept in record.get("buttons", ())),
        settled=bool(record.get("settled", False)),
        deadline=_time(deadline) if deadline else None,
        kind=str(record.get("kind", "row")),
        times=tuple(_time(str(t)) for t in record.get("times", ())),
    )


def _button(kept: list[Any]) -> Button:
    """A button as its record keeps it ([label, payload] in records written before the
    concierge's controls were drawn apart; [label, payload, role, recommended] since)."""
    role = str(kept[2]) if len(kept) > 2 else "answer"
    return Button(
        label=str(kept[0]),
        payload=str(kept[1]),
        role=role,
        recommended=bool(kept[3]) if len(kept) > 3 else False,
    )


def bell_record(bell: Bell) -> Record:
    return {
        "group_key": bell.group_key,
        "member": bell.member,
        "title": bell.title,
        "body": bell.body,
        "count": bell.count,
    }


def bell_from_record(record: Mapping[str, Any]) -> Bell:
    return Bell(
        group_key=str(record["group_key"]),
        member=str(record["member"]),
        title=str(record["title"]),
        body=str(record["body"]),
        count=int(record["count"]),
    )


def roster_record(entry: RosterEntry) -> Record:
    return {
        "slug": entry.slug,
        "name": entry.name,
        "needs_you": entry.needs_you,
        "pending_escalations": entry.pending_escalations,
        "waiting_questions": entry.waiting_questions,
        "concierge_answer": (
            None
            if entry.concierge_answer is None
            else {
                "text": entry.concierge_answer.text,
                "at": entry.concierge_answer.at.isoformat(),
            }
        ),
    }


def roster_from_record(record: Mapping[str, Any]) -> RosterEntry:
    answer = record.get("concierge_answer")
    return RosterEntry(
        slug=str(record["slug"]),
        name=str(record["name"]),
        needs_you=bool(record["needs_you"]),
        pending_escalations=int(record["pending_escalations"]),
        waiting_questions=int(record.get("waiting_questions", 0)),
        concierge_answer=(
            RecentAnswer(text=str(answer["text"]), at=datetime.fromisoformat(answer["at"]))
            if isinstance(answer, Mapping)
            else None
        ),
    )


def roster_records(entries: Sequence[RosterEntry]) -> list[Record]:
    return [roster_record(e) for e in entries]
