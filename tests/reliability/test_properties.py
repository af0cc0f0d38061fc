"""Property tests: any interleaving of the human's and the clock's acts keeps the index sound.

A hypothesis state machine drives crewline's real core (the Crewline app over the memory
transport and a FakeClock, as the end-to-end suites do) with escalations, button presses
(current, stale and another member's), typed replies, platform redeliveries, deadlines,
the concierge's answers and undos, the session reading its events, and rewinds, from the
owner and from a stranger. After every step it checks the invariants of issue 16 item 6:

- at most one answer per record: no record has two live answers in its transcript, and
  its session never hears it settled twice without a reopening in between;
- answers in arrival order: the session hears the human's answers in the order the human
  gave them;
- only the owner answers: a stranger's act changes neither the index nor the transcript;
- a settled record never reopens except by a rewind or an undo;
- the index is what reconciliation derives from the transcript (reconciling changes
  nothing).

Sizes: a few examples in CI; ``CREWLINE_RELIABILITY=full`` runs many more and longer ones.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from crewline.config import Config
from crewline.models import AnsweredBy, Escalation, Event, Receipt, RowRole
from crewline.testing import FakeClock
from crewline.transports.base import DeliveryLimits
from tests.bounds import WAIT
from tests.driver import Crew
from tests.harness import MemoryHarness

FULL = os.environ.get("CREWLINE_RELIABILITY") == "full"
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600 if FULL else 240)]

OWNER = "alice"
STRANGER = "mallory"
MEMBERS = ("radar", "probe")
ROUTINE = "Shall I proceed with the plan?"  # the concierge may answer it under `routine`
CAREFUL = "Force-push to main?"  # never answered by the concierge
OPTIONS = ((), ("yes", "no"), ("ok",))
TYPED = ("yes", "no", "ok", "Yes ", "sure, go ahead")
SETTLING = frozenset({"escalation_answered", "window_closed"})
RARELY = st.integers(0, 3).map(lambda n: n == 0)  # a stranger's act, another thread


class Interleavings(RuleBasedStateMachine):
    """One crewline, two stateless members, one owner and a stranger, all on memory."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.data = Path(tempfile.mkdtemp(prefix="crewline-props-"))
        self.clock = FakeClock()
        # The roster redrawn at once (a local push), so each step settles without a wait.
        self.harness = MemoryHarness(limits=DeliveryLimits(roster_interval=0))
        self.crew = Crew(
            Config(data_dir=self.data / "data", port=0, transports=()), self.clock, [self.harness]
        )
        self.keys: dict[str, str] = {}
        self.records: list[str] = []  # escalation ids, in the order they were raised
        self.payloads: list[tuple[str, str]] = []  # (member, payload) of every button shown
        self.sent: list[tuple[str, Any]] = []  # redeliverable events: (kind, arguments)
        self.answered_in_order: list[str] = []  # records the owner answered, in arrival order
        self.run(self._start())

    def run(self, work: Any) -> Any:
        # Beyond the driver's own bound (WAIT), so a stuck request reports as itself.
        return self.loop.run_until_complete(asyncio.wait_for(work, timeout=WAIT * 2))

    async def _start(self) -> None:
        await self.crew.start()
        for slug in MEMBERS:
            self.keys[slug] = await self.crew.add_member(slug, slug.title(), stateless=True)
        await self._settle()

    def teardown(self) -> None:
        try:
            self.run(self.crew.stop())
        finally:
            self.loop.close()
            shutil.rmtree(self.data, ignore_errors=True)

    # helpers ------------------------------------------------------------------------------
    @property
    def memory(self) -> Any:
        return self.harness.memory

    async def _settle(self) -> None:
        """The concierge has judged what it started and every outbox is drained."""
        await self.crew.crewline.bot.concierge.idle()
        await self.crew.delivered()
        for slug in MEMBERS:
            for message in self.memory.thread_messages(slug):
                for button in message.current.buttons:
                    if (slug, button.payload) not in self.payloads:
                        self.payloads.append((slug, button.payload))

    async def _index(self) -> dict[str, Escalation]:
        store = self.crew.crewline.store
        return {e.id: e for slug in MEMBERS for e in await store.escalations(slug)}

    async def _snapshot(self) -> tuple[Any, ...]:
        store = self.crew.crewline.store
        index = await self._index()
        rows = [tuple(r.id for r in await store.live_rows(slug)) for slug in MEMBERS]
        return (tuple(sorted((i, e.state, e.answer_row_id) for i, e in index.items())), *rows)

    async def _act(self, work: Any, *, by: str, reopens: bool = False) -> Receipt | None:
        """Run one act; check what only the owner may do and what may reopen a record."""
        before_index = await self._index()
        before = await self._snapshot()
        receipt: Receipt | None = await work
        await self._settle()
        if by == STRANGER:
            assert await self._snapshot() == before, "a stranger's act changed the index"
        after = await self._index()
        reopened = [
            i for i, e in after.items() if e.is_pending and i in before_index
            and not before_index[i].is_pending
        ]  # fmt: skip
        assert reopens or not reopened, f"settled records reopened: {reopened}"
        for i, e in after.items():  # what the run covered (--hypothesis-show-statistics)
            if i in before_index and e.state is not before_index[i].state:
                event(f"{before_index[i].state.value} -> {e.state.value}")
        answered = [
            i for i, e in after.items() if e.answered_by is AnsweredBy.USER
            and i in before_index and before_index[i].is_pending
        ]  # fmt: skip
        assert len(answered) <= 1, f"one act answered {answered}"
        self.answered_in_order.extend(answered)
        return receipt

    # rules --------------------------------------------------------------------------------
    @initialize(
        routine=st.booleans(),
        first=st.sampled_from(OPTIONS),
        second=st.sampled_from(OPTIONS),
        policy=st.sampled_from(("never", "routine")),
    )
    def open_records(
        self, routine: bool, first: tuple[str, ...], second: tuple[str, ...], policy: str
    ) -> None:
        """Each run starts with records to act on: two for radar, one for probe."""
        self.concierge_policy(policy)
        self.escalate("radar", routine, first, None, False)
        self.escalate("radar", False, second, 3, True)
        self.escalate("probe", routine, first, 1, False)

    @rule(
        member=st.sampled_from(MEMBERS),
        routine=st.booleans(),
        options=st.sampled_from(OPTIONS),
        deadline=st.sampled_from((None, 1, 3)),
        default=st.booleans(),
    )
    def escalate(
        self, member: str, routine: bool, options: tuple[str, ...], deadline: int | None,
        default: bool,
    ) -> None:  # fmt: skip
        body: dict[str, Any] = {"message": ROUTINE if routine else CAREFUL}
        if options:
            body["options"] = list(options)
        if deadline is not None:
            body["deadline"] = f"PT{deadline}M"
            if default:
                body["default_action"] = "go on"

        async def raise_it() -> None:
            result = await self.crew.escalate(self.keys[member], **body)
            self.records.append(result["escalation_id"])

        self.run(self._act(raise_it(), by=OWNER))

    @rule(data=st.data(), stranger=RARELY, cross=RARELY)
    def press(self, data: st.DataObject, stranger: bool, cross: bool) -> None:
        """A button as drawn now, or as drawn once (a stale or settled card's); at times in
        another member's thread."""
        shown = [
            (m, b.payload) for m in MEMBERS for c in self.memory.thread_messages(m)
            for b in c.current.buttons
        ]  # fmt: skip
        pool = shown if shown and data.draw(st.booleans()) else self.payloads
        if not pool:
            return
        member, payload = data.draw(st.sampled_from(pool))
        thread = next(m for m in MEMBERS if m != member) if cross else member
        by = STRANGER if stranger else OWNER
        event_id = f"press-{len(self.sent)}"
        self.sent.append(("press", (by, thread, payload, event_id)))
        # Undo is the concierge's withdrawal: the one press that may reopen a record.
        self.run(
            self._act(
                self.memory.press_payload(
                    by, self.memory.threads.get(thread), payload, event_id=event_id
                ),
                by=by,
                reopens=payload.startswith("c:") and not stranger,
            )
        )

    @rule(member=st.sampled_from(MEMBERS), text=st.sampled_from(TYPED), stranger=RARELY)
    def say(self, member: str, text: str, stranger: bool) -> None:
        by = STRANGER if stranger else OWNER
        event_id = f"say-{len(self.sent)}"
        self.sent.append(("say", (by, member, text, event_id)))
        self.run(self._act(self.memory.say(by, member, text, event_id=event_id), by=by))

    @rule(data=st.data())
    def redeliver(self, data: st.DataObject) -> None:
        """The platform delivers an earlier event again: nothing changes."""
        if not self.sent:
            return
        kind, args = data.draw(st.sampled_from(self.sent))

        async def again() -> Receipt:
            before = await self._snapshot()
            if kind == "press":
                by, thread, payload, event_id = args
                receipt: Receipt = await self.memory.press_payload(
                    by, self.memory.threads.get(thread), payload, event_id=event_id
                )
            else:
                by, member, text, event_id = args
                receipt = await self.memory.say(by, member, text, event_id=event_id)
            await self._settle()
            assert await self._snapshot() == before, f"a redelivered {kind} changed the index"
            return receipt

        self.run(again())

    @rule(minutes=st.integers(min_value=1, max_value=4))
    def time_passes(self, minutes: int) -> None:
        async def tick() -> None:
            self.clock.advance(timedelta(minutes=minutes))
            await self.crew.crewline.bot.escalations.close_due_windows()

        self.run(self._act(tick(), by=OWNER))

    @rule(policy=st.sampled_from(("never", "routine", "always")))
    def concierge_policy(self, policy: str) -> None:
        self.run(self._act(self.memory.command(OWNER, "concierge", "answer", policy), by=OWNER))

    @rule(stranger=RARELY)
    def undo(self, stranger: bool) -> None:
        by = STRANGER if stranger else OWNER
        self.run(
            self._act(self.memory.command(by, "concierge", "undo"), by=by, reopens=not stranger)
        )

    @rule(member=st.sampled_from(MEMBERS))
    def session_reads(self, member: str) -> None:
        """The member's session reads its events (an undo after this tells it instead)."""
        self.run(self.crew.events(self.keys[member]))

    @rule(member=st.sampled_from(MEMBERS), data=st.data(), stranger=RARELY)
    def rewind(self, member: str, data: st.DataObject, stranger: bool) -> None:
        shown = [m.ref for m in self.memory.thread_messages(member) if not m.rewound]
        if not shown:
            return
        ref = data.draw(st.sampled_from(shown))
        by = STRANGER if stranger else OWNER
        self.run(
            self._act(
                self.memory.command(by, "rewind", member=member, message_ref=ref),
                by=by,
                reopens=not stranger,
            )
        )

    # invariants ---------------------------------------------------------------------------
    @invariant()
    def the_index_is_sound(self) -> None:
        self.run(self._check())

    async def _check(self) -> None:
        crewline = self.crew.crewline
        store = crewline.store
        for slug in MEMBERS:
            report = await crewline.bot.escalations.reconcile(slug)
            assert not report.changed, f"the index differs from the transcript: {report}"
            # At most one live answer per record in the transcript.
            answers: dict[str, list[str]] = {}
            withdrawn: set[str] = set()
            for row in await store.live_rows(slug):
                meta = row.meta
                if row.role is RowRole.HUMAN and meta.get("escalation_id"):
                    answers.setdefault(meta["escalation_id"], []).append(row.id)
                elif row.role is RowRole.SYSTEM and meta.get("concierge_answer"):
                    answers.setdefault(meta.get("escalation_id", ""), []).append(row.id)
                elif row.role is RowRole.SYSTEM and meta.get("withdrawn_answer"):
                    withdrawn.add(meta["withdrawn_answer"])
            for record, rows in answers.items():
                live = [r for r in rows if r not in withdrawn]
                assert len(live) <= 1, f"{record} has {len(live)} live answers"
        # Each session hears a record settled at most once per opening, and the human's
        # answers in the order given (a rewind may take back an answer not yet delivered).
        index = await self._index()
        for session in {e.session for e in index.values()}:
            state: dict[str, str] = {}
            heard: list[str] = []
            stream = await store.events_after(session, 0, limit=10_000)
            for said in stream:
                record = said.body.get("escalation_id")
                if record is None:
                    continue
                was = state.get(record, "open")
                if said.kind in SETTLING:
                    assert was == "open", (record, _told(stream, record))
                    state[record] = "settled"
                    by_user = said.body.get("by") == "user"
                    if said.kind == "escalation_answered" and by_user:
                        heard.append(record)
                elif said.kind == "escalation_retracted":
                    # A rewind that takes the card away retracts it, settled or not.
                    assert was != "retracted", f"{record} retracted twice"
                    state[record] = "retracted"
                elif said.kind == "escalation_reopened":
                    assert was == "settled", (record, _told(stream, record))
                    state[record] = "open"
                elif said.kind == "concierge_answer_withdrawn":
                    # An undo reopens the record (one event) and says why (the next one).
                    said_before = stream[stream.index(said) - 1]
                    undone_now = said_before.kind == "escalation_reopened" and (
                        said_before.body.get("escalation_id") == record
                    )
                    assert was == "settled" or undone_now, (record, _told(stream, record))
                    state[record] = "open"
            given = [r for r in self.answered_in_order if index[r].session == session]
            assert _in_order(heard, given), f"heard {heard}, answered {given}"


def _told(stream: list[Event], record: str) -> list[tuple[str, object]]:
    """What a session was told about one record, for a failure's message."""
    return [(e.kind, e.body.get("by")) for e in stream if e.body.get("escalation_id") == record]


def _in_order(heard: list[str], given: list[str]) -> bool:
    """Whether ``heard`` is ``given`` with some left out, in the same order."""
    rest = iter(given)
    return all(any(r == g for g in rest) for r in heard)


Interleavings.TestCase.settings = settings(
    max_examples=150 if FULL else 10,
    stateful_step_count=40 if FULL else 20,
    deadline=None,
    database=None,
    # Shrinking restarts crewline for every try and can take many minutes: CI reports the
    # failing run as found; the full run shrinks it.
    phases=tuple(Phase) if FULL else (Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_any_interleaving_keeps_the_index_sound = Interleavings.TestCase
