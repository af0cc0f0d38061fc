"""PostgresTx: the Tx port over one psycopg connection, inside one database transaction,
on the worker thread that holds the connection."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import DictRow

from crewline.errors import Conflict, NotFound, Unavailable
from crewline.models import (
    Escalation,
    EscalationState,
    Event,
    Identity,
    Member,
    Question,
    Row,
    RowRole,
    Session,
    new_id,
)
from crewline.store import codec
from crewline.store.base import (
    BoundaryRecord,
    IdempotencyRecord,
    PlatformMessage,
    SeenEvent,
    Tx,
    Webhook,
)
from crewline.store.postgres_concierge import ConciergeWrites
from crewline.store.postgres_coordination import BOUNDARY_KEY, CHANNEL
from crewline.store.postgres_statements import STREAM_LOCKS, QueuedEntry, Statements

__all__ = ["INDEX_DAMAGE", "MEMBERS", "PostgresTx", "index_unavailable"]

# Members with their transports, comma-joined (``codec.members_from``); ``{where}`` narrows.
MEMBERS = (
    "SELECT m.slug, m.name, m.owner, string_agg(t.transport, ',') AS transports"
    " FROM members m LEFT JOIN member_transports t ON t.member = m.slug {where}"
    " GROUP BY m.slug ORDER BY m.created_at, m.slug"
)
_MEMBERS_BY_SLUG = MEMBERS.format(where="WHERE m.slug = ANY(%s)")

INDEX_DAMAGE = (psycopg.errors.UndefinedTable, psycopg.errors.DataCorrupted)


def index_unavailable(error: psycopg.Error) -> Unavailable:
    """A missing or damaged escalation index, reported as the port says: Unavailable."""
    return Unavailable(
        f"the escalation index cannot be read ({error})", code="escalation_index_unavailable"
    )


_BACKLOG_LOCKS = 17  # advisory lock key spaces (the seed of hashtextextended)
_MEMBER_LOCKS = 19


class PostgresTx(ConciergeWrites, Tx):
    """``pipeline``: the connection's pipeline, when the transaction runs in pipeline mode
    (as ``PostgresStore`` runs every transaction). A statement whose result is not read goes
    out with the next one whose result is, so a transaction costs one round trip per result
    it reads, not one per statement; the order of execution on the server is unchanged, and
    an error surfaces at the next result read (or the commit), as the same exception.

    Outbox entries written by ``queue_call`` wait and go out as one statement before the
    next one (``postgres_statements.py``): whoever runs the transaction calls ``finish``
    once its function has returned, before committing."""

    def __init__(
        self, conn: psycopg.Connection[DictRow], pipeline: psycopg.Pipeline | None = None
    ) -> None:
        self._conn = Statements(conn)
        self._pipeline = pipeline
        # An index write went out unread: a missing or damaged table surfacing later in
        # this transaction (at a later read or the commit) is the index's.
        self.index_written = False

    def finish(self) -> None:
        """Send what the transaction still holds back (its queued outbox entries)."""
        self._conn.flush()

    def _index(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[DictRow]:
        """A statement on the escalation index; a missing or damaged index is Unavailable,
        never empty, so no writer goes on as if there were no records."""
        try:
            return self._settled(self._conn.execute(sql, params))
        except INDEX_DAMAGE as error:
            raise index_unavailable(error) from error

    def _one(self, sql: str, params: Sequence[Any] = ()) -> DictRow | None:
        return self._conn.execute(sql, params).fetchone()

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[DictRow]:
        return self._conn.execute(sql, params).fetchall()

    def _count(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._settled(self._conn.execute(sql, params)).rowcount

    def _next_in_stream(
        self, stream: str | None, insert: str, values: str, params: Sequence[Any]
    ) -> int:
        """Run ``insert`` (``INSERT INTO t (key, ...)``, the key's value taken from a
        sequence: ``values`` is ``nextval(...), %s, ...``); returns the key.

        With ``stream`` (a session's events, a lane), the stream's lock is taken first and
        held until this transaction ends: the stream's values then become visible in the
        order they were taken, while other streams' writers go on without waiting. Lock and
        insert are one statement: the materialized CTE takes the lock when the insert reads
        its one row, before the row's ``nextval`` is computed."""
        key = insert.partition("(")[2].partition(",")[0]
        if stream is None:
            r = self._one(f"{insert} VALUES ({values}) RETURNING {key}", params)
        else:
            r = self._one(
                "WITH locked AS MATERIALIZED"
                " (SELECT pg_advisory_xact_lock(hashtextextended(%s, %s)))"
                f" {insert} SELECT {values} FROM locked RETURNING {key}",
                (stream, STREAM_LOCKS, *params),
            )
        assert r is not None
        return int(r[key])

    def serialize(self, key: str) -> None:
        # Taken first in its transaction: one key per transaction, or several in sorted
        # order (the concierge's batch, Concierge._write) before anything else. The other
        # locks (streams, the backlog) are always taken after them, so no cycle can form.
        # Later in a group commit's batch it does not wait at all (lock_timeout:
        # postgres_writer.py).
        self._conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, %s))", (key, _MEMBER_LOCKS)
        )

    # humans, members, sessions -------------------------------------------------------------
    def ensure_human(self, identities: Sequence[Identity], now: datetime) -> int:
        owners = {
            r["human"]
            for i in identities
            if (
                r := self._one(
                    "SELECT human FROM identities WHERE platform = %s AND user_id = %s",
                    (i.platform, i.user_id),
                )
            )
        }
        if len(owners) > 1:
            raise Conflict(
                "these identities belong to different humans: "
                + ", ".join(str(i) for i in identities),
                code="identities_conflict",
            )
        if owners:
            human = int(owners.pop())
        else:
            r = self._one(
                "INSERT INTO humans (created_at) VALUES (%s) RETURNING id", (codec.epoch(now),)
            )
            assert r is not None
            human = int(r["id"])
        for i in identities:
            self._conn.execute(
                "INSERT INTO identities (platform, user_id, human) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                (i.platform, i.user_id, human),
            )
        return human

    def set_owner_token(self, human: int, token_hash: str) -> None:
        self._conn.execute("UPDATE humans SET token_hash = %s WHERE id = %s", (token_hash, human))

    def add_member(self, member: Member, now: datetime) -> None:
        r = self._one(
            "INSERT INTO members (slug, name, owner, created_at, incarnation)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (slug) DO NOTHING RETURNING slug",
            (member.slug, member.name, member.owner, codec.epoch(now), new_id()),
        )
        if r is None:
            raise Conflict(f"a member named {member.slug!r} already exists", code="member_exists")
        for transport in member.transports:
            self._conn.execute(
                "INSERT INTO member_transports (member, transport) VALUES (%s, %s)",
                (member.slug, transport),
            )

    def remove_member(self, slug: str) -> bool:
        self._index(
            "UPDATE escalations SET state = 'retracted' WHERE member = %s AND state = 'pending'",
            (slug,),
        )
        return self._count("DELETE FROM members WHERE slug = %s", (slug,)) > 0

    def member(self, slug: str) -> Member | None:
        r = self._one("SELECT slug, name, owner FROM members WHERE slug = %s", (slug,))
        if r is None:
            return None
        transports = self._all(
            "SELECT transport FROM member_transports WHERE member = %s ORDER BY transport",
            (slug,),
        )
        return Member(
            slug=r["slug"],
            name=r["name"],
            owner=r["owner"],
            transports=tuple(t["transport"] for t in transports),
        )

    def members_by_slug(self, slugs: Sequence[str]) -> list[Member]:
        wanted = list(dict.fromkeys(slugs))
        return codec.members_from(self._all(_MEMBERS_BY_SLUG, (wanted,)))

    def member_incarnation(self, slug: str) -> str | None:
        r = self._one("SELECT incarnation FROM members WHERE slug = %s", (slug,))
        return None if r is None else str(r["incarnation"] or "")

    def add_session(self, session: Session, key_hash: str, now: datetime) -> None:
        self._conn.execute(
            "INSERT INTO sessions (id, key_hash, kind, member, parent, created_at, stateless)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (
                session.id,
                key_hash,
                session.kind.value,
                session.member,
                session.parent,
                codec.epoch(now),
                int(session.stateless),
            ),
        )

    def revoke_member_sessions(self, slug: str, now: datetime) -> int:
        return self._count(
            "UPDATE sessions SET revoked_at = %s WHERE member = %s AND kind = 'member'"
            " AND revoked_at IS NULL",
            (codec.epoch(now), slug),
        )

    def member_sessions(self, slug: str) -> list[Session]:
        return [
            codec.session_from(r)
            for r in self._all(
                f"SELECT {codec.SESSION_COLUMNS} FROM sessions WHERE member = %s"
                " AND kind = 'member' AND revoked_at IS NULL ORDER BY created_at, id",
                (slug,),
            )
        ]

    def session(self, session_id: str) -> Session | None:
        r = self._one(f"SELECT {codec.SESSION_COLUMNS} FROM sessions WHERE id = %s", (session_id,))
        return None if r is None else codec.session_from(r)

    def set_turn(self, session_id: str, since: datetime | None) -> None:
        self._conn.execute(
            "UPDATE sessions SET turn_since = %s WHERE id = %s",
            (None if since is None else codec.epoch(since), session_id),
        )

    def record_thread(self, member: str, transport: str, thread_ref: str) -> None:
        # SQLite's INSERT OR REPLACE also drops a row that held the same thread_ref.
        self._conn.execute(
            "DELETE FROM threads WHERE transport = %s AND thread_ref = %s AND member <> %s",
            (transport, thread_ref, member),
        )
        self._conn.execute(
            "INSERT INTO threads (member, transport, thread_ref) VALUES (%s, %s, %s)"
            " ON CONFLICT (member, transport) DO UPDATE SET thread_ref = excluded.thread_ref",
            (member, transport, thread_ref),
        )

    # the transcript -------------------------------------------------------------------------
    def _conversation(self, key: str) -> tuple[int, int]:
        """The conversation's generation and next seq, its row locked until commit."""
        r = self._one(
            "INSERT INTO conversations (key) VALUES (%s) ON CONFLICT (key)"
            " DO UPDATE SET key = excluded.key RETURNING generation, next_seq",
            (key,),
        )
        assert r is not None
        return int(r["generation"]), int(r["next_seq"])

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
        # One statement takes the next seq, moves the counter on (the conversation's row
        # locked until commit, so seqs follow commit order) and inserts the row.
        row_id = row_id or new_id()
        said = dict(meta)
        r = self._one(
            "WITH counter AS (INSERT INTO conversations (key, next_seq) VALUES (%s, 2)"
            " ON CONFLICT (key) DO UPDATE SET next_seq = conversations.next_seq + 1"
            " RETURNING generation, next_seq - 1 AS seq)"
            f" INSERT INTO rows ({codec.ROW_COLUMNS}, record)"
            " SELECT %s, %s, generation, seq, %s, %s, %s, %s, %s, %s FROM counter"
            " RETURNING generation, seq",
            (
                conversation,
                row_id,
                conversation,
                role.value,
                author,
                text,
                codec.dumps(said),
                codec.epoch(now),
                record,
            ),
        )
        assert r is not None
        return Row(
            id=row_id,
            conversation=conversation,
            generation=int(r["generation"]),
            seq=int(r["seq"]),
            role=role,
            author=author,
            text=text,
            meta=said,
            created_at=now,
        )

    def row(self, row_id: str) -> Row | None:
        r = self._one(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE id = %s AND rewound_in IS NULL",
            (row_id,),
        )
        return None if r is None else codec.row_from(r)

    def live_rows(self, conversation: str) -> list[Row]:
        return [
            codec.row_from(r)
            for r in self._all(
                f"SELECT {codec.ROW_COLUMNS} FROM rows"
                " WHERE conversation = %s AND rewound_in IS NULL ORDER BY seq",
                (conversation,),
            )
        ]

    def record_rows(self, conversation: str) -> list[Row]:
        return [
            codec.row_from(r)
            for r in self._all(
                f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE conversation = %s"
                " AND record IS NOT NULL AND rewound_in IS NULL ORDER BY seq",
                (conversation,),
            )
        ]

    def rows_after(self, conversation: str, seq: int) -> list[Row]:
        return [
            codec.row_from(r)
            for r in self._all(
                f"SELECT {codec.ROW_COLUMNS} FROM rows"
                " WHERE conversation = %s AND seq > %s AND rewound_in IS NULL ORDER BY seq",
                (conversation, seq),
            )
        ]

    def row_before(self, conversation: str, seq: int) -> Row | None:
        r = self._one(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE conversation = %s AND seq < %s"
            " AND rewound_in IS NULL ORDER BY seq DESC LIMIT 1",
            (conversation, seq),
        )
        return None if r is None else codec.row_from(r)

    def last_rows(self, conversation: str, *, role: RowRole, limit: int) -> list[Row]:
        return [
            codec.row_from(r)
            for r in self._all(
                f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE conversation = %s AND role = %s"
                " AND rewound_in IS NULL ORDER BY seq DESC LIMIT %s",
                (conversation, role.value, limit),
            )
        ]

    def generation(self, conversation: str) -> int:
        return self._conversation(conversation)[0]

    def begin_generation(self, conversation: str, *, rewound: Sequence[str]) -> int:
        new_generation = self._conversation(conversation)[0] + 1
        self._conn.execute(
            "UPDATE rows SET rewound_in = %s WHERE id = ANY(%s) AND conversation = %s"
            " AND rewound_in IS NULL",
            (new_generation, list(rewound), conversation),
        )
        self._conn.execute(
            "UPDATE conversations SET generation = %s WHERE key = %s",
            (new_generation, conversation),
        )
        return new_generation

    def move_to_end(self, conversation: str, row_ids: Sequence[str]) -> None:
        generation, seq = self._conversation(conversation)
        for row_id in row_ids:
            seq += self._count(
                "UPDATE rows SET seq = %s, generation = %s WHERE id = %s AND conversation = %s"
                " AND rewound_in IS NULL",
                (seq, generation, row_id, conversation),
            )
        self._conn.execute(
            "UPDATE conversations SET next_seq = %s WHERE key = %s", (seq, conversation)
        )

    def truncate_conversation(self, conversation: str, *, keep_through: str) -> int:
        generation, _ = self._conversation(conversation)  # locks out concurrent appends
        target = self.row(keep_through)
        if target is None or target.conversation != conversation:
            raise NotFound(
                f"row {keep_through!r} is not in the live transcript of {conversation!r}",
                code="unknown_row",
            )
        new_generation = generation + 1
        self._conn.execute(
            "UPDATE rows SET rewound_in = %s WHERE conversation = %s AND seq > %s"
            " AND rewound_in IS NULL",
            (new_generation, conversation, target.seq),
        )
        self._conn.execute(
            "UPDATE conversations SET generation = %s WHERE key = %s",
            (new_generation, conversation),
        )
        return new_generation

    # escalations and questions --------------------------------------------------------------
    def put_escalation(self, escalation: Escalation) -> None:
        columns = [c.strip() for c in codec.ESCALATION_COLUMNS.split(",")]
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c != "id")
        # Not read here (no round trip of its own): PostgresStore reports a missing or
        # damaged table surfacing later in the transaction as Unavailable (index_written).
        self.index_written = True
        self._conn.execute(
            f"INSERT INTO escalations ({codec.ESCALATION_COLUMNS})"
            f" VALUES ({', '.join(['%s'] * len(columns))})"
            f" ON CONFLICT (id) DO UPDATE SET {updates}",
            codec.escalation_params(escalation),
        )

    def escalation(self, escalation_id: str) -> Escalation | None:
        r = self._index(
            f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE id = %s", (escalation_id,)
        ).fetchone()
        return None if r is None else codec.escalation_from(r)

    def escalation_states(self, escalation_ids: Sequence[str]) -> dict[str, EscalationState]:
        return {
            r["id"]: EscalationState(r["state"])
            for r in self._index(
                "SELECT id, state FROM escalations WHERE id = ANY(%s)",
                (list(dict.fromkeys(escalation_ids)),),
            ).fetchall()
        }

    def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        where = "member = %s AND state = 'pending'" if pending_only else "member = %s"
        return [
            codec.escalation_from(r)
            for r in self._index(
                f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE {where}"
                " ORDER BY created_at, ord",
                (member,),
            ).fetchall()
        ]

    def count_pending(self, member: str) -> int:
        # The count decides whether one more record fits under the backlog ceiling: hold the
        # member's lock until commit, so a concurrent writer counts after this one's insert.
        self._conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, %s))",
            (member, _BACKLOG_LOCKS),
        )
        r = self._index(
            "SELECT count(*) AS n FROM escalations WHERE member = %s AND state = 'pending'",
            (member,),
        ).fetchone()
        return int(r["n"]) if r else 0

    def put_question(self, question: Question) -> None:
        columns = [c.strip() for c in codec.QUESTION_COLUMNS.split(",")]
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c != "id")
        self._conn.execute(
            f"INSERT INTO questions ({codec.QUESTION_COLUMNS})"
            f" VALUES ({', '.join(['%s'] * len(columns))})"
            # SQLite's INSERT OR REPLACE puts the rewritten question last: so does ord.
            f" ON CONFLICT (id) DO UPDATE SET {updates}, ord = nextval('questions_ord_seq')",
            codec.question_params(question),
        )

    def question(self, question_id: str) -> Question | None:
        r = self._one(
            f"SELECT {codec.QUESTION_COLUMNS} FROM questions WHERE id = %s", (question_id,)
        )
        return None if r is None else codec.question_from(r)

    def waiting_questions(self, member: str) -> list[Question]:
        return [
            codec.question_from(r)
            for r in self._all(
                f"SELECT {codec.QUESTION_COLUMNS} FROM questions"
                " WHERE member = %s AND state = 'waiting' ORDER BY created_at, ord",
                (member,),
            )
        ]

    # delivery, events, dedupe, audit --------------------------------------------------------
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
        return self._next_in_stream(
            f"{transport}\n{lane}" if ordered else None,
            "INSERT INTO outbox (id, transport, lane, op, object_key, body, created_at)",
            "nextval('outbox_ids'), %s, %s, %s, %s, %s, %s",
            (transport, lane, op, object_key, codec.dumps(body or {}), codec.epoch(now)),
        )

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
        # The same entry as enqueue's, its id not read: it waits, and goes out with the
        # transaction's other queued entries in one statement before its next statement.
        self._conn.queue(
            QueuedEntry(
                stream=f"{transport}\n{lane}" if ordered else None,
                transport=transport,
                lane=lane,
                op=op,
                object_key=object_key,
                body=codec.dumps(body or {}),
                created_at=codec.epoch(now),
            )
        )

    def add_event(self, session: str, kind: str, body: Mapping[str, Any], now: datetime) -> int:
        return self._next_in_stream(
            f"events\n{session}",
            "INSERT INTO events (cursor, session, kind, body, created_at)",
            "nextval('event_cursors'), %s, %s, %s, %s",
            (session, kind, codec.dumps(body), codec.epoch(now)),
        )

    def take_events(self, session: str, after: int, *, limit: int = 100) -> list[Event]:
        events = [
            codec.event_from(r)
            for r in self._all(
                "SELECT cursor, session, kind, body, created_at FROM events"
                " WHERE session = %s AND cursor > %s AND withdrawn_in IS NULL"
                " ORDER BY cursor LIMIT %s",
                (session, after, limit),
            )
        ]
        if events:
            self._conn.execute(
                "INSERT INTO session_reads (session, through) VALUES (%s, %s)"
                " ON CONFLICT (session) DO UPDATE"
                " SET through = greatest(session_reads.through, excluded.through)",
                (session, events[-1].cursor),
            )
        return events

    def unread_events(self, sessions: Sequence[str]) -> list[Event]:
        return [
            codec.event_from(r)
            for r in self._all(
                "SELECT e.cursor, e.session, e.kind, e.body, e.created_at FROM events e"
                " WHERE e.session = ANY(%s) AND e.withdrawn_in IS NULL AND e.cursor > greatest("
                "coalesce((SELECT through FROM session_reads r WHERE r.session = e.session), 0),"
                "coalesce((SELECT delivered_through FROM webhooks w"
                " WHERE w.session = e.session), 0))"
                " ORDER BY e.cursor",
                (list(sessions),),
            )
        ]

    def withdraw_events(self, cursors: Sequence[int], *, generation: int) -> None:
        self._conn.execute(
            "UPDATE events SET withdrawn_in = %s WHERE cursor = ANY(%s) AND withdrawn_in IS NULL",
            (generation, list(cursors)),
        )

    def put_boundary(
        self, boundary_id: str, *, member: str, kind: str, asked: Sequence[str], now: datetime
    ) -> None:
        self._conn.execute(
            "INSERT INTO boundaries (id, member, kind, state, asked, created_at)"
            " VALUES (%s, %s, %s, 'asking', %s, %s)",
            (boundary_id, member, kind, codec.dumps(list(asked)), codec.epoch(now)),
        )

    def boundary(self, boundary_id: str) -> BoundaryRecord | None:
        r = self._one(
            "SELECT id, member, kind, state, asked, created_at FROM boundaries WHERE id = %s",
            (boundary_id,),
        )
        if r is None:
            return None
        answers = {
            a["session"]: (a["answer"], a["reason"])
            for a in self._all(
                "SELECT session, answer, reason FROM boundary_answers WHERE boundary = %s",
                (boundary_id,),
            )
        }
        return BoundaryRecord(
            id=r["id"],
            member=r["member"],
            kind=r["kind"],
            state=r["state"],
            asked=tuple(codec.loads_list(r["asked"])),
            answers=answers,
            created_at=codec.moment(r["created_at"]),
        )

    def boundary_in_flight(self, member: str) -> str | None:
        r = self._one(
            "SELECT id FROM boundaries WHERE member = %s AND state = 'asking' LIMIT 1", (member,)
        )
        return None if r is None else str(r["id"])

    def answer_boundary(
        self, boundary_id: str, session: str, *, answer: str, reason: str | None, now: datetime
    ) -> None:
        self._conn.execute(
            "INSERT INTO boundary_answers (boundary, session, answer, reason, at)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (boundary_id, session, answer, reason, codec.epoch(now)),
        )
        # Delivered on commit: the replica waiting for this answer goes on at once.
        self._conn.execute(
            "SELECT pg_notify(%s, current_setting('application_name') || E'\\n' || %s)",
            (CHANNEL, BOUNDARY_KEY + boundary_id),
        )

    def settle_boundary(self, boundary_id: str, *, state: str, now: datetime) -> None:
        self._conn.execute(
            "UPDATE boundaries SET state = %s, settled_at = %s WHERE id = %s",
            (state, codec.epoch(now), boundary_id),
        )

    def mark_seen(self, transport: str, event_id: str, now: datetime) -> bool:
        return (
            self._count(
                "INSERT INTO seen_events (transport, event_id, seen_at) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                (transport, event_id, codec.epoch(now)),
            )
            == 1
        )

    def keep_receipt(self, transport: str, event_id: str, receipt: Mapping[str, Any]) -> None:
        self._conn.execute(
            "UPDATE seen_events SET receipt = %s WHERE transport = %s AND event_id = %s",
            (codec.dumps(receipt), transport, event_id),
        )

    def forget_seen_events(self, *, before: datetime, limit: int) -> int:
        # SKIP LOCKED: replicas sweeping at once take disjoint batches instead of queueing
        # on each other's rows (and a batch of the group commit never waits on a lock).
        return self._count(
            "DELETE FROM seen_events WHERE (transport, event_id) IN"
            " (SELECT transport, event_id FROM seen_events WHERE seen_at < %s"
            " ORDER BY seen_at LIMIT %s FOR UPDATE SKIP LOCKED)",
            (codec.epoch(before), limit),
        )

    def seen_event(self, transport: str, event_id: str) -> SeenEvent | None:
        row = self._one(
            "SELECT seen_at, receipt FROM seen_events WHERE transport = %s AND event_id = %s",
            (transport, event_id),
        )
        return None if row is None else codec.seen_from(row)

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
        self._conn.execute(
            "INSERT INTO sel (at, action, outcome, actor, member, details)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (codec.epoch(now), action, outcome, actor, member, codec.dumps(details or {})),
        )

    def settle_outbox(self, entry_id: int) -> None:
        self._conn.execute("DELETE FROM outbox WHERE id = %s", (entry_id,))

    def settle_outbox_entries(self, entry_ids: Sequence[int]) -> None:
        self._conn.execute("DELETE FROM outbox WHERE id = ANY(%s)", (list(entry_ids),))

    def posts_not_begun(
        self, transport: str, posts: Sequence[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        # Another connection may settle the entry ahead and draw the post before this
        # transaction commits (no single writer orders them here): promise nothing.
        return set()

    def retry_outbox(self, entry_id: int, *, not_before: float, error: str) -> None:
        self._conn.execute(
            "UPDATE outbox SET attempts = attempts + 1, not_before = %s, last_error = %s"
            " WHERE id = %s",
            (not_before, error, entry_id),
        )

    def bury_outbox(self, entry_id: int, *, error: str, now: datetime) -> None:
        self._conn.execute(
            "INSERT INTO outbox_dead (id, transport, lane, op, object_key, body, attempts,"
            " last_error, created_at, failed_at)"
            " SELECT id, transport, lane, op, object_key, body, attempts + 1, %s, created_at, %s"
            " FROM outbox WHERE id = %s",
            (error, codec.epoch(now), entry_id),
        )
        self.settle_outbox(entry_id)

    def record_platform_message(self, message: PlatformMessage) -> None:
        self._conn.execute(
            "INSERT INTO platform_messages (transport, object_key, thread_ref, message_ref)"
            " VALUES (%s, %s, %s, %s) ON CONFLICT (transport, object_key) DO UPDATE"
            " SET thread_ref = excluded.thread_ref, message_ref = excluded.message_ref",
            (message.transport, message.object_key, message.thread_ref, message.message_ref),
        )

    def set_setting(self, key: str, value: str) -> None:
        self._conn.execute(
            "INSERT INTO settings (key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # agents' retried writes and pushed events -----------------------------------------------
    def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        r = self._one(
            f"SELECT {codec.IDEMPOTENCY_COLUMNS} FROM idempotency_keys"
            " WHERE session = %s AND key = %s",
            (session, key),
        )
        return None if r is None else codec.idempotency_from(r)

    def remember_idempotency(self, record: IdempotencyRecord, *, forget_before: datetime) -> None:
        self._conn.execute(
            "DELETE FROM idempotency_keys WHERE created_at < %s", (codec.epoch(forget_before),)
        )
        self._conn.execute(
            f"INSERT INTO idempotency_keys ({codec.IDEMPOTENCY_COLUMNS})"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (session, key) DO UPDATE"
            " SET fingerprint = excluded.fingerprint, status = excluded.status,"
            " response = excluded.response, created_at = excluded.created_at",
            (
                record.session,
                record.key,
                record.fingerprint,
                record.status,
                codec.dumps(record.response),
                codec.epoch(record.created_at),
            ),
        )

    def last_cursor(self, session: str) -> int:
        r = self._one("SELECT max(cursor) AS c FROM events WHERE session = %s", (session,))
        return int(r["c"]) if r is not None and r["c"] is not None else 0

    def webhook(self, session: str) -> Webhook | None:
        r = self._one(
            f"SELECT {codec.WEBHOOK_COLUMNS} FROM webhooks WHERE session = %s", (session,)
        )
        return None if r is None else codec.webhook_from(r)

    def put_webhook(self, webhook: Webhook) -> None:
        columns = [c.strip() for c in codec.WEBHOOK_COLUMNS.split(",")]
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c != "session")
        self._conn.execute(
            f"INSERT INTO webhooks ({codec.WEBHOOK_COLUMNS})"
            f" VALUES ({', '.join(['%s'] * len(columns))})"
            f" ON CONFLICT (session) DO UPDATE SET {updates}",
            (
                webhook.session,
                webhook.url,
                webhook.secret,
                webhook.delivered_through,
                webhook.attempts,
                webhook.not_before,
                webhook.last_error,
                codec.epoch(webhook.created_at),
            ),
        )

    def delete_webhook(self, session: str) -> bool:
        return self._count("DELETE FROM webhooks WHERE session = %s", (session,)) > 0

    def webhook_delivered(self, session: str, cursor: int) -> None:
        self._conn.execute(
            "UPDATE webhooks SET delivered_through = greatest(delivered_through, %s),"
            " attempts = 0, not_before = 0, last_error = NULL WHERE session = %s",
            (cursor, session),
        )

    def webhook_failed(self, session: str, *, not_before: float, error: str) -> None:
        self._conn.execute(
            "UPDATE webhooks SET attempts = attempts + 1, not_before = %s, last_error = %s"
            " WHERE session = %s",
            (not_before, error, session),
        )
