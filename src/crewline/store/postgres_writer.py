"""Group commit on PostgreSQL: writer threads that run queued transactions, many in one
database transaction, each in a savepoint, all made durable by one ``COMMIT``.

Why: a PostgresStore escalation is one transaction of five rows, a counter and a full-text
entry; committed alone, each pays its own ``BEGIN``/``COMMIT``, its own WAL flush and its
own hop to a worker thread and back. Several in one commit share those (docs/architecture.md
has the measurement), as SqliteStore's writer shares one fsync among its batch.

What each caller still gets, as the port promises:

- **Its own outcome.** A batch first runs without savepoints (the common case costs no
  more statements than the transactions' own). If any of them raises, the batch is rolled
  back and run again one by one, each transaction in its own savepoint: one that raises is
  rolled back to its savepoint alone, its neighbours commit. A batch of one needs none:
  its database transaction is its own. Its statements' errors surface
  inside its own savepoint (the pipeline is synced before the savepoint is released), never
  in a neighbour's. (A transaction may run more than once; the port allows it.)
- **Durability.** A caller's ``write`` resolves only after the batch's ``COMMIT`` returned.
  If the ``COMMIT`` itself fails, every caller of the batch gets that error (nothing landed).
- **The same locks.** A transaction takes its locks (the backlog's, a stream's, a
  conversation's row, ``serialize``) as it would alone; they are held to the batch's commit,
  so the ordering guarantees hold as they do for one transaction.
- **No deadlock between batches.** Only a batch's first transaction waits for a lock; the
  later ones run under ``lock_timeout`` (``DEFER_AFTER``): one that would wait for a lock
  another connection holds is rolled back to its savepoint and runs again first in the
  writer's next batch, where it waits as a lone transaction would. So a batch waits only
  while it holds the locks of one transaction (a lone transaction's situation), never while
  it holds its earlier transactions' locks.

Transactions written with ``heavy=True`` do not join a batch (PostgresStore runs them alone):
they would hold their neighbours' answers back for as long as they run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool

from crewline.store.postgres_statements import INDEX_DAMAGE, PostgresStatements, synced_on_error
from crewline.store.sql import SqlTx
from crewline.store.sql.dialect import index_unavailable

__all__ = ["GroupWriter"]

log = logging.getLogger(__name__)

MAX_BATCH = 32  # transactions per commit; below 64 savepoints, PostgreSQL's subxid cache
DEFER_AFTER = "1ms"  # lock_timeout of a batch's later transactions (then: its next batch)
RETRIES = 5  # runs of a transaction that keeps losing deadlocks before its error surfaces
_LOST = (pg_errors.DeadlockDetected, pg_errors.SerializationFailure)
_STOP = object()


@dataclass(eq=False, slots=True)
class _Queued:
    transaction: Callable[[Any], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    lost: int = 0  # deadlocks and serialization failures so far
    outcome: tuple[bool, Any] | None = field(default=None)


class GroupWriter:
    """``writers`` threads, each committing batches on a pooled connection of its own."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[Any]], writers: int) -> None:
        self._pool = pool
        self._queue: queue.SimpleQueue[_Queued | object] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._serve, name=f"crewline-pg-writer-{n}", daemon=True)
            for n in range(writers)
        ]
        self.batches_committed = 0  # for benchmarks: transactions / batches = the grouping
        self._idle = 0  # writers waiting for work
        self._counting = threading.Lock()
        for thread in self._threads:
            thread.start()

    def submit(self, transaction: Callable[[Any], Any]) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.put(_Queued(transaction, loop, future))
        return future

    def stop(self) -> None:
        """Finish what was submitted, then end the threads (blocking: call off the loop)."""
        for _ in self._threads:
            self._queue.put(_STOP)
        for thread in self._threads:
            thread.join()

    # the writer threads ---------------------------------------------------------------------
    def _serve(self) -> None:
        carried: list[_Queued] = []
        stopping = False
        while carried or not stopping:
            batch, carried = carried, []
            if not batch:
                with self._counting:
                    self._idle += 1
                first = self._queue.get()
                with self._counting:
                    self._idle -= 1
                if first is _STOP:
                    stopping = True
                    continue
                assert isinstance(first, _Queued)
                batch.append(first)
            # A fair share of what waits, so the idle writers get the rest: taking it all would
            # leave them idle while this one works through a long batch on its own.
            share = -(-self._queue.qsize() // (self._idle + 1))
            limit = min(MAX_BATCH, len(batch) + share)
            while len(batch) < limit and not stopping:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stopping = True
                else:
                    assert isinstance(more, _Queued)
                    batch.append(more)
            batch = [q for q in batch if not q.future.cancelled()]
            if batch:
                carried = self._commit(batch)

    def _commit(self, batch: list[_Queued]) -> list[_Queued]:
        """Run and commit ``batch``; settle the callers whose outcome is known; return the
        transactions to run again (first in the next batch)."""
        if len(batch) == 1:
            return self._alone(batch[0])
        if self._all_at_once(batch):
            self.batches_committed += 1
            self._settle(batch)
            return []
        return self._one_by_one(batch)

    @contextlib.contextmanager
    def _batch_transaction(self) -> Iterator[tuple[psycopg.Connection[Any], psycopg.Pipeline]]:
        """A batch's one transaction: a pooled connection, pipelined, committed on leaving."""
        with (
            self._pool.connection() as conn,
            conn.pipeline() as pipeline,
            conn.transaction(),
            synced_on_error(pipeline),
        ):
            yield conn, pipeline

    def _all_at_once(self, batch: list[_Queued]) -> bool:
        """The common case, cheaply: every transaction of the batch succeeds, so none needs a
        savepoint, nor the pipeline synced between them. True when the batch committed (or
        its COMMIT failed in a way that leaves nothing to retry); False when it was rolled
        back because one of them failed or stepped out: then it runs one by one instead."""
        committing = False
        try:
            with self._batch_transaction() as (conn, pipeline):
                for n, queued in enumerate(batch):
                    if n == 1:  # the first waits for its locks; the later ones do not
                        conn.execute(f"SET LOCAL lock_timeout = '{DEFER_AFTER}'")
                    tx = SqlTx(PostgresStatements(conn, pipeline))
                    queued.outcome = (True, queued.transaction(tx))
                    tx.finish()
                _commit_waits(conn, batch)
                committing = True
        except Exception as error:
            if committing and (not isinstance(error, psycopg.Error) or error.sqlstate is None):
                # The COMMIT's fate is unknown (the connection broke): nobody's write can be
                # run again safely, each caller gets the error.
                log.exception("group commit of %d transactions failed", len(batch))
                for queued in batch:
                    queued.outcome = (False, error)
                return True
            for queued in batch:  # rolled back: the server said so, or a transaction raised
                queued.outcome = None
            return False
        return True

    def _alone(self, queued: _Queued) -> list[_Queued]:
        """A batch of one: its database transaction is its own, so whatever fails rolls
        back only it, with no savepoint (two statements and a sync fewer). As it would be
        first in a batch, it waits for its locks; a lost deadlock runs it again (first in
        the next batch)."""
        tx: SqlTx | None = None
        try:
            with self._batch_transaction() as (conn, pipeline):
                tx = SqlTx(PostgresStatements(conn, pipeline))
                result = queued.transaction(tx)
                tx.finish()
        except _LOST as error:
            queued.lost += 1
            if queued.lost < RETRIES:
                log.info("transaction lost a lock conflict; running it again (%d)", queued.lost)
                return [queued]
            queued.outcome = (False, error)
        except INDEX_DAMAGE as error:
            written = tx is not None and tx.index_written
            queued.outcome = (False, index_unavailable(error) if written else error)
        except Exception as error:  # its own statements', its COMMIT's, or its connection's
            queued.outcome = (False, error)
        else:
            queued.outcome = (True, result)
        self.batches_committed += 1
        self._settle([queued])
        return []

    def _one_by_one(self, batch: list[_Queued]) -> list[_Queued]:
        """Each transaction in its own savepoint, so one that fails rolls back alone."""
        deferred: list[_Queued] = []
        try:
            with self._batch_transaction() as (conn, pipeline):
                for n, queued in enumerate(batch):
                    if n == 1:  # the first waits for its locks; the later ones do not
                        conn.execute(f"SET LOCAL lock_timeout = '{DEFER_AFTER}'")
                    if not self._run_one(conn, pipeline, queued, first=n == 0):
                        deferred.append(queued)
                _commit_waits(conn, batch)
        except Exception as error:  # the COMMIT (or the connection) failed: nothing landed
            log.exception("group commit of %d transactions failed", len(batch))
            for queued in batch:
                if not any(queued is d for d in deferred):
                    queued.outcome = (False, error)
        self.batches_committed += 1
        self._settle([q for q in batch if q.outcome is not None])
        return deferred

    def _run_one(
        self,
        conn: psycopg.Connection[Any],
        pipeline: psycopg.Pipeline,
        queued: _Queued,
        *,
        first: bool,
    ) -> bool:
        """Run one transaction in its savepoint; False when it is to run again later."""
        tx = SqlTx(PostgresStatements(conn, pipeline))
        try:
            with conn.transaction(), synced_on_error(pipeline):
                result = queued.transaction(tx)
                tx.finish()
                pipeline.sync()  # its unread statements' errors are its own, not a neighbour's
        except pg_errors.LockNotAvailable as error:
            if first:  # the server's own lock_timeout: the caller's error
                queued.outcome = (False, error)
                return True
            return False  # another connection holds a lock it needs: first in the next batch
        except _LOST as error:
            queued.lost += 1
            if queued.lost >= RETRIES:
                queued.outcome = (False, error)
                return True
            log.info("transaction lost a lock conflict; running it again (%d)", queued.lost)
            return False
        except INDEX_DAMAGE as error:
            queued.outcome = (False, index_unavailable(error) if tx.index_written else error)
        except Exception as error:
            queued.outcome = (False, error)
        else:
            queued.outcome = (True, result)
        return True

    @staticmethod
    def _settle(done: list[_Queued]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[_Queued]] = {}
        for queued in done:
            by_loop.setdefault(queued.loop, []).append(queued)
        for loop, settled in by_loop.items():
            # RuntimeError: the caller's loop is closed, nobody is waiting
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_resolve, settled)


def _commit_waits(conn: psycopg.Connection[Any], batch: list[_Queued]) -> None:
    """The batch's COMMIT waits for its locks as a lone transaction's would: a transaction
    that notified takes the database's notification-queue lock at commit, which another
    connection committing its own notifications holds for a moment, so under
    ``DEFER_AFTER`` the whole batch would fail with a lock timeout."""
    if len(batch) > 1:  # only a batch's later transactions ran under DEFER_AFTER
        conn.execute("SET LOCAL lock_timeout = DEFAULT")


def _resolve(settled: list[_Queued]) -> None:
    for queued in settled:
        if queued.future.cancelled() or queued.outcome is None:
            continue
        ok, value = queued.outcome
        if ok:
            queued.future.set_result(value)
        else:
            queued.future.set_exception(value)
