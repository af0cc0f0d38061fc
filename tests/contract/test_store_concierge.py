"""The Store contract's concierge part: suggestions, answers, the ledger, fleet retrieval."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from crewline.errors import Conflict
from crewline.models import (
    JUDGEMENTS,
    ConciergeAnswer,
    Escalation,
    EscalationState,
    LedgerEntry,
    Member,
    Question,
    RowRole,
    Suggestion,
)
from crewline.policy import search_terms
from crewline.store import CardRead, Store, Tx
from tests.contract.test_store_contract import NOW, _member


def _suggestion(record_id: str = "a" * 16, text: str = "yes") -> Suggestion:
    return Suggestion(record_id=record_id, member="radar", text=text, why="w", brain="b", at=NOW)


def _answer(n: int) -> ConciergeAnswer:
    return ConciergeAnswer(
        id=0,
        at=NOW + timedelta(seconds=n),
        member="radar",
        record_id=f"{n:016x}",
        record_kind="escalation",
        session="s1",
        text=f"answer {n}",
        why="routine",
        row_id=f"row{n}",
        event_cursor=n,
    )


async def test_a_new_suggestion_replaces_the_old_and_clears_its_dismissal(store: Store) -> None:
    """put_suggestion replaces; dismiss hides until the next; drop forgets."""
    await _member(store)
    await store.write(lambda tx: tx.put_suggestion(_suggestion()))
    assert await store.write(lambda tx: tx.dismiss_suggestion("a" * 16)) is True
    dismissed = await store.suggestion("a" * 16)
    assert dismissed is not None and dismissed.dismissed
    await store.write(lambda tx: tx.put_suggestion(_suggestion(text="no")))
    assert await store.suggestion("a" * 16) == _suggestion(text="no")
    assert await store.write(lambda tx: tx.suggestion("a" * 16)) == _suggestion(text="no")
    assert await store.write(lambda tx: tx.drop_suggestion("a" * 16)) is True
    assert await store.suggestion("a" * 16) is None
    assert await store.write(lambda tx: tx.dismiss_suggestion("a" * 16)) is False


async def test_suggestions_go_with_their_member(store: Store) -> None:
    """drop_member_suggestions forgets them all; a suggestion for no member is refused;
    removing the member removes its suggestions."""
    await _member(store)
    await store.write(lambda tx: tx.put_suggestion(_suggestion("a" * 16)))
    await store.write(lambda tx: tx.put_suggestion(_suggestion("b" * 16)))
    dropped = await store.write(lambda tx: tx.drop_member_suggestions("radar"))
    assert dropped == ["a" * 16, "b" * 16]
    with pytest.raises(Conflict):
        await store.write(lambda tx: tx.put_suggestion(replace(_suggestion(), member="ghost")))
    await store.write(lambda tx: tx.put_suggestion(_suggestion("c" * 16)))
    assert await store.write(lambda tx: tx.remove_member("radar")) is True
    assert await store.suggestion("c" * 16) is None


async def test_suggestions_put_together_are_stored_in_order(store: Store) -> None:
    """put_suggestions stores each, a later one for the same record replacing an earlier;
    one for no member is refused as put_suggestion refuses it."""
    await _member(store)
    none_before = await store.suggestion("a" * 16)
    assert none_before is None
    await store.write(lambda tx: tx.put_suggestions([]))
    await store.write(lambda tx: tx.dismiss_suggestion("a" * 16))
    await store.write(
        lambda tx: tx.put_suggestions(
            [_suggestion("a" * 16, "yes"), _suggestion("b" * 16, "later"), _suggestion("a" * 16)]
        )
    )
    assert await store.suggestion("a" * 16) == _suggestion("a" * 16)
    assert await store.suggestion("b" * 16) == _suggestion("b" * 16, "later")
    assert await store.write(lambda tx: tx.dismiss_suggestion("b" * 16)) is True
    await store.write(lambda tx: tx.put_suggestions([_suggestion("b" * 16, "no")]))
    assert await store.suggestion("b" * 16) == _suggestion("b" * 16, "no")  # not dismissed
    ghost = replace(_suggestion("c" * 16), member="ghost")
    with pytest.raises(Conflict) as refused:
        await store.write(lambda tx: tx.put_suggestions([_suggestion("d" * 16), ghost]))
    assert "ghost" in str(refused.value)
    assert await store.suggestion("d" * 16) is None  # the refused transaction wrote nothing


def _escalation(n: int, state: EscalationState) -> Escalation:
    """Radar's escalation number ``n`` (its id ``n`` in hex, so ids sort by ``n``)."""
    return Escalation(
        id=f"{n:016x}",
        member="radar",
        row_id=f"r{n}",
        session="s1",
        message=f"Ship {n}?",
        options=("yes", "no"),
        state=state,
        created_at=NOW,
    )


async def test_members_and_records_read_together_are_those_read_one_by_one(
    store: Store,
) -> None:
    """members_by_slug and escalation_states give what member and escalation give (an
    escalation's state) for each name that exists, and leave out the others."""
    radar = await _member(store)
    probe = replace(radar, slug="probe", name="Probe", transports=("slack", "memory", "discord"))
    await store.write(lambda tx: tx.add_member(probe, NOW))
    records = [
        _escalation(n, EscalationState.PENDING if n else EscalationState.ANSWERED) for n in range(3)
    ]

    def put(tx: Tx) -> None:
        for record in records:
            tx.put_escalation(record)

    await store.write(put)

    def read(
        tx: Tx,
    ) -> tuple[
        list[Member], list[Member | None], dict[str, EscalationState], list[Escalation | None]
    ]:
        return (
            tx.members_by_slug(["probe", "ghost", "radar", "probe"]),
            [tx.member(slug) for slug in ("probe", "radar")],
            tx.escalation_states([f"{n:016x}" for n in (2, 9, 0, 1, 2)]),
            [tx.escalation(f"{n:016x}") for n in range(3)],
        )

    members, one_by_one, states, each = await store.write(read)
    assert one_by_one[0] is not None and one_by_one[0].transports == ("discord", "memory", "slack")
    assert sorted(members, key=lambda m: m.slug) == one_by_one
    assert each == records
    assert states == {e.id: e.state for e in records}
    assert set(states.values()) == {EscalationState.PENDING, EscalationState.ANSWERED}
    assert await store.write(lambda tx: (tx.members_by_slug([]), tx.escalation_states([]))) == (
        [],
        {},
    )


async def test_a_card_row_is_read_with_its_member_record_and_suggestion(store: Store) -> None:
    """card_read gives what row, member, escalation and suggestion give one by one: the
    record and suggestion only for an escalation's card row, no member for a conversation
    that is no member's, None for an unknown row."""
    radar = await _member(store)
    probe = replace(radar, slug="probe", name="Probe", transports=("slack", "memory"))
    await store.write(lambda tx: tx.add_member(probe, NOW))
    record = Escalation(
        id="a" * 16,
        member="probe",
        row_id="card1",
        session="s1",
        message="Ship it?",
        options=("yes", "no"),
        created_at=NOW,
    )

    def write(tx: Tx) -> tuple[str, str]:
        tx.append_row(
            conversation="probe",
            role=RowRole.ESCALATION,
            author="Probe",
            text="Ship it?",
            meta={"escalation_id": record.id},
            now=NOW,
            row_id="card1",
            record=record.id,
        )
        tx.put_escalation(record)
        plain = tx.append_row(
            conversation="radar", role=RowRole.MEMBER, author="Radar", text="hi", meta={}, now=NOW
        )
        own = tx.append_row(
            conversation="~s1", role=RowRole.MEMBER, author="s1", text="mine", meta={}, now=NOW
        )
        return plain.id, own.id

    plain, own = await store.write(write)
    card = await store.row("card1")
    assert card is not None
    member = await store.member("probe")
    assert member is not None and member.transports == ("memory", "slack")
    assert await store.card_read("card1") == CardRead(
        row=card, member=member, escalation=record, suggestion=None
    )
    await store.write(lambda tx: tx.put_suggestion(replace(_suggestion(), member="probe")))
    suggestion = await store.suggestion(record.id)
    assert suggestion is not None
    assert await store.card_read("card1") == CardRead(
        row=card, member=member, escalation=record, suggestion=suggestion
    )
    assert await store.card_read(plain) == CardRead(
        row=await store.row(plain), member=radar, escalation=None, suggestion=None
    )
    assert await store.card_read(own) == CardRead(
        row=await store.row(own), member=None, escalation=None, suggestion=None
    )
    assert await store.card_read("nowhere") is None


async def test_only_the_last_twenty_answers_are_kept_and_undo_takes_the_newest(
    store: Store,
) -> None:
    """Answers beyond 20 are forgotten; last_concierge_answer skips the undone ones."""
    for n in range(25):
        await store.write(lambda tx, n=n: tx.add_concierge_answer(_answer(n)))
    kept = await store.concierge_answers()
    assert [a.text for a in kept] == [f"answer {n}" for n in range(24, 4, -1)]
    last = await store.write(lambda tx: tx.last_concierge_answer())
    assert last is not None and last.text == "answer 24"
    await store.write(lambda tx: tx.mark_answer_undone(last.id, NOW))
    before = await store.write(lambda tx: tx.last_concierge_answer())
    assert before is not None and before.text == "answer 23"


async def test_the_ledger_reads_newest_first_with_its_evidence(store: Store) -> None:
    """Every ledger entry keeps its verdict, policy, brain, rationale and evidence."""
    for n in range(3):
        entry = LedgerEntry(
            at=NOW,
            member="radar",
            record_id=f"{n:016x}",
            decision="suggested",
            verdict="proceed",
            policy="never",
            brain="offline",
            rationale=f"r{n}",
            evidence=("row1", "row2"),
        )
        await store.write(lambda tx, e=entry: tx.add_ledger(e))
    entries = await store.ledger(limit=2)
    assert [e.rationale for e in entries] == ["r2", "r1"]
    assert entries[0].evidence == ("row1", "row2")


async def test_ledger_entries_added_together_keep_their_order(store: Store) -> None:
    """add_ledger_entries appends each entry, in order, as add_ledger does one by one."""
    entries = [
        LedgerEntry(
            at=NOW,
            member="radar",
            record_id=f"{n:016x}",
            decision="suggested" if n % 2 else "stale",
            verdict="unknown",
            policy="routine",
            brain="offline",
            rationale=f"r{n}",
            evidence=(f"row{n}",) if n else (),
        )
        for n in range(4)
    ]
    await store.write(lambda tx: tx.add_ledger_entries([]))
    assert await store.ledger() == []
    await store.write(lambda tx: tx.add_ledger_entries(entries[:3]))
    await store.write(lambda tx: tx.add_ledger(entries[3]))
    kept = await store.ledger()
    assert [e.rationale for e in kept] == ["r3", "r2", "r1", "r0"]
    assert [replace(e, id=0) for e in reversed(kept)] == entries
    assert [e.id for e in kept] == sorted((e.id for e in kept), reverse=True)


def _ledger_entry(record_id: str, decision: str) -> LedgerEntry:
    """A ledger row of radar's about ``record_id``: ``decision`` is whose and what."""
    return LedgerEntry(
        at=NOW,
        member="radar",
        record_id=record_id,
        decision=decision,
        verdict=None,
        policy="never",
        brain="offline",
        rationale="r",
    )


async def test_judged_means_a_judgement_of_the_concierges_own(store: Store) -> None:
    """Only the concierge's own decisions count; another record's, or the human's, do not."""

    await store.write(lambda tx: tx.add_ledger(_ledger_entry("a" * 16, "human")))
    await store.write(lambda tx: tx.add_ledger(_ledger_entry("b" * 16, "escalated")))
    judged = await store.write(lambda tx: [tx.judged(r * 16) for r in "abc"])
    assert judged == [False, True, False]
    for decision in JUDGEMENTS:
        await store.write(lambda tx, d=decision: tx.add_ledger(_ledger_entry(d[:16], d)))
        assert await store.write(lambda tx, d=decision: tx.judged(d[:16])) is True


async def test_unjudged_open_records_are_read_by_id_a_page_at_a_time(store: Store) -> None:
    """Open records without a judgement of the concierge's own, by id from ``after``, each
    read examining at most ``limit`` records; a settled record and a judged one leave, one
    with only a human's decision stays."""
    await _member(store)
    escalations = [
        _escalation(n, EscalationState.ANSWERED if n == 4 else EscalationState.PENDING)
        for n in range(1, 7)
    ]
    questions = [
        Question(
            id=f"{n:016x}",
            member=None if n == 9 else "radar",
            session="s1",
            row_id=f"q{n}",
            question=f"Question {n}?",
            options=("a", "b"),
            created_at=NOW,
        )
        for n in (7, 8, 9)
    ]

    def put(tx: Tx) -> None:
        for escalation in escalations:
            tx.put_escalation(escalation)
        for question in questions:
            tx.put_question(question)
        tx.add_ledger(_ledger_entry(f"{2:016x}", "escalated"))
        tx.add_ledger(_ledger_entry(f"{3:016x}", "human"))
        tx.add_ledger(_ledger_entry(f"{8:016x}", "suggested"))

    await store.write(put)
    pages = []
    after = ""
    while True:
        page, after = await store.unjudged_escalations(after=after, limit=2)
        pages.append(([e.id for e in page], after))
        if not after:
            break
    assert pages == [
        ([f"{1:016x}"], f"{2:016x}"),
        ([f"{3:016x}"], f"{4:016x}"),
        ([f"{5:016x}", f"{6:016x}"], f"{6:016x}"),
        ([], ""),
    ]
    first, _ = await store.unjudged_escalations(limit=1)
    assert first == [escalations[0]]
    assert await store.unjudged_questions(limit=10) == ([questions[0]], f"{9:016x}")
    assert await store.unjudged_questions(after=f"{9:016x}", limit=10) == ([], "")


async def test_fleet_rows_find_other_members_words_while_they_are_live(store: Store) -> None:
    """Retrieval finds what another member said, never the asker's own, never rewound rows."""
    await _member(store, "radar")
    await _member(store, "probe")

    def say(tx: Tx) -> tuple[str, str]:
        keep = tx.append_row(
            conversation="probe",
            role=RowRole.MEMBER,
            author="Probe",
            text="Scan done: staging answered on port 4321, not 8080.",
            meta={},
            now=NOW,
        )
        tx.append_row(
            conversation="radar",
            role=RowRole.MEMBER,
            author="Radar",
            text="I wonder which port staging uses",
            meta={},
            now=NOW,
        )
        later = tx.append_row(
            conversation="probe",
            role=RowRole.MEMBER,
            author="Probe",
            text="port 9999 was a mistake",
            meta={},
            now=NOW,
        )
        tx.append_row(
            conversation="probe", role=RowRole.HUMAN, author="h", text="port 1", meta={}, now=NOW
        )
        return keep.id, later.id

    keep, later = await store.write(say)
    found = await store.fleet_rows(["port"], excluding="radar")
    assert sorted(r.id for r in found) == sorted([keep, later])
    await store.write(lambda tx: tx.truncate_conversation("probe", keep_through=keep))
    found = await store.fleet_rows(["port", "staging"], excluding="radar")
    assert [r.id for r in found] == [keep]
    assert found[0].conversation == "probe"
    assert await store.fleet_rows([], excluding="radar") == []
    assert await store.fleet_rows(["", "  "], excluding="radar") == []


async def test_a_withdrawn_event_leaves_the_sessions_stream(store: Store) -> None:
    """withdraw_event removes exactly that event; the setting read sees its own write."""
    cursor = await store.write(lambda tx: tx.add_event("s1", "escalation_answered", {}, NOW))
    assert [e.cursor for e in await store.events_after("s1", 0)] == [cursor]
    assert await store.write(lambda tx: tx.withdraw_event("s1", cursor)) is True
    assert await store.events_after("s1", 0) == []
    assert await store.write(lambda tx: tx.withdraw_event("s1", cursor)) is False

    def set_and_read(tx: Tx) -> str | None:
        tx.set_setting("concierge.answer", "routine")
        return tx.setting("concierge.answer")

    assert await store.write(set_and_read) == "routine"
    assert await store.setting("concierge.answer") == "routine"


FLEET_SAYS = (
    "one",
    "two three",
    "one two",
    "three four one",
    "staging answered at port 4321",
    "created schema v2.1 at https://staging.example.com:4321/x_y",
    "ports are creating",
)


async def _probe_says(store: Store, texts: tuple[str, ...]) -> list[str]:
    """Probe's rows saying ``texts``, in order; returns their ids."""

    def say(tx: Tx) -> list[str]:
        return [
            tx.append_row(
                conversation="probe",
                role=RowRole.MEMBER,
                author="Probe",
                text=text,
                meta={},
                now=NOW,
            ).id
            for text in texts
        ]

    return await store.write(say)


@pytest.mark.parametrize(
    ("terms", "prefix", "found"),
    [
        (["one"], False, {0, 2, 3}),
        (["one", "two three"], False, {0, 1, 2, 3}),
        (["two three"], False, {1}),
        (["one two"], False, {2}),
        (["created"], False, {5, 6}),
        (["sche"], False, set()),
        (["sche"], True, {5}),
        (["creat", "thre"], True, {1, 3, 5, 6}),
        (["port"], False, {4, 6}),
        (["4321"], False, {4, 5}),
        (["staging.example.com"], False, {5}),
        (["x_y"], False, {5}),
        (["one", ""], False, {0, 2, 3}),
        ([""], False, set()),
        (["---"], True, set()),
    ],
)
async def test_fleet_terms_mean_the_same_on_every_store(
    store: Store, terms: list[str], prefix: bool, found: set[int]
) -> None:
    """Any term matches, a term's words in a row, stemmed, punctuation separating words, the
    last word a prefix when asked: the same rows on every store."""
    await _member(store, "radar")
    await _member(store, "probe")

    ids = await _probe_says(store, FLEET_SAYS)
    rows = await store.fleet_rows(terms, excluding="radar", limit=len(ids), prefix=prefix)
    assert {ids.index(r.id) for r in rows} == found


# Rows of a bakery chain's, a hospital lab's and a bank's teams, each beside a near miss
# that shares the question's own words.
ASKED_SAYS = (
    "Bisect done: the burnt loaves came in with revision 9c1e4ab.",
    "The crust timer change merged this morning.",
    "LAB-5120 resolved 11:42, a stuck analyser queue.",
    "LAB-5121 resolved 16:05, label printer jam; LAB-5120 was reopened once.",
    "order feed: StockLevels on :7311, PriceUpdates on :7312.",
    "stock counts are levelled out every night at 02:00",
    "SCA upgraded to 4.2.1 on the sandbox; prod stays on 4.1.8.",
    "the customer authentication flow now asks for a code sent by text",
)


@pytest.mark.parametrize(
    ("question", "answering", "first"),
    [
        # the asked noun's synonym of its kind: "sha" finds the row that says "revision"
        ("sha of the bad change?", 0, False),
        # a name written whole before the question word: the row that says it first
        ("LAB-5120 -- what time was it closed out?", 2, True),
        # two words the row writes as one ("StockLevels")
        ("What port are stock levels published on?", 4, False),
        # a name written in camel case, by its initials ("SCA")
        ("Which release is StrongCustomerAuthentication on?", 6, True),
    ],
)
async def test_a_question_finds_the_row_that_names_its_thing_in_other_words(
    store: Store, question: str, answering: int, first: bool
) -> None:
    """The gate's terms find the row that answers where it names the thing otherwise than
    the question does (and, named whole, before the near miss), on every store."""
    await _member(store, "radar")
    await _member(store, "probe")

    ids = await _probe_says(store, ASKED_SAYS)
    terms = search_terms(question)
    assert terms  # a request for a value
    rows = await store.fleet_rows(list(terms), excluding="radar", limit=len(ids))
    found = [r.id for r in rows]
    assert ids[answering] in found, [r.text for r in rows]
    if first:
        assert found[0] == ids[answering], [r.text for r in rows]


@pytest.mark.parametrize(
    ("term", "found"),
    [
        ("(one", {0, 2, 3}),
        ('"one"', {0, 2, 3}),
        ("one*", {0, 2, 3}),
        ("one OR", set()),
        ("NOT one", set()),
        ('a"b', set()),
        ("NEAR(one two)", set()),
        ("^text:one", set()),
        ("'); DROP TABLE rows; -- one", set()),
    ],
)
async def test_a_term_is_only_words_never_query_syntax(
    store: Store, term: str, found: set[int]
) -> None:
    """Quotes, operators, parentheses and punctuation in a term are words or separators,
    never syntax: no term is refused, and each finds the rows saying its words."""
    await _member(store, "radar")
    await _member(store, "probe")

    ids = await _probe_says(store, FLEET_SAYS)
    rows = await store.fleet_rows([term], excluding="radar", limit=len(ids))
    assert {ids.index(r.id) for r in rows} == found
    assert len(await store.live_rows("probe")) == len(FLEET_SAYS)


ACCENTED_SAYS = (
    "Meet me at the café in Zürich",
    "the cafe ordering service is down",
    "a naïve résumé parser",
    "Zurich office deploy",
    "São Paulo rollout done",
    "L\u2019équipe a fini",  # a typographic apostrophe
)


@pytest.mark.parametrize(
    ("spellings", "prefix", "found"),
    [
        (("café", "cafe", "CAFÉ"), False, {0, 1}),
        (("Zürich", "zurich"), False, {0, 3}),
        (("résumé", "resume"), False, {2}),
        (("naïve", "naive"), False, {2}),
        (("São", "sao"), False, {4}),
        (("équipe", "equipe"), False, {5}),
        (("caf", "cafÉ"), True, {0, 1}),
        (("café in Zürich", "cafe in zurich"), False, {0}),
    ],
)
async def test_accents_are_folded_alike_on_every_store(
    store: Store, spellings: tuple[str, ...], prefix: bool, found: set[int]
) -> None:
    """An accented word and its plain spelling find the same rows, written either way
    (SQLite's unicode61 removes diacritics; PostgreSQL folds through unaccent)."""
    await _member(store, "radar")
    await _member(store, "probe")

    ids = await _probe_says(store, ACCENTED_SAYS)
    for term in spellings:
        rows = await store.fleet_rows([term], excluding="radar", limit=len(ids), prefix=prefix)
        assert {ids.index(r.id) for r in rows} == found, term
    both = await store.fleet_rows(["Zürich", "sao"], excluding="radar", limit=len(ids))
    assert {ids.index(r.id) for r in both} == {0, 3, 4}
