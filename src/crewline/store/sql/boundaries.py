"""Context boundaries in SQL: a boundary in flight, and the answers of the sessions asked."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from crewline.store.ports.boundaries import BoundariesTx, BoundaryRecord
from crewline.store.sql.parts import TxPart
from crewline.store.sql.rowmap import dumps, epoch, moment

__all__ = ["BOUNDARY_KEY", "SqlBoundariesTx"]

BOUNDARY_KEY = "boundary:"  # what changed, told to other replicas: a boundary's answers


class SqlBoundariesTx(TxPart, BoundariesTx):
    def put_boundary(
        self, boundary_id: str, *, member: str, kind: str, asked: Sequence[str], now: datetime
    ) -> None:
        self._s.execute(
            "INSERT INTO boundaries (id, member, kind, state, asked, created_at)"
            " VALUES (?, ?, ?, 'asking', ?, ?)",
            (boundary_id, member, kind, dumps(list(asked)), epoch(now)),
        )

    def boundary(self, boundary_id: str) -> BoundaryRecord | None:
        r = self._one(
            "SELECT id, member, kind, state, asked, created_at FROM boundaries WHERE id = ?",
            (boundary_id,),
        )
        if r is None:
            return None
        answers = {
            session: (answer, reason)
            for session, answer, reason in self._all(
                "SELECT session, answer, reason FROM boundary_answers WHERE boundary = ?",
                (boundary_id,),
            )
        }
        return BoundaryRecord(
            id=r[0],
            member=r[1],
            kind=r[2],
            state=r[3],
            asked=tuple(json.loads(r[4])),
            answers=answers,
            created_at=moment(r[5]),
        )

    def boundary_in_flight(self, member: str) -> str | None:
        r = self._one(
            "SELECT id FROM boundaries WHERE member = ? AND state = 'asking' LIMIT 1", (member,)
        )
        return None if r is None else str(r[0])

    def answer_boundary(
        self, boundary_id: str, session: str, *, answer: str, reason: str | None, now: datetime
    ) -> None:
        self._s.execute(
            "INSERT INTO boundary_answers (boundary, session, answer, reason, at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (boundary_id, session, answer, reason, epoch(now)),
        )
        # On commit: a replica waiting for this answer goes on at once.
        self._s.notify(BOUNDARY_KEY + boundary_id)

    def settle_boundary(self, boundary_id: str, *, state: str, now: datetime) -> None:
        self._s.execute(
            "UPDATE boundaries SET state = ?, settled_at = ? WHERE id = ?",
            (state, epoch(now), boundary_id),
        )
