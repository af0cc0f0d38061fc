"""Filling a store fast: a crew with many pending veto windows, or one long transcript.

Setting up a million records through the Hub would take longer than the measurement, so
the records are written in one transaction through ``SqliteStore.write`` with
``executemany`` on the transaction's connection — exactly the rows the core itself would
have written: each escalation's card row carries the whole request in its meta (as
``record_escalation`` writes it), so reconciliation finds the index and the transcript in
agreement and changes nothing.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from crewline.models import Identity, new_id
from crewline.store import Tx
from crewline.store.sql import SqlTx
from crewline.store.sqlite import SqliteStatements, SqliteStore

__all__ = ["SeededTranscript", "seed_pending_windows", "seed_transcript", "sqlite_connection"]

OWNER = Identity(platform="memory", user_id="alice")
CARD_TEXT = "Rotate the staging credentials tonight? Nothing depends on the old ones."


def sqlite_connection(tx: Tx) -> Any:
    # Bulk setup only: the Tx port writes one record per call, which is what the
    # benchmarks measure, not what they should wait for while preparing.
    return cast(SqliteStatements, cast(SqlTx, tx)._s)._conn


def _card_row(
    row_id: str,
    slug: str,
    seq: int,
    escalation_id: str,
    session: str,
    deadline: float | None,
    now: float,
) -> tuple[object, ...]:
    """A card row of generation 1, in the column order the seeders insert."""
    meta = _card_meta(escalation_id, session, deadline)
    return (row_id, slug, 1, seq, "escalation", slug, CARD_TEXT, meta, now, escalation_id)


def _card_meta(escalation_id: str, session: str, deadline: float | None) -> str:
    return json.dumps(
        {
            "escalation_id": escalation_id,
            "session": session,
            "deadline": deadline,
            "default_action": "rotate them" if deadline is not None else None,
            "options": ["yes", "no"],
            "goal": None,
        },
        separators=(",", ":"),
    )


async def seed_pending_windows(
    store: SqliteStore,
    *,
    members: int,
    per_member: int,
    deadlines: tuple[float, float],
    prefix: str = "w",
    transports: Sequence[str] = ("memory",),
) -> int:
    """``members`` members, each with ``per_member`` pending escalations whose deadlines
    (epoch seconds) are spread at random over ``deadlines``, each with the concierge's
    judgement in the ledger as a running crewline leaves it; returns how many windows."""
    now = time.time()
    low, high = deadlines
    rng = random.Random(8)
    slugs = [f"{prefix}{n}" for n in range(members)]
    sessions = {slug: new_id() for slug in slugs}

    def rows_and_records() -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...]]]:
        for slug in slugs:
            for seq in range(1, per_member + 1):
                escalation_id, row_id = new_id(), new_id()
                deadline = rng.uniform(low, high)
                row = _card_row(row_id, slug, seq, escalation_id, sessions[slug], deadline, now)
                record = (
                    escalation_id,
                    slug,
                    row_id,
                    sessions[slug],
                    CARD_TEXT,
                    deadline,
                    "rotate them",
                    '["yes","no"]',
                    None,
                    "pending",
                    None,
                    None,
                    None,
                    None,
                    None,
                    0,
                    now,
                    None,
                )
                yield row, record

    def write(tx: Tx) -> None:
        human = tx.ensure_human([OWNER], _moment(now))
        conn = sqlite_connection(tx)
        conn.executemany(
            "INSERT INTO members (slug, name, owner, created_at) VALUES (?, ?, ?, ?)",
            [(slug, slug, human, now) for slug in slugs],
        )
        conn.executemany(
            "INSERT INTO member_transports (member, transport) VALUES (?, ?)",
            [(slug, t) for slug in slugs for t in transports],
        )
        conn.executemany(
            "INSERT INTO sessions (id, key_hash, kind, member, created_at)"
            " VALUES (?, ?, 'member', ?, ?)",
            [(sessions[slug], f"seeded-{sessions[slug]}", slug, now) for slug in slugs],
        )
        conn.executemany(
            "INSERT INTO conversations (key, generation, next_seq) VALUES (?, 1, ?)",
            [(slug, per_member + 1) for slug in slugs],
        )
        records: list[tuple[Any, ...]] = []
        rows = []
        for row, record in rows_and_records():
            rows.append(row)
            records.append(record)
            if len(rows) >= 50_000:
                _insert(conn, rows, records)
                rows, records = [], []
        _insert(conn, rows, records)

    await store.write(write)
    return members * per_member


def _insert(conn: Any, rows: list[tuple[Any, ...]], records: list[tuple[Any, ...]]) -> None:
    conn.executemany(
        "INSERT INTO rows (id, conversation, generation, seq, role, author, text, meta,"
        " created_at, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    if records:
        conn.executemany(
            "INSERT INTO escalations (id, member, row_id, session, message, deadline,"
            " default_action, options, goal, state, answer, choice, answered_by, answered_via,"
            " answer_row_id, default_applied, created_at, settled_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            records,
        )
        # Judged, as the concierge (on by default) judges each record right after its
        # commit: a record without a judgement is one a stop cut short, judged at start.
        conn.executemany(
            "INSERT INTO concierge_ledger (at, member, record_id, decision, verdict, policy,"
            " brain, rationale) VALUES (?, ?, ?, 'escalated', NULL, 'never', 'offline',"
            " 'seeded')",
            [(r[16], r[1], r[0]) for r in records],
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class SeededTranscript:
    rows: int
    cards: int
    answered: int


async def seed_transcript(
    store: SqliteStore, *, slug: str, rows: int, card_every: int = 20, pending: int = 50
) -> SeededTranscript:
    """One member whose transcript has ``rows`` rows: agent and human chatter, an
    escalation card every ``card_every`` rows answered by the owner's next row, except the
    last ``pending`` cards, which are still open. The index is left empty (lost), so
    reconciliation must rebuild every record from the transcript."""
    now = time.time()
    session = new_id()
    cards = rows // card_every
    answered = max(0, cards - pending)

    def transcript() -> Iterator[tuple[Any, ...]]:
        card = 0
        open_card: str | None = None
        for seq in range(1, rows + 1):
            row_id = new_id()
            position = seq % card_every
            if position == 1 and card < cards:
                escalation_id = new_id()
                card += 1
                open_card = escalation_id if card <= answered else None
                yield _card_row(row_id, slug, seq, escalation_id, session, None, now)
            elif position == 2 and open_card is not None:
                meta = {
                    "escalation_id": open_card,
                    "choice": 0,
                    "via": "chip",
                    "by": "user",
                    "transport": "memory",
                }
                answered_card, open_card = open_card, None
                yield (
                    row_id,
                    slug,
                    1,
                    seq,
                    "human",
                    "memory:alice",
                    "yes",
                    _dumps(meta),
                    now,
                    answered_card,
                )
            elif seq % 2:
                text = f"Step {seq}: ran the migration check on shard {seq % 17}; all green."
                yield (row_id, slug, 1, seq, "member", slug, text, '{"session":"s"}', now, None)
            else:
                yield (row_id, slug, 1, seq, "human", "memory:alice", "ok, go on", "{}", now, None)

    def write(tx: Tx) -> None:
        human = tx.ensure_human([OWNER], _moment(now))
        conn = sqlite_connection(tx)
        conn.execute(
            "INSERT INTO members (slug, name, owner, created_at) VALUES (?, ?, ?, ?)",
            (slug, slug, human, now),
        )
        conn.execute(
            "INSERT INTO member_transports (member, transport) VALUES (?, 'memory')", (slug,)
        )
        conn.execute(
            "INSERT INTO sessions (id, key_hash, kind, member, created_at)"
            " VALUES (?, ?, 'member', ?, ?)",
            (session, f"seeded-{session}", slug, now),
        )
        conn.execute(
            "INSERT INTO conversations (key, generation, next_seq) VALUES (?, 1, ?)",
            (slug, rows + 1),
        )
        conn.executemany(
            "INSERT INTO rows (id, conversation, generation, seq, role, author, text, meta,"
            " created_at, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            transcript(),
        )

    await store.write(write)
    return SeededTranscript(rows=rows, cards=cards, answered=answered)


def _dumps(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def _moment(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)
