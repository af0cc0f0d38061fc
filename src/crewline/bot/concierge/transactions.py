"""The concierge's transactions: suggest, answer, withdraw, and the ledger record of each.

Synchronous functions over a :class:`Change`, like every transaction: no I/O, no awaits.
The judging that leads to them happened before, off the member's actor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from crewline.bot import escalations, questions
from crewline.bot.changes import Change
from crewline.bot.concierge.asked import ESCALATION, Asked, asked_now, current_asked
from crewline.bot.domain import DomainEvent, EscalationSettled, QuestionSettled, ReplyReached
from crewline.models import (
    AnsweredBy,
    AnsweredVia,
    AnswerPolicy,
    ConciergeAnswer,
    ConciergePolicy,
    EscalationState,
    LedgerEntry,
    Member,
    QuestionState,
    Suggestion,
)
from crewline.store import Tx

__all__ = [
    "ACT_KEY",
    "ANSWER_KEY",
    "JudgementBatch",
    "drop_on_reply",
    "give_answer",
    "ledger_entry",
    "on_published",
    "policy_from",
    "policy_in",
    "redraw_card",
    "suggest",
    "withdraw_answer",
]

ANSWER_KEY = "concierge.answer"
ACT_KEY = "concierge.act"
CONCIERGE = "concierge"


def policy_from(answer: str | None, act: str | None, *, start: ConciergePolicy) -> ConciergePolicy:
    """The policy in force: what the owner set, else the configuration's start."""
    return ConciergePolicy(
        answer=AnswerPolicy(answer) if answer else start.answer,
        act=(act == "on") if act else start.act,
    )


def policy_in(tx: Tx, start: ConciergePolicy) -> ConciergePolicy:
    """The policy in force, as this transaction sees it."""
    return policy_from(tx.setting(ANSWER_KEY), tx.setting(ACT_KEY), start=start)


def ledger_entry(
    ch: Change,
    *,
    decision: str,
    policy: ConciergePolicy,
    brain: str,
    rationale: str,
    asked: Asked | None = None,
    verdict: str | None = None,
    evidence: Sequence[str] = (),
    actor: str | None = None,
    member: str | None = None,
    record_id: str | None = None,
) -> LedgerEntry:
    """The ledger record of one decision, made at the change's time."""
    return LedgerEntry(
        at=ch.now,
        member=asked.member if asked else member,
        record_id=asked.id if asked else record_id,
        decision=decision,
        verdict=verdict,
        policy=policy.answer.value,
        brain=brain,
        rationale=rationale,
        evidence=tuple(evidence),
        actor=actor,
    )


class JudgementBatch:
    """The judgements one change writes, in the order asked, with fewer statements than
    written one by one: the records and members they concern are read at once, at the
    start, and their suggestions, ledger records and card redraws are written together
    (``flush``).

    What the change writes and decides is the same as one judgement after the other, each
    reading and writing as it goes: a suggestion, a ledger record or a redraw is read by
    nothing before it is flushed (``judged`` and ``give_answer``, which read or drop them or
    queue behind them, flush first); only an answer changes records, so once one is given
    in the change every record is read again where the next judgement needs it; and nothing
    here changes a member.
    """

    def __init__(self, ch: Change, asked: Sequence[Asked]) -> None:
        self.ch = ch
        tx = ch.tx
        self._asked = {a.id: a for a in asked}
        # An escalation's question (its words, options, default, session, card) never
        # changes once recorded: only its state does. So the states are all that is read.
        self._states = tx.escalation_states(list(self._asked))
        self._members = {m.slug: m for m in tx.members_by_slug(sorted({a.member for a in asked}))}
        self._read_at_start = True  # no record has changed in this change since
        self._suggestions: list[Suggestion] = []
        self._entries: list[LedgerEntry] = []
        self._redraws: list[tuple[Member, str]] = []
        self._suggested: dict[str, Suggestion] = {}  # by card key: what its redraw shows

    def current(self, record_id: str) -> Asked | None:
        """``current_asked``: the record as it stands, if it still waits for an answer."""
        if not self._read_at_start:
            return current_asked(self.ch.tx, record_id)
        state = self._states.get(record_id)
        if state is None:  # not an escalation: a question, read as it stands
            return asked_now(self.ch.tx, record_id, None)
        if state is not EscalationState.PENDING:
            return None
        asked = self._asked[record_id]
        return asked if asked.kind == ESCALATION else current_asked(self.ch.tx, record_id)

    def member(self, slug: str) -> Member | None:
        return self._members.get(slug)

    def judged(self, record_id: str) -> bool:
        """``Tx.judged``, counting the judgements this change has made so far."""
        self.flush()
        return self.ch.tx.judged(record_id)

    def suggest(self, member: Member, asked: Asked, *, text: str, why: str, brain: str) -> None:
        """``suggest``: the suggestion is stored at the next ``flush``."""
        suggestion = Suggestion(
            record_id=asked.id, member=member.slug, text=text, why=why, brain=brain, at=self.ch.now
        )
        self._suggestions.append(suggestion)
        self._redraws.append((member, _card_key(asked)))
        self._suggested[_card_key(asked)] = suggestion

    def give_answer(
        self, member: Member, asked: Asked, *, text: str, why: str, brain: str
    ) -> ConciergeAnswer:
        """``give_answer``, after what is held back (an answer drops its record's suggestion)."""
        self.flush()
        self._read_at_start = False
        return give_answer(self.ch, member, asked, text=text, why=why, brain=brain)

    def ledger(self, entry: LedgerEntry) -> None:
        """Add ``entry`` to the ledger at the next ``flush``."""
        self._entries.append(entry)

    def flush(self) -> None:
        """Write the suggestions, ledger records and card redraws held back, in the order
        made."""
        suggestions, self._suggestions = self._suggestions, []
        entries, self._entries = self._entries, []
        redraws, self._redraws = self._redraws, []
        suggested, self._suggested = self._suggested, {}
        if suggestions:
            self.ch.tx.put_suggestions(suggestions)
        if entries:
            self.ch.tx.add_ledger_entries(entries)
        if redraws:
            self.ch.redraw(redraws, suggestions=suggested)


def _card_key(asked: Asked) -> str:
    """The outbox's key of the record's card."""
    return f"row:{asked.row_id}"


def redraw_card(ch: Change, member: Member, asked: Asked) -> None:
    ch.redraw([(member, _card_key(asked))])


def on_published(ch: Change, event: DomainEvent) -> None:
    """A suggestion belongs to the question it was made for (SPEC §4), so it is dropped in
    the change that settles or reopens its record, or that brings a reply (anyone's) to the
    member's sessions: registered with the Hub to run inside that change."""
    match event:
        case EscalationSettled():
            ch.tx.drop_suggestion(event.escalation.id)
        case QuestionSettled():
            ch.tx.drop_suggestion(event.question.id)
        case ReplyReached():
            drop_on_reply(ch, event.member)


def drop_on_reply(ch: Change, slug: str) -> None:
    """A reply reached the member's session: its suggestions were for what it waited on."""
    dropped = ch.tx.drop_member_suggestions(slug)
    member = ch.tx.member(slug) if dropped else None  # read only when a card is redrawn
    for record_id in dropped:
        asked = current_asked(ch.tx, record_id)
        if asked is not None and member is not None:
            redraw_card(ch, member, asked)


def suggest(ch: Change, member: Member, asked: Asked, *, text: str, why: str, brain: str) -> None:
    """Store the suggestion for the record (replacing an earlier one) and redraw its card."""
    suggestion = Suggestion(
        record_id=asked.id, member=member.slug, text=text, why=why, brain=brain, at=ch.now
    )
    ch.tx.put_suggestion(suggestion)
    ch.redraw([(member, _card_key(asked))], suggestions={_card_key(asked): suggestion})


def give_answer(
    ch: Change, member: Member, asked: Asked, *, text: str, why: str, brain: str
) -> ConciergeAnswer:
    """Answer on the human's behalf: a reply ``by: concierge`` said in the thread.

    The thread line (a row naming the record, so reconciliation knows the record was
    answered) carries the Undo button; the answer is kept among the last 20 for undo.
    """
    line = ch.system_row(
        member.slug,
        f"concierge answered: {text} — {why}",
        meta={
            "concierge_answer": True,
            f"{asked.kind}_id": asked.id,
            "answer": text,
            "why": why,
            "brain": brain,
            "choice": asked.choice_of(text),
            "by": AnsweredBy.CONCIERGE.value,
            "via": AnsweredVia.CONCIERGE.value,
        },
        author=CONCIERGE,
        record=asked.id if asked.kind == ESCALATION else None,
    )
    if asked.kind == ESCALATION:
        record = ch.tx.escalation(asked.id)
        assert record is not None
        escalations.answer_escalation(
            ch,
            member,
            record,
            text=text,
            choice=asked.choice_of(text),
            by=AnsweredBy.CONCIERGE,
            via=AnsweredVia.CONCIERGE,
            answer_row=line,
        )
    else:
        question = ch.tx.question(asked.id)
        assert question is not None
        questions.answer_question(ch, member, question, answer=text, by=AnsweredBy.CONCIERGE)
    cursor = ch.last_cursor
    ch.show(member, "post", f"row:{line.id}")
    answer = ConciergeAnswer(
        id=0,
        at=ch.now,
        member=member.slug,
        record_id=asked.id,
        record_kind=asked.kind,
        session=asked.session,
        text=text,
        why=why,
        row_id=line.id,
        event_cursor=cursor,
    )
    return replace(answer, id=ch.tx.add_concierge_answer(answer))


def withdraw_answer(ch: Change, member: Member, answer: ConciergeAnswer) -> str:
    """Undo one answer; returns how the session learnt of it: ``withdrawn_before_delivery``,
    ``told`` (a ``concierge_answer_withdrawn`` event), ``marked`` (the session ended) or
    ``rewound`` (a rewind had already taken the answer away).

    Whether the session has read the answer's event is the store's durable record of reads
    (``session_reads``, the webhook's delivered cursor), seen in this same transaction: a
    reader's take of its events is a transaction too, so it either committed before this
    one (the event counts as read) or runs after it (and no longer finds the event). An
    unread event is withdrawn and the record returns to pending with its buttons, as if
    never answered; this holds across restarts.
    """
    ch.tx.mark_answer_undone(answer.id, ch.now)
    ch.show(member, "update", f"row:{answer.row_id}")
    if ch.tx.row(answer.row_id) is None:
        # A rewind took the answer out of the conversation and reopened its record then:
        # nothing is left to withdraw, and the session is not told of it a second time.
        return "rewound"
    if ch.tx.session_ended(answer.session):
        return "marked"
    ch.system_row(
        member.slug,
        "concierge answer withdrawn",
        meta={"silent": True, "withdrawn_answer": answer.row_id, "record": answer.record_id},
        author=CONCIERGE,
        record=answer.record_id if answer.record_kind == ESCALATION else None,
    )
    withdrawn = answer.event_cursor is not None and _unread(ch.tx, answer)
    if withdrawn:
        withdrawn = ch.tx.withdraw_event(answer.session, answer.event_cursor or 0)
    _reopen(ch, member, answer, tell=not withdrawn)
    if withdrawn:
        return "withdrawn_before_delivery"
    ch.event(
        answer.session,
        "concierge_answer_withdrawn",
        {
            f"{answer.record_kind}_id": answer.record_id,
            "answer": answer.text,
            "delivery": "steer" if answer.record_kind == ESCALATION else "reply",
            "text": (
                f"The answer {answer.text!r} came from the concierge, not from your human, and"
                " is withdrawn. Disregard it, undo what you can of what you did on it, and ask"
                " again."
            ),
        },
    )
    return "told"


def _unread(tx: Tx, answer: ConciergeAnswer) -> bool:
    """Has no reader handed the answer's event to its session yet (durably recorded)?"""
    return any(e.cursor == answer.event_cursor for e in tx.unread_events([answer.session]))


def _reopen(ch: Change, member: Member, answer: ConciergeAnswer, *, tell: bool) -> None:
    if answer.record_kind == ESCALATION:
        record = ch.tx.escalation(answer.record_id)
        if record is not None and record.answer_row_id == answer.row_id:
            escalations.reopen(ch, member, record, tell=tell)
        return
    question = ch.tx.question(answer.record_id)
    if question is not None and question.state is QuestionState.ANSWERED:
        questions.reopen(ch, member, question)
