"""SqliteTx: the Tx port over one sqlite3 connection, run on aiosqlite's thread."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

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
from crewline.store.sqlite_concierge import ConciergeWrites

__all__ = ["MEMBERS", "SqliteTx"]

# Members with their transports, comma-joined (``codec.members_from``); ``{where}`` narrows.
MEMBERS = (
    "SELECT m.slug, m.name, m.owner, group_concat(t.transport) AS transports"
    " FROM members m LEFT JOIN member_transports t ON t.member = m.slug {where}"
    " GROUP BY m.slug ORDER BY m.created_at, m.slug"
)
# One statement text whatever the number of slugs (a JSON array): the connection's
# statement cache keeps it, where an IN list of each length would be another.
_MEMBERS_BY_SLUG = MEMBERS.format(where="WHERE m.slug IN (SELECT value FROM json_each(?))")


# Each post's entry is found from its lane's newest entries back (a post waiting to be
# judged was queued moments ago), its lane's head from the oldest: two index seeks.
_POSTS_NOT_BEGUN = """
SELECT asked.lane, asked.object_key FROM (
    SELECT value ->> 0 AS lane, value ->> 1 AS object_key, ?2 AS transport FROM json_each(?1)
) AS asked
WHERE (SELECT min(id) FROM outbox WHERE transport = asked.transport AND lane = asked.lane)
    < (SELECT id FROM outbox
        WHERE transport = asked.transport AND lane = asked.lane
          AND op = 'post' AND object_key = asked.object_key
        ORDER BY id DESC LIMIT 1)
"""


class SqliteTx(ConciergeWrites, Tx):
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def serialize(self, key: str) -> None:
        pass  # one writer commits one batch at a time: every transaction is serial already

    def _index(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run a statement on the escalation index; an unreadable index is Unavailable, never
        empty, so no writer goes on as if there were no records."""
        try:
            return self._conn.execute(sql, params)
        except sqlite3.DatabaseError as error:
            raise Unavailable(
                f"the escalation index cannot be read ({error})",
                code="escalation_index_unavailable",
            ) from error

    def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._conn.execute(sql, params).fetchone()
        return row

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._conn.execute(sql, params).fetchall()

    # humans, members, sessions -------------------------------------------------------------
    def ensure_human(self, identities: Sequence[Identity], now: datetime) -> int:
        owners = {
            r["human"]
            for i in identities
            if (
                r := self._one(
                    "SELECT human FROM identities WHERE platform = ? AND user_id = ?",
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
        human: int
        if owners:
            human = int(owners.pop())
        else:
            cursor = self._conn.execute(
                "INSERT INTO humans (created_at) VALUES (?)", (codec.epoch(now),)
            )
            human = int(cursor.lastrowid or 0)
        self._conn.executemany(
            "INSERT OR IGNORE INTO identities (platform, user_id, human) VALUES (?, ?, ?)",
            [(i.platform, i.user_id, human) for i in identities],
        )
        return human

    def set_owner_token(self, human: int, token_hash: str) -> None:
        self._conn.execute("UPDATE humans SET token_hash = ? WHERE id = ?", (token_hash, human))

    def add_member(self, member: Member, now: datetime) -> None:
        try:
            self._conn.execute(
                "INSERT INTO members (slug, name, owner, created_at, incarnation)"
                " VALUES (?, ?, ?, ?, ?)",
                (member.slug, member.name, member.owner, codec.epoch(now), new_id()),
            )
        except sqlite3.IntegrityError:
            raise Conflict(
                f"a member named {member.slug!r} already exists", code="member_exists"
            ) from None
        self._conn.executemany(
            "INSERT INTO member_transports (member, transport) VALUES (?, ?)",
            [(member.slug, t) for t in member.transports],
        )

    def remove_member(self, slug: str) -> bool:
        self._index(
            "UPDATE escalations SET state = 'retracted' WHERE member = ? AND state = 'pending'",
            (slug,),
        )
        return self._conn.execute("DELETE FROM members WHERE slug = ?", (slug,)).rowcount > 0

    def member(self, slug: str) -> Member | None:
        r = self._one("SELECT slug, name, owner FROM members WHERE slug = ?", (slug,))
        if r is None:
            return None
        transports = self._all(
            "SELECT transport FROM member_transports WHERE member = ? ORDER BY transport", (slug,)
        )
        return Member(
            slug=r["slug"],
            name=r["name"],
            owner=r["owner"],
            transports=tuple(t["transport"] for t in transports),
        )

    def members_by_slug(self, slugs: Sequence[str]) -> list[Member]:
        wanted = codec.dumps(list(dict.fromkeys(slugs)))
        return codec.members_from(self._all(_MEMBERS_BY_SLUG, (wanted,)))

    def member_incarnation(self, slug: str) -> str | None:
        r = self._one("SELECT incarnation FROM members WHERE slug = ?", (slug,))
        return None if r is None else str(r["incarnation"] or "")

    def add_session(self, session: Session, key_hash: str, now: datetime) -> None:
        self._conn.execute(
            "INSERT INTO sessions (id, key_hash, kind, member, parent, created_at, stateless)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
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
        return self._conn.execute(
            "UPDATE sessions SET revoked_at = ? WHERE member = ? AND kind = 'member'"
            " AND revoked_at IS NULL",
            (codec.epoch(now), slug),
        ).rowcount

    def member_sessions(self, slug: str) -> list[Session]:
        return [
            codec.session_from(r)
            for r in self._all(
                f"SELECT {codec.SESSION_COLUMNS} FROM sessions"
                " WHERE member = ? AND kind = 'member' AND revoked_at IS NULL ORDER BY created_at",
                (slug,),
            )
        ]

    def session(self, session_id: str) -> Session | None:
        r = self._one(f"SELECT {codec.SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,))
        return None if r is None else codec.session_from(r)

    def set_turn(self, session_id: str, since: datetime | None) -> None:
        self._conn.execute(
            "UPDATE sessions SET turn_since = ? WHERE id = ?",
            (None if since is None else codec.epoch(since), session_id),
        )

    def record_thread(self, member: str, transport: str, thread_ref: str) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO threads (member, transport, thread_ref) VALUES (?, ?, ?)",
            (member, transport, thread_ref),
        )

    # the transcript -------------------------------------------------------------------------
    def _conversation(self, key: str) -> tuple[int, int]:
        self._conn.execute("INSERT OR IGNORE INTO conversations (key) VALUES (?)", (key,))
        r = self._one("SELECT generation, next_seq FROM conversations WHERE key = ?", (key,))
        assert r is not None
        return r["generation"], r["next_seq"]

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
        generation, seq = self._conversation(conversation)
        row = Row(
            id=row_id or new_id(),
            conversation=conversation,
            generation=generation,
            seq=seq,
            role=role,
            author=author,
            text=text,
            meta=dict(meta),
            created_at=now,
        )
        self._conn.execute(
            f"INSERT INTO rows ({codec.ROW_COLUMNS}, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.id,
                conversation,
                generation,
                seq,
                role.value,
                author,
                text,
                codec.dumps(row.meta),
                codec.epoch(now),
                record,
            ),
        )
        self._conn.execute(
            "UPDATE conversations SET next_seq = ? WHERE key = ?", (seq + 1, conversation)
        )
        return row

    def row(self, row_id: str) -> Row | None:
        r = self._one(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE id = ? AND rewound_in IS NULL", (row_id,)
        )
        return None if r is None else codec.row_from(r)

    def live_rows(self, conversation: str) -> list[Row]:
        return [
            codec.row_from(r)
            for r in self._all(
                f"SELECT {codec.ROW_COLUMNS} FROM rows"
                " WHERE conversation = ? AND rewound_in IS NULL ORDER BY seq",
                (conversation,),
            )
        ]

    def record_rows(self, conversation: str) -> list[Row]:
        return [
            codec.row_from(r)
            for r in self._all(
                f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE conversation = ?"
                " AND record IS NOT NULL AND rewound_in IS NULL ORDER BY seq",
                (conversation,),
            )
        ]

    def rows_after(self, conversation: str, seq: int) -> list[Row]:
        return [
            codec.row_from(r)
            for r in self._all(
                f"SELECT {codec.ROW_COLUMNS} FROM rows"
                " WHERE conversation = ? AND seq > ? AND rewound_in IS NULL ORDER BY seq",
                (conversation, seq),
            )
        ]

    def row_before(self, conversation: str, seq: int) -> Row | None:
        r = self._one(
            f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE conversation = ? AND seq < ?"
            " AND rewound_in IS NULL ORDER BY seq DESC LIMIT 1",
            (conversation, seq),
        )
        return None if r is None else codec.row_from(r)

    def last_rows(self, conversation: str, *, role: RowRole, limit: int) -> list[Row]:
        return [
            codec.row_from(r)
            for r in self._all(
                f"SELECT {codec.ROW_COLUMNS} FROM rows WHERE conversation = ? AND role = ?"
                " AND rewound_in IS NULL ORDER BY seq DESC LIMIT ?",
                (conversation, role.value, limit),
            )
        ]

    def generation(self, conversation: str) -> int:
        return self._conversation(conversation)[0]

    def begin_generation(self, conversation: str, *, rewound: Sequence[str]) -> int:
        new_generation = self._conversation(conversation)[0] + 1
        self._conn.executemany(
            "UPDATE rows SET rewound_in = ? WHERE id = ? AND conversation = ?"
            " AND rewound_in IS NULL",
            [(new_generation, row_id, conversation) for row_id in rewound],
        )
        self._conn.execute(
            "UPDATE conversations SET generation = ? WHERE key = ?", (new_generation, conversation)
        )
        return new_generation

    def move_to_end(self, conversation: str, row_ids: Sequence[str]) -> None:
        generation, seq = self._conversation(conversation)
        for row_id in row_ids:
            moved = self._conn.execute(
                "UPDATE rows SET seq = ?, generation = ? WHERE id = ? AND conversation = ?"
                " AND rewound_in IS NULL",
                (seq, generation, row_id, conversation),
            )
            seq += moved.rowcount
        self._conn.execute(
            "UPDATE conversations SET next_seq = ? WHERE key = ?", (seq, conversation)
        )

    def truncate_conversation(self, conversation: str, *, keep_through: str) -> int:
        target = self.row(keep_through)
        if target is None or target.conversation != conversation:
            raise NotFound(
                f"row {keep_through!r} is not in the live transcript of {conversation!r}",
                code="unknown_row",
            )
        generation, _ = self._conversation(conversation)
        new_generation = generation + 1
        self._conn.execute(
            "UPDATE rows SET rewound_in = ? WHERE conversation = ? AND seq > ?"
            " AND rewound_in IS NULL",
            (new_generation, conversation, target.seq),
        )
        self._conn.execute(
            "UPDATE conversations SET generation = ? WHERE key = ?", (new_generation, conversation)
        )
        return new_generation

    # escalations and questions --------------------------------------------------------------
    def put_escalation(self, escalation: Escalation) -> None:
        self._index(
            f"INSERT OR REPLACE INTO escalations ({codec.ESCALATION_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            codec.escalation_params(escalation),
        )

    def escalation(self, escalation_id: str) -> Escalation | None:
        r = self._index(
            f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE id = ?", (escalation_id,)
        ).fetchone()
        return None if r is None else codec.escalation_from(r)

    def escalation_states(self, escalation_ids: Sequence[str]) -> dict[str, EscalationState]:
        return {
            r[0]: EscalationState(r[1])
            for r in self._index(
                "SELECT id, state FROM escalations WHERE id IN (SELECT value FROM json_each(?))",
                (codec.dumps(list(dict.fromkeys(escalation_ids))),),
            ).fetchall()
        }

    def escalations(self, member: str, *, pending_only: bool = False) -> list[Escalation]:
        where = "member = ? AND state = 'pending'" if pending_only else "member = ?"
        return [
            codec.escalation_from(r)
            for r in self._index(
                f"SELECT {codec.ESCALATION_COLUMNS} FROM escalations WHERE {where}"
                " ORDER BY created_at, rowid",
                (member,),
            ).fetchall()
        ]

    def count_pending(self, member: str) -> int:
        r = self._index(
            "SELECT count(*) AS n FROM escalations WHERE member = ? AND state = 'pending'",
            (member,),
        ).fetchone()
        return int(r["n"]) if r else 0

    def put_question(self, question: Question) -> None:
        self._conn.execute(
            f"INSERT OR REPLACE INTO questions ({codec.QUESTION_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            codec.question_params(question),
        )

    def question(self, question_id: str) -> Question | None:
        r = self._one(
            f"SELECT {codec.QUESTION_COLUMNS} FROM questions WHERE id = ?", (question_id,)
        )
        return None if r is None else codec.question_from(r)

    def waiting_questions(self, member: str) -> list[Question]:
        return [
            codec.question_from(r)
            for r in self._all(
                f"SELECT {codec.QUESTION_COLUMNS} FROM questions"
                " WHERE member = ? AND state = 'waiting' ORDER BY created_at, rowid",
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
        # One writer: every entry commits in id order, ordered or not.
        cursor = self._conn.execute(
            "INSERT INTO outbox (transport, lane, op, object_key, body, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (transport, lane, op, object_key, codec.dumps(body or {}), codec.epoch(now)),
        )
        return int(cursor.lastrowid or 0)

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
        # No round trip to save here: the same insert as enqueue's.
        self.enqueue(
            transport=transport, lane=lane, op=op, object_key=object_key, now=now, body=body,
            ordered=ordered,
        )  # fmt: skip

    def add_event(self, session: str, kind: str, body: Mapping[str, Any], now: datetime) -> int:
        cursor = self._conn.execute(
            "INSERT INTO events (session, kind, body, created_at) VALUES (?, ?, ?, ?)",
            (session, kind, codec.dumps(body), codec.epoch(now)),
        )
        return int(cursor.lastrowid or 0)

    def take_events(self, session: str, after: int, *, limit: int = 100) -> list[Event]:
        events = [
            codec.event_from(r)
            for r in self._all(
                "SELECT cursor, session, kind, body, created_at FROM events"
                " WHERE session = ? AND cursor > ? AND withdrawn_in IS NULL"
                " ORDER BY cursor LIMIT ?",
                (session, after, limit),
            )
        ]
        if events:
            self._conn.execute(
                "INSERT INTO session_reads (session, through) VALUES (?, ?)"
                " ON CONFLICT (session) DO UPDATE SET through = max(through, excluded.through)",
                (session, events[-1].cursor),
            )
        return events

    def unread_events(self, sessions: Sequence[str]) -> list[Event]:
        found: list[Event] = []
        for session in sessions:
            found.extend(
                codec.event_from(r)
                for r in self._all(
                    "SELECT cursor, session, kind, body, created_at FROM events"
                    " WHERE session = ? AND withdrawn_in IS NULL AND cursor > max("
                    "coalesce((SELECT through FROM session_reads WHERE session = ?), 0),"
                    "coalesce((SELECT delivered_through FROM webhooks WHERE session = ?), 0))"
                    " ORDER BY cursor",
                    (session, session, session),
                )
            )
        return sorted(found, key=lambda e: e.cursor)

    def withdraw_events(self, cursors: Sequence[int], *, generation: int) -> None:
        self._conn.executemany(
            "UPDATE events SET withdrawn_in = ? WHERE cursor = ? AND withdrawn_in IS NULL",
            [(generation, cursor) for cursor in cursors],
        )

    def put_boundary(
        self, boundary_id: str, *, member: str, kind: str, asked: Sequence[str], now: datetime
    ) -> None:
        self._conn.execute(
            "INSERT INTO boundaries (id, member, kind, state, asked, created_at)"
            " VALUES (?, ?, ?, 'asking', ?, ?)",
            (boundary_id, member, kind, codec.dumps(list(asked)), codec.epoch(now)),
        )

    def boundary(self, boundary_id: str) -> BoundaryRecord | None:
        r = self._one(
            "SELECT id, member, kind, state, asked, created_at FROM boundaries WHERE id = ?",
            (boundary_id,),
        )
        if r is None:
            return None
        answers = {
            a["session"]: (a["answer"], a["reason"])
            for a in self._all(
                "SELECT session, answer, reason FROM boundary_answers WHERE boundary = ?",
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
            "SELECT id FROM boundaries WHERE member = ? AND state = 'asking' LIMIT 1", (member,)
        )
        return None if r is None else str(r["id"])

    def answer_boundary(
        self, boundary_id: str, session: str, *, answer: str, reason: str | None, now: datetime
    ) -> None:
        self._conn.execute(
            "INSERT OR IGNORE INTO boundary_answers (boundary, session, answer, reason, at)"
            " VALUES (?, ?, ?, ?, ?)",
            (boundary_id, session, answer, reason, codec.epoch(now)),
        )

    def settle_boundary(self, boundary_id: str, *, state: str, now: datetime) -> None:
        self._conn.execute(
            "UPDATE boundaries SET state = ?, settled_at = ? WHERE id = ?",
            (state, codec.epoch(now), boundary_id),
        )

    def mark_seen(self, transport: str, event_id: str, now: datetime) -> bool:
        cursor = self._conn.execute(
            "INSERT OR IGNORE INTO seen_events (transport, event_id, seen_at) VALUES (?, ?, ?)",
            (transport, event_id, codec.epoch(now)),
        )
        return cursor.rowcount == 1

    def keep_receipt(self, transport: str, event_id: str, receipt: Mapping[str, Any]) -> None:
        self._conn.execute(
            "UPDATE seen_events SET receipt = ? WHERE transport = ? AND event_id = ?",
            (codec.dumps(receipt), transport, event_id),
        )

    def forget_seen_events(self, *, before: datetime, limit: int) -> int:
        # SQLite has one writer: there is nothing to skip.
        return self._conn.execute(
            "DELETE FROM seen_events WHERE (transport, event_id) IN"
            " (SELECT transport, event_id FROM seen_events WHERE seen_at < ?"
            " ORDER BY seen_at LIMIT ?)",
            (codec.epoch(before), limit),
        ).rowcount

    def seen_event(self, transport: str, event_id: str) -> SeenEvent | None:
        row = self._one(
            "SELECT seen_at, receipt FROM seen_events WHERE transport = ? AND event_id = ?",
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
            " VALUES (?, ?, ?, ?, ?, ?)",
            (codec.epoch(now), action, outcome, actor, member, codec.dumps(details or {})),
        )

    def settle_outbox(self, entry_id: int) -> None:
        self._conn.execute("DELETE FROM outbox WHERE id = ?", (entry_id,))

    def settle_outbox_entries(self, entry_ids: Sequence[int]) -> None:
        self._conn.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in entry_ids])

    def posts_not_begun(
        self, transport: str, posts: Sequence[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        # One writer: the head a dispatcher reads next is the one seen here until the commit.
        if not posts:
            return set()
        rows = self._conn.execute(_POSTS_NOT_BEGUN, (codec.dumps(list(posts)), transport))
        return {(str(r[0]), str(r[1])) for r in rows}

    def retry_outbox(self, entry_id: int, *, not_before: float, error: str) -> None:
        self._conn.execute(
            "UPDATE outbox SET attempts = attempts + 1, not_before = ?, last_error = ?"
            " WHERE id = ?",
            (not_before, error, entry_id),
        )

    def bury_outbox(self, entry_id: int, *, error: str, now: datetime) -> None:
        self._conn.execute(
            "INSERT INTO outbox_dead (id, transport, lane, op, object_key, body, attempts,"
            " last_error, created_at, failed_at)"
            " SELECT id, transport, lane, op, object_key, body, attempts + 1, ?, created_at, ?"
            " FROM outbox WHERE id = ?",
            (error, codec.epoch(now), entry_id),
        )
        self.settle_outbox(entry_id)

    def record_platform_message(self, message: PlatformMessage) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO platform_messages"
            " (transport, object_key, thread_ref, message_ref) VALUES (?, ?, ?, ?)",
            (message.transport, message.object_key, message.thread_ref, message.message_ref),
        )

    def set_setting(self, key: str, value: str) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value)
        )

    # agents' retried writes and pushed events -----------------------------------------------
    def idempotency_record(self, session: str, key: str) -> IdempotencyRecord | None:
        r = self._one(
            f"SELECT {codec.IDEMPOTENCY_COLUMNS} FROM idempotency_keys"
            " WHERE session = ? AND key = ?",
            (session, key),
        )
        return None if r is None else codec.idempotency_from(r)

    def remember_idempotency(self, record: IdempotencyRecord, *, forget_before: datetime) -> None:
        self._conn.execute(
            "DELETE FROM idempotency_keys WHERE created_at < ?", (codec.epoch(forget_before),)
        )
        self._conn.execute(
            f"INSERT OR REPLACE INTO idempotency_keys ({codec.IDEMPOTENCY_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?)",
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
        r = self._one("SELECT max(cursor) AS c FROM events WHERE session = ?", (session,))
        return int(r["c"]) if r is not None and r["c"] is not None else 0

    def webhook(self, session: str) -> Webhook | None:
        r = self._one(f"SELECT {codec.WEBHOOK_COLUMNS} FROM webhooks WHERE session = ?", (session,))
        return None if r is None else codec.webhook_from(r)

    def put_webhook(self, webhook: Webhook) -> None:
        self._conn.execute(
            f"INSERT OR REPLACE INTO webhooks ({codec.WEBHOOK_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
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
        return self._conn.execute("DELETE FROM webhooks WHERE session = ?", (session,)).rowcount > 0

    def webhook_delivered(self, session: str, cursor: int) -> None:
        self._conn.execute(
            "UPDATE webhooks SET delivered_through = max(delivered_through, ?), attempts = 0,"
            " not_before = 0, last_error = NULL WHERE session = ?",
            (cursor, session),
        )

    def webhook_failed(self, session: str, *, not_before: float, error: str) -> None:
        self._conn.execute(
            "UPDATE webhooks SET attempts = attempts + 1, not_before = ?, last_error = ?"
            " WHERE session = ?",
            (not_before, error, session),
        )
