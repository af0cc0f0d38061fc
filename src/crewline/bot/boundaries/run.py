"""Context boundaries (SPEC §5): rewind, edit-resend, regenerate and reset, one way.

A boundary is two transactions with a wait between them (``boundaries/transactions.py``):

1. the **freeze** (on the member's actor) records the prospective window and sends each of
   the member's sessions a ``context_boundary`` event: discard your context;
2. the **wait** (off the actor, so the member's traffic goes on) for each asked session's
   ``POST /api/session/boundaries/{id}/ack`` (or ``nack`` with a reason), bounded by
   ``wait`` seconds; a ``stateless`` session counts as discarded at once; an answer that
   lands on another replica wakes the waiter through :meth:`Boundaries.wake`;
3. the **commit** (on the actor) rewrites the transcript as a new generation, by delta.

From the moment the discard is sent, every exit that does not commit writes one SEL record
``boundary:<kind>`` with ``outcome=error``, a reason per exit and ``native_cleared`` =
``1`` / ``unknown``, or no record where it is positively known that nothing was discarded
(docs/boundaries.md has the table). A cancellation landing on one of the awaits is drained
with at most :data:`DRAIN_PASSES` re-shielded awaits, and the settled task is inspected.

``hook`` is a test seam: an async callback run at each await of the boundary
(:class:`HookPoint`), so a test can make something happen exactly there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Set
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TypeVar

from crewline.bot.boundaries.human import (
    BoundaryCommands,
    EditResend,
    ForkCommand,
    RegeneratePress,
)
from crewline.bot.boundaries.transactions import (
    BoundaryKind,
    BoundaryRequest,
    Frozen,
    Outcome,
    abort,
    close_abandoned,
    commit,
    freeze,
)
from crewline.bot.changes import Change
from crewline.bot.ports import Host
from crewline.errors import Conflict, CrewlineError, InvalidInput, NotFound, Unavailable
from crewline.models import Session, new_id
from crewline.store import BoundaryRecord

__all__ = [
    "DEFAULT_WAIT",
    "DRAIN_PASSES",
    "Boundaries",
    "BoundaryKind",
    "BoundaryRequest",
    "Frozen",
    "HookPoint",
    "Outcome",
    "outcome_error",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_WAIT = 30.0  # seconds a boundary waits for the sessions to let go of their context
# Beyond its wait, how long a boundary may still be committing before it counts as abandoned
# (its process died): generous, so a boundary that another replica runs is never taken.
ABANDON_GRACE = timedelta(seconds=60)
DRAIN_PASSES = 8  # re-shielded awaits a cancelled boundary spends on a task in flight
MAX_REASON = 500


class HookPoint(StrEnum):
    FREEZING = "freezing"  # the freeze is in flight
    SENT = "sent"  # the freeze committed: the sessions are asked to discard
    WAITING = "waiting"  # inside the wait for their answers
    COMMITTING = "committing"  # the commit is about to run


Hook = Callable[[HookPoint, str], Awaitable[None]]


class Boundaries:
    def __init__(
        self, host: Host, *, wait: float = DEFAULT_WAIT, refuse_mid_turn: bool = False
    ) -> None:
        """Registers what a human starts a boundary with: /rewind, /regenerate, /reset,
        /fork, the Regenerate button (``r``) and an edited message."""
        self.core = host
        self.wait = wait
        self.refuse_mid_turn = refuse_mid_turn  # boundary_mid_turn = "refuse"
        self.abandon_after = timedelta(seconds=wait) + ABANDON_GRACE
        self.hook: Hook | None = None
        self._answered: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[Outcome]] = set()
        host.command(BoundaryCommands(host, self))
        host.command(ForkCommand(host, self))
        host.press(RegeneratePress(host, self))
        host.edit(EditResend(host, self))

    async def __aenter__(self) -> Boundaries:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def run(self, request: BoundaryRequest) -> Outcome:
        """The whole boundary; refusals before anything was sent raise a CallerError."""
        return await self.finish(await self.begin(request))

    def spawn(self, frozen: Frozen) -> asyncio.Task[Outcome]:
        """Finish a begun boundary in the background (a chat trigger answers at once)."""
        task = asyncio.create_task(self.finish(frozen), name=f"boundary-{frozen.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def aclose(self) -> None:
        """Cancel the boundaries still running; each records its exit before it ends."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # the freeze -----------------------------------------------------------------------------
    async def begin(self, request: BoundaryRequest) -> Frozen:
        boundary_id = new_id()
        self._answered[boundary_id] = asyncio.Event()
        task = asyncio.ensure_future(
            self._on_member(
                request.member,
                lambda ch: freeze(
                    ch,
                    boundary_id,
                    request,
                    refuse_mid_turn=self.refuse_mid_turn,
                    abandon_after=self.abandon_after,
                ),
            )
        )
        try:
            await self._hook(HookPoint.FREEZING, boundary_id)
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            await self._freeze_cancelled(task, boundary_id, request)
            raise
        except BaseException:
            self._answered.pop(boundary_id, None)
            raise

    async def _freeze_cancelled(
        self, task: asyncio.Future[Frozen], boundary_id: str, request: BoundaryRequest
    ) -> None:
        if not await _drain(task):
            # Whether the discard went out is unknown; if it lands later it is closed then.
            await _settled(self.core.change(lambda ch: _unsettled_freeze(ch, boundary_id, request)))
            task.add_done_callback(self._close_late_freeze)
        elif not task.cancelled() and task.exception() is None:
            frozen = task.result()
            await _settled(
                self.core.change(
                    lambda ch: abort(
                        ch,
                        frozen,
                        reason="freeze_cancelled",
                        native_cleared=_cleared_so_far(ch, frozen),
                    )
                )
            )
        # A freeze that raised sent nothing: no record.
        self._answered.pop(boundary_id, None)

    def _close_late_freeze(self, task: asyncio.Future[Frozen]) -> None:
        if task.cancelled() or task.exception() is not None:
            return
        frozen = task.result()
        late = asyncio.ensure_future(
            self.core.change(
                lambda ch: abort(ch, frozen, reason="freeze_unsettled", native_cleared=None)
            )
        )
        late.add_done_callback(lambda t: t.cancelled() or t.exception())

    # the wait and the commit ----------------------------------------------------------------
    async def finish(self, frozen: Frozen) -> Outcome:
        try:
            await self._hook(HookPoint.SENT, frozen.id)
            verdict = await self._wait(frozen)
            if verdict is None:
                await self._hook(HookPoint.COMMITTING, frozen.id)
        except asyncio.CancelledError:
            await _settled(
                self._on_member(
                    frozen.member.slug,
                    lambda ch: abort(
                        ch,
                        frozen,
                        reason="wait_cancelled",
                        native_cleared=_cleared_so_far(ch, frozen),
                    ),
                )
            )
            raise
        finally:
            self._answered.pop(frozen.id, None)
        if verdict is not None:
            reason, cleared = verdict
            return await self._on_member(
                frozen.member.slug,
                lambda ch: abort(ch, frozen, reason=reason, native_cleared=cleared),
            )
        return await self._commit(frozen)

    async def _wait(self, frozen: Frozen) -> tuple[str, str | None] | None:
        """None when every asked session let go; else (reason, native_cleared)."""
        if not frozen.asked:
            return None  # stateless sessions (or none): discarded at once
        answered = self._answered[frozen.id]
        await self._hook(HookPoint.WAITING, frozen.id)
        deadline = asyncio.get_running_loop().time() + self.wait
        while True:
            timed_out = False
            try:
                async with asyncio.timeout_at(deadline):
                    await answered.wait()
            except TimeoutError:
                timed_out = True
            # Cleared before the read: an answer committed after it sets the signal again.
            answered.clear()
            record = await self.core.store.write(lambda tx: tx.boundary(frozen.id))
            assert record is not None
            if timed_out or all(s in record.answers for s in frozen.asked):
                return _verdict(frozen, record)

    async def _commit(self, frozen: Frozen) -> Outcome:
        slug = frozen.member.slug
        task = asyncio.ensure_future(
            self.core.on_member(
                slug, lambda: self.core.change(lambda ch: _commit_open(ch, frozen), heavy=True)
            )
        )
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            settled = await _drain(task)
            if not settled:
                reason = "commit_unsettled"
            elif task.cancelled() or task.exception() is not None:
                reason = "commit_cancelled"
            else:
                raise  # it committed: the success is audited by the commit itself
            await _settled(self.core.change(lambda ch: _abort_open(ch, frozen, reason=reason)))
            raise
        except Exception as error:  # any failure of the rewrite is this exit, audited
            log.warning("boundary %s of %s could not commit: %s", frozen.id, slug, error)
            return await self.core.change(
                lambda ch: _abort_open(ch, frozen, reason="commit_failed")
            )

    # the sessions' answers ------------------------------------------------------------------
    async def turn(self, session: Session, *, started: bool) -> datetime | None:
        """A session says it is in the middle of a turn (or no longer); returns since when."""

        def write(ch: Change) -> datetime | None:
            since = ch.now if started else None
            ch.tx.set_turn(session.id, since)
            return since

        return await self.core.change(write)

    async def answer(
        self, session: Session, boundary_id: str, *, ack: bool, reason: str | None = None
    ) -> BoundaryRecord:
        """A session says it let go of its context (ack) or will not (nack, with a reason)."""
        if reason is not None and not 0 < len(reason) <= MAX_REASON:
            raise InvalidInput(
                f"reason must be 1..{MAX_REASON} characters", code="invalid_reason", field="reason"
            )

        def write(ch: Change) -> BoundaryRecord:
            record = ch.tx.boundary(boundary_id)
            if record is None or session.id not in record.asked:
                raise NotFound(f"no boundary {boundary_id!r} asked of you", code="unknown_boundary")
            if record.state != "asking":
                raise Conflict(f"boundary {boundary_id} is {record.state}", code="boundary_closed")
            ch.tx.answer_boundary(
                boundary_id,
                session.id,
                answer="ack" if ack else "nack",
                reason=reason,
                now=ch.now,
            )
            answered = ch.tx.boundary(boundary_id)
            assert answered is not None
            return answered

        record = await self.core.change(write)
        if all(s in record.answers for s in record.asked):
            self.wake({boundary_id})
        return record

    def wake(self, boundary_ids: Set[str] | None) -> None:
        """Answers to these boundaries committed (None: perhaps to any, e.g. on another
        replica while its notifications were lost): their waiters read the record again."""
        if boundary_ids is None:
            waiting = list(self._answered.values())
        else:
            waiting = [e for b in boundary_ids if (e := self._answered.get(b)) is not None]
        for event in waiting:
            event.set()

    async def close_abandoned(self, *, older_than: timedelta | None = None) -> int:
        """Close the boundaries left asking by a crewline that died during them (older than
        ``older_than``; by default the wait plus ABANDON_GRACE, so a boundary another replica
        still runs is left alone). A lone process calls this at start with no age: nothing
        else can be running one. Returns how many it closed."""
        age = self.abandon_after if older_than is None else older_than
        slugs = [m.slug for m in await self.core.store.members()]
        asking = await self.core.store.write(
            lambda tx: [s for s in slugs if tx.boundary_in_flight(s) is not None]
        )
        closed = 0
        for slug in asking:

            def close(ch: Change, slug: str = slug) -> bool:
                found = ch.tx.boundary_in_flight(slug)
                return found is not None and close_abandoned(ch, found, older_than=age)

            closed += await self._on_member(slug, close)
        if closed:
            log.warning("closed %d rewinds that a stopped crewline left unfinished", closed)
        return closed

    # plumbing -------------------------------------------------------------------------------
    async def _hook(self, point: HookPoint, boundary_id: str) -> None:
        if self.hook is not None:
            await self.hook(point, boundary_id)

    async def _on_member(self, slug: str, transaction: Callable[[Change], T]) -> T:
        return await self.core.on_member(slug, lambda: self.core.change(transaction))


def _commit_open(ch: Change, frozen: Frozen) -> Outcome:
    """Commit, unless an exit already closed the boundary (a drain that gave up)."""
    record = ch.tx.boundary(frozen.id)
    if record is None or record.state != "asking":
        return Outcome(boundary_id=frozen.id, committed=False, reason="boundary_closed")
    return commit(ch, frozen)


def _abort_open(ch: Change, frozen: Frozen, *, reason: str) -> Outcome:
    record = ch.tx.boundary(frozen.id)
    if record is not None and record.state == "committed":
        return Outcome(boundary_id=frozen.id, committed=True, native_cleared="1")
    return abort(ch, frozen, reason=reason, native_cleared="1")


def _verdict(frozen: Frozen, record: BoundaryRecord) -> tuple[str, str | None] | None:
    asked = set(frozen.asked)
    acks = {s for s, (answer, _) in record.answers.items() if answer == "ack"} & asked
    nacks = {s for s, (answer, _) in record.answers.items() if answer == "nack"} & asked
    silent = asked - acks - nacks
    if acks == asked:
        return None
    cleared = "1" if acks else ("unknown" if silent else None)
    if nacks:
        return ("refused_after_discard" if acks else "session_refused"), cleared
    return ("ack_timeout_after_discard" if acks else "ack_timeout"), cleared


def _cleared_so_far(ch: Change, frozen: Frozen) -> str:
    """What is known when a cancellation cut the wait short: an ack (or no session holding
    any context) means it happened; otherwise nothing is known either way."""
    record = ch.tx.boundary(frozen.id)
    verdict = None if record is None else _verdict(frozen, record)
    if record is not None and verdict is None:
        return "1"
    if verdict is not None and verdict[1] == "1":
        return "1"
    return "unknown"


def _unsettled_freeze(ch: Change, boundary_id: str, request: BoundaryRequest) -> None:
    ch.tx.settle_boundary(boundary_id, state="failed", now=ch.now)
    ch.audit(
        f"boundary:{request.kind.value}",
        "error",
        actor=request.actor,
        member=request.member,
        boundary=boundary_id,
        reason="freeze_unsettled",
        native_cleared="unknown",
    )


async def _drain(task: asyncio.Future[T]) -> bool:
    """Wait for ``task`` through at most DRAIN_PASSES further cancellations; True when it
    settled (inspect the task itself for how)."""
    for _ in range(DRAIN_PASSES):
        if task.done():
            break
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            continue
        except BaseException:  # the caller inspects the settled task itself
            pass
        break
    return task.done()


async def _settled(write: Awaitable[T]) -> T | None:
    """Run an exit's write to its end even while cancellations keep arriving."""
    task = asyncio.ensure_future(write)
    if not await _drain(task):
        log.error("a boundary's exit record could not be written: cancelled too often")
        return None
    if task.cancelled():
        return None
    error = task.exception()
    if error is not None:
        log.error("a boundary's exit record could not be written: %s", error)
        return None
    return task.result()


_ERRORS: dict[str, tuple[type[CrewlineError], str]] = {
    "target_changed": (Conflict, "boundary_target_changed"),
    "generation_moved": (Conflict, "boundary_generation_moved"),
    "session_refused": (Conflict, "boundary_refused"),
    "refused_after_discard": (Conflict, "boundary_refused"),
    "ack_timeout": (Unavailable, "boundary_unacknowledged"),
    "ack_timeout_after_discard": (Unavailable, "boundary_unacknowledged"),
    "commit_failed": (Unavailable, "boundary_commit_failed"),
    "boundary_closed": (Conflict, "boundary_closed"),
}


def outcome_error(outcome: Outcome) -> CrewlineError | None:
    """The error an API caller gets for a boundary that did not commit."""
    if outcome.committed:
        return None
    kind, code = _ERRORS.get(outcome.reason or "", (Unavailable, "boundary_failed"))
    return kind(
        outcome.notice or f"the boundary did not commit ({outcome.reason})",
        code=code,
        reason=outcome.reason,
        native_cleared=outcome.native_cleared,
    )
