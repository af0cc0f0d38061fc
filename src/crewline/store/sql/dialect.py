"""What the one SQL implementation of the store asks of an engine: a dialect for the text of
its statements, and a transaction's statements as they reach the engine's connection.

The role modules (``store/sql/*.py``) write each statement once, in the SQL both engines
read alike (``?`` parameters, ``INSERT … ON CONFLICT``, ``RETURNING``), with a few macros in
braces for what the engines spell differently; :meth:`Dialect.text` renders a statement for
its engine once and keeps it. What differs by more than spelling is a method here, kept as
small as the difference: the locks a transaction takes (SQLite's one writer needs none),
the ids of a stream (PostgreSQL takes the stream's lock and its next id in one statement),
outbox entries whose ids nobody reads (PostgreSQL holds them back and sends them together),
and fleet search (FTS5 or ``tsvector``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from crewline.errors import Unavailable

__all__ = [
    "BACKLOG_LOCKS",
    "FLEET_WINDOW",
    "MACROS",
    "MEMBER_LOCKS",
    "OUTBOX_ENTRY",
    "Cursor",
    "Dialect",
    "Statements",
    "index_unavailable",
    "upsert",
]

# How many of the newest matching rows fleet retrieval ranks (Store.fleet_rows): every engine
# reads at most this window, so a question's cost stays bounded as the history grows.
FLEET_WINDOW = 500
# Lock key spaces, for an engine whose transactions take locks of their own (PostgreSQL's
# advisory locks, keyed by hashtextextended(key, space)).
BACKLOG_LOCKS = 17  # a member's pending count, to its commit (the backlog ceiling)
MEMBER_LOCKS = 19  # a member's changes (Tx.serialize), and the concierge's answers


class Cursor(Protocol):
    """The part of a DB-API cursor the store reads: its rows, or how many it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


# An outbox entry's columns as queued (the rest take their defaults): what ``Tx.enqueue`` and
# ``Tx.queue_call`` write, and what ``Statements.queue`` holds back.
OUTBOX_ENTRY = ("transport", "lane", "op", "object_key", "body", "created_at")


def upsert(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    """``INSERT`` of ``columns`` that replaces the values of a row with the same ``key``."""
    changed = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {changed}"
    )


def index_unavailable(error: BaseException) -> Unavailable:
    """A missing or damaged escalation index, as the port reports it: never read as empty."""
    return Unavailable(
        f"the escalation index cannot be read ({error})", code="escalation_index_unavailable"
    )


# What each ``{macro}`` of a statement's text becomes on each engine.
MACROS: Mapping[str, Mapping[str, str]] = {
    # a parameter holding a list (Dialect.array): SQLite's is JSON text
    "in_array": {"sqlite": "IN (SELECT value FROM json_each(?))", "postgresql": "= ANY(?)"},
    "greatest": {"sqlite": "max", "postgresql": "greatest"},
    "string_agg": {"sqlite": "group_concat", "postgresql": "string_agg"},
    # the order rows were inserted in (PostgreSQL has an ``ord`` column where it matters)
    "ord": {"sqlite": "rowid", "postgresql": "ord"},
    # rows another transaction holds are left to it: replicas sweeping at once take disjoint
    # batches (and a batch of a group commit never waits on a lock); SQLite has one writer
    "skip_locked": {"sqlite": "", "postgresql": " FOR UPDATE SKIP LOCKED"},
}


class Dialect(ABC):
    """An engine's SQL: macros, parameters, errors, and whether it has one writer."""

    name: ClassVar[str]
    # Transactions commit one at a time (SQLite): what one reads stays true to its commit.
    single_writer: ClassVar[bool]
    # ``WITH … INSERT/UPDATE … RETURNING``: a statement may write in its WITH clause.
    writes_in_with: ClassVar[bool]

    def __init__(self) -> None:
        self.macros = {macro: spelt[self.name] for macro, spelt in MACROS.items()}
        # Each statement as rendered: a transaction's statements look here first, one dict
        # lookup, and call ``text`` only for a statement not rendered yet.
        self.rendered: dict[str, str] = {}

    def text(self, sql: str) -> str:
        """``sql`` as this engine's driver takes it (rendered once, then kept)."""
        found = self.rendered.get(sql)
        if found is None:
            found = self.rendered[sql] = self.render(sql.format_map(self.macros))
        return found

    def render(self, sql: str) -> str:
        """The placeholders of ``sql`` (its macros replaced) in the driver's style."""
        return sql

    @abstractmethod
    def array(self, values: Sequence[Any]) -> Any:
        """``values`` as the one parameter of an ``{in_array}`` macro."""

    @abstractmethod
    def index_damage(self, error: BaseException, *, reading: bool) -> bool:
        """Whether ``error``, raised by a statement on the escalation index, says the index
        is missing or damaged (``reading``: by a read outside a transaction)."""

    @abstractmethod
    def fleet_search(
        self, terms: Sequence[str], *, excluding: str, limit: int, prefix: bool
    ) -> tuple[str, tuple[Any, ...]]:
        """The statement and parameters of ``Store.fleet_rows`` (``terms`` not empty, none
        blank): the newest ``FLEET_WINDOW`` matching rows, ranked, best first, the rows of
        ``excluding`` left out; columns as ``transcript.ROW``."""


class Statements(ABC):
    """A transaction's statements as they reach its connection; one per transaction."""

    dialect: Dialect

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """Run ``sql`` (as the role modules write it); its rows are read from the cursor."""

    @abstractmethod
    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        """Run ``sql`` once for each of ``params``, reading nothing back."""

    @abstractmethod
    def fetch_each(self, sql: str, params: Sequence[Sequence[Any]]) -> list[Any]:
        """Run ``sql`` once for each of ``params``; the first row each returned (or None)."""

    @abstractmethod
    def count(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run ``sql``; how many rows it changed, known now (its errors raised here)."""

    @abstractmethod
    def settle(self) -> None:
        """Have the statements sent so far run: their errors are raised here, not later."""

    @abstractmethod
    def lock(self, key: str, space: int) -> None:
        """Hold ``key``'s lock in ``space`` until the transaction ends (an engine whose
        transactions commit one at a time does nothing)."""

    @abstractmethod
    def insert_next(
        self, table: str, columns: Sequence[str], params: Sequence[Any], *, stream: str | None
    ) -> int:
        """Insert a row of ``table`` (events or the outbox) whose key is the next id; return
        it. With ``stream`` (a session's events, a lane), the stream's ids become visible in
        the order they were taken, whoever commits them."""

    @abstractmethod
    def queue(self, values: tuple[Any, ...], *, stream: str | None) -> None:
        """Insert an outbox entry (the values of ``OUTBOX_ENTRY``) nobody reads the id of, as
        ``insert_next`` would; an engine may send it later in the transaction (before its
        next statement, or at its end), in the same order."""

    @abstractmethod
    def notify(self, key: str) -> None:
        """Tell other replicas, once the transaction commits, that ``key`` changed (an
        engine with one process does nothing)."""

    @abstractmethod
    def finish(self) -> None:
        """Send what the transaction still holds back; its runner calls this last."""
