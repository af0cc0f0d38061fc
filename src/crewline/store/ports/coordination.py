"""Coordination: one change per member at a time, whichever connection, process or replica
runs it."""

from __future__ import annotations

from abc import ABC, abstractmethod

__all__ = ["CoordinationTx"]


class CoordinationTx(ABC):
    """Holding a member's (a conversation's) lock for the rest of the transaction."""

    @abstractmethod
    def serialize(self, key: str) -> None:
        """Hold ``key``'s lock (a member's slug, or a memberless conversation) until this
        transaction ends; call it before the transaction reads anything. A transaction that
        takes the same key on another connection or replica waits for this one to end, then
        reads what it committed. A store whose transactions already run one at a time
        (SQLite's one writer) need do nothing."""
