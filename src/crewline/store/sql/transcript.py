"""The transcript in SQL: rows by conversation, generation and sequence."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from crewline.errors import NotFound
from crewline.models import Row, RowRole, new_id
from crewline.store.ports.transcript import TranscriptReads, TranscriptTx
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, dumps, epoch

__all__ = ["ROW", "SqlTranscriptReads", "SqlTranscriptTx", "row_of"]

ROW = ("id", "conversation", "generation", "seq", "role", "author", "text", "meta", "created_at")
ROWS = f"SELECT {', '.join(ROW)} FROM rows"
row_of = decoder(Row, ROW)
_ROW_BY_ID = f"{ROWS} WHERE id = ? AND rewound_in IS NULL"
_LIVE = f"{ROWS} WHERE conversation = ? AND rewound_in IS NULL ORDER BY seq"
# The conversation's generation and next seq, its row locked to the commit (where a
# database locks rows): appends and rewinds of one conversation take turns.
_CONVERSATION = (
    "INSERT INTO conversations (key) VALUES (?) ON CONFLICT (key)"
    " DO UPDATE SET key = excluded.key RETURNING generation, next_seq"
)
# Take the next seq and move the counter on in one statement, the conversation's row locked
# to the commit, so seqs follow commit order.
_NEXT_SEQ = (
    "INSERT INTO conversations (key, next_seq) VALUES (?, 2) ON CONFLICT (key)"
    " DO UPDATE SET next_seq = conversations.next_seq + 1"
    " RETURNING generation, next_seq - 1 AS seq"
)
_APPEND = f"INSERT INTO rows ({', '.join(ROW)}, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
# Where a statement may write in its WITH clause: the seq taken and the row inserted in one.
_APPEND_WITH_SEQ = (
    f"WITH counter AS ({_NEXT_SEQ})"
    f" INSERT INTO rows ({', '.join(ROW)}, record)"
    " SELECT ?, ?, generation, seq, ?, ?, ?, ?, ?, ? FROM counter RETURNING generation, seq"
)


class SqlTranscriptTx(TxPart, TranscriptTx):
    def _conversation(self, key: str) -> tuple[int, int]:
        generation, next_seq = self._one(_CONVERSATION, (key,))
        return int(generation), int(next_seq)

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
        row_id = row_id or new_id()
        said = dict(meta)
        values = (role.value, author, text, dumps(said), epoch(now), record)
        if self._d.writes_in_with:
            generation, seq = self._one(
                _APPEND_WITH_SEQ, (conversation, row_id, conversation, *values)
            )
        else:
            generation, seq = self._one(_NEXT_SEQ, (conversation,))
            self._s.execute(_APPEND, (row_id, conversation, generation, seq, *values))
        return Row(
            id=row_id,
            conversation=conversation,
            generation=int(generation),
            seq=int(seq),
            role=role,
            author=author,
            text=text,
            meta=said,
            created_at=now,
        )

    def row(self, row_id: str) -> Row | None:
        r = self._one(_ROW_BY_ID, (row_id,))
        return None if r is None else row_of(r)

    def live_rows(self, conversation: str) -> list[Row]:
        return [row_of(r) for r in self._all(_LIVE, (conversation,))]

    def record_rows(self, conversation: str) -> list[Row]:
        return [
            row_of(r)
            for r in self._all(
                f"{ROWS} WHERE conversation = ? AND record IS NOT NULL AND rewound_in IS NULL"
                " ORDER BY seq",
                (conversation,),
            )
        ]

    def rows_after(self, conversation: str, seq: int) -> list[Row]:
        return [
            row_of(r)
            for r in self._all(
                f"{ROWS} WHERE conversation = ? AND seq > ? AND rewound_in IS NULL ORDER BY seq",
                (conversation, seq),
            )
        ]

    def row_before(self, conversation: str, seq: int) -> Row | None:
        r = self._one(
            f"{ROWS} WHERE conversation = ? AND seq < ? AND rewound_in IS NULL"
            " ORDER BY seq DESC LIMIT 1",
            (conversation, seq),
        )
        return None if r is None else row_of(r)

    def last_rows(self, conversation: str, *, role: RowRole, limit: int) -> list[Row]:
        return [
            row_of(r)
            for r in self._all(
                f"{ROWS} WHERE conversation = ? AND role = ? AND rewound_in IS NULL"
                " ORDER BY seq DESC LIMIT ?",
                (conversation, role.value, limit),
            )
        ]

    def generation(self, conversation: str) -> int:
        return self._conversation(conversation)[0]

    def _next_generation(self, conversation: str, generation: int) -> int:
        self._s.execute(
            "UPDATE conversations SET generation = ? WHERE key = ?", (generation + 1, conversation)
        )
        return generation + 1

    def begin_generation(self, conversation: str, *, rewound: Sequence[str]) -> int:
        generation, _ = self._conversation(conversation)
        self._s.execute(
            "UPDATE rows SET rewound_in = ? WHERE id {in_array} AND conversation = ?"
            " AND rewound_in IS NULL",
            (generation + 1, self._d.array(list(rewound)), conversation),
        )
        return self._next_generation(conversation, generation)

    def move_to_end(self, conversation: str, row_ids: Sequence[str]) -> None:
        generation, seq = self._conversation(conversation)
        for row_id in row_ids:
            seq += self._s.count(
                "UPDATE rows SET seq = ?, generation = ? WHERE id = ? AND conversation = ?"
                " AND rewound_in IS NULL",
                (seq, generation, row_id, conversation),
            )
        self._s.execute("UPDATE conversations SET next_seq = ? WHERE key = ?", (seq, conversation))

    def truncate_conversation(self, conversation: str, *, keep_through: str) -> int:
        generation, _ = self._conversation(conversation)  # appends wait for this rewind
        target = self.row(keep_through)
        if target is None or target.conversation != conversation:
            raise NotFound(
                f"row {keep_through!r} is not in the live transcript of {conversation!r}",
                code="unknown_row",
            )
        self._s.execute(
            "UPDATE rows SET rewound_in = ? WHERE conversation = ? AND seq > ?"
            " AND rewound_in IS NULL",
            (generation + 1, conversation, target.seq),
        )
        return self._next_generation(conversation, generation)


class SqlTranscriptReads(ReadPart, TranscriptReads):
    async def live_rows(self, conversation: str) -> list[Row]:
        return [row_of(r) for r in await self._fetch(_LIVE, (conversation,))]

    async def row(self, row_id: str, *, include_rewound: bool = False) -> Row | None:
        live = "" if include_rewound else " AND rewound_in IS NULL"
        rows = await self._fetch(f"{ROWS} WHERE id = ?{live}", (row_id,), lookup=True)
        return row_of(rows[0]) if rows else None
