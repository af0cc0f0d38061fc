"""Pushed events in SQL: a session's webhook and how far its receiver has acknowledged."""

from __future__ import annotations

from crewline.store.ports.push import PushReads, PushTx, Webhook
from crewline.store.sql.dialect import upsert
from crewline.store.sql.parts import ReadPart, TxPart
from crewline.store.sql.rowmap import decoder, encoder

__all__ = ["SqlPushReads", "SqlPushTx"]

WEBHOOK = (
    "session", "url", "secret", "delivered_through", "attempts", "not_before", "last_error",
    "created_at",
)  # fmt: skip
_webhook = decoder(Webhook, WEBHOOK)
_webhook_values = encoder(Webhook, WEBHOOK)
_PUT = upsert("webhooks", WEBHOOK, ("session",))
# The webhooks of live sessions.
_LIVE = (
    f"SELECT {', '.join(f'w.{c}' for c in WEBHOOK)} FROM webhooks w"
    " JOIN sessions s ON s.id = w.session WHERE s.revoked_at IS NULL"
)


class SqlPushTx(TxPart, PushTx):
    def webhook(self, session: str) -> Webhook | None:
        r = self._one(f"SELECT {', '.join(WEBHOOK)} FROM webhooks WHERE session = ?", (session,))
        return None if r is None else _webhook(r)

    def put_webhook(self, webhook: Webhook) -> None:
        self._s.execute(_PUT, _webhook_values(webhook))

    def delete_webhook(self, session: str) -> bool:
        return self._s.count("DELETE FROM webhooks WHERE session = ?", (session,)) > 0

    def webhook_delivered(self, session: str, cursor: int) -> None:
        self._s.execute(
            "UPDATE webhooks SET delivered_through = {greatest}(delivered_through, ?),"
            " attempts = 0, not_before = 0, last_error = NULL WHERE session = ?",
            (cursor, session),
        )

    def webhook_failed(self, session: str, *, not_before: float, error: str) -> None:
        self._s.execute(
            "UPDATE webhooks SET attempts = attempts + 1, not_before = ?, last_error = ?"
            " WHERE session = ?",
            (not_before, error, session),
        )


class SqlPushReads(ReadPart, PushReads):
    async def webhook(self, session: str) -> Webhook | None:
        rows = await self._fetch(f"{_LIVE} AND w.session = ?", (session,), lookup=True)
        return _webhook(rows[0]) if rows else None

    async def webhooks(self, *, behind_only: bool = False) -> list[Webhook]:
        behind = (
            " AND EXISTS (SELECT 1 FROM events e"
            " WHERE e.session = w.session AND e.cursor > w.delivered_through)"
            if behind_only
            else ""
        )
        rows = await self._fetch(f"{_LIVE}{behind} ORDER BY w.created_at, w.session")
        return [_webhook(r) for r in rows]
