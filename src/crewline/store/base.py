"""The Store port: what the core may ask of storage, whatever the engine.

Writes are whole transactions: a synchronous function that takes a :class:`Tx`, so it can
read its own writes and decide atomically (the backlog ceiling, dedupe of redelivered
events). A store may run it on the event loop (SqliteStore) or on a worker thread with a
connection of its own (PostgresStore); both batch concurrent transactions into one commit,
and may run it more than once (when the database asks to retry a lock conflict, or when a
neighbour in its batch failed and the batch runs again one transaction at a time). So a
transaction function touches nothing but its ``Tx``: no event loop, no transport or brain
call, no effect outside (after-commit effects run after ``write`` returns). Each caller
gets its own result or its own exception; a transaction that raises is rolled back alone.

Ordering guarantees every store keeps, because the core pages and collapses by them:

- **Event cursors** are visible in commit order within a session: once a reader sees
  cursor *n* of a session, every event of that session with a smaller cursor is already
  visible, so ``events_after(n)`` skips nothing that commits later.
- **Outbox lanes** are ordered: within a lane, ids become visible in commit order, so
  its head is its oldest entry and none can appear ahead of one already sent (except
  ``ordered=False`` redraws, whose place does not matter). Redraw collapsing depends on no
  id order: a redraw settles exactly the entries it read before rendering
  (``outbox_object_ids``, then ``settle_outbox_entries``); one committed later stays.
- **The backlog ceiling** (``count_pending`` then ``put_escalation``) is atomic against
  concurrent writers, also on other connections or replicas.
- **Dedupe** (``mark_seen``, identities, idempotency keys) holds under concurrent writers.
- **One change per member at a time**: a transaction that calls ``serialize(key)`` first
  runs after every other transaction that took the same key has committed, and reads what
  it wrote, whichever connection, process or replica ran it (the member actor's guarantee
  across replicas).

Reads outside a transaction are the async methods of :class:`Store`; they see committed
data only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from crewline.models import (
    ConciergeAnswer,
    Escalation,
    EscalationState,
    Event,
    Identity,
    LedgerEntry,
    Member,
    Question,
    Row,
    RowRole,
    Session,
    Suggestion,
)

__all__ = [
    "BoundaryRecord",
    "IdempotencyRecord",
    "OutboxBacklog",
    "OutboxEntry",
    "PlatformMessage",
    "SeenEvent",
    "SelRecord",
    "Store",
    "Tx",
    "Webhook",
]

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True, slots=True)
class OutboxEntry:
    """A platform call waiting to be made; ``lane`` entries are delivered in ``id`` order."""

    id: int
    transport: str
    lane: str
    op: str
    object_key: str
    body: Mapping[str, Any]
    attempts: int
    not_before: float
    # When it was queued, by the queuing process's clock: no attempt to send it came earlier.
    created_at: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class OutboxBacklog:
    """One transport's outbox at a glance: what waits, since when, and what was given up."""

    transport: str
    pending: int
    oldest: datetime | None  # when the oldest waiting entry was queued
    oldest_error: str | None  # why its last attempt failed, if one did
    dead: int  # entries moved to the dead letters (a permanent failure)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlatformMessage:
    transport: str
    object_key: str
    thread_ref: str
    message_ref: str


@dataclass(frozen=True, kw_only=True, slots=True)
class SelRecord:
    id: int
    at: datetime
    action: str
    outcome: str
    actor: str | None
    member: str | None
    details: Mapping[str, Any]


@dataclass(frozen=True, kw_only=True, slots=True)
class SeenEvent:
    """A platform event that was taken (its id is remembered for dedupe), with the receipt
    its first delivery got, so a redelivery is answered with what the first was told.
    ``receipt`` is None when none was kept: a command still running, or cut short by a
    crash between its mark and its answer."""

    seen_at: datetime
    receipt: Mapping[str, Any] | None


@dataclass(frozen=True, kw_only=True, slots=True)
class IdempotencyRecord:
    """The first outcome of a write a session sent with an ``Idempotency-Key``."""

    session: str
    key: str
    fingerprint: str  # of the verb and the request body: a reused key must say the same
    status: int
    response: Mapping[str, Any]
    created_at: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class Webhook:
    """Where a session's events are pushed, and how far they have been acknowledged."""

    session: str
    url: str
    secret: str
    delivered_through: int
    attempts: int = 0
    not_before: float = 0.0
    last_error: str | None = None
    created_at: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class BoundaryRecord:
    """A context boundary as stored: who was asked to discard, and what each answered."""

    id: str
    member: str
    kind: str
    state: str  # asking | committed | failed
    asked: tuple[str, ...]
    answers: Mapping[str, tuple[str, str | None]]  # session -> (ack | nack, reason)
    created_at: datetime  # when it was frozen: one older than its wait is abandoned


class Tx(ABC):
    """Operations inside one write transaction; synchronous, on whatever thread the store
    runs the transaction (see the module docstring). They read the transaction's own writes.

    Any exception raised inside the transaction function (a method's documented Conflict,
    NotFound or Unavailable included) rolls back everything it did.
    """

    @abstractmethod
    def serialize(self, key: str) -> None:
        """Hold ``key``'s lock (a member's slug, or a memberless conversation) until this
        transaction ends; call it before the transaction reads anything. A transaction that
        takes the same key on another connection or replica waits for this one to end, then
        reads what it committed. A store whose transactions already run one at a time
        (SQLite's one writer) need do nothing."""

    # humans, members, sessions -------------------------------------------------------------
    @abstractmethod
    def ensure_human(self, identities: Sequence[Identity], now: datetime) -> int:
        """The human owning any of ``identities`` (created if none), with all of them bound."""

    @abstractmethod
    def set_owner_token(self, human: int, token_hash: str) -> None:
        """Replace the human's owner-token hash (the old token stops working)."""

    @abstractmethod
    def add_member(self, member: Member, now: datetime) -> None:
        """Add a member and its transport bindings; raises Conflict if the slug exists."""

    @abstractmethod
    def remove_member(self, slug: str) -> bool:
        """Delete the member (its bindings, threads and sessions go with it) and retract its
        pending records; False when there was no such member."""

    @abstractmethod
    def member(self, slug: str) -> Member | None:
        """The member with its transports (sorted), or None."""

    @abstractmethod
    def members_by_slug(self, slugs: Sequence[str]) -> list[Member]:
        """``member`` for each of ``slugs`` at once: those that exist, in no given order."""

    @abstractmethod
    def member_incarnation(self, slug: str) -> str | None:
        """A token minted when the member was added: a member removed and re-created under
        the same slug has another one (None: no such member)."""

    @abstractmethod
    def add_session(self, session: Session, key_hash: str, now: datetime) -> None:
        """Store a session under its key's hash; the database refuses a reused id or hash."""

    @abstractmethod
    def revoke_member_sessions(self, slug: str, now: datetime) -> int:
        """Revoke the member's own sessions (their keys stop working); returns how many."""

    @abstractmethod
    def member_sessions(self, slug: str) -> list[Session]:
        """The live (unrevoked) sessions of kind ``member`` speaking for ``slug``."""

    @abstractmethod
    def session(self, session_id: str) -> Session | None:
        """The session, revoked or not, or None."""

    @abstractmethod
    def set_turn(self, session_id: str, since: datetime | None) -> None:
        """Record that the session is in the middle of a turn since ``since`` (None: not)."""

    @abstractmethod
    def record_thread(self, member: str, transport: str, thread_ref: str) -> None:
        """The member's thread on ``transport`` is ``thread_ref`` (replacing its earlier one,
        and taking the ref from any other member that held it)."""

    # the transcript -------------------------------------------------------------------------
    @abstractmethod
    def append_row(
        self,
        *,
        conversation: str,
        role: RowRole,
        author: str,
        text: str,
        meta: Mapping[str, Any],
        now: datetime,
        row_id: str | None = None,
        record: str | None = None,
    ) -> Row:
        """Append a row at the end of the conversation's live generation.

        ``record`` names the escalation the row concerns (its card, its answer, its closing),
        which ``record_rows`` finds without reading the rest of the transcript."""

    @abstractmethod
    def row(self, row_id: str) -> Row | None:
        """The live row with this id, or None (also for a rewound one)."""

    @abstractmethod
    def live_rows(self, conversation: str) -> list[Row]:
        """The conversation's rows that no rewind removed, in order."""

    @abstractmethod
    def record_rows(self, conversation: str) -> list[Row]:
        """The live rows of the conversation that name a record, in order."""

    @abstractmethod
    def rows_after(self, conversation: str, seq: int) -> list[Row]:
        """The live rows of the conversation after position ``seq``, in order."""

    @abstractmethod
    def row_before(self, conversation: str, seq: int) -> Row | None:
        """The live row just before position ``seq``, if any."""

    @abstractmethod
    def last_rows(self, conversation: str, *, role: RowRole, limit: int) -> list[Row]:
        """The conversation's last ``limit`` live rows of ``role``, newest first."""

    @abstractmethod
    def generation(self, conversation: str) -> int:
        """The conversation's live generation (1 until a rewind or a boundary starts
        another)."""

    @abstractmethod
    def begin_generation(self, conversation: str, *, rewound: Sequence[str]) -> int:
        """Start a new generation in which the live rows ``rewound`` (ids) leave the
        transcript; every other row stays where it is. Returns the new generation."""

    @abstractmethod
    def move_to_end(self, conversation: str, row_ids: Sequence[str]) -> None:
        """Place the live rows ``row_ids`` after every other row, in the order given, in
        the live generation (their ids are unchanged)."""

    @abstractmethod
    def truncate_conversation(self, conversation: str, *, keep_through: str) -> int:
        """Rewind: rows after ``keep_through`` leave the transcript; returns the new
        generation. Raises NotFound if the row is not live in that conversation."""

    # escalations and questions --------------------------------------------------------------
    @abstractmethod
    def put_escalation(self, escalation: Escalation) -> None:
        """Insert or replace the index record."""

    @abstractmethod
    def escalation(self, escalation_id: str) -> Escalation | None:
        """The index record, or None. Raises Unavailable(escalation_index_unavailable) when
        the index cannot be read."""

    @abstractmethod
    def escalation_states(self, escalation_ids: Sequence[str]) -> dict[str, EscalationState]:
        """The state of each of ``escalation_ids`` at once, by id: the records that exist
        (what ``escalation`` gives, reduced to its state); Unavailable as ``escalation``."""

    @abstractmethod
    def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        """The member's records, oldest first (insertion order breaks ties); Unavailable as
        ``escalation``."""

    @abstractmethod
    def count_pending(self, member: str) -> int:
        """The member's pending records. The count stays true until this transaction
        commits: a concurrent writer's count waits for it (the backlog ceiling). Unavailable
        as ``escalation``."""

    @abstractmethod
    def put_question(self, question: Question) -> None:
        """Insert or replace the question."""

    @abstractmethod
    def question(self, question_id: str) -> Question | None:
        """The question, or None."""

    @abstractmethod
    def waiting_questions(self, member: str) -> list[Question]:
        """The member's question cards still waiting for an answer, oldest first."""

    # delivery, events, dedupe, audit --------------------------------------------------------
    @abstractmethod
    def enqueue(
        self,
        *,
        transport: str,
        lane: str,
        op: str,
        object_key: str,
        now: datetime,
        body: Mapping[str, Any] | None = None,
        ordered: bool = True,
    ) -> int:
        """Queue a platform call at the end of ``lane``; returns its id. Within a lane, ids
        become visible in the order they were returned (see the module docstring).

        ``ordered=False``: the entry redraws an object's current state, so where it falls
        among its lane's entries does not matter; the store need not make concurrent
        writers of the lane wait for each other to keep their order."""

    @abstractmethod
    def queue_call(
        self,
        *,
        transport: str,
        lane: str,
        op: str,
        object_key: str,
        now: datetime,
        body: Mapping[str, Any] | None = None,
        ordered: bool = True,
    ) -> None:
        """``enqueue`` for a caller that does not need the id: the same entry, in the same
        place in its lane, with the same ordering guarantees. A store may then send the
        write along with the transaction's next statement instead of waiting for the id
        (PostgresStore: no round trip of its own, and a transaction's queued entries go out
        together as one statement, before its next statement or at its end)."""

    @abstractmethod
    def add_event(self, session: str, kind: str, body: Mapping[str, Any], now: datetime) -> int:
        """Append to the session's event stream; returns the cursor."""

    @abstractmethod
    def take_events(self, session: str, after: int, *, limit: int = 100) -> list[Event]:
        """The session's events after ``after`` (withdrawn ones left out), remembered as
        delivered: a boundary's commit never withdraws or moves them any more."""

    @abstractmethod
    def unread_events(self, sessions: Sequence[str]) -> list[Event]:
        """The events of ``sessions`` not yet delivered (nor withdrawn), in cursor order."""

    @abstractmethod
    def withdraw_events(self, cursors: Sequence[int], *, generation: int) -> None:
        """Take back undelivered events: a reader never sees them."""

    @abstractmethod
    def put_boundary(
        self, boundary_id: str, *, member: str, kind: str, asked: Sequence[str], now: datetime
    ) -> None:
        """Record a boundary in flight (state ``asking``)."""

    @abstractmethod
    def boundary(self, boundary_id: str) -> BoundaryRecord | None:
        """The boundary with the answers recorded so far, or None."""

    @abstractmethod
    def boundary_in_flight(self, member: str) -> str | None:
        """The id of the member's boundary still asking, if any."""

    @abstractmethod
    def answer_boundary(
        self, boundary_id: str, session: str, *, answer: str, reason: str | None, now: datetime
    ) -> None:
        """Record one asked session's answer (``ack`` or ``nack``); the first one stands."""

    @abstractmethod
    def settle_boundary(self, boundary_id: str, *, state: str, now: datetime) -> None:
        """End the boundary as ``committed`` or ``failed``: it is no longer in flight."""

    @abstractmethod
    def mark_seen(self, transport: str, event_id: str, now: datetime) -> bool:
        """Remember a platform event id; False when it was already seen (a redelivery)."""

    @abstractmethod
    def keep_receipt(self, transport: str, event_id: str, receipt: Mapping[str, Any]) -> None:
        """Keep ``receipt`` (what the human was told) beside the event's mark, so a
        redelivery gets the same; in the transaction of the event's effect where it has one.
        A mark not made (a refusal) keeps nothing. Nothing else is touched: old marks are
        forgotten by :meth:`forget_seen_events`, off the event's transaction."""

    @abstractmethod
    def forget_seen_events(self, *, before: datetime, limit: int) -> int:
        """Forget up to ``limit`` marks made before ``before``, with their receipts (the
        oldest first); returns how many. A periodic sweep calls it until it forgets fewer
        than ``limit``, which keeps both bounded without a delete on every event's
        transaction. Marks another transaction holds are skipped, never waited for."""

    @abstractmethod
    def seen_event(self, transport: str, event_id: str) -> SeenEvent | None:
        """The event's mark and kept receipt, or None when it was never taken (or is
        forgotten)."""

    @abstractmethod
    def audit(
        self,
        action: str,
        outcome: str,
        now: datetime,
        *,
        actor: str | None = None,
        member: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        """Append a SEL record."""

    @abstractmethod
    def settle_outbox(self, entry_id: int) -> None:
        """The call was made (or is no longer needed): drop the entry."""

    @abstractmethod
    def settle_outbox_entries(self, entry_ids: Sequence[int]) -> None:
        """Drop these entries (those a redraw covered; ids already gone are ignored)."""

    @abstractmethod
    def posts_not_begun(
        self, transport: str, posts: Sequence[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        """Of ``posts`` (lane, object key), those whose post entry on ``transport`` waits in
        its lane behind an earlier entry. A lane is sent one entry at a time, its head
        first, so no dispatcher has begun drawing such a post; and none begins before this
        transaction commits, so the post draws the object as this transaction leaves it.

        A store that cannot keep the second promise against concurrent writers answers
        fewer (an empty set is always correct): the caller then queues a redraw."""

    @abstractmethod
    def retry_outbox(self, entry_id: int, *, not_before: float, error: str) -> None:
        """Count a failed attempt; the entry waits until ``not_before`` (epoch seconds)."""

    @abstractmethod
    def bury_outbox(self, entry_id: int, *, error: str, now: datetime) -> None:
        """Move an entry that can never succeed to the dead-letter table."""

    @abstractmethod
    def record_platform_message(self, message: PlatformMessage) -> None:
        """Which platform message shows the object (replacing an earlier one)."""

    @abstractmethod
    def set_setting(self, key: str, value: str) -> None:
        """Insert or replace a setting."""

    # agents' retried writes and pushed events -----------------------------------------------
    @abstractmethod
    def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        """The remembered outcome of the session's keyed write, or None."""

    @abstractmethod
    def remember_idempotency(self, record: IdempotencyRecord, *, forget_before: datetime) -> None:
        """Keep the outcome of a keyed write (replacing an expired one of the same key), and
        forget every outcome older than ``forget_before``."""

    @abstractmethod
    def last_cursor(self, session: str) -> int:
        """The cursor of the session's newest event (0 when it has none)."""

    @abstractmethod
    def webhook(self, session: str) -> Webhook | None:
        """The session's webhook (revoked session or not), or None."""

    @abstractmethod
    def put_webhook(self, webhook: Webhook) -> None:
        """Register or replace the session's webhook."""

    @abstractmethod
    def delete_webhook(self, session: str) -> bool:
        """Forget the session's webhook; False when it had none."""

    @abstractmethod
    def webhook_delivered(self, session: str, cursor: int) -> None:
        """The receiver acknowledged every event through ``cursor``; failures are cleared."""

    @abstractmethod
    def webhook_failed(self, session: str, *, not_before: float, error: str) -> None:
        """A delivery failed: count the attempt, and wait until ``not_before`` (epoch s)."""

    @abstractmethod
    def setting(self, key: str) -> str | None:
        """The value kept under ``key``, as this transaction sees it; None if none is kept."""

    @abstractmethod
    def withdraw_event(self, session: str, cursor: int) -> bool:
        """Remove one event from the session's stream (an answer withdrawn before the session
        read it); False when there was no such event."""

    @abstractmethod
    def session_ended(self, session_id: str) -> bool:
        """True when the session is unknown or was stopped (its key revoked)."""

    @abstractmethod
    def end_session(self, session_id: str, now: datetime) -> bool:
        """Stop a session: its key stops working; False when it was not live."""

    # the concierge --------------------------------------------------------------------------
    @abstractmethod
    def put_suggestion(self, suggestion: Suggestion) -> None:
        """Store the suggestion for its record, replacing any earlier one (and its dismissal).
        Raises Conflict(unknown_member) if the member does not exist."""

    @abstractmethod
    def put_suggestions(self, suggestions: Sequence[Suggestion]) -> None:
        """``put_suggestion`` for each of ``suggestions``, in order (a later one for the same
        record replaces an earlier); Conflict as ``put_suggestion``."""

    @abstractmethod
    def suggestion(self, record_id: str) -> Suggestion | None:
        """The record's suggestion (dismissed or not) as this transaction sees it, or None."""

    @abstractmethod
    def drop_suggestion(self, record_id: str) -> bool:
        """Forget the record's suggestion; False when it had none."""

    @abstractmethod
    def drop_member_suggestions(self, member: str) -> list[str]:
        """Forget every suggestion of the member's records; returns their record ids."""

    @abstractmethod
    def dismiss_suggestion(self, record_id: str) -> bool:
        """Hide the record's suggestion until a new one is stored; False when it had none."""

    @abstractmethod
    def add_ledger(self, entry: LedgerEntry) -> int:
        """Append one decision to the ledger (``entry.id`` is ignored); returns its id."""

    @abstractmethod
    def add_ledger_entries(self, entries: Sequence[LedgerEntry]) -> None:
        """``add_ledger`` for each of ``entries``, in order: their ids increase in that order."""

    @abstractmethod
    def judged(self, record_id: str) -> bool:
        """Whether the ledger holds one of the concierge's own judgements of the record (a
        decision in ``models.JUDGEMENTS``), as this transaction sees it."""

    @abstractmethod
    def add_concierge_answer(self, answer: ConciergeAnswer, *, keep: int = 20) -> int:
        """Remember an answer the concierge gave (``answer.id`` is ignored) and forget all
        but the newest ``keep``; returns its id."""

    @abstractmethod
    def last_concierge_answer(self, *, record_id: str | None = None) -> ConciergeAnswer | None:
        """The newest kept answer not yet undone (to ``record_id`` when given), or None."""

    @abstractmethod
    def mark_answer_undone(self, answer_id: int, now: datetime) -> None:
        """The answer was undone: ``last_concierge_answer`` passes over it from now on (an
        id no longer kept changes nothing)."""


class Store(ABC):
    """Durable storage for one crewline. Open it with ``async with``."""

    @abstractmethod
    async def __aenter__(self) -> Store:
        """Open the database, applying the store's migrations; raises if it cannot."""

    @abstractmethod
    async def __aexit__(self, *exc_info: object) -> None:
        """Close: writes still queued are cancelled, committed ones stay."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of this database's last applied migration (in the store's own
        numbering)."""

    @abstractmethod
    def latest_schema_version(self) -> int:
        """The number of the newest migration this crewline ships for the store."""

    @abstractmethod
    async def write(self, transaction: Callable[[Tx], T], *, heavy: bool = False) -> T:
        """Run ``transaction`` atomically and durably; its result, or its exception.

        ``heavy``: it may read or write many rows (a reconciliation); the store keeps it
        from holding up everything else while it runs.
        """

    # reads ----------------------------------------------------------------------------------
    @abstractmethod
    async def member(self, slug: str) -> Member | None:
        """The member with its transports (sorted), or None."""

    @abstractmethod
    async def members(self) -> list[Member]:
        """Every member, oldest first."""

    @abstractmethod
    async def session_by_key_hash(self, key_hash: str) -> Session | None:
        """The live (unrevoked) session whose key hashes to ``key_hash``, or None."""

    @abstractmethod
    async def live_sessions(self, session_ids: Collection[str]) -> set[str]:
        """Those of ``session_ids`` that name a session whose key still works (neither
        revoked nor removed with its member): what an open event stream is checked by."""

    @abstractmethod
    async def human_by_token_hash(self, token_hash: str) -> int | None:
        """The human whose owner token hashes to ``token_hash``, or None."""

    @abstractmethod
    async def humans(self) -> list[int]:
        """Every human's id, in order of creation."""

    @abstractmethod
    async def human_of(self, platform: str, user_id: str) -> int | None:
        """The human who owns this platform account, if any."""

    @abstractmethod
    async def identities(self, human: int) -> list[Identity]:
        """The human's platform accounts, sorted by platform and user id."""

    @abstractmethod
    async def thread_ref(self, member: str, transport: str) -> str | None:
        """The member's thread on ``transport``, or None before its first post."""

    @abstractmethod
    async def member_for_thread(self, transport: str, thread_ref: str) -> str | None:
        """The member whose thread this is, or None."""

    @abstractmethod
    async def live_rows(self, conversation: str) -> list[Row]:
        """The conversation's rows that no rewind removed, in order."""

    @abstractmethod
    async def row(self, row_id: str, *, include_rewound: bool = False) -> Row | None:
        """The row, or None; a rewound row only with ``include_rewound``."""

    @abstractmethod
    async def escalation(self, escalation_id: str) -> Escalation | None:
        """The index record, or None; Unavailable(escalation_index_unavailable) when the
        index cannot be read (as for every index read below)."""

    @abstractmethod
    async def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        """The member's records, oldest first; ``pending_only``: the open ones alone."""

    @abstractmethod
    async def pending_counts(self) -> dict[str, int]:
        """Pending escalations per member slug (members with none are absent)."""

    @abstractmethod
    async def due_windows(self, before: datetime) -> list[tuple[str, str, datetime]]:
        """(escalation id, member, deadline) of pending records due before ``before``."""

    @abstractmethod
    async def question(self, question_id: str) -> Question | None:
        """The question, or None."""

    @abstractmethod
    async def waiting_counts(self) -> dict[str, int]:
        """Questions waiting for an answer per member slug (members with none are absent)."""

    @abstractmethod
    async def waiting_questions(self, member: str) -> list[Question]:
        """The member's questions still waiting for an answer, oldest first."""

    @abstractmethod
    async def events_after(self, session: str, cursor: int, *, limit: int = 100) -> list[Event]:
        """Up to ``limit`` of the session's events after ``cursor``, in cursor order. Paging
        on from the last cursor read skips nothing (cursors are visible in commit order)."""

    @abstractmethod
    async def outbox_heads(self, transport: str) -> list[OutboxEntry]:
        """The first entry of every lane of ``transport`` (the only ones sendable now)."""

    @abstractmethod
    async def outbox_head(self, transport: str, lane: str) -> OutboxEntry | None:
        """The lane's oldest committed entry, or None when the lane is empty."""

    @abstractmethod
    async def outbox_last_id(self) -> int:
        """The largest committed outbox id (0 when none was ever queued); entries this
        store queues from now on get larger ids."""

    @abstractmethod
    async def outbox_object_ids(
        self, transport: str, lane: str, op: str, object_key: str
    ) -> list[int]:
        """The committed entries of ``lane`` that would ``op`` ``object_key`` (a redraw
        reads them before it renders: those are the ones its render covers)."""

    @abstractmethod
    async def outbox_size(self, transport: str | None = None) -> int:
        """Entries waiting, of one transport or of all."""

    @abstractmethod
    async def outbox_backlog(self) -> list[OutboxBacklog]:
        """Per transport with waiting or dead entries, by name: the pending count, the
        oldest waiting entry (queued when, last error) and the dead-letter count."""

    @abstractmethod
    async def escalation_counts(self) -> dict[str, int]:
        """Escalation records per state (states with none are absent)."""

    @abstractmethod
    async def platform_message(self, transport: str, object_key: str) -> PlatformMessage | None:
        """The platform message showing the object, or None."""

    @abstractmethod
    async def object_for_message(self, transport: str, message_ref: str) -> str | None:
        """The object a platform message shows, or None."""

    @abstractmethod
    async def sel(self, *, action_prefix: str = "") -> list[SelRecord]:
        """SEL records whose action starts with ``action_prefix``, oldest first."""

    @abstractmethod
    async def sel_after(
        self,
        after: int,
        *,
        limit: int,
        member: str | None = None,
        since: datetime | None = None,
        action: str | None = None,
    ) -> list[SelRecord]:
        """At most ``limit`` SEL records with an id above ``after``, oldest first; only
        ``member``'s when given, only those at or after ``since``, and only the ``action``
        given or those beneath it (``boundary`` finds ``boundary:rewind``)."""

    @abstractmethod
    async def setting(self, key: str) -> str | None:
        """The setting's value, or None."""

    # the concierge --------------------------------------------------------------------------
    @abstractmethod
    async def suggestion(self, record_id: str) -> Suggestion | None:
        """The record's suggestion (dismissed or not), or None."""

    @abstractmethod
    async def ledger(self, *, limit: int = 100) -> list[LedgerEntry]:
        """The newest ``limit`` ledger entries, newest first."""

    @abstractmethod
    async def ledger_after(
        self,
        after: int,
        *,
        limit: int,
        member: str | None = None,
        since: datetime | None = None,
        decision: str | None = None,
    ) -> list[LedgerEntry]:
        """At most ``limit`` ledger entries with an id above ``after``, oldest first; only
        ``member``'s when given, only those at or after ``since``, only ``decision``'s."""

    @abstractmethod
    async def concierge_answers(self) -> list[ConciergeAnswer]:
        """The kept answers (at most 20), newest first."""

    @abstractmethod
    async def fleet_rows(self, match: str, *, excluding: str, limit: int = 5) -> list[Row]:
        """Fleet retrieval: live rows members said in their own threads (role ``member``)
        that match the query ``match``, best first among the newest few hundred matches
        (so its cost stays bounded as the history grows), leaving out the conversation
        ``excluding`` (the asking member's). An empty ``match`` finds nothing.

        The query syntax is the part of SQLite FTS5's every store reads alike: terms and
        "quoted phrases" (words stemmed; ASCII punctuation separates words), ``+`` joining
        phrases, a ``*`` prefix, adjacent phrases (all must match), ``NOT``, ``AND``, ``OR``
        and parentheses (``store/pg_fulltext.py`` spells it out). Column filters, ``NEAR``
        and ``^`` are not portable. Raises InvalidInput(invalid_query) when ``match`` is not
        a valid query."""

    @abstractmethod
    async def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        """The remembered outcome of the session's keyed write, or None."""

    @abstractmethod
    async def webhook(self, session: str) -> Webhook | None:
        """The webhook of a live (unrevoked) session."""

    @abstractmethod
    async def webhooks(self, *, behind_only: bool = False) -> list[Webhook]:
        """The webhooks of live sessions; ``behind_only``: those with events not yet
        acknowledged."""

    @abstractmethod
    async def rebuild_index_table(self) -> None:
        """Replace an unreadable escalation index by an empty one, for reconciliation."""

    @abstractmethod
    async def check_index(self) -> None:
        """Raise Unavailable(escalation_index_unavailable) if the index cannot be read."""
