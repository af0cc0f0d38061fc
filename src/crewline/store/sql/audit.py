"""The audit log (SEL) in SQL: appended to, read in order; the database refuses the rest."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from crewline.store.ports.audit import AuditReads, AuditTx, SelRecord
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, dumps, epoch

__all__ = ["SqlAuditReads", "SqlAuditTx"]

RECORD = ("id", "at", "action", "outcome", "actor", "member", "details")
_record = decoder(SelRecord, RECORD)


class SqlAuditTx(TxPart, AuditTx):
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
        self._s.execute(
            "INSERT INTO sel (at, action, outcome, actor, member, details)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (epoch(now), action, outcome, actor, member, dumps(details or {})),
        )


class SqlAuditReads(ReadPart, AuditReads):
    async def sel(self, *, action_prefix: str = "") -> list[SelRecord]:
        escaped = action_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        rows = await self._fetch(
            f"SELECT {', '.join(RECORD)} FROM sel WHERE action LIKE ? ESCAPE '\\' ORDER BY id",
            (escaped + "%",),
        )
        return [_record(r) for r in rows]

    async def sel_after(
        self,
        after: int,
        *,
        limit: int,
        member: str | None = None,
        since: datetime | None = None,
        action: str | None = None,
    ) -> list[SelRecord]:
        where = ["id > ?"]
        params: list[object] = [after]
        if member is not None:
            where.append("member = ?")
            params.append(member)
        if since is not None:
            where.append("at >= ?")
            params.append(epoch(since))
        if action is not None:  # no LIKE: actions hold '_', its wildcard
            where.append("(action = ? OR substr(action, 1, ?) = ?)")
            params += [action, len(action) + 1, f"{action}:"]
        rows = await self._fetch(
            f"SELECT {', '.join(RECORD)} FROM sel WHERE {' AND '.join(where)} ORDER BY id LIMIT ?",
            (*params, limit),
        )
        return [_record(r) for r in rows]
