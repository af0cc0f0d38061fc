"""Idempotent writes: a retried call with the same key returns the first outcome (SPEC §7).

A session may send a write with a key of its choosing. The outcome the caller got is kept
in the same transaction as the write itself, so no crash can keep one without the other;
a retry with the same key within :data:`KEEP_FOR` finds it and writes nothing. Two retries
racing each other are settled by the store: the second transaction finds the first one's
record and replays it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from crewline.bot.changes import Change
from crewline.errors import Conflict, InvalidInput
from crewline.store import IdempotencyRecord

__all__ = [
    "KEEP_FOR",
    "MAX_KEY_LENGTH",
    "KeyedWrite",
    "Replayed",
    "check_key",
    "fingerprint",
    "guarded",
    "replay_of",
]

T = TypeVar("T")
KEEP_FOR = timedelta(hours=24)
MAX_KEY_LENGTH = 255


class Replayed(Exception):
    """Raised inside a transaction that found its key already used for the same request: the
    transaction writes nothing, and the caller answers with the first outcome."""

    def __init__(self, record: IdempotencyRecord) -> None:
        super().__init__(record.key)
        self.record = record


@dataclass(frozen=True, kw_only=True, slots=True)
class KeyedWrite:
    """A write sent with an ``Idempotency-Key``: who sent it, the key, what it asked for, and
    how its result reads as the response the caller gets."""

    session: str
    key: str
    fingerprint: str
    respond: Callable[[Any], Mapping[str, Any]]


def check_key(key: str) -> str:
    """The key as sent, or InvalidInput: 1..255 printable ASCII characters."""
    if not key or len(key) > MAX_KEY_LENGTH or not all(" " <= c <= "~" for c in key):
        raise InvalidInput(
            f"Idempotency-Key must be 1..{MAX_KEY_LENGTH} printable ASCII characters",
            code="invalid_idempotency_key",
            field="Idempotency-Key",
        )
    return key


def fingerprint(verb: str, body: Mapping[str, Any]) -> str:
    """What a request asked for, so a key reused for something else is recognised."""
    canonical = json.dumps([verb, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def replay_of(
    record: IdempotencyRecord | None, write: KeyedWrite, now: datetime
) -> IdempotencyRecord | None:
    """The first outcome to return for ``write``, or None when the key is unused (or its
    record expired). A key used for a different request is a Conflict."""
    if record is None or now - record.created_at >= KEEP_FOR:
        return None
    if record.fingerprint != write.fingerprint:
        raise Conflict(
            f"Idempotency-Key {write.key[:80]!r} was used for a different request in the last"
            " 24 hours; use a new key for a new request",
            code="idempotency_key_reused",
        )
    return record


def guarded(write: KeyedWrite | None, transaction: Callable[[Change], T]) -> Callable[[Change], T]:
    """``transaction``, made to replay an earlier outcome of the same key instead of writing,
    and to keep its own outcome with its writes."""
    if write is None:
        return transaction

    def run(ch: Change) -> T:
        earlier = replay_of(ch.tx.idempotency_record(write.session, write.key), write, ch.now)
        if earlier is not None:
            raise Replayed(earlier)
        result = transaction(ch)
        ch.tx.remember_idempotency(
            IdempotencyRecord(
                session=write.session,
                key=write.key,
                fingerprint=write.fingerprint,
                status=200,
                response=write.respond(result),
                created_at=ch.now,
            ),
            forget_before=ch.now - KEEP_FOR,
        )
        return result

    return run
