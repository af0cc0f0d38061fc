"""The receipt a taken event's first delivery got, kept so a redelivery gets the same.

A platform delivers an event again when it did not see crewline's acknowledgement in time
(Slack's retries, Telegram's unconfirmed updates, Discord's RESUME replays, a resent
request). The event is answered once (its id is remembered: SPEC §2 rule 3); the later
delivery is told what the first was — which record it answered, or that it answered none
and why — with ``repeat`` set, so a transport that would post it as a second message to the
human does not (docs/reliability.md, "Redelivery, per platform").

The receipt is kept beside the event's mark, in the transaction of its effect where the
event has one (a press, a typed reply, a concierge suggestion used). A command or an edit
marks its event before it runs (a crash loses it, never runs it twice) and its receipt is
kept when it has answered; a redelivery that finds a mark without a receipt (the first is
still running, or was cut short) gets ``duplicate_event``, which says only that.

Marks and receipts are forgotten after :data:`KEEP_FOR` by :func:`forget_expired`, a
periodic sweep (crewline/app/scheduler.py), in batches of their own: never in an event's
transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from crewline.bot.changes import Change
from crewline.bot.ports import DUPLICATE
from crewline.models import HumanEvent, Receipt, ReplyOutcome
from crewline.store import Store

__all__ = ["FORGET_BATCH", "KEEP_FOR", "forget_expired", "keep", "kept", "repeat_of"]

# Longer than any platform redelivers (Telegram keeps an unconfirmed update for 24 hours;
# Slack retries for minutes; a Discord RESUME replays one session): a mark older than this
# is forgotten with its receipt, which keeps both bounded.
KEEP_FOR = timedelta(days=7)
FORGET_BATCH = 1000  # marks forgotten per transaction: a backlog never holds the writer long


def kept(receipt: Receipt) -> dict[str, Any]:
    """What is kept of a receipt: what the human was told. Not the card's redraw (a
    repeat draws nothing: the card already reads as the first delivery left it)."""
    return {
        "accepted": receipt.accepted,
        "code": receipt.code,
        "notice": receipt.notice,
        "outcome": None if receipt.outcome is None else receipt.outcome.value,
        "escalation_id": receipt.escalation_id,
        "open": [record.id for record in receipt.open],
        "prefill": receipt.prefill,
        "reply_to": receipt.reply_to,
    }


def keep(ch: Change, event: HumanEvent, receipt: Receipt) -> Receipt:
    """Keep ``receipt`` beside the event's mark in this transaction; returns it."""
    ch.tx.keep_receipt(event.transport, event.event_id, kept(receipt))
    return receipt


async def forget_expired(store: Store, now: datetime) -> int:
    """Forget every mark older than :data:`KEEP_FOR`, with its receipt, a batch per
    transaction; returns how many."""
    before = now - KEEP_FOR
    forgotten = 0
    while True:
        batch = await store.write(
            lambda tx: tx.forget_seen_events(before=before, limit=FORGET_BATCH)
        )
        forgotten += batch
        if batch < FORGET_BATCH:
            return forgotten


def repeat_of(ch: Change, event: HumanEvent) -> Receipt:
    """The receipt for a later delivery of a taken event: the first's, marked a repeat."""
    seen = ch.tx.seen_event(event.transport, event.event_id)
    if seen is None or seen.receipt is None:
        return DUPLICATE
    return _receipt(ch, seen.receipt)


def _receipt(ch: Change, told: Mapping[str, Any]) -> Receipt:
    outcome = told.get("outcome")
    # The records that were open, read as they are now (their ids are the first's).
    records = (ch.tx.escalation(record_id) for record_id in told.get("open", ()))
    return Receipt(
        accepted=bool(told["accepted"]),
        code=told.get("code"),
        notice=told.get("notice"),
        outcome=None if outcome is None else ReplyOutcome(outcome),
        escalation_id=told.get("escalation_id"),
        open=tuple(record for record in records if record is not None),
        prefill=told.get("prefill"),
        reply_to=told.get("reply_to"),
        repeat=True,
    )
