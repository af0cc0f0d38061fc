"""PostgreSQL's dialect, and a transaction's statements on its psycopg connection.

The statements run in pipeline mode (``PostgresStore`` runs every transaction so): one
whose result is not read goes out with the next one whose result is, so a transaction costs
a round trip per result it reads, not one per statement; an error surfaces at the next
result read (or the commit), as the same exception.

What only PostgreSQL does, because several connections and replicas write at once:

- **Locks** are advisory transaction locks (``pg_advisory_xact_lock``), held to the commit.
- **A stream's ids** (a session's event cursors, a lane's outbox ids) come from a sequence,
  taken under the stream's lock, in one statement: a materialized CTE takes the lock when
  the insert reads its one row, before the row's ``nextval`` is computed. So a stream's ids
  become visible in the order they were taken, while other streams' writers go on.
- **Outbox entries nobody reads the id of** (an escalation queues three: card, bell,
  roster) wait in the transaction and go out as one ``INSERT`` before its next statement or
  at its end. Sent one by one, each would cost the client a statement's worth of psycopg
  (about 65 µs of CPU on the loaded 2-core machine, docs/postgresql.md) and the server a
  statement's execution. What the server runs, and in what order, is otherwise unchanged:
  each ordered entry's lane lock is taken, in the order queued, before any id is drawn, and
  the ids are drawn in that order.
- **Notifications** tell the other replicas, on commit, what changed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from crewline.store.postgres_coordination import CHANNEL
from crewline.store.sql import Dialect, Statements
from crewline.store.sql.dialect import FLEET_WINDOW, OUTBOX_ENTRY, Cursor
from crewline.store.sql.transcript import ROW

__all__ = ["DIALECT", "INDEX_DAMAGE", "PostgresDialect", "PostgresStatements", "synced_on_error"]

STREAM_LOCKS = 18  # the advisory key space of streams (a session's events, a lane)
INDEX_DAMAGE = (pg_errors.UndefinedTable, pg_errors.DataCorrupted)
# Each stream's table: its key column and the sequence it is drawn from.
_STREAMS = {"events": ("cursor", "event_cursors"), "outbox": ("id", "outbox_ids")}
_QUEUED = ", ".join(OUTBOX_ENTRY)
Queued = tuple[str | None, tuple[Any, ...]]  # an entry held back: its lane's lock key, its values


class PostgresDialect(Dialect):
    """PostgreSQL's SQL: ``%s`` parameters, arrays, ``tsvector`` fleet search."""

    name = "postgresql"
    single_writer = False
    writes_in_with = True

    def render(self, sql: str) -> str:
        return sql.replace("%", "%%").replace("?", "%s")

    def array(self, values: Sequence[Any]) -> Any:
        return list(values)

    def index_damage(self, error: BaseException, *, reading: bool) -> bool:
        if reading:  # any error of the database's but the server's own
            return isinstance(error, psycopg.DatabaseError) and not isinstance(
                error, psycopg.OperationalError
            )
        return isinstance(error, INDEX_DAMAGE)

    def fleet_search(
        self, terms: Sequence[str], *, excluding: str, limit: int, prefix: bool
    ) -> tuple[str, tuple[Any, ...]]:
        query = " || ".join([_PREFIX if prefix else _WORDS] * len(terms))
        return (
            _FLEET_SEARCH.format(query=query),
            (*terms, *terms, FLEET_WINDOW, excluding, limit),
        )


# A term as the index reads its row's text: accents folded, ASCII punctuation a space, the
# words stemmed, in a row; with a prefix, the last word the beginning of one. A term without
# a word is the empty query, which ``||`` (OR) leaves out.
_WORDS = "phraseto_tsquery('crewline_fleet', crewline_fleet_words(crewline_fleet_fold(?)))"
_PREFIX = f"coalesce((nullif({_WORDS}::text, '') || ':*')::tsquery, ''::tsquery)"
# The newest FLEET_WINDOW matching rows, ranked, best first, as SQLite's. The terms are
# bound parameters of a statement never prepared (``prepare=False``): each run is planned
# with their values, the tsquery folded to a constant, so the planner estimates how common
# its words are from the column's statistics (see the schema): for rare words it reads the
# GIN index's few matches; for common ones it walks fleet_text's ids newest first and stops
# at the window. Either way a question reads a bounded number of entries however large the
# history grows. ts_rank with normalisation 1 (divided by 1 + the log of the row's length)
# stands in for FTS5's bm25: rows naming more of the question's words, and shorter rows,
# come first; ties go to the newer row.
_FLEET_SEARCH = (
    f"SELECT {', '.join(f'r.{c}' for c in ROW)} FROM"
    " (SELECT id, row_id, ts_rank(doc, {query}, 1) AS rank"
    "  FROM fleet_text WHERE doc @@ ({query})"
    "  ORDER BY id DESC LIMIT ?) AS hit"
    " JOIN rows r ON r.id = hit.row_id"
    " WHERE r.conversation <> ? AND r.rewound_in IS NULL"
    " ORDER BY hit.rank DESC, hit.id DESC LIMIT ?"
)
DIALECT = PostgresDialect()


class PostgresStatements(Statements):
    """A transaction's statements on its connection (see the module docstring);
    ``pipeline``: the connection's, when the transaction runs in pipeline mode."""

    __slots__ = ("_conn", "_pipeline", "_queued", "_rendered", "_text", "dialect")

    def __init__(self, conn: psycopg.Connection[Any], pipeline: psycopg.Pipeline | None) -> None:
        self._conn = conn
        self._pipeline = pipeline
        self._queued: list[Queued] = []
        self.dialect = DIALECT
        self._rendered = DIALECT.rendered
        self._text = DIALECT.text

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        if self._queued:
            self.finish()
        return self._conn.execute(self._rendered.get(sql) or self._text(sql), params)

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        if params:
            self._many(sql, params, returning=False)

    def fetch_each(self, sql: str, params: Sequence[Sequence[Any]]) -> list[Any]:
        if not params:
            return []
        cursor = self._many(sql, params, returning=True)
        found = []
        for _ in params:
            found.append(cursor.fetchone())
            cursor.nextset()
        return found

    def _many(
        self, sql: str, params: Sequence[Sequence[Any]], *, returning: bool
    ) -> psycopg.Cursor[Any]:
        if self._queued:
            self.finish()
        cursor = self._conn.cursor()
        cursor.executemany(self._text(sql), params, returning=returning)
        return cursor

    def count(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = self.execute(sql, params)
        self.settle()
        return cursor.rowcount

    def settle(self) -> None:
        # In pipeline mode a statement whose rows are not fetched is only queued: syncing
        # runs it, so its error is raised here and its row count is set.
        if self._pipeline is not None:
            self._pipeline.sync()

    def lock(self, key: str, space: int) -> None:
        self.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, ?))", (key, space))

    def insert_next(
        self, table: str, columns: Sequence[str], params: Sequence[Any], *, stream: str | None
    ) -> int:
        shape = (table, tuple(columns), stream is not None)
        sql = _INSERTS.get(shape) or _INSERTS.setdefault(shape, _insert_next(*shape))
        if stream is not None:
            params = (stream, STREAM_LOCKS, *params)
        found = self.execute(sql, params).fetchone()
        assert found is not None
        return int(found[0])

    def queue(self, values: tuple[Any, ...], *, stream: str | None) -> None:
        self._queued.append((stream, values))

    def notify(self, key: str) -> None:
        self.execute(
            "SELECT pg_notify(?, current_setting('application_name') || E'\\n' || ?)",
            (CHANNEL, key),
        )

    def finish(self) -> None:
        """Send the queued entries (their result not read: it travels with the next
        statement whose result is, or the commit)."""
        queued, self._queued = self._queued, []
        if len(queued) == 1:
            self._conn.execute(*_one(queued[0]))
        elif queued:
            self._conn.execute(*_several(queued))


@contextlib.contextmanager
def synced_on_error(pipeline: psycopg.Pipeline) -> Iterator[None]:
    """Around a transaction's statements in pipeline mode (innermost, inside its
    ``conn.transaction()``): when one fails, the statements sent after it are aborted by
    the server up to the pipeline's next sync. A lock given up under a batch's
    ``lock_timeout`` often surfaces as the next statement is sent, so that statement is
    among them. Syncing here ends the aborted stretch before the rollback, which would
    otherwise meet it as the block exits (psycopg then logs "pipeline aborted" and goes
    on). The transaction's own error is what its caller gets; the sync's can only repeat it.
    """
    try:
        yield
    except psycopg.Error:
        with contextlib.suppress(psycopg.Error):
            pipeline.sync()
        raise


_INSERTS: dict[tuple[str, tuple[str, ...], bool], str] = {}


def _insert_next(table: str, columns: tuple[str, ...], locked: bool) -> str:
    key, sequence = _STREAMS[table]
    values = ", ".join(["?"] * len(columns))
    insert = f"INSERT INTO {table} ({key}, {', '.join(columns)})"
    if not locked:
        return f"{insert} VALUES (nextval('{sequence}'), {values}) RETURNING {key}"
    return (
        "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(hashtextextended(?, ?)))"
        f" {insert} SELECT nextval('{sequence}'), {values} FROM locked RETURNING {key}"
    )


def _one(entry: Queued) -> tuple[str, Sequence[Any]]:
    stream, values = entry
    if stream is None:
        return (
            f"INSERT INTO outbox (id, {_QUEUED}) SELECT nextval('outbox_ids'),"
            " %s, %s, %s, %s, %s, %s",
            values,
        )
    # The materialized CTE takes the lane's lock when the insert reads its one row, before
    # the row's nextval is computed.
    return (
        "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(hashtextextended(%s, %s)))"
        f" INSERT INTO outbox (id, {_QUEUED}) SELECT nextval('outbox_ids'),"
        " %s, %s, %s, %s, %s, %s FROM locked",
        (stream, STREAM_LOCKS, *values),
    )


def _several(entries: list[Queued]) -> tuple[str, Sequence[Any]]:
    # ``locked`` takes the ordered entries' lane locks in the order queued (an aggregate
    # consumes its ordered subquery in order) before the insert reads its one row; the
    # insert draws the ids after its sort by ``n`` (PostgreSQL evaluates a volatile target
    # after ORDER BY), so a lane's entries get ids in the order they were queued.
    rows = ", ".join(
        f"({n}, %s::text, %s::text, %s::text, %s::text, %s::text, %s::text, %s::float8)"
        for n in range(len(entries))
    )
    params = [value for stream, values in entries for value in (stream, *values)]
    return (
        f"WITH entries (n, stream, {_QUEUED}) AS (VALUES {rows}),"
        " locked AS MATERIALIZED (SELECT count(pg_advisory_xact_lock("
        f"hashtextextended(stream, {STREAM_LOCKS}))) AS locks"
        " FROM (SELECT stream FROM entries WHERE stream IS NOT NULL ORDER BY n) AS ordered)"
        f" INSERT INTO outbox (id, {_QUEUED})"
        f" SELECT nextval('outbox_ids'), {_QUEUED} FROM entries, locked ORDER BY n",
        params,
    )
