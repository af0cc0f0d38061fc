"""The concierge (SPEC §4): a suggestion on every card, routine answers under the owner's
policy, undo.

It subscribes to the Hub's domain events. After an escalation or a question is recorded
(after its commit, on the domain-event task, never on the member's actor) it queues the
question for judging. One judging task drains the queue in batches — every question waiting
when it starts one: for each it retrieves fleet facts (only where a fact could change the
verdict, ``needs_facts``), asks the pure gate (``policy/routine.judge``) for a verdict and
lets a brain draft the words; then one change
writes the whole batch (each question's suggestion or answer and its ledger record, in the
order they were asked), holding each of the batch's members' locks, so a member's own
changes are never queued behind the concierge's write. What may be answered is decided in
that change, against the policy in force at that moment and each record as it then stands:
the gate's verdict decides, a brain's text never does. Nothing is remembered between two
questions, so no answer becomes a standing grant. A card judged without any I/O is drawn
once, with its suggestion: its post is held back until the judgement's commit (``hold``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from crewline.bot.changes import Change
from crewline.bot.concierge import transactions as ctx
from crewline.bot.concierge.asked import Asked
from crewline.bot.concierge.human import ConciergeCommand, ConciergePresses
from crewline.bot.domain import (
    DomainEvent,
    EscalationRecorded,
    EscalationSettled,
    QuestionRaised,
    QuestionSettled,
)
from crewline.bot.ports import Host
from crewline.bot.render import STATUS_FOR
from crewline.brains import Brain, BrainAsk, Draft, OfflineBrain
from crewline.errors import InvalidInput, NotFound, Unavailable
from crewline.launchers import Launchers
from crewline.models import (
    AnsweredBy,
    AnswerPolicy,
    ConciergeAnswer,
    ConciergePolicy,
    Row,
)
from crewline.policy.fleet import retraction_terms, retracts
from crewline.policy.lemmas import preload
from crewline.policy.routine import (
    Fact,
    Verdict,
    VerdictKind,
    check_placement,
    judge,
    needs_facts,
    search_terms,
)

__all__ = ["Concierge", "ConciergeSettings", "Undone", "answer_allowed"]

log = logging.getLogger(__name__)
FACTS = 10  # fleet rows handed to the gate per question
RESUME_PAGE = 1024  # records a start examines at a time (and at most judges at a time)
NEVER_OFF = ConciergePolicy()
CAREFUL_ALWAYS = frozenset({VerdictKind.IRREVERSIBLE, VerdictKind.AMBIGUOUS})
# How long a held card's post waits for its judgement at most, by the Hub's clock: a
# judgement that never comes (a stuck domain-event subscriber, a store that stalls) must not
# keep a card off the platform; past it the outbox's next look draws the card as it stands.
HOLD_BOUND = timedelta(seconds=5)


@dataclass(frozen=True, kw_only=True, slots=True)
class ConciergeSettings:
    """How the concierge starts: the policy while the owner has kept none, and its brain."""

    start: ConciergePolicy = NEVER_OFF
    brain: Brain | None = None  # None: the built-in offline brain
    brain_timeout: float = 10.0
    launchers: Launchers | None = None  # what restart and dispatch may run
    enabled: bool = True  # False: no judging at all (the benchmarks' "concierge off")


@dataclass(frozen=True, kw_only=True, slots=True)
class _Judged:
    """One question's judgement, made off the store, waiting for the batch's write."""

    asked: Asked
    resumed: bool  # judged again at start: another replica may have judged it meanwhile
    facts: tuple[Fact, ...]
    verdict: Verdict
    draft: Draft | None
    failure: str | None


def _may_answer(judged: _Judged) -> bool:
    """Whether its write may give an answer, under the policy that allows the most."""
    return bool(
        judged.draft is not None
        and judged.draft.text
        and judged.failure is None
        and answer_allowed(AnswerPolicy.ALWAYS, judged.verdict, dialog=judged.asked.dialog)
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class _Hold:
    """A card whose first draw waits for its judgement: its member (its thread's lane), its
    post's object key, and since when (by the Hub's clock, for ``HOLD_BOUND``)."""

    member: str
    card: str
    since: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class _Settled:
    """The ledger record of a decision the concierge did not make, waiting for its write."""

    decision: str
    brain: str
    rationale: str
    member: str | None
    record_id: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Undone:
    answer: ConciergeAnswer
    outcome: str  # withdrawn_before_delivery | told | marked | rewound


def answer_allowed(
    policy: AnswerPolicy, verdict: Verdict, *, dialog: bool, external: bool = False
) -> bool:
    """May an answer be given on the human's behalf? Pure; the gate's verdict decides.

    A dialog never, a question the careful judgement kept (``verdict.final``: irreversible,
    instructions, a choice with no default) never, under every policy; ``never`` never;
    ``routine`` only a routine verdict. ``always`` lets an external concierge (which brings
    its own answer) answer anything the gate did not find careful; the built-in brains
    answer routine verdicts only, since they have no answer of their own.
    """
    if (
        dialog
        or verdict.final
        or verdict.kind is VerdictKind.IRREVERSIBLE
        or policy is AnswerPolicy.NEVER
    ):
        return False
    if verdict.kind.routine:
        return True
    return policy is AnswerPolicy.ALWAYS and external and verdict.kind not in CAREFUL_ALWAYS


class Concierge:
    """``async with Concierge(hub, settings)``: the feature, registered with the Hub (its
    buttons, ``/concierge``, the reaction that drops stale suggestions, and — enabled — the
    judging subscriber and the before-delivery hold); entering it re-arms the status line
    and judges what a stop left unjudged, leaving it stops the judging."""

    def __init__(self, hub: Host, settings: ConciergeSettings | None = None) -> None:
        self.hub = hub
        self.settings = settings or ConciergeSettings()
        self._offline = OfflineBrain()
        self.brain: Brain = self.settings.brain or self._offline
        self._judging: set[asyncio.Task[None]] = set()
        self._waiting: list[tuple[Asked, bool]] = []  # (question, resumed), arrival order
        self._worker: asyncio.Task[None] | None = None
        # Batches the judging task has taken and finished, and the finish waited for next.
        self._taken = self._finished = 0
        self._batch_done = asyncio.Event()
        # Cards whose first draw waits for their judgement (record id -> its hold): see hold.
        self._held: dict[str, _Hold] = {}
        self._cards: dict[str, datetime] = {}  # the same, by the post's object key -> since
        # Each new question as hold read it (record id -> Asked), until _on_event takes it.
        self._read: dict[str, Asked] = {}
        self._status_timers: set[asyncio.Task[None]] = set()
        # Ledger records of decisions made elsewhere, and the task writing them (see
        # _record_settled); the task is one of _judging, so idle() waits for it too.
        self._settled: list[_Settled] = []
        self._recorder: asyncio.Task[None] | None = None
        # Its suggestions leave with what they were for, in the change that settles it.
        hub.react(ctx.on_published)
        hub.press(ConciergePresses(hub, self))
        hub.command(ConciergeCommand(hub, self))
        if self.settings.enabled:
            hub.subscribe(self._on_event)
            hub.hold_delivery(self)

    async def __aenter__(self) -> Concierge:
        try:
            await self.resume_status()
            await self.resume_judging()
        except BaseException:
            await self.aclose()  # the timers and judgements already started
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    @property
    def brain_name(self) -> str:
        return str(getattr(self.brain, "name", type(self.brain).__name__))

    # the policy -----------------------------------------------------------------------------
    async def policy(self) -> ConciergePolicy:
        store = self.hub.store
        return ctx.policy_from(
            await store.setting(ctx.ANSWER_KEY),
            await store.setting(ctx.ACT_KEY),
            start=self.settings.start,
        )

    async def set_policy(
        self, *, actor: str, answer: str | None = None, act: str | None = None
    ) -> ConciergePolicy:
        """The owner sets the policy (the caller checked it is the owner); kept in the store."""
        chosen = _answer_policy(answer) if answer is not None else None
        acting = _act(act) if act is not None else None

        def write(ch: Change) -> ConciergePolicy:
            if chosen is not None:
                ch.tx.set_setting(ctx.ANSWER_KEY, chosen.value)
            if acting is not None:
                ch.tx.set_setting(ctx.ACT_KEY, "on" if acting else "off")
            policy = ctx.policy_in(ch.tx, self.settings.start)
            ch.audit("concierge:policy", "allowed", actor=actor, policy=policy.describe())
            ch.tx.add_ledger(
                ctx.ledger_entry(
                    ch,
                    decision="policy",
                    policy=policy,
                    brain="owner",
                    rationale=policy.describe(),
                    actor=actor,
                )
            )
            return policy

        return await self.hub.change(write)

    # judging, after the commit --------------------------------------------------------------
    def hold(self, events: Sequence[DomainEvent]) -> frozenset[str]:
        """The members whose thread lanes the Hub should not wake for this commit: called
        after the commit of a change that published ``events``, before its outbox wake.

        A new card the concierge judges without I/O (the offline brain, a question no
        fleet fact can change) is first drawn with its suggestion: its post is held back
        (:meth:`holds`: whatever wakes its lane — the outbox's poll, a crew change's look,
        a later entry of the thread — the outbox leaves the post at the lane's head) until
        the judgement is written (that commit queues the redraw there, which the post then
        covers) or fails, and :meth:`_release` wakes the lane, or ``HOLD_BOUND`` passes
        (the outbox's poll then draws it). Nothing waits on the concierge inside the
        change, nor does a reply (``unhold``): only a card nobody waits for comes one
        commit later, instead of being drawn twice. A reply told ``queued`` at once (a busy
        outbox) does not wait for its card either, so its card stays held too.
        """
        if not self.settings.enabled:
            return frozenset()
        held: set[str] = set()
        for event in events:
            match event:
                case EscalationRecorded():
                    asked: Asked | None = Asked.of_escalation(event.escalation)
                case QuestionRaised():
                    asked = Asked.of_question(event.question)
                case _:
                    continue
            if asked is None:
                continue
            self._read[asked.id] = asked
            if self._judged_offline(asked):
                since = self.hub.clock.now()
                hold = _Hold(member=asked.member, card=f"row:{asked.row_id}", since=since)
                self._held[asked.id] = hold
                self._cards[hold.card] = since
                held.add(asked.member)
        return frozenset(held)

    def holds(self, object_key: str) -> bool:
        """Whether the post of ``object_key`` is held back for its judgement (the outbox
        asks at its lane's head): until the judgement's write or failure releases it, or
        ``HOLD_BOUND`` has passed by the Hub's clock since its card was recorded."""
        since = self._cards.get(object_key)
        return since is not None and self.hub.clock.now() - since < HOLD_BOUND

    def unhold(self, record_id: str) -> None:
        """Release the held card of ``record_id`` and wake its lane now: a reply is about
        to wait for its card's post, and a reply never waits for the concierge (the card is
        then redrawn with its suggestion, unless the judgement lands before it is drawn)."""
        hold = self._held.pop(record_id, None)
        if hold is not None:
            self._cards.pop(hold.card, None)
            self.hub.wake_lanes({hold.member})

    def _judged_offline(self, asked: Asked) -> bool:
        """Judged without I/O: by the offline brain, needing no fleet facts."""
        if not isinstance(self.brain, OfflineBrain):
            return False  # an outside brain drafts from the facts, and takes its time
        try:
            return not needs_facts(asked.text, options=asked.options, default=asked.default)
        except Exception:  # judged (and its failure logged) with the facts, like any other
            return False

    def _release(self, judged: Sequence[Asked]) -> None:
        """Release the held cards of ``judged`` (written, or failed) and wake their lanes,
        every one, after the hold is gone: a drain that stopped at a held card has ended,
        so only a wake starts its lane again, and waking a lane whose drain still runs
        costs nothing (that drain reads its head again, and finds the card released). The
        write's own commit may have woken a lane before the release: not counted on."""
        lanes: set[str] = set()
        for asked in judged:
            hold = self._held.pop(asked.id, None)
            if hold is not None:
                self._cards.pop(hold.card, None)
                lanes.add(hold.member)
        if lanes:
            self.hub.wake_lanes(lanes)

    async def _on_event(self, event: DomainEvent) -> None:
        asked: Asked | None = None
        match event:
            case EscalationRecorded():
                asked = self._read.pop(event.escalation.id, None) or Asked.of_escalation(
                    event.escalation
                )
            case QuestionRaised():
                asked = self._read.pop(event.question.id, None) or Asked.of_question(event.question)
            case EscalationSettled() | QuestionSettled():
                self._record_settled(event)
        if asked is not None:
            self._start_judging(asked)

    def _start_judging(self, asked: Asked, *, resumed: bool = False) -> None:
        """Queue ``asked`` for the judging task (started when none runs)."""
        self._waiting.append((asked, resumed))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._judge_waiting(), name="concierge-judging")
            self._judging.add(self._worker)
            self._worker.add_done_callback(self._judged)

    async def _judge_waiting(self) -> None:
        """Judge what waits, a batch at a time, until nothing does (the task then ends: no
        check of the queue can be missed, since none awaits between it and the end)."""
        while self._waiting:
            batch, self._waiting = self._waiting, []
            self._taken += 1
            try:
                await self._judge_batch(batch)
            except Exception:  # logged; the questions queued after it are still judged
                log.exception("the concierge failed on a question")
            finally:
                self._finished += 1
                done, self._batch_done = self._batch_done, asyncio.Event()
                done.set()

    async def resume_judging(self) -> None:
        """At start: judge the open records whose judgement a stop or a crash cut short (the
        ledger holds none of the concierge's decisions about them). They are read and
        judged a page at a time in the background, so a start holds a page of them, not
        every open record (a million pending windows are a million records)."""
        if not self.settings.enabled:
            return
        # The lemmatiser's dictionary is read once, off the loop, before any question is.
        await asyncio.to_thread(preload)
        task = asyncio.create_task(self._resume(self.hub.clock.now()), name="concierge-resume")
        self._judging.add(task)
        task.add_done_callback(self._judged)

    async def _resume(self, started: datetime) -> None:
        # Records made since the start are judged as they come; only older ones are resumed.
        store = self.hub.store
        after = ""
        while True:
            escalations, after = await store.unjudged_escalations(after=after, limit=RESUME_PAGE)
            await self._judge_resumed(
                [Asked.of_escalation(e) for e in escalations if e.created_at <= started]
            )
            if not after:
                break
        while True:
            questions, after = await store.unjudged_questions(after=after, limit=RESUME_PAGE)
            await self._judge_resumed(
                [a for q in questions if q.created_at <= started and (a := Asked.of_question(q))]
            )
            if not after:
                break

    async def _judge_resumed(self, page: list[Asked]) -> None:
        """Queue ``page`` and wait until the judging task has finished the batch taking it."""
        if not page:
            return
        for asked in page:
            self._start_judging(asked, resumed=True)
        taking = self._taken + 1  # the next batch taken off the queue holds the page
        while self._finished < taking:
            await self._batch_done.wait()

    def _record_settled(self, event: EscalationSettled | QuestionSettled) -> None:
        """Queue the ledger record of a decision the concierge did not make: the human's
        answer, a window closing, a retraction (its own answers were recorded when given).
        The domain-event task never waits for its write: new questions reach the judging
        behind it at once, and a card held for its judgement is not kept waiting."""
        member: str | None
        if isinstance(event, EscalationSettled):
            record_id, member = event.escalation.id, event.escalation.member
            state, by = event.escalation.state.value, event.escalation.answered_by
            via = event.escalation.answered_via
        else:
            record_id, member = event.question.id, event.question.member
            state, by, via = event.question.state.value, event.question.answered_by, None
        if by is AnsweredBy.CONCIERGE:
            # Its answer is on the roster (the answer's change republished it) for a minute.
            self._clear_status_at(self.hub.clock.now() + STATUS_FOR)
            return
        if state in ("pending", "waiting"):
            return
        decision = "human" if state == "answered" else state
        how = f" via {via.value}" if via else ""
        self._settled.append(
            _Settled(
                decision=decision,
                brain="human" if decision == "human" else "crewline",
                rationale=f"{state}{how}",
                member=member,
                record_id=record_id,
            )
        )
        if self._recorder is None or self._recorder.done():
            self._recorder = asyncio.create_task(self._write_settled(), name="concierge-ledger")
            self._judging.add(self._recorder)
            self._recorder.add_done_callback(self._judged)

    async def _write_settled(self) -> None:
        """Write the queued ledger records, all those waiting in one change, until none wait
        (the task then ends: nothing awaits between the last check and the end)."""
        while self._settled:
            batch, self._settled = self._settled, []

            def write(ch: Change, batch: list[_Settled] = batch) -> None:
                policy = ctx.policy_in(ch.tx, self.settings.start)
                for settled in batch:
                    ch.tx.add_ledger(
                        ctx.ledger_entry(
                            ch,
                            decision=settled.decision,
                            policy=policy,
                            brain=settled.brain,
                            rationale=settled.rationale,
                            member=settled.member,
                            record_id=settled.record_id,
                        )
                    )

            try:
                # Lazy: nobody waits for the ledger; it shares the next change's commit
                # (the agent's next escalation, mostly) rather than start one of its own
                # that change would queue behind.
                await self.hub.change(write, lazy=True)
            except Exception:  # logged; the records queued after them are still written
                log.exception("the concierge's ledger lost %d records", len(batch))

    # the status line: an answer shows on the roster for a minute ----------------------------
    async def resume_status(self) -> None:
        """At start: answers given within the last minute leave the roster when it is over."""
        now = self.hub.clock.now()
        for answer in await self.hub.store.concierge_answers():
            if answer.undone_at is None and now - STATUS_FOR < answer.at <= now:
                self._clear_status_at(answer.at + STATUS_FOR)

    def _clear_status_at(self, when: datetime) -> None:
        """Republish the roster once the hub's clock reads ``when`` (the roster drops an
        answer older than a minute by itself: only the redraw needs a timer)."""

        async def clear() -> None:
            await self.hub.clock.sleep_until(when)
            await self.hub.change(lambda ch: ch.roster())

        task = asyncio.create_task(clear(), name="concierge-status")
        self._status_timers.add(task)
        task.add_done_callback(self._status_cleared)

    def _status_cleared(self, task: asyncio.Task[None]) -> None:
        self._status_timers.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("the roster could not be redrawn", exc_info=task.exception())

    async def aclose(self) -> None:
        """Stop the status timers and the judgements under way (a restart re-arms the
        timers and judges again what has no judgement in the ledger)."""
        self._waiting.clear()
        self._settled.clear()
        self._held.clear()
        self._cards.clear()
        self._read.clear()
        stopping = [*self._status_timers, *self._judging]
        for task in stopping:
            task.cancel()
        await asyncio.gather(*stopping, return_exceptions=True)

    def _judged(self, task: asyncio.Task[None]) -> None:
        self._judging.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("the concierge failed on a question", exc_info=task.exception())

    async def idle(self) -> None:
        """Wait until every question published so far has been judged and written."""
        while True:
            await self.hub.drain()
            if not self._judging:
                return
            await asyncio.gather(*list(self._judging), return_exceptions=True)

    async def facts(self, member: str, question: str) -> list[Fact]:
        """Fleet retrieval: what other members said that bears on ``question`` — and the
        rows that take one of those rows' values back ("the nightly starts at 02:00, not
        01:30 anymore"), which may name the thing in words the question does not use: a
        value retracted is found by the value itself. The other members, by slug and name,
        let the request name one by what it does ("the migration": the migrator's rows)."""
        store = self.hub.store
        others = [(m.slug, m.name) for m in await store.members() if m.slug != member]
        terms = search_terms(question, members=others)
        if not terms:
            return []
        found = [
            _fact(r) for r in await store.fleet_rows(list(terms), excluding=member, limit=FACTS)
        ]
        values = retraction_terms(found)
        if not values:
            return found
        seen = {f.row_id for f in found}
        more = await store.fleet_rows(list(values), excluding=member, limit=FACTS)
        return found + [_fact(r) for r in more if r.id not in seen and retracts(r.text, values)]

    async def _judge_batch(self, batch: list[tuple[Asked, bool]]) -> None:
        """Judge the questions of ``batch`` that need no I/O and write them in one change;
        then the rest likewise, after their fleet reads (a held card's first draw never
        waits for another question's retrieval)."""
        offline: list[tuple[Asked, bool]] = []
        others: list[tuple[Asked, bool]] = []
        for waiting in batch:
            # A held card was found judged offline when it was held (the same pure reading).
            asked = waiting[0]
            held = asked.id in self._held
            (offline if held or self._judged_offline(asked) else others).append(waiting)
        try:
            if offline:
                await self._judge_some(offline, fetch=False)
        finally:
            # Each write released its own cards; what is left failed, or was cut short.
            self._release([a for a, _ in offline])
        if others:
            await self._judge_some(others, fetch=True)

    async def _judge_some(self, batch: list[tuple[Asked, bool]], *, fetch: bool) -> None:
        """Judge each question of ``batch``, then write all the judgements in one change;
        ``fetch``: retrieve fleet facts (else none: they could not change the verdict)."""
        # One fleet read per member and wording, all sent at once: the reader runs them
        # back to back instead of waiting for the loop between two.
        keys = list(dict.fromkeys((asked.member, asked.text) for asked, _ in batch))
        found: list[list[Fact] | BaseException] = (
            await asyncio.gather(
                *(self.facts(member, text) for member, text in keys), return_exceptions=True
            )
            if fetch
            else [[] for _ in keys]
        )
        facts_of = dict(zip(keys, found, strict=True))
        judged: list[_Judged] = []
        for asked, resumed in batch:
            facts = facts_of[(asked.member, asked.text)]
            try:
                if isinstance(facts, BaseException):
                    raise facts
                verdict = judge(
                    asked.text, options=asked.options, default=asked.default, facts=facts
                )
            except Exception:  # one question's failure is not its batch's
                log.exception("the concierge failed on a question")
                continue
            judged.append(
                _Judged(
                    asked=asked,
                    resumed=resumed,
                    facts=tuple(facts),
                    verdict=verdict,
                    draft=None,
                    failure=None,
                )
            )
        if not isinstance(self.brain, OfflineBrain):
            placed = await asyncio.gather(*(self._placed(j) for j in judged))
            judged = [replace(j, verdict=v) for j, v in zip(judged, placed, strict=True)]
        drafts = await self._drafts(judged)
        judged = [
            replace(j, draft=draft, failure=failure)
            for j, (draft, failure) in zip(judged, drafts, strict=True)
        ]
        if not judged:
            return
        try:
            await self._write(judged)
        except Exception:
            if len(judged) == 1:
                raise
            # A write that fails for one question must not lose the others: each alone.
            log.warning("the concierge's batch of %d could not be written together", len(judged))
            for one in judged:
                try:
                    await self._write([one])
                except Exception:
                    log.exception("the concierge failed on a question")

    async def _write(self, judged: list[_Judged]) -> None:
        """One change: each judgement's decision in the order asked, under its member's lock;
        then the held cards it judged are released (their post draws what it wrote)."""

        def decide(ch: Change) -> None:
            # Every member's lock first, in one order, as a member's own change takes its
            # own first: no two transactions can wait for each other.
            for member in sorted({j.asked.member for j in judged}):
                ch.tx.serialize(member)
            policy = ctx.policy_in(ch.tx, self.settings.start)
            batch = ctx.JudgementBatch(ch, [j.asked for j in judged])
            for j in judged:
                # A judgement resumed at start may meet one another replica made meanwhile.
                if j.resumed and batch.judged(j.asked.id):
                    continue
                self._decide(batch, policy, j)
            batch.flush()

        # Lazy unless one of them may answer (an agent waits for that): a suggestion, the
        # ledger and the release of a card nobody waits for (a reply waiting for its card
        # unholds it) may share the commit of the change that comes next, mostly the
        # press's answer, instead of starting one that answer then queues behind.
        lazy = not any(_may_answer(j) for j in judged)
        try:
            await self.hub.change(decide, lazy=lazy)
        except Unavailable:
            # The escalation index was found torn: the change started its rebuild from the
            # transcript. The judgements stand; write them once into the rebuilt index (each
            # decision re-reads its record there, so a record the rebuild settled is stale).
            log.warning(
                "the escalation index was torn; writing the judgement of %s after its repair",
                ", ".join(j.asked.id for j in judged),
            )
            await self.hub.index_repaired()
            await self.hub.change(decide)
        self._release([j.asked for j in judged])

    async def _placed(self, judged: _Judged) -> Verdict:
        """A model's reading of a question the offline path could not place, checked in code
        (``check_placement``); the offline verdict when the model is not asked (a careful
        verdict is final), fails, times out or reads it in a way that does not hold."""
        verdict, asked = judged.verdict, judged.asked
        if verdict.kind.routine or verdict.final or asked.dialog:
            return verdict
        ask = BrainAsk(
            question=asked.text,
            options=asked.options,
            default=asked.default,
            facts=judged.facts,
            member=asked.member,
        )
        try:
            async with asyncio.timeout(self.settings.brain_timeout):
                placement = await self.brain.place(ask)
        except Exception as error:  # a timeout or a brain's failure: the human decides
            log.warning(
                "the concierge's brain could not place a question: %s", type(error).__name__
            )
            return verdict
        if placement is None or placement.kind == "human":
            return verdict
        checked = check_placement(
            asked.text,
            placement,
            options=asked.options,
            default=asked.default,
            facts=judged.facts,
        )
        if not checked.kind.routine:
            return replace(verdict, why=f"{verdict.why}; {checked.why}")
        return checked

    async def _drafts(self, judged: list[_Judged]) -> list[tuple[Draft | None, str | None]]:
        """Each judgement's draft; an outside brain's are asked for at once."""
        if isinstance(self.brain, OfflineBrain):  # immediate: one after the other
            return [await self._draft(j) for j in judged]
        return list(await asyncio.gather(*(self._draft(j) for j in judged)))

    async def _draft(self, judged: _Judged) -> tuple[Draft | None, str | None]:
        """The brain's draft, or (None, why) when it failed: a timeout, an error, garbage.

        When a brain other than the offline one fails, the offline brain still words a
        suggestion, but nothing is answered: the human decides.
        """
        asked, verdict = judged.asked, judged.verdict
        ask = BrainAsk(
            question=asked.text,
            options=asked.options,
            default=asked.default,
            facts=judged.facts,
            member=asked.member,
        )
        failure: str | None = None
        try:
            if isinstance(self.brain, OfflineBrain):  # no I/O: it answers at once, no timer
                draft = await self.brain.draft(ask, verdict)
            else:
                async with asyncio.timeout(self.settings.brain_timeout):
                    draft = await self.brain.draft(ask, verdict)
        except TimeoutError:
            draft, failure = None, "the brain did not answer in time"
        except Exception as error:  # a brain is outside code: its failure is the human's turn
            log.warning("the concierge's brain failed: %s", type(error).__name__)
            draft, failure = None, f"the brain failed ({type(error).__name__})"
        if draft is None and not isinstance(self.brain, OfflineBrain):
            failure = failure or f"the {self.brain_name} brain gave no usable draft"
            return await self._offline.draft(ask, verdict), failure
        return draft, failure

    def _decide(self, batch: ctx.JudgementBatch, policy: ConciergePolicy, judged: _Judged) -> str:
        """One judgement's write, in its batch's change. Returns the decision (the ledger's)."""
        asked, verdict = judged.asked, judged.verdict
        draft, failure = judged.draft, judged.failure
        current = batch.current(asked.id)
        member = batch.member(asked.member)
        text = draft.text if draft is not None else None
        why = draft.why if draft is not None else verdict.why
        brain = self.brain_name if failure is None else f"offline ({self.brain_name} failed)"
        if current is None or member is None:
            decision = "stale"  # answered, closed or gone while it was being judged
        elif (
            text
            and failure is None
            and answer_allowed(policy.answer, verdict, dialog=current.dialog)
        ):
            batch.give_answer(member, current, text=text, why=why, brain=brain)
            decision = "answered"
        elif text:
            batch.suggest(member, current, text=text, why=why, brain=brain)
            decision = "suggested"
        else:
            # No pick (no evidence for one): the card says why the question needs the human.
            batch.suggest(member, current, text="", why=why, brain=brain)
            decision = "escalated"
        batch.ledger(
            ctx.ledger_entry(
                batch.ch,
                decision=decision,
                policy=policy,
                brain=brain,
                rationale=verdict.why + (f"; {failure}" if failure else ""),
                asked=asked,
                verdict=verdict.kind.value,
                evidence=verdict.evidence,
            )
        )
        return decision

    # undo -----------------------------------------------------------------------------------
    async def undo(self, *, actor: str, record_id: str | None = None) -> Undone:
        """Withdraw the last answer not yet undone (or the one given to ``record_id``).

        Raises NotFound(not_found) when there is nothing to undo.
        """
        kept = [a for a in await self.hub.store.concierge_answers() if a.undone_at is None]
        target = next((a for a in kept if record_id in (None, a.record_id)), None)
        if target is None:
            raise NotFound("the concierge has no answer left to undo", code="not_found")

        def write(ch: Change) -> Undone:
            answer = ch.tx.last_concierge_answer(record_id=record_id)
            member = ch.tx.member(target.member)
            if answer is None or member is None:
                raise NotFound("the concierge has no answer left to undo", code="not_found")
            outcome = ctx.withdraw_answer(ch, member, answer)
            policy = ctx.policy_in(ch.tx, self.settings.start)
            ch.audit("concierge:undo", "allowed", actor=actor, member=member.slug, result=outcome)
            ch.tx.add_ledger(
                ctx.ledger_entry(
                    ch,
                    decision="undone",
                    policy=policy,
                    brain="owner",
                    actor=actor,
                    rationale=f"answer {answer.text!r} withdrawn: {outcome}",
                    member=member.slug,
                    record_id=answer.record_id,
                )
            )
            ch.roster()
            return Undone(answer=answer, outcome=outcome)

        return await self.hub.on_member(target.member, lambda: self.hub.change(write))


def _fact(row: Row) -> Fact:
    return Fact(row_id=row.id, member=row.conversation, text=row.text, at=row.created_at)


def _answer_policy(value: str) -> AnswerPolicy:
    try:
        return AnswerPolicy(value.strip().lower())
    except ValueError:
        raise InvalidInput(
            f"answer must be one of never, routine, always; got {value!r}",
            code="invalid_answer_policy",
            allowed=[p.value for p in AnswerPolicy],
        ) from None


def _act(value: str) -> bool:
    if value.strip().lower() not in ("on", "off"):
        raise InvalidInput(
            f"act must be on or off; got {value!r}",
            code="invalid_act_policy",
            allowed=["on", "off"],
        )
    return value.strip().lower() == "on"
