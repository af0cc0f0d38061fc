"""The audit log (SEL): append-only, by the database's own rule."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["AuditReads", "AuditTx", "SelRecord"]


@dataclass(frozen=True, kw_only=True, slots=True)
class SelRecord:
    id: int
    at: datetime
    action: str
    outcome: str
    actor: str | None
    member: str | None
    details: Mapping[str, Any]


class AuditTx(ABC):
    """Appending to the audit log in a transaction."""

    @abstractmethod
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
        """Append a SEL record."""


class AuditReads(ABC):
    """The audit log as committed."""

    @abstractmethod
    async def sel(self, *, action_prefix: str = "") -> list[SelRecord]:
        """SEL records whose action starts with ``action_prefix``, oldest first."""

    @abstractmethod
    async def sel_after(
        self,
        after: int,
        *,
        limit: int,
        member: str | None = None,
        since: datetime | None = None,
        action: str | None = None,
    ) -> list[SelRecord]:
        """At most ``limit`` SEL records with an id above ``after``, oldest first; only
        ``member``'s when given, only those at or after ``since``, and only the ``action``
        given or those beneath it (``boundary`` finds ``boundary:rewind``)."""
